/**
 * A harness is a value: one object per `--format` that owns what pairbench knows of that format.
 * How its output is read (`parse`), how one of its runs is narrowed to named benchmarks (`select`),
 * how pairbench sizes and designs its runs (`design`), and what its reports advise beside a noisy
 * benchmark (`advice`); with them, the toolchains its results name and how a failed run explains
 * itself (`failure`). The rest of pairbench asks the format's harness (registry.ts, `harnessOf`)
 * instead of testing the format's name, so everything a format does is read in one place, and a new
 * format is one object added to the registry. Text and numbers in, answers out; no I/O.
 */
import type { Summary } from '../stats/design-model.ts';
import type { Direction, Finding } from '../stats/types.ts';
import type { Sample } from './types.ts';

export interface ParseOptions {
  /**
   * For `json` entries that carry no `direction` of their own (a config benchmark's `direction`).
   * The other formats know each metric's direction and ignore it.
   */
  defaultDirection?: Direction;
  /**
   * The name of a result printed without one: the one benchmark a run selected, where that run's
   * harness prints no names (Criterion's `--quick`: criterion-quick.ts). Absent: such a result is an error.
   */
  unnamed?: string;
  /**
   * A time printed as 0 is kept for the run's files to replace (harness.ts, `FileReading`): a
   * Criterion bencher line prints a median under 1 ns as 0 ns, which the median it saves keeps
   * (criterion-estimates.ts). Absent: a time of 0 is left out, and every value 0 is an error.
   */
  keepZeroTimes?: boolean;
}

/** The command and environment of one run that executes only some benchmarks, or is sized. */
export interface Selection {
  command: string;
  env: Record<string, string>;
}

/**
 * How pairbench sizes a run (the design of its runs, schedule/choose-design.ts): Go's iteration count
 * (`-test.benchtime=Nx`) and repetitions (`-test.count`); Google Benchmark's minimum time
 * (`--benchmark_min_time`, seconds) and repetitions (`--benchmark_repetitions`); pyperf's loops
 * (`--loops`) and values (`--values`) in one worker process. Each is appended after the command's
 * own flags, which all three harnesses let the last one win.
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

/** How a run of the format is narrowed to named benchmarks (select.ts runs it). */
export interface Selector {
  /** The `{filter}` that matches exactly `names` (as the parser names them), in the format's own filter syntax. */
  filter(names: readonly string[]): string;
  /** The `{filter}` that selects the whole suite. */
  readonly all: string;
  /** The filter flag pairbench appends to one simple command that has no placeholder, or null when it appends none. */
  autoFlag(command: string): string | null;
  /** `{file}`: the files that hold `names`, one argument each; absent where the format has no file filter. */
  files?(names: readonly string[]): string[];
  /** Why the benchmark `name` cannot be selected, beyond what no format selects (a leading `-`, a control character); null when it can. */
  refuses?(name: string): string | null;
  /**
   * Whether a config entry's `filter` matches the result `name` in a form the harness also names
   * it by (Go's `-GOMAXPROCS` suffix); absent where only the name itself counts.
   */
  alsoMatches?(filter: RegExp, name: string, env: Record<string, string | undefined>): boolean;
}

/**
 * Go, `--iterations fixed`: every run of a benchmark paired on its own does the same number of
 * iterations, taken from the listing run (harness/go-iterations.ts).
 */
export type FixedIterations =
  /** the run cannot be given a count: `note` says why, for the log */
  | { note: string }
  /** the count for one iteration of `nsPerOp`, and the log line for counts from `min` to `max` */
  | { count(nsPerOp: number): number; log(min: number, max: number): string };

/** Go: when a pilot ran a cold start, and what a design then does (harness/go-cold-start.ts). */
export interface ColdStartRule {
  /** the fewest iterations a designed repetition runs after a cold start */
  readonly minIterations: number;
  /**
   * How a cold start showed in a pilot, or null when none is evident: `listedMs` the listing's one
   * iteration, `opMs` the pilot's steady one, `ops` one iteration in each pilot process,
   * `pilotIterations` the iterations of a pilot repetition at each of its lengths.
   */
  detect(pilot: { listedMs: number; opMs: number; ops: readonly number[]; pilotIterations: ReadonlyArray<number | undefined> }): 'first' | 'modes' | null;
  /** Whether the pilot's processes ran an iteration at speeds far apart from their median `opMs`. */
  inModes(ops: readonly number[], opMs: number): boolean;
}

