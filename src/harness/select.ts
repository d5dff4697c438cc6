/**
 * Selecting benchmarks of a suite: which of its benchmarks one run executes, so that base's and
 * head's runs of one benchmark can follow each other (benchmark-level interleaving).
 *
 * The run command says where the selection goes, with a placeholder:
 * - `{filter}`: one anchored regular expression in the format's own filter syntax, matching exactly
 *   the selected benchmarks: Go's `-test.bench` (one pattern per `/` level, as Go matches
 *   sub-benchmarks), Google Benchmark's `--benchmark_filter`, Criterion's and JMH's filter argument;
 * - `{benchmark}`: the selected names themselves, one argument each: pytest node IDs
 *   (`test_x.py::test_sort[1000]`), libtest names with `--exact`, pyperf benchmark names, a
 *   script's own arguments;
 * - `{file}` (vitest): the selected benchmarks' test files, one argument each, as vitest's file
 *   filter (`vitest bench <file> -t {filter}`), so a run loads no other benchmark file.
 * The filter of the formats added for JavaScript, Catch2 and pyperf (`filterFor`): vitest's `-t`
 * (`--testNamePattern`), a RegExp over the test's full name; mitata's `filter`, a RegExp over each
 * `bench()`'s name, which the bench script passes on; benchmark.js's, which the bench script
 * applies itself; node:bench's `--bench-name-pattern`, a RegExp over the benchmark's name path
 * joined by spaces; Catch2's test spec (test case names separated by `,`, `\` escaping).
 * Without a placeholder, pairbench adds the format's filter flag itself where that is safe: for Go
 * (`-test.bench=` for a test binary, `-bench=` for `go test`) and Google Benchmark
 * (`--benchmark_filter=`), when the command is one simple command (no pipe, redirection, `;`, `&&`).
 *
 * Benchmark names come from the output of the code under test (SECURITY.md, S3), so they never
 * become shell text: a placeholder turns into a quoted variable reference (`"$PAIRBENCH_FILTER"`,
 * `"$PAIRBENCH_BENCHMARK_1"` ...) and the names travel in the run's environment. A name the shell
 * would still read as an option (a leading `-`) or that holds a control character is not
 * selectable, and its suite is then measured whole.
 */
import { availableParallelism } from 'node:os';
import type { HarnessFormat } from './types.ts';

const FILTER_PLACEHOLDER = '{filter}';
const BENCHMARK_PLACEHOLDER = '{benchmark}';
const FILE_PLACEHOLDER = '{file}';
const PLACEHOLDER = /(['"]?)\{(filter|benchmark|file)\}\1/g;
const HAS_PLACEHOLDER = /\{(?:filter|benchmark|file)\}/;

/** Formats whose runs can be narrowed to named benchmarks. */
const SELECTABLE_FORMATS: readonly HarnessFormat[] = [
  'go',
  'google-benchmark',
  'criterion',
  'bencher',
  'pytest-benchmark',
  'jmh',
  'json',
  'vitest',
  'mitata',
  'benchmarkjs',
  'catch2',
  'pyperf',
  'node-bench',
];

/** The command and environment of one run that executes only `names`. */
export interface Selection {
  command: string;
  env: Record<string, string>;
}

/** Why a suite cannot be narrowed to single benchmarks, or null when it can. */
export function selectionBlocker(command: string, format: HarnessFormat, names: readonly string[]): string | null {
  if (!SELECTABLE_FORMATS.includes(format)) return `--format ${format} has no way to run one benchmark`;
  if (!HAS_PLACEHOLDER.test(command) && autoFlag(command, format) === null) {
    return `the run command has no ${FILTER_PLACEHOLDER} or ${BENCHMARK_PLACEHOLDER} placeholder to say where the selection goes`;
  }
  if (command.includes(FILE_PLACEHOLDER) && format !== 'vitest') return `${FILE_PLACEHOLDER} names test files, which only --format vitest selects by`;
  for (const name of names) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(name)) return `benchmark ${JSON.stringify(name)} holds a control character`;
    if (name.startsWith('-')) return `benchmark ${JSON.stringify(name)} starts with "-" and would read as an option`;
    if (format === 'go' && !/^Benchmark/.test(name)) return `${JSON.stringify(name)} is qualified by its package; run one package per benchmark entry to select its benchmarks`;
  }
  return null;
}

