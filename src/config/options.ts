/**
 * The one table of `compare` options: their names, kinds, defaults, tiers and help. The CLI flags,
 * the action inputs and the config file's top-level keys are all read through it, so a default
 * lives in exactly one place; `--help`, action.yml's input descriptions and docs/reference.md are
 * generated from it (scripts/reference.ts), and a test fails when one of them is stale.
 */
import { HARNESS_FORMATS } from '../harness/registry.ts';

type OptionKind = 'string' | 'integer' | 'duration' | 'percent' | 'alpha' | 'choice' | 'boolean' | 'list' | 'cpus';

/**
 * `user`: what a user sets to run a comparison (what to build and run, the format, the gate's size,
 * the budget, the outputs), shown by `--help` and the README; `advanced`: the rest, shown by
 * `--help-all` and docs/reference.md, for the user who has read why they would set it.
 */
export type Tier = 'user' | 'advanced';

export interface OptionDef {
  /** kebab-case name: `--max-pairs` on the command line, `max-pairs` as an action input and config key */
  name: string;
  kind: OptionKind;
  /** the default as a user would type it; undefined = none */
  default?: string;
  choices?: readonly string[];
  /** one line of `--help` */
  help: string;
  tier: Tier;
  /** the longer text of action.yml and docs/reference.md (default: `help`) */
  doc?: string;
  /** how the default reads where it is not a value a user would type (default: `default`, else none) */
  defaultDoc?: string;
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

/** `gate-metric`: which rows the gate weighs (results/gate.ts). */
const GATE_METRICS = ['any', 'instructions', 'wall'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];
export type Metric = (typeof METRICS)[number];

/** `time` (the run itself is timed) or a harness whose output is parsed. */
export const RUN_FORMATS = ['time', ...HARNESS_FORMATS] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];

