/**
 * Every harness format, once: the `--format` list, the formats whose runs can be narrowed to one
 * benchmark, the parser of each and the rest of what pairbench knows of a format are all read
 * from HARNESSES (harness.ts says what a harness owns). Go's harness is go-harness.ts, the
 * JavaScript ones js-harnesses.ts, pyperf's design pyperf-design.ts; the others, which need no more
 * than a parser, a filter and (Google Benchmark) the flags that size a run, are here.
 */
import { parseBencher } from './bencher.ts';
import { criterionEstimates } from './criterion-estimates.ts';
import { criterionQuick, quickRefused } from './criterion-quick.ts';
import { criterionTrim } from './criterion-trim.ts';
import { parseCatch2 } from './catch2.ts';
import { parseCriterion } from './criterion.ts';
import { anchoredAlternation, isSimpleCommand, parts, prefixes, SEPARATOR } from './filter-text.ts';
import { goHarness } from './go-harness.ts';
import { parseGoogleBenchmark } from './google-benchmark.ts';
import { noAdvice, type CountingRule, type Harness, type Selection, type Selector, type Sizing } from './harness.ts';
import { pyperfCounting, pytestBenchmarkCounting } from './python-counting.ts';
import { parseHyperfine } from './hyperfine.ts';
import { parseJmh } from './jmh.ts';
import { benchmarkjsHarness, mitataHarness, nodeBenchHarness, vitestHarness } from './js-harnesses.ts';
import { parseJson } from './json.ts';
import { parsePyperf } from './pyperf.ts';
import { pyperfDesign } from './pyperf-design.ts';
import { parsePytestBenchmark } from './pytest-benchmark.ts';

/**
 * The selection of a format whose `{filter}` is one anchored alternation of the names, metacharacters
 * escaped (Google Benchmark's `--benchmark_filter`, Criterion's and JMH's filter argument, a
 * script's own), and whose `{benchmark}` takes the names themselves (pytest node IDs, libtest names
 * with `--exact`, pyperf benchmark names).
 */
const byNames: Selector = { filter: anchoredAlternation, all: '.', autoFlag: () => null };

/**
 * Catch2 runs the test cases its test spec names: names separated by `,`, where `\` escapes a
 * character Catch2 would read otherwise (`,` `[` `]` `*` `~` `"` `\`). A result is named
 * `<test case> > <section…> > <benchmark>`; the test case is one of its prefixes.
 */
