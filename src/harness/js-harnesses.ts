/**
 * The JavaScript harnesses: vitest, mitata, benchmark.js and node:bench. Each run is a Node
 * process with its own JIT; each format's output is read by its parser (vitest.ts, mitata.ts,
 * benchmarkjs.ts, node-bench.ts), a run is narrowed by the filter the harness (or the bench
 * script) reads from `{filter}`, and the runs are what the command says (pairbench sizes none).
 *
 * Their advice beside a noisy benchmark (the `js-noise` finding; report/findings.ts words it). A
 * JavaScript benchmark's noise is mostly each process's own: what V8's JIT tiers and its collector
 * made of the code in that process, not the machine's moment, so base and head of one pair hardly
 * move together and pairing cancels little of it (the between-process level of Kalibera & Jones
 * 2013, "Rigorous benchmarking in reasonable time", ISMM). Only more processes, or steadier ones,
 * narrow an interval:
 * - more benchmarks per process (`--batch`) buy more pairs where a process start (vitest's, about
 *   a second) costs more than a benchmark;
 * - binding both sides to one CPU (`--cpus`) puts V8's compiler and collector threads on the
 *   code's core, so that the two runs of a pair meet the same contention and move together.
 * The measured effect of each, on a real vitest suite: docs/performance.md and
 * docs/harnesses.md, "JavaScript and TypeScript".
 * A vitest suite runs five benchmarks a process by default under `--design auto` (`VITEST_BATCH`);
 * binding stays off by default (it puts V8's compiler and collector threads on the code's core,
 * which changes what a multi-threaded benchmark measures), and the advice says so. Read from the
 * results file alone (the recorded `interleave`, `batch` and `cpus`: results/advice.ts), so
 * `pairbench report` says it again.
 */
import type { Finding } from '../stats/types.ts';
import { parseBenchmarkjs } from './benchmarkjs.ts';
import { anchoredAlternation, escapeRegex, parts, prefixes, SEPARATOR } from './filter-text.ts';
import { noAdvice, type Harness, type NoisyBenchmark } from './harness.ts';
import { mitataErrors, nodeBenchErrors, vitestErrors, vitestReportFile } from './js-failures.ts';
import { parseMitata } from './mitata.ts';
import { parseNodeBench } from './node-bench.ts';
import { parseVitest } from './vitest.ts';

/** The `js-noise` finding of a noisy benchmark whose runs were neither bound to one CPU nor several benchmarks to a process; else none. */
function jsAdvice(noisy: NoisyBenchmark): Finding[] {
  const bound = noisy.boundToOneCpu;
  const batched = noisy.batched();
  if (bound && batched) return [];
  return [{ code: 'js-noise', severity: 'info', figures: { bound, batched } }];
}

/**
 * vitest's `-t` is a RegExp over the test's full name: its describe blocks and title, joined by
 * ` > ` in vitest 5 (`fullTestName`) and by a space in vitest 4 (`getTaskFullName`). A result's
 * name (harness/vitest.ts) is `<file> > <describe…> > <test> > [<group> >] <bench>`, so the test's
 * full name is one of the prefixes of the parts after the file: the filter takes each of them,
 * with either separator. It may select a test more (a describe and a test of the same full name);
 * pairbench reads only the names it asked for.
 */
function vitestFilter(names: readonly string[]): string {
  const alternatives = new Set<string>();
  for (const name of names) {
    for (const p of prefixes(parts(name).slice(1), (xs) => xs.map(escapeRegex).join('(?: > | )'))) alternatives.add(p);
  }
  return `^(?:${[...alternatives].join('|')})$`;
}

/**
 * The test files of vitest results, by file name: vitest's file filter matches every path that
 * holds it, so files of one name are all selected together, which keeps their names
 * (`a/parse.bench.ts`, harness/vitest.ts) the same as in the listing run.
 */
function vitestFiles(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => parts(n)[0]!.split('/').pop()!))];
}

/**
 * mitata's filter is a RegExp tested on each `bench()`'s name. A result is named
 * `[<group> > ]<run name>`, so the filter takes each suffix of its parts (a group's name may hold
 * ` > ` too). A parameterised benchmark's results are named by its template with the arguments
 * filled in (`sort $n` gives `sort 1000`), while the filter sees the template: so any template
 * whose text before its first `$` begins the result's name matches as well (the one that made it
 * always does); pairbench reads only the names it asked for.
 */
function mitataFilter(names: readonly string[]): string {
  const alternatives = new Set<string>();
  for (const name of names) {
    const ps = parts(name);
    for (let i = 0; i < ps.length; i++) {
      const run = ps.slice(i).join(SEPARATOR);
      const bare = run.replace(/ \[[^\]]*\]$/, ''); // `fill [n=8]`: a template without `$n`
      alternatives.add(`${escapeRegex(bare)}$`);
      // `^s(?:o(?:r(?:t)?)?)?\$`: a template whose text before its `$` is a prefix of the name
      const chars = [...bare].map(escapeRegex);
      let nested = '';
      for (let k = chars.length - 1; k >= 0; k--) nested = `(?:${chars[k]}${nested})?`;
      alternatives.add(`${nested}\\$`);
    }
  }
  return `^(?:${[...alternatives].join('|')})`;
}

