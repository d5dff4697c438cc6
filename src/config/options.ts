/**
 * The one table of `compare` options: their names, kinds, defaults and help. The CLI flags,
 * the action inputs and the config file's top-level keys are all read through it, so a default
 * lives in exactly one place.
 */
import { HARNESS_FORMATS } from '../harness/types.ts';

type OptionKind = 'string' | 'integer' | 'duration' | 'percent' | 'alpha' | 'choice' | 'boolean' | 'list' | 'cpus';

export interface OptionDef {
  /** kebab-case name: `--max-pairs` on the command line, `max-pairs` as an action input and config key */
  name: string;
  kind: OptionKind;
  /** the default as a user would type it; undefined = none */
  default?: string;
  choices?: readonly string[];
  help: string;
  /** placeholder in help, e.g. `<n>` */
  arg?: string;
  /** not accepted at the top level of a config file */
  cliOnly?: boolean;
  /**
   * recorded in a results file's `settings` under its camelCase key (a duration in milliseconds,
   * `max-time` as `maxTimeMs`), and read back through this option's parser when the file is judged
   * again or replayed (results/recorded.ts); the number is its place in a replay line
   */
  recorded?: number;
}

export const METRICS = ['wall', 'cpu', 'rss', 'instructions'] as const;
export type Metric = (typeof METRICS)[number];

/** `time` (the run itself is timed) or a harness whose output is parsed. */
export const RUN_FORMATS = ['time', ...HARNESS_FORMATS] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];