/**
 * How pairbench sizes a run (the design of its runs, schedule/design.ts): Go's iteration count
 * (`-test.benchtime=Nx`) and repetitions (`-test.count`); Google Benchmark's minimum time
 * (`--benchmark_min_time`, seconds) and repetitions (`--benchmark_repetitions`). Each is appended
 * after the command's own flags, which both harnesses let the last one win.
 */
export interface Sizing {
  iterations?: number;
  /** repetitions counted in the run's value */
  repetitions?: number;
  /**
   * repetitions run first in each process and left out of its value (measure/samples.ts,
   * `afterWarmup`): the harness's repetition count is `warmup + repetitions`
   */
  warmup?: number;
  minTimeMs?: number;
}

/** Whether pairbench can size runs of this command: one simple command of a format with sizing flags. */
export function canSize(command: string, format: HarnessFormat): boolean {
  return (format === 'go' || format === 'google-benchmark') && autoFlag(command, format) !== null;
}

/** The flags (with their values in the environment) that size a run, appended to a simple command; none when it cannot. */
function sizingFlags(command: string, format: HarnessFormat, sizing: Sizing | undefined): Selection {
  if (!sizing || !canSize(command, format)) return { command: '', env: {} };
  const parts: string[] = [];
  const env: Record<string, string> = {};
  if (format === 'go') {
    const bin = autoFlag(command, format) === '-test.bench=';
    if (sizing.iterations !== undefined) {
      parts.push(`${bin ? '-test.benchtime=' : '-benchtime='}"$PAIRBENCH_BENCHTIME"`);
      env.PAIRBENCH_BENCHTIME = `${sizing.iterations}x`;
    } else if (sizing.minTimeMs !== undefined) {
      parts.push(`${bin ? '-test.benchtime=' : '-benchtime='}"$PAIRBENCH_BENCHTIME"`);
      env.PAIRBENCH_BENCHTIME = `${Math.max(1, Math.round(sizing.minTimeMs * 1000))}us`;
    }
    if (sizing.repetitions !== undefined) {
      parts.push(`${bin ? '-test.count=' : '-count='}"$PAIRBENCH_COUNT"`);
      env.PAIRBENCH_COUNT = String(sizing.repetitions + (sizing.warmup ?? 0));
    }
  } else {
    if (sizing.minTimeMs !== undefined) {
      parts.push('--benchmark_min_time="$PAIRBENCH_MIN_TIME"');
      env.PAIRBENCH_MIN_TIME = String(Number((sizing.minTimeMs / 1000).toPrecision(6)));
    }
    if (sizing.repetitions !== undefined) {
      parts.push('--benchmark_repetitions="$PAIRBENCH_REPETITIONS"');
      env.PAIRBENCH_REPETITIONS = String(sizing.repetitions + (sizing.warmup ?? 0));
    }
  }
  return { command: parts.length > 0 ? ` ${parts.join(' ')}` : '', env };
}

/**
 * The run of `command` narrowed to `names` (benchmark names as the format's parser names them),
 * sized by `sizing` where the format allows. Call only when `selectionBlocker` returned null.
 */
export function selectBenchmarks(command: string, format: HarnessFormat, names: readonly string[], sizing?: Sizing): Selection {
  const env: Record<string, string> = { PAIRBENCH_FILTER: filterFor(format, names) };
  names.forEach((n, i) => (env[`PAIRBENCH_BENCHMARK_${i + 1}`] = n));
  const args = names.map((_, i) => `"$PAIRBENCH_BENCHMARK_${i + 1}"`).join(' ');
  const files = format === 'vitest' ? vitestFiles(names) : [];
  files.forEach((f, i) => (env[`PAIRBENCH_FILE_${i + 1}`] = f));
  const fileArgs = files.map((_, i) => `"$PAIRBENCH_FILE_${i + 1}"`).join(' ');
  const selected = HAS_PLACEHOLDER.test(command)
    ? command.replace(PLACEHOLDER, (_m, _q, kind: string) => (kind === 'filter' ? '"$PAIRBENCH_FILTER"' : kind === 'file' ? fileArgs : args))
    : `${command} ${autoFlag(command, format)!}"$PAIRBENCH_FILTER"`;
  // Go's flag package and Google Benchmark take the last of a flag: these (go-iterations.ts, schedule/design.ts)
  const sized = sizingFlags(command, format, sizing);
  return { command: `${selected}${sized.command}`, env: { ...env, ...sized.env } };
}

/**
 * The flag that fixes a Go run's iteration count, which pairbench appends to a simple command
 * (`-test.benchtime=` for a test binary, `-benchtime=` for `go test`), or null when it cannot.
 */