/** What the format lets pairbench do to design its runs (`--design auto`, schedule/choose-design.ts). */
export interface RunDesign {
  /** The flags (their values in the environment) that size a run of `command`, or null when it cannot be sized (not one simple command; pyperf: no selection placeholder). */
  sizingFlags(command: string, sizing: Sizing): Selection | null;
  /**
   * Where `sizingFlags` go, as for a counted run (`CountingRule.flagsAt`): `end`, after the whole
   * command (Go, Google Benchmark); `selection`, at the end of the simple command that holds the
   * selection placeholder, before what the shell does next (pyperf: `>&2 && cat build/bench.json`).
   */
  readonly flagsAt: 'end' | 'selection';
  /** The command's own length of a run, ms: the longest repetition a design may choose. */
  commandLengthMs(command: string): number;
  /** How a process's value is made from its repetitions (harness/types.ts, `Sample.combine`). */
  readonly summary: Summary;
  /**
   * How a repetition's length is set: `iterations`, a count of iterations pairbench fixes from one
   * iteration's time (Go's `-test.benchtime=Nx`); `time`, a least time the harness fills itself
   * (Google Benchmark's `--benchmark_min_time`).
   */
  readonly lengthBy: 'iterations' | 'time';
  /**
   * Iterations the harness runs before each repetition, unasked, which a repetition's cost includes
   * (stats/design-model.ts, `varianceComponents`): Go runs b.N = 1 before each sized run; 0 where
   * the harness runs only what it is sized to (Google Benchmark's time, pyperf's loops).
   */
  readonly iterationsBeforeRepetition: number;
  /** Repetitions the pilot runs first in each process, so the design can weigh a warm-up repetition. */
  readonly pilotWarmup: number;
  /** When a pilot ran a cold start (Go), or null where the format has none. */
  readonly coldStart: ColdStartRule | null;
  /** `--iterations fixed` for runs not designed (Go); null: the harness sizes every run itself. */
  fixedIterations: ((command: string, batch: number) => FixedIterations | null) | null;
}

/**
 * What a report knows of a benchmark whose time row stays noisy even in pairs (read from the
 * results file alone, so `pairbench report` says it again): the facts a harness's advice reads.
 */
export interface NoisyBenchmark {
  /** the run command, as recorded */
  readonly run: string;
  /** every run was bound to one CPU (`--cpus` of one, or the pairs at once: each side on a CPU of its own) */
  readonly boundToOneCpu: boolean;
  /** whether its processes ran several benchmarks (`--batch` above 1, or whole runs of the suite) */
  batched(): boolean;
  /** the head side's values of the benchmark's metric `metric` (`<name> (<metric>)`), or null when it has none */
  metric(metric: string): number[] | null;
}

/** One error a harness wrote into its report: where it happened (`''`: not said) and its message as the report holds it. */
export interface ReportedError {
  where: string;
  message: unknown;
}

/**
 * How a failed run of the format says why in its own words (failure.ts words it): a JavaScript
 * harness writes a failing file's error into its report, not on stderr.
 */
interface FailureReading {
  /** The errors the harness wrote into a report (`text`: the run's stdout, or the report file), in its order. */
  errors(text: string): ReportedError[];
  /** The report file a failed run's output names, or null; absent where the report is the run's stdout. */
  reportFile?(output: string): string | null;
  /** The npm package whose `engines.node` the harness needs, so a run's older `node` can be named. */
  readonly package?: string;
}

/**
 * How one benchmark of the format runs a fixed number of iterations, so that its instructions can
 * be counted per iteration (`--metric instructions` with a harness format, schedule/count-runs.ts):
 * a run of `iterations` and one of `setupIterations`, both counted; the difference, divided by
 * the difference of the iteration counts, is the count of one iteration, with the process's start
 * and the harness's set-up (which do not scale with the iterations) cancelled.
 */