/**
 * node:bench's `--bench-name-pattern` is a RegExp tested on the benchmark's full hierarchical name:
 * its `namePath` joined by a space. A result is named `<file> > <suite…> > <bench>[ [<params>]]`
 * (harness/node-bench.ts), so the pattern is the parts after the file, with either separator (a
 * part may hold ` > ` itself), with and without a trailing `[…]` (params, or the name's own). It
 * selects every file's benchmark of that path and each of its params; pairbench reads only the
 * names it asked for.
 */
function nodeBenchFilter(names: readonly string[]): string {
  const alternatives = new Set<string>();
  for (const name of names) {
    const path = parts(name).slice(1).join(SEPARATOR);
    for (const p of new Set([path, path.replace(/ \[[^\]]*\]$/, '')])) alternatives.add(p.split(SEPARATOR).map(escapeRegex).join('(?: > | )'));
  }
  return `^(?:${[...alternatives].join('|')})$`;
}

const noAutoFlag = (): null => null;

/**
 * What a JavaScript suite can count instead: a script of its own that runs the benchmark a fixed
 * number of times, counted whole, under V8's flags that make its counts steady (under valgrind a
 * fixed loop's count spread by about 20% a run without them, by 0.001% with them:
 * docs/measuring.md, "Instruction counts per benchmark").
 */
const JS_ALTERNATIVES = 'expected --metric wall, or --format time --metric instructions on a script that runs the benchmark a fixed number of times under node --single-threaded --predictable (V8 counts steadily only with both)';


/**
 * vitest benchmarks per process by default (`Harness.batch`). A vitest process starts Node, vite and
 * a worker before its first benchmark: about 0.7 s through npx (0.45 s started directly), against a
 * benchmark's 0.5 s (tinybench's `warmupTime` and `time` as the bench's suites set them), so one
 * benchmark a process spends most of the budget on starts. Five a process, A/A on the three vitest
 * suites of the bench (docs/performance.md, "Suites not tuned on"), each settled benchmark leaving
 * its batch: npm semver 9 of 9 `unchanged` in 6m 51s against 7 of 9 one a process at the 10-minute
 * budget, js-yaml 7 of 7 in 3m 41s against 4m 48s, none flagged; `@rgrove/parse-xml`, tuned on, 5 of
 * 5 in 4m 53s against 6m 22s before a settled benchmark left its batch. An earlier, noisier block
 * (before that) split: semver 6 of 9 against 3, js-yaml 2 of 7 against 3.
 */
const VITEST_BATCH = 5;

/** vitest's `-t` (`--testNamePattern`), a RegExp over the test's full name; `{file}` its file filter. */
export const vitestHarness: Harness<'vitest'> = {
  format: 'vitest',
  parse: parseVitest,
  select: { filter: vitestFilter, all: '.', autoFlag: noAutoFlag, files: vitestFiles },
  design: null,
  batch: VITEST_BATCH,
  advice: jsAdvice,
  toolchains: ['node'],
  failure: { errors: vitestErrors, reportFile: vitestReportFile, package: 'vitest' },
  counting: { uncounted: `vitest's bench (tinybench) runs each benchmark for a time, and its iterations are options in the benchmark code, with no flag for a fixed count; ${JS_ALTERNATIVES}` },
};

/** mitata's `filter`, a RegExp over each `bench()`'s name, which the bench script passes on. */
export const mitataHarness: Harness<'mitata'> = {
  format: 'mitata',
  parse: parseMitata,
  select: { filter: mitataFilter, all: '.', autoFlag: noAutoFlag },
  design: null,
  advice: jsAdvice,
  toolchains: ['node'],
  failure: { errors: mitataErrors, package: 'mitata' },
  counting: { uncounted: `mitata runs each benchmark for a time, set in the benchmark code, with no flag for a fixed iteration count; ${JS_ALTERNATIVES}` },
};

/** benchmark.js's filter, which the bench script applies itself: the names anchored. */
export const benchmarkjsHarness: Harness<'benchmarkjs'> = {
  format: 'benchmarkjs',
  parse: parseBenchmarkjs,
  select: { filter: anchoredAlternation, all: '.', autoFlag: noAutoFlag },
  design: null,
  advice: jsAdvice,
  toolchains: ['node'],
  failure: { errors: () => [], package: 'benchmark' },
  counting: { uncounted: `benchmark.js runs each benchmark for a time (maxTime, minSamples in the benchmark code), with no flag for a fixed iteration count; ${JS_ALTERNATIVES}` },
};

/** node:bench's `--bench-name-pattern`, a RegExp over the benchmark's name path joined by spaces. */
export const nodeBenchHarness: Harness<'node-bench'> = {
  format: 'node-bench',
  parse: parseNodeBench,
  select: { filter: nodeBenchFilter, all: '.', autoFlag: noAutoFlag },
  design: null,
  advice: noAdvice,
  toolchains: ['node'],
  failure: { errors: nodeBenchErrors },
  counting: { uncounted: `node:bench fixes a run's samples only with options of node itself (--bench-samples, before the script), which pairbench does not place yet, and V8 counts steadily only under --single-threaded --predictable; ${JS_ALTERNATIVES}` },
};