export const COMPARE_OPTIONS: readonly OptionDef[] = [
  { name: 'base', kind: 'string', arg: '<rev>', help: 'baseline git revision (default: merge-base of --head with the default branch)', cliOnly: true },
  { name: 'head', kind: 'string', arg: '<rev>', help: 'candidate git revision', default: 'HEAD', cliOnly: true },
  { name: 'base-dir', kind: 'string', arg: '<dir>', help: 'compare an existing directory as the baseline (no checkout)', cliOnly: true },
  { name: 'head-dir', kind: 'string', arg: '<dir>', help: 'compare an existing directory as the candidate (no checkout)', cliOnly: true },
  { name: 'repo', kind: 'string', arg: '<dir>', help: 'the git repository (default: the current directory)', cliOnly: true },
  { name: 'build', kind: 'string', arg: '<cmd>', help: "shell command run once in each revision's directory before measuring" },
  { name: 'build-cache', kind: 'string', arg: '<paths>', help: "the base's build outputs kept between runs, relative to its folder (space-separated): a hit skips the base's build; head is always built (default: none, no cache)" },
  { name: 'build-cache-key', kind: 'string', arg: '<text>', help: 'a toolchain version added to the build cache key, such as go1.24' },
  { name: 'build-cache-dir', kind: 'string', arg: '<dir>', help: "the folder the command line keeps its build cache in (the action uses GitHub's cache)", cliOnly: true },
  { name: 'run', kind: 'string', arg: '<cmd>', help: 'shell command measured each time (or printing benchmark results, with --format)' },
  { name: 'name', kind: 'string', arg: '<name>', help: 'name of the benchmark given by --run (default: the command)' },
  { name: 'prepare', kind: 'string', arg: '<cmd>', help: 'shell command before every measured run, not timed' },
  { name: 'shell', kind: 'choice', choices: ['sh', 'none'], default: 'sh', arg: '<sh|none>', help: "run the command through /bin/sh -c (its start is calibrated and subtracted), or none: split into words and executed directly (no pipes, variables or globs)" },
  { name: 'format', kind: 'choice', choices: RUN_FORMATS, default: 'time', arg: '<f>', help: 'time the whole command, or parse a harness output' },
  { name: 'metric', kind: 'list', choices: METRICS, default: 'wall', arg: '<m>', help: 'what is measured for --format time: wall, cpu, rss, instructions (comma-separated for several)' },
  { name: 'direction', kind: 'choice', choices: ['lower-is-better', 'higher-is-better'], arg: '<d>', help: 'which way is better, for --format json values without one' },
  { name: 'interleave', kind: 'choice', choices: ['benchmark', 'suite'], arg: '<how>', help: "pair each benchmark of a harness suite on its own (default where the format can select one), or whole runs of the suite" },
  { name: 'config', kind: 'string', arg: '<file>', help: 'YAML file naming several benchmarks', cliOnly: true },
  { name: 'changed-only', kind: 'boolean', help: "run only the benchmarks whose config paths: base..head changes (the others are listed as not run)" },
  { name: 'paths-mode', kind: 'choice', choices: ['strict', 'matched'], default: 'strict', arg: '<mode>', help: "with changed-only: strict runs every benchmark when a changed file matches no benchmark's paths (they may be incomplete); matched runs only the benchmarks whose paths match" },
  { name: 'paths-ignore', kind: 'string', arg: '<globs>', help: 'with changed-only: changed files that never count (space-separated globs, such as **/*.md docs/**)' },
  { name: 'min-pairs', kind: 'integer', default: '10', arg: '<n>', help: 'pairs before any stopping rule applies', recorded: 6 },
  { name: 'max-pairs', kind: 'integer', default: '200', arg: '<n>', help: 'pairs at most, per benchmark', recorded: 7 },
  { name: 'max-time', kind: 'duration', default: '10m', arg: '<dur>', help: 'measuring budget for the whole comparison', recorded: 8 },
  { name: 'precision', kind: 'percent', arg: '<pct>', help: "stop once a benchmark's 95% interval is expected within ±this (judged from the sizes of its paired differences; default: a quarter of its threshold, 0.5% at 2%)", recorded: 9 },
  { name: 'warmup', kind: 'integer', default: '1', arg: '<n>', help: 'unmeasured runs per side before the first pair', recorded: 10 },
  { name: 'threshold', kind: 'percent', default: '2%', arg: '<pct>', help: 'smallest relative change that counts as a regression or improvement', recorded: 2 },
  { name: 'min-change', kind: 'string', arg: '<amount>', help: "smallest absolute change, in a benchmark's own unit, that counts as a regression or improvement beside the threshold: 5ms, 200ns, 1KB, a count such as 100, or one per kind comma-separated (5ms,1KB); below it a change is judged unchanged or inconclusive (default: none)", recorded: 14 },
  { name: 'alpha', kind: 'alpha', default: '0.05', arg: '<p>', help: 'significance level, after correction for the number of benchmarks', recorded: 3 },
  { name: 'outliers', kind: 'choice', choices: ['tukey', 'mad', 'none'], default: 'tukey', arg: '<rule>', help: 'outlier rule on the paired log-ratios', recorded: 4 },
  { name: 'correction', kind: 'choice', choices: ['holm', 'bh'], default: 'holm', arg: '<c>', help: 'multiple-comparison correction: holm (family-wise) or bh (false discovery rate)', recorded: 5 },
  { name: 'timeout', kind: 'duration', default: '10m', arg: '<dur>', help: "one run's time limit; the whole process tree is killed past it", recorded: 11 },
  { name: 'seed', kind: 'integer', arg: '<n>', help: 'seed of the pair order (default: random; recorded in the results)', recorded: 1 },
  { name: 'shard', kind: 'string', default: '1/1', arg: '<i/n>', help: 'measure every n-th benchmark starting at the i-th' },
  { name: 'cpus', kind: 'cpus', arg: '<list>', help: 'bind every measured run of both sides to these CPUs (Linux, taskset; such as 1 or 2-3): steadier pairs on a small runner, but Go then sizes GOMAXPROCS to them (default: not bound)', recorded: 12 },
  { name: 'fresh-copy', kind: 'choice', choices: ['auto', 'off'], default: 'auto', arg: '<auto|off>', help: "auto: before every measured run, replace the program the command runs with a copy of itself when it is an executable inside the revision's folder (a Go test binary, a Google Benchmark or Catch2 binary), so that where its pages land in memory varies from run to run instead of favouring one side for the whole comparison; off: run the files as they are", recorded: 13 },
  { name: 'out', kind: 'string', default: 'pairbench-results.json', arg: '<file>', help: 'results JSON, written as pairs complete' },
  { name: 'markdown', kind: 'string', arg: '<file>', help: 'write the report as Markdown (the PR comment body)' },
  { name: 'fail-on', kind: 'list', choices: ['regression', 'inconclusive', 'none'], default: 'regression', arg: '<what>', help: 'exit 1 on a significant regression beyond the threshold; regression,inconclusive also when a benchmark could not be decided; none: never' },
  { name: 'allow-nothing-compared', kind: 'boolean', help: 'pass the gate when nothing was compared (every benchmark new or removed, as in the pull request that adds them; no result file; base and head one commit; a side that failed before any pair): the report still says so. Default: such a comparison fails the gate' },
  { name: 'batch', kind: 'integer', arg: '<n>', help: 'benchmarks per run when each benchmark of a suite is paired on its own (default 1)' },
  { name: 'iterations', kind: 'choice', choices: ['fixed', 'harness'], arg: '<how>', help: 'Go benchmarks paired on their own, with --design command: fixed runs each with one iteration count on both sides (-test.benchtime=Nx from the listing run; default), harness lets Go size every run' },
  { name: 'design', kind: 'choice', choices: ['auto', 'command'], arg: '<how>', help: "Go and Google Benchmark suites paired per benchmark: auto chooses each benchmark's repetitions per process and their length from the noise of its first pairs (default); command runs them as the command says" },
  { name: 'json', kind: 'boolean', help: 'print the results JSON to stdout instead of the table', cliOnly: true },
  { name: 'quiet', kind: 'boolean', help: 'no progress lines', cliOnly: true },
];

/** The key of a recorded option in a results file's `settings`: camelCase, a duration's in milliseconds. */
export function recordedKey(o: OptionDef): string {
  const camel = o.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return o.kind === 'duration' ? `${camel}Ms` : camel;
}

export function optionDef(name: string): OptionDef | undefined {
  return COMPARE_OPTIONS.find((o) => o.name === name);
}