export interface CountingRule {
  /** M: the iterations of the run whose count is subtracted (Go runs a benchmark once with b.N = 1 before its sized run, so 2 is the least that is also fixed) */
  readonly setupIterations: number;
  /** The flags (their values in the environment) that make one run of `command` do exactly `iterations` iterations, once; null when it cannot be sized (not one simple command). */
  runFor(command: string, iterations: number): Selection | null;
  /** The environment a run needs under valgrind, from the run's own (Go: no asynchronous preemption, whose signals valgrind delivers late). */
  valgrindEnv(env: Record<string, string | undefined>): Record<string, string>;
  /**
   * Where `runFor`'s flags go: `end`, after the whole command (Go, Google Benchmark: one simple
   * command, whose flag parser takes the last of a flag); `selection`, at the end of the simple
   * command that holds the run's selection placeholder (`{benchmark}`), before what the shell does
   * next (`>&2 && cat build/bench.json`), so that such a command is sized too and the flags come
   * after the command's own: Python's argparse, which pyperf and pytest read their flags with,
   * takes the last of a flag (select.ts, `appendToSelected`).
   */
  readonly flagsAt: 'end' | 'selection';
  /** Why a counted run's output shows the harness cannot run a fixed count (an older Google Benchmark), or null. */
  refusal?(output: string): string | null;
}

/**
 * A format whose benchmarks cannot be counted one by one: why, in the format's own terms, and what
 * to use instead; `--metric instructions` with it is refused with this line (config/spec.ts).
 */
interface Uncounted {
  readonly uncounted: string;
}

/**
 * Where a run leaves its values at full precision: pairbench points the run at a folder of its own
 * through an environment variable, reads the files it wants there after the run (measure/run-files.ts),
 * and the samples are refined from them. Text in, samples out, as a parser.
 */
export interface FileReading {
  /** the environment variable that names the folder; a run whose environment sets it is read as printed */
  readonly variable: string;
  /** whether a run of this command writes the files, and may be pointed at another folder */
  applies(command: string): boolean;
  /** whether the file at this path, relative to the folder, is read */
  wanted(path: string): boolean;
  /** the samples with what the run wrote (the wanted files' text by relative path) */
  refine(samples: Sample[], files: ReadonlyMap<string, string>): Sample[];
}

/** One benchmark-harness format. */
export interface Harness<F extends string = string> {
  /** the `--format` name */
  readonly format: F;
  /** One run's output into samples; throws HarnessParseError when it is not what the format prints. */
  parse(text: string, options?: ParseOptions): Sample[];
  /** How a run is narrowed to named benchmarks; null when no run of the format can be. */
  readonly select: Selector | null;
  /** How pairbench sizes and designs runs; null when it runs them as the command says. */
  readonly design: RunDesign | null;
  /**
   * The command with flags that make each run cost less without changing the values the format's
   * parser reads, applied under `--design auto` (Criterion: `--nresamples`, criterion-trim.ts), and
   * the flags it added (for the log); null when it stays as written; absent where the format has none.
   */
  trim?(command: string): { command: string; added: string } | null;
  /**
   * The (trimmed) command of a run that selects one benchmark, made shorter where the format's
   * `files` keep the value and the name its printed output then drops, under `--design auto`
   * (Criterion's `--quick`, criterion-quick.ts), and the flags it added; null when it stays as
   * written; absent where the format has none.
   */
  quick?(command: string): { command: string; added: string } | null;
  /** Whether a failed run's output refuses what `quick` added (an older version without it). */
  quickRefused?(output: string): boolean;
  /**
   * Files a run writes its values to at a precision its printed output does not keep, read under
   * `--design auto` (Criterion's saved medians: criterion-estimates.ts); absent where the format has none.
   */
  readonly files?: FileReading;
  /**
   * Benchmarks each process runs where `--batch` is not given, under `--design auto`, when each
   * benchmark of a suite is paired on its own and timed: more than one where a process's start costs
   * many times what one benchmark's measurement does (pytest-benchmark, registry.ts; vitest,
   * js-harnesses.ts); absent: one.
   */
  readonly batch?: number;
  /**
   * What the format's reports advise beside a noisy benchmark's warning (the `go-noise` and
   * `js-noise` findings; report/findings.ts words them): none where the format has no lever of its own.
   */
  advice(noisy: NoisyBenchmark): Finding[];
  /** The toolchains its benchmarks are built or run with (measure/environment.ts); null: any. */
  readonly toolchains: readonly string[] | null;
  /** What a failed run says in the harness's own words beyond its output's last lines; null: nothing more. */
  readonly failure: FailureReading | null;
  /** How one benchmark runs a fixed iteration count for instruction counts, or why the format's benchmarks cannot be counted one by one. */
  readonly counting: CountingRule | Uncounted;
}

/** For a format whose reports advise nothing of their own. */
export const noAdvice = (): Finding[] => [];