export const COMPARE_OPTIONS: readonly OptionDef[] = [
  { name: 'base', kind: 'string', arg: '<rev>', help: 'baseline git revision (default: merge-base of --head with the default branch)', cliOnly: true, tier: 'user' },
  { name: 'head', kind: 'string', arg: '<rev>', help: 'candidate git revision', default: 'HEAD', cliOnly: true, tier: 'user' },
  { name: 'base-dir', kind: 'string', arg: '<dir>', help: 'compare an existing directory as the baseline (no checkout)', cliOnly: true, tier: 'user' },
  { name: 'head-dir', kind: 'string', arg: '<dir>', help: 'compare an existing directory as the candidate (no checkout)', cliOnly: true, tier: 'user' },
  { name: 'repo', kind: 'string', arg: '<dir>', help: 'the git repository (default: the current directory)', cliOnly: true, tier: 'user' },
  { name: 'build', kind: 'string', arg: '<cmd>', help: "shell command run once in each revision's directory before measuring", tier: 'user', doc: 'Shell command run once in each revision\'s directory before measuring.' },
  { name: 'build-cache', kind: 'string', arg: '<paths>', help: "the base's build outputs kept between runs, relative to its folder (space-separated): a hit skips the base's build; head is always built (default: none, no cache)", tier: 'advanced', doc: 'The base\'s build outputs to keep between runs, space-separated paths relative to its folder (build/ target/release/bench). A hit restores them from GitHub\'s cache and skips the base\'s build; head is always built, and every pair is measured in this run. Only the base branch\'s own runs (push, workflow_dispatch) write the cache; pull request runs only read it. Empty: no cache.' },
  { name: 'build-cache-key', kind: 'string', arg: '<text>', help: 'a toolchain version added to the build cache key, such as go1.24', tier: 'advanced', doc: 'A toolchain version added to the build cache key (go1.24, rustc 1.83), beside the base SHA, the build command, the OS, the architecture and the runner image.' },
  { name: 'build-cache-dir', kind: 'string', arg: '<dir>', help: "the folder the command line keeps its build cache in (the action uses GitHub's cache)", cliOnly: true, tier: 'advanced' },
  { name: 'run', kind: 'string', arg: '<cmd>', help: 'shell command measured each time (or printing benchmark results, with --format)', tier: 'user', doc: 'Shell command measured each time (or that prints benchmark results, with `format`). Required unless `config` names the benchmarks.' },
  { name: 'name', kind: 'string', arg: '<name>', help: 'name of the benchmark given by --run (default: the command)', tier: 'advanced', doc: 'Name of the benchmark given by `run`.', defaultDoc: 'the command' },
  { name: 'prepare', kind: 'string', arg: '<cmd>', help: 'shell command before every measured run, not timed', tier: 'user', doc: 'Shell command before every measured run, not timed.' },
  { name: 'shell', kind: 'choice', choices: ['sh', 'none'], default: 'sh', arg: '<sh|none>', help: "run the command through /bin/sh -c (its start is calibrated and subtracted), or none: split into words and executed directly (no pipes, variables or globs)", tier: 'advanced', doc: 'How the run command is started: sh (through /bin/sh -c; the shell\'s start is timed by empty runs between the pairs and subtracted) or none (split into words and executed directly, like hyperfine -N: no pipes, variables or globs).' },
  { name: 'format', kind: 'choice', choices: RUN_FORMATS, default: 'time', arg: '<f>', help: 'time the whole command, or parse a harness output', tier: 'user', doc: `time (time the whole command), or a harness output to parse: ${HARNESS_FORMATS.join(', ')}.` },
  { name: 'metric', kind: 'list', choices: METRICS, default: 'wall', arg: '<m>', help: 'what is measured: wall, cpu, rss, instructions (comma-separated for several); a go, google-benchmark, pyperf or pytest-benchmark suite takes wall and instructions', tier: 'user', doc: 'What is measured: wall, cpu, rss, instructions (comma-separated for several) with format time; wall and instructions, per benchmark, with format go, google-benchmark, pyperf or pytest-benchmark.' },
  { name: 'direction', kind: 'choice', choices: ['lower-is-better', 'higher-is-better'], arg: '<d>', help: 'which way is better, for --format json values without one', tier: 'advanced', doc: 'Which way is better for format json values without one: lower-is-better or higher-is-better.', defaultDoc: 'from the unit (rates such as MB/s higher-is-better, everything else lower-is-better)' },
  { name: 'interleave', kind: 'choice', choices: ['benchmark', 'suite'], arg: '<how>', help: "pair each benchmark of a harness suite on its own (default where the format can select one), or whole runs of the suite", tier: 'advanced', doc: 'benchmark (pair each benchmark of a harness suite on its own: base and head runs of one benchmark back to back, decided benchmarks no longer run) or suite (pair whole runs of the suite).', defaultDoc: 'benchmark where the format and run command can select one benchmark ({filter} or {benchmark} in run), else suite' },
  { name: 'config', kind: 'string', arg: '<file>', help: 'YAML file naming several benchmarks', cliOnly: true, tier: 'user' },
  { name: 'changed-only', kind: 'boolean', help: "run only the benchmarks whose config paths: base..head changes (the others are listed as not run)", tier: 'advanced', doc: 'Run only the benchmarks of the config file whose paths: (globs relative to the repository root) the pull request changes; the others are listed in the comment as not run, never dropped. A pull request that changes no benchmark\'s paths measures nothing, says so in one line, and passes.', defaultDoc: 'false' },
  { name: 'paths-mode', kind: 'choice', choices: ['strict', 'matched'], default: 'strict', arg: '<mode>', help: "with changed-only: strict runs every benchmark when a changed file matches no benchmark's paths (they may be incomplete); matched runs only the benchmarks whose paths match", tier: 'advanced', doc: 'With changed-only: strict runs every benchmark when a changed file matches no benchmark\'s paths, since paths may be incomplete (a shared header nobody listed); matched runs only the benchmarks whose paths match.' },
  { name: 'paths-ignore', kind: 'string', arg: '<globs>', help: 'with changed-only: changed files that never count (space-separated globs, such as **/*.md docs/**)', tier: 'advanced', doc: 'With changed-only: changed files that never count as changes, space-separated globs (**/*.md docs/**): a pull request that changes only these measures nothing.' },
  { name: 'min-pairs', kind: 'integer', default: '10', arg: '<n>', help: 'pairs before any stopping rule applies', recorded: 6, tier: 'advanced', doc: 'Pairs before any stopping rule applies.' },
  { name: 'max-pairs', kind: 'integer', default: '200', arg: '<n>', help: 'pairs at most, per benchmark', recorded: 7, tier: 'user', doc: 'Pairs at most, per benchmark.' },
  { name: 'max-time', kind: 'duration', default: '10m', arg: '<dur>', help: 'measuring budget for the whole comparison', recorded: 8, tier: 'user', doc: 'Measuring budget for the whole comparison (90s, 10m).' },
  { name: 'precision', kind: 'percent', arg: '<pct>', help: "stop once a benchmark's 95% interval is expected within ±this (judged from the sizes of its paired differences; default: a quarter of its threshold, 0.5% at 2%)", recorded: 9, tier: 'advanced', doc: 'Stop once a benchmark\'s 95% interval is expected within ±this (judged from the sizes of its paired differences).', defaultDoc: 'a quarter of the threshold (0.5% at 2%)' },
  { name: 'warmup', kind: 'integer', default: '1', arg: '<n>', help: 'unmeasured runs per side before the first pair', recorded: 10, tier: 'advanced', doc: 'Unmeasured runs per side before the first pair.' },
  { name: 'threshold', kind: 'percent', default: '2%', arg: '<pct>', help: 'smallest relative change that counts as a regression or improvement', recorded: 2, tier: 'user', doc: 'Smallest relative change that counts as a regression or improvement (2% or 0.02).' },
  { name: 'min-change', kind: 'string', arg: '<amount>', help: "smallest absolute change that also counts, in a benchmark's own unit: 5ms, 200ns, 1KB, a count, or one per kind (5ms,1KB)", recorded: 14, tier: 'advanced', doc: "The smallest absolute change, in a benchmark's own unit, that counts as a regression or improvement beside `threshold`: 5ms, 200ns, 1KB, a count such as 100, or one per kind comma-separated (5ms,1KB); below it a change is judged unchanged or inconclusive. A floor of a unit the benchmark does not measure is refused." },
  { name: 'alpha', kind: 'alpha', default: '0.05', arg: '<p>', help: 'significance level, after correction for the number of benchmarks', recorded: 3, tier: 'user', doc: 'Significance level, after correction for the number of benchmarks.' },
  { name: 'outliers', kind: 'choice', choices: ['tukey', 'mad', 'none'], default: 'tukey', arg: '<rule>', help: 'outlier rule on the paired log-ratios', recorded: 4, tier: 'advanced', doc: 'Outlier rule on the paired log-ratios: tukey, mad, none (outliers are always reported, never silently dropped).' },
  { name: 'correction', kind: 'choice', choices: ['holm', 'bh'], default: 'holm', arg: '<c>', help: 'multiple-comparison correction: holm (family-wise) or bh (false discovery rate)', recorded: 5, tier: 'advanced', doc: 'Multiple-comparison correction: holm (family-wise) or bh (false discovery rate).' },
  { name: 'timeout', kind: 'duration', default: '10m', arg: '<dur>', help: "one run's time limit; the whole process tree is killed past it", recorded: 11, tier: 'advanced', doc: 'One run\'s time limit; the whole process tree is killed past it.' },
  { name: 'seed', kind: 'integer', arg: '<n>', help: 'seed of the pair order (default: random; recorded in the results)', recorded: 1, tier: 'advanced', doc: 'Seed of the pair order, recorded in the results so a run can be replayed.', defaultDoc: 'random' },
  { name: 'shard', kind: 'string', default: '1/1', arg: '<i/n>', help: 'measure every n-th benchmark starting at the i-th', tier: 'advanced', doc: 'i/n: this job measures every n-th benchmark, starting at the i-th (merge the shards with mode report).' },
  { name: 'cpus', kind: 'cpus', default: 'auto', arg: '<list>', help: "auto: the pairs at once, each side on one of the two highest CPUs, where --pair-runs auto (the default) runs them so; in turn, a Go, pytest-benchmark or pyperf suite's measured runs, both sides, bound to every CPU but the lowest, which is left to pairbench's own process, where the machine allows (Linux, taskset, two CPUs or more); other formats unbound. A list such as 1 or 2-3: every run bound to those CPUs; none: not bound. Bound, pairs spread far less on a small runner, but Go sizes GOMAXPROCS to the CPUs given", recorded: 12, tier: 'advanced', doc: "auto: where the pairs run at once (pair-runs auto, the default, on a machine that allows it), each side of a pair is bound to one of the two highest CPUs pairbench may use. In turn, a Go, pytest-benchmark or pyperf suite's measured runs, both sides, are bound to every CPU pairbench may use but the lowest, which is left to pairbench's own process and its run helper, where the machine allows it (Linux with taskset and two CPUs or more; on a 2-CPU runner the runs get one CPU, pairbench the other); other formats, where binding was not measured to help, run unbound as before, and so do machines that cannot bind. A list such as 1 or 2-3: every format's runs bound to those CPUs, the pairs in turn (with pair-runs at-once, the sides on its first two). none: not bound, the pairs in turn. Bound, pairs spread far less on a small runner, but Go sizes GOMAXPROCS to the CPUs given (Go code on one thread on one CPU). For a Go or pytest-benchmark suite the log and the report say which and why." },
  { name: 'fresh-copy', kind: 'choice', choices: ['auto', 'off'], default: 'auto', arg: '<auto|off>', help: "auto: before every measured run, replace the program the command runs with a copy of itself when it is an executable inside the revision's folder (a Go test binary, a Google Benchmark or Catch2 binary), so that where its pages land in memory varies from run to run instead of favouring one side for the whole comparison; off: run the files as they are", recorded: 13, tier: 'advanced', doc: 'auto: before every measured run, replace the program the run command starts with a copy of itself when it is an executable inside the revision\'s folder (a Go test binary, a Google Benchmark or Catch2 binary), so that where its pages land in memory varies from run to run instead of favouring one side for the whole comparison; off: run the files as they are.' },
  { name: 'pair-runs', kind: 'choice', choices: ['auto', 'in-turn', 'at-once'], default: 'auto', arg: '<how>', help: "auto: at once where the machine gives each side a CPU of its own (Linux, taskset, two CPUs this process may use, --cpus auto) and other work keeps neither of the two busy more than a quarter of the time just before measuring, else in turn; at-once: both runs of a pair started together, each bound to a CPU of its own (the two highest, or the first two of --cpus), the pair's coin choosing which, so what the machine does in that moment falls on both; in-turn: one after the other, the coin choosing which goes first. At once, every run has one CPU and the two share caches and memory bandwidth", recorded: 15, tier: 'advanced', doc: "auto: at once where the machine can give each side a CPU of its own (Linux with taskset and two CPUs pairbench may use, with cpus auto) and other work keeps neither of those two CPUs busy more than a quarter of the time in the half second before anything runs (read from /proc/stat: work on one CPU would slow one side of each pair alone); else in turn, and the log and the report say which and why. at-once: both runs of a pair are started together, each bound to a CPU of its own (the two highest CPUs pairbench may use, or the first two of a cpus list), the pair's coin choosing which side gets which, so that whatever the machine does in that moment falls on both sides and the pair's ratio cancels it (duet benchmarking); where the machine cannot, the pairs run in turn and the log and the report say why. in-turn: the two runs of a pair go one after the other, the coin choosing which goes first. At once, every run has one CPU (Go sizes GOMAXPROCS to it, V8's compiler threads share it) and the two runs share the machine's caches and memory bandwidth: a multi-threaded benchmark, or one whose change is in how it shares the machine, is measured in turn (in-turn)." },
  { name: 'out', kind: 'string', default: 'pairbench-results.json', arg: '<file>', help: 'results JSON, written as pairs complete', tier: 'user' },
  { name: 'markdown', kind: 'string', arg: '<file>', help: 'write the report as Markdown (the PR comment body)', tier: 'user' },
  { name: 'fail-on', kind: 'list', choices: ['regression', 'inconclusive', 'none'], default: 'regression', arg: '<what>', help: 'exit 1 on a significant regression beyond the threshold; regression,inconclusive also when a benchmark could not be decided; none: never', tier: 'user', doc: 'regression (fail the step on a significant regression beyond the threshold); regression,inconclusive (also fail when a benchmark could not be decided within the budget); or none. The check run stays neutral for inconclusive.' },
  { name: 'count-work', kind: 'duration', arg: '<dur>', help: 'instruction counts of a harness suite: the benchmark\'s own work in one counted run (default 20ms under valgrind, 50ms under perf)', tier: 'advanced', doc: 'Instruction counts per benchmark of a harness suite (Go, Google Benchmark, pyperf, pytest-benchmark): how much of the benchmark\'s own work one counted run does, as time on this machine (N iterations from its time per iteration). Shorter runs cost less under valgrind; below a few milliseconds the variable part of a runtime\'s set-up can make counts unsteady.', defaultDoc: '20ms under valgrind, 50ms under perf' },
  { name: 'gate-metric', kind: 'choice', choices: GATE_METRICS, default: 'any', arg: '<any|instructions|wall>', help: 'which rows the gate weighs: any, instructions (the instruction counts of a harness suite or a command only), wall (every other row)', tier: 'advanced', doc: 'Which rows the gate (`fail-on`) weighs: any (every row); instructions (only instruction counts, `--metric instructions`: a noisy wall time then never fails the gate); wall (every row but the instruction counts). Every row is still judged and reported; the summary line says which metric gated.' },
  { name: 'allow-nothing-compared', kind: 'boolean', help: 'pass the gate when nothing was compared (every benchmark new or removed, as in the pull request that adds them); the report still says so', tier: 'advanced', doc: 'Pass the gate when nothing was compared: every benchmark new or removed (the pull request that adds them), no benchmark results, base and head the same commit, or a side that failed before any pair. The report still says nothing was compared.', defaultDoc: 'false (such a comparison fails the gate)' },
  { name: 'batch', kind: 'integer', arg: '<n>', help: 'benchmarks per run when each benchmark of a suite is paired on its own (default 1; under --design auto, 6 for pytest-benchmark, 5 for vitest)', tier: 'advanced', doc: 'Benchmarks per run when each benchmark of a suite is paired on its own; more than 1 where a process start costs more than a benchmark. Under --design auto a pytest-benchmark suite runs 6 tests a process (a pytest process takes about a second to start), a vitest suite 5 benchmarks (a vitest process about 0.7 s). A benchmark whose stopping rules are met leaves the batch and its runs.', defaultDoc: '1 (under --design auto, 6 for pytest-benchmark, 5 for vitest)' },
  { name: 'iterations', kind: 'choice', choices: ['fixed', 'harness'], arg: '<how>', help: 'Go benchmarks paired on their own, with --design command: fixed runs each with one iteration count on both sides (-test.benchtime=Nx from the listing run; default), harness lets Go size every run', tier: 'advanced', doc: 'Go benchmarks paired on their own, with design: command: fixed (each runs one iteration count on both sides, -test.benchtime=Nx from the listing run, so the two runs of a pair do the same work) or harness (Go sizes every run itself).', defaultDoc: 'fixed' },
  { name: 'design', kind: 'choice', choices: ['auto', 'command'], arg: '<how>', help: "auto chooses each Go, Google Benchmark and pyperf benchmark's repetitions per process and their length from the noise of its first pairs, cuts a Criterion run's bootstrap to 1,000 resamples, runs each of its benchmarks in Criterion's quick mode and reads the medians it saves, and runs six pytest-benchmark tests or five vitest benchmarks a process (default); command runs them as the command says", tier: 'advanced', doc: 'auto (a Go, Google Benchmark or pyperf benchmark paired on its own: its repetitions per process and their length are chosen from the noise of its first pairs, the same on both sides of every pair; a Criterion bench executable (`--output-format bencher`): its own bootstrap cut to 1,000 resamples, which leaves the median it prints as it is, a CRITERION_HOME of its own for each run, whose saved medians keep the fractions of a nanosecond the printed line cuts, and each run of one benchmark in quick mode (`--quick`: no warm-up, a short measurement, whatever the group sets in code; Criterion 0.4 or later); a pytest-benchmark suite: six tests a process, a vitest suite five benchmarks, unless --batch says otherwise) or command (runs as the command says, its values as printed).', defaultDoc: 'auto' },
  { name: 'json', kind: 'boolean', help: 'print the results JSON to stdout instead of the table', cliOnly: true, tier: 'user' },
  { name: 'quiet', kind: 'boolean', help: 'no progress lines', cliOnly: true, tier: 'user' },
];

/** The key of a recorded option in a results file's `settings`: camelCase, a duration's in milliseconds. */
export function recordedKey(o: OptionDef): string {
  const camel = o.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return o.kind === 'duration' ? `${camel}Ms` : camel;
}

/**
 * The defaults `pairbench noise` sets in place of the table's: an A/A run takes every pair it is
 * given (no early stop), so it takes fewer than a comparison may.
 */
export const NOISE_DEFAULTS = { 'max-pairs': '60' } as const;

export function optionDef(name: string): OptionDef | undefined {
  return COMPARE_OPTIONS.find((o) => o.name === name);
}