export function iterationsFlag(command: string, format: HarnessFormat): string | null {
  if (format !== 'go') return null;
  const flag = autoFlag(command, format);
  return flag === null ? null : flag === '-test.bench=' ? '-test.benchtime=' : '-benchtime=';
}

/** The filter flag pairbench may append itself, or null when the command is not one simple command. */
function autoFlag(command: string, format: HarnessFormat): string | null {
  if (!isSimpleCommand(command)) return null;
  if (format === 'go') return /(^|\s)-test\./.test(command) || /\.test(\s|$)/.test(command) ? '-test.bench=' : /(^|\s)go\s+test(\s|$)/.test(command) ? '-bench=' : null;
  if (format === 'google-benchmark') return '--benchmark_filter=';
  return null;
}

/** True when nothing in the command (outside quotes) joins, pipes or redirects commands. */
function isSimpleCommand(command: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if ('|&;<>`\n'.includes(c) || (c === '$' && command[i + 1] === '(')) return false;
  }
  return quote === null;
}

/** Escapes the characters that regular expressions (RE2, ECMAScript, POSIX ERE, Rust regex) treat specially. */
function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** The anchored filter expression that matches exactly `names` in this format's filter syntax. */
export function filterFor(format: HarnessFormat, names: readonly string[]): string {
  if (format === 'go') return goFilter(names);
  if (format === 'vitest') return vitestFilter(names);
  if (format === 'mitata') return mitataFilter(names);
  if (format === 'catch2') return catch2Filter(names);
  if (format === 'node-bench') return nodeBenchFilter(names);
  const alternatives = names.map(escapeRegex);
  return alternatives.length === 1 ? `^${alternatives[0]}$` : `^(${alternatives.join('|')})$`;
}

/**
 * Go matches `-test.bench` one `/`-separated level at a time (testing/match.go), so the filter is
 * one anchored alternation per level. For several names of different parents it may select a few
 * more benchmarks than asked (the product of the levels); pairbench reads only the names it asked for.
 */
function goFilter(names: readonly string[]): string {
  const levels: Array<Set<string>> = [];
  for (const name of names) {
    name.split('/').forEach((part, i) => (levels[i] ??= new Set()).add(escapeRegex(part)));
  }
  return levels.map((set) => (set.size === 1 ? `^${[...set][0]}$` : `^(${[...set].join('|')})$`)).join('/');
}

// --- vitest, mitata, Catch2 ------------------------------------------------------------------------

const SEPARATOR = ' > ';

/** The names' ` > `-separated parts. */
const parts = (name: string): string[] => name.split(SEPARATOR);

/** Every prefix of `xs` of length 1 to `xs.length - drop`, each joined by `join`. */
function prefixes(xs: readonly string[], join: (p: readonly string[]) => string): string[] {
  return xs.map((_, i) => join(xs.slice(0, i + 1)));
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

/**
 * Does a config entry's `filter` match this result name? For Go, benchstat's form of the name, with
 * the `-GOMAXPROCS` suffix that Go prints and pairbench strips (`BenchmarkParse-8`), matches too.
 */
export function filterMatches(format: HarnessFormat | 'time', filter: RegExp, name: string, env: Record<string, string | undefined> = process.env): boolean {
  if (filter.test(name)) return true;
  if (format !== 'go') return false;
  const procs = /^\d+$/.test(env.GOMAXPROCS ?? '') ? Number(env.GOMAXPROCS) : availableParallelism();
  return filter.test(`${name}-${procs}`);
}

/**
 * The run of a command with a placeholder that measures the whole suite: every benchmark selected.
 * `{filter}` selects everything: `.` as a RegExp; for Catch2, whose test spec names test cases,
 * `*,[.]` (every test case, and the hidden ones, `[.]` and v2's `[!benchmark]`, which `*` alone
 * may leave out).
 */
export function wholeSuite(command: string, format?: HarnessFormat, sizing?: Sizing): Selection {
  const sized = format ? sizingFlags(command, format, sizing) : { command: '', env: {} };
  if (!HAS_PLACEHOLDER.test(command)) return { command: `${command}${sized.command}`, env: sized.env };
  const all = format === 'catch2' ? '*,[.]' : '.';
  return { command: `${command.replace(PLACEHOLDER, (_m, _q, kind: string) => (kind === 'filter' ? '"$PAIRBENCH_FILTER"' : ''))}${sized.command}`, env: { PAIRBENCH_FILTER: all, ...sized.env } };
}