function catch2Filter(names: readonly string[]): string {
  const alternatives = new Set<string>();
  for (const name of names) {
    for (const p of prefixes(parts(name).slice(0, -1), (xs) => xs.join(SEPARATOR))) alternatives.add(p.replace(/[\\,[\]*~"]/g, '\\$&'));
  }
  return [...alternatives].join(',');
}

/** Google Benchmark's `--benchmark_filter=`, appended to one simple command. */
const googleBenchmarkFlag = (command: string): string | null => (isSimpleCommand(command) ? '--benchmark_filter=' : null);

/** `--benchmark_min_time` (seconds) and `--benchmark_repetitions`, appended after the command's own: Google Benchmark takes the last. */
function googleBenchmarkSizing(command: string, sizing: Sizing): Selection | null {
  if (googleBenchmarkFlag(command) === null) return null;
  const flags: string[] = [];
  const env: Record<string, string> = {};
  if (sizing.minTimeMs !== undefined) {
    flags.push('--benchmark_min_time="$PAIRBENCH_MIN_TIME"');
    env.PAIRBENCH_MIN_TIME = String(Number((sizing.minTimeMs / 1000).toPrecision(6)));
  }
  if (sizing.repetitions !== undefined) {
    flags.push('--benchmark_repetitions="$PAIRBENCH_REPETITIONS"');
    env.PAIRBENCH_REPETITIONS = String(sizing.repetitions + (sizing.warmup ?? 0));
  }
  return { command: flags.length > 0 ? ` ${flags.join(' ')}` : '', env };
}

/** The command's own length of a run: its `--benchmark_min_time`, else Google Benchmark's default 0.5 s. */
function googleBenchmarkLengthMs(command: string): number {
  const m = /--benchmark_min_time(?:=|\s+)['"]?(\d+(?:\.\d*)?|\.\d+)s?['"]?(?=\s|$)/.exec(command);
  return m ? Number(m[1]) * 1000 : 500;
}

/**
 * Google Benchmark counts one benchmark by `--benchmark_min_time=<N>x` (exactly N iterations, no
 * estimation runs: Google Benchmark 1.8 and later) and one repetition; M = 1. An older Google
 * Benchmark reads `10x` as a bad number of seconds and stops, or prints its version in the
 * output's `context`: either is refused with one line.
 */
const googleBenchmarkCounting: CountingRule = {
  setupIterations: 1,
  flagsAt: 'end',
  runFor(command, iterations) {
    if (googleBenchmarkFlag(command) === null) return null;
    return { command: ' --benchmark_min_time="$PAIRBENCH_MIN_TIME" --benchmark_repetitions=1', env: { PAIRBENCH_MIN_TIME: `${iterations}x` } };
  },
  valgrindEnv: () => ({}),
  refusal(output) {
    const version = /"library_version"\s*:\s*"v?(\d+)\.(\d+)/.exec(output);
    const old = version ? Number(version[1]) < 1 || (Number(version[1]) === 1 && Number(version[2]) < 8) : /benchmark_min_time/.test(output) && /invalid|unrecognized|error/i.test(output);
    if (!old) return null;
    return `instruction counts per benchmark need Google Benchmark 1.8 or later (--benchmark_min_time=<N>x runs exactly N iterations)${version ? `; this one is ${version[1]}.${version[2]}` : ', and this one does not read it'}: upgrade it, or measure --metric wall`;
  },
};

/** Where a harness sizes every run by time, the line that says so: the alternatives of a Rust suite. */
const RUST_ALTERNATIVES = 'expected --metric wall, or a Rust harness that runs each benchmark a fixed number of times under valgrind itself (iai-callgrind, now gungraun)';

const criterionHarness: Harness<'criterion'> = {
  format: 'criterion',
  parse: parseCriterion,
  select: byNames,
  design: null,
  advice: noAdvice,
  toolchains: ['rustc'],
  failure: null,
  counting: { uncounted: `Criterion sizes every run by time (--warm-up-time, --measurement-time, or --profile-time) and has no flag for a fixed iteration count; ${RUST_ALTERNATIVES}` },
};
const bencherHarness: Harness<'bencher'> = {
  format: 'bencher',
  parse: parseBencher,
  select: byNames,
  design: null,
  trim: criterionTrim,
  quick: criterionQuick,
  quickRefused,
  files: criterionEstimates,
  advice: noAdvice,
  toolchains: ['rustc'],
  failure: null,
  counting: { uncounted: `libtest's #[bench] and Criterion (its --output-format bencher) size every run by time and have no flag for a fixed iteration count; ${RUST_ALTERNATIVES}` },
};
/**
 * pytest-benchmark tests per process by default (`Harness.batch`). A pytest process starts the
 * interpreter, pytest and its plugins and imports the project before its first test, about a second
 * (pint's suite: 1.1 s, then 0.04 s a test at `--benchmark-max-time=0.1`), so one test a process
 * spends the budget on starts. Six a process is how both pytest-benchmark suites of the bench were
 * measured, the tuned one (cattrs, 30 tests) and the one not tuned on (pint, 27): every test of each
 * `unchanged` in their A/A, none flagged, every affected one detected; pint one test a process: 16
 * of 27, its budget spent on starts (docs/performance.md, "Suites not tuned on").
 */
const PYTEST_BENCHMARK_BATCH = 6;

const pytestBenchmarkHarness: Harness<'pytest-benchmark'> = { format: 'pytest-benchmark', parse: parsePytestBenchmark, select: byNames, design: null, batch: PYTEST_BENCHMARK_BATCH, advice: noAdvice, toolchains: ['python3'], failure: null, counting: pytestBenchmarkCounting };
const googleBenchmarkHarness: Harness<'google-benchmark'> = {
  format: 'google-benchmark',
  parse: parseGoogleBenchmark,
  select: { filter: anchoredAlternation, all: '.', autoFlag: googleBenchmarkFlag },
  design: { sizingFlags: googleBenchmarkSizing, flagsAt: 'end', commandLengthMs: googleBenchmarkLengthMs, summary: 'median', lengthBy: 'time', iterationsBeforeRepetition: 0, pilotWarmup: 0, coldStart: null, fixedIterations: null },
  advice: noAdvice,
  toolchains: ['cc'],
  failure: null,
  counting: googleBenchmarkCounting,
};
/** hyperfine times whole commands: none of its runs can be narrowed to one. */
const hyperfineHarness: Harness<'hyperfine'> = {
  format: 'hyperfine',
  parse: parseHyperfine,
  select: null,
  design: null,
  advice: noAdvice,
  toolchains: null,
  failure: null,
  counting: { uncounted: 'hyperfine times whole commands, with no benchmark to run a fixed number of times; expected --metric wall, or --format time --metric instructions, which counts the whole command' },
};
const jmhHarness: Harness<'jmh'> = {
  format: 'jmh',
  parse: parseJmh,
  select: byNames,
  design: null,
  advice: noAdvice,
  toolchains: null,
  failure: null,
  counting: { uncounted: "the JVM compiles a benchmark in background threads while it runs, so its instructions change with the run's timing; expected --metric wall" },
};
const jsonHarness: Harness<'json'> = {
  format: 'json',
  parse: (text, options) => parseJson(text, options?.defaultDirection),
  select: byNames,
  design: null,
  advice: noAdvice,
  toolchains: null,
  failure: null,
  counting: { uncounted: 'pairbench cannot tell a program of its own format to run a benchmark a fixed number of times; expected --metric wall, or --format time --metric instructions on a command that runs one benchmark a fixed number of times' },
};
/** Catch2's test spec; `*,[.]` selects every test case, and the hidden ones (`[.]`, v2's `[!benchmark]`), which `*` alone may leave out. */
const catch2Harness: Harness<'catch2'> = {
  format: 'catch2',
  parse: parseCatch2,
  select: { filter: catch2Filter, all: '*,[.]', autoFlag: () => null },
  design: null,
  advice: noAdvice,
  toolchains: ['cc'],
  failure: null,
  counting: { uncounted: "Catch2 sizes a benchmark's iterations from the clock's resolution, measured in each run, and has no flag for a fixed iteration count (--benchmark-samples sets samples, not iterations); expected --metric wall, or a Google Benchmark or Go suite, which run a fixed count" },
};
const pyperfHarness: Harness<'pyperf'> = { format: 'pyperf', parse: parsePyperf, select: byNames, design: pyperfDesign, advice: noAdvice, toolchains: ['python3'], failure: null, counting: pyperfCounting };

/** Every harness format, in the order `--help` lists them. */
export const HARNESSES = [
  goHarness,
  criterionHarness,
  bencherHarness,
  pytestBenchmarkHarness,
  googleBenchmarkHarness,
  hyperfineHarness,
  jmhHarness,
  jsonHarness,
  vitestHarness,
  mitataHarness,
  benchmarkjsHarness,
  catch2Harness,
  pyperfHarness,
  nodeBenchHarness,
] as const;

export type HarnessFormat = (typeof HARNESSES)[number]['format'];

/** The `--format` names of the harnesses (`time`, which times the command itself, is not one). */
export const HARNESS_FORMATS: readonly HarnessFormat[] = HARNESSES.map((h) => h.format);

const BY_FORMAT: ReadonlyMap<string, Harness<HarnessFormat>> = new Map(HARNESSES.map((h) => [h.format, h as Harness<HarnessFormat>]));

/** True when `format` names a harness format (not `time`). */
export function isHarnessFormat(format: string): format is HarnessFormat {
  return BY_FORMAT.has(format);
}

/** How `format`'s benchmarks are counted one by one (`--metric instructions`), or null when they cannot be (its harness says why). */
export function countingRule(format: HarnessFormat): CountingRule | null {
  const counting = harnessOf(format).counting;
  return 'uncounted' in counting ? null : counting;
}

/** The harness of `format`; undefined for a name that is not one (`time`, or a results file's unknown format). */
export function harnessOf(format: HarnessFormat): Harness<HarnessFormat>;
export function harnessOf(format: string): Harness<HarnessFormat> | undefined;
export function harnessOf(format: string): Harness<HarnessFormat> | undefined {
  return BY_FORMAT.get(format);
}
