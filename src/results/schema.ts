/**
 * The results in memory, the one hand-over between measuring and judging, and the results file of
 * version 1 (`schemaVersion: 1`), which has their shape.
 *
 * pairbench writes files of version 2 (schema-v2.ts, converted by v2.ts) and reads both. A file of
 * either holds every raw pair, so any report can be rendered again and any statistic recomputed
 * (`pairbench report`). Reading version 1 is lenient: a file written by another tool needs only
 * `schemaVersion`, `base`, `head` and, per benchmark, `name`, `unit`, `direction` and `pairs`;
 * everything derived is recomputed from the pairs.
 */
import { z } from 'zod';
import { LIMITS } from '../config/limits.ts';

/** Caps for reading untrusted files (artifacts from fork PRs), shared with the options that bound a comparison (config/limits.ts). */
export { LIMITS };

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

const nonnegative = finite.refine((v) => v >= 0, 'must be 0 or greater');

/**
 * One pair: both values above 0, or both 0 (a count both sides printed as 0, Go's `0 allocs/op`:
 * an equal pair). A pair with one side at 0 forms no ratio and is kept in `oneSidedPairs`.
 */
const PairSchema = z
  .object({
    base: nonnegative,
    head: nonnegative,
    order: z.enum(['base-first', 'head-first']),
  })
  .refine((p) => (p.base === 0) === (p.head === 0), 'base and head must both be greater than 0, or both 0 (a pair with one side at 0 belongs in oneSidedPairs)');

/**
 * A pair with exactly one side at 0: it forms no ratio (`oneSidedPairs`). `after`: how many of the
 * benchmark's `pairs` were measured before it, so that it stands in measuring order among them.
 */
const OneSidedPairSchema = z
  .object({
    base: nonnegative,
    head: nonnegative,
    order: z.enum(['base-first', 'head-first']),
    after: z.number().int().nonnegative().optional(),
  })
  .refine((p) => (p.base === 0) !== (p.head === 0), 'exactly one of base and head must be 0');

const RevisionSchema = z.object({
  ref: z.string().max(1024).nullable().optional(),
  sha: z.string().max(64).nullable().optional(),
  dir: z.string().max(4096).nullable().optional(),
});

const SideSummarySchema = z.object({
  n: z.number(),
  median: z.number(),
  mean: z.number(),
  min: z.number(),
  max: z.number().optional(),
  cv: z.number(),
  iqr: z.number(),
  /** median absolute deviation × 1.4826, same unit: the robust spread of single runs */
  mad: z.number().optional(),
});

const DiagnosticSchema = z.object({
  code: z.string().max(64),
  severity: z.enum(['info', 'warning']),
  /**
   * the finding in words: written by other tools, and by pairbench before it stored only the code
   * and figures; a report shows it when it cannot word the finding from them
   */
  message: z.string().max(4096).optional(),
  /** the figures it states (stats/types.ts, `Finding`), from which each report words it (report/findings.ts) */
  figures: z.record(z.string(), z.unknown()).optional(),
});

const ChangeSchema = z.object({
  estimate: z.number(),
  ci: z.tuple([z.number(), z.number()]),
  confidence: z.number().optional(),
  /** the level the interval is computed at and the verdict read from (multiple benchmarks, early stop) */
  ciLevel: z.number().optional(),
  /** the same as `ciLevel` when it differs from `confidence` (files before `ciLevel`) */
  level: z.number().optional(),
  /** the confidence the interval actually has: below `ciLevel` only when too few pairs make it unreachable */
  achievedConfidence: z.number().optional(),
  pValue: z.number(),
  pAdjusted: z.number().optional(),
  /**
   * the test that gave `pValue` (stats/types.ts, `PairedTest`): `sign-flip` with an outlier screen,
   * `signed-rank` with `outliers: none`; absent in files written before it was recorded
   */
  test: z.enum(['sign-flip', 'signed-rank']).optional(),
  method: z.enum(['exact', 'normal', 'monte-carlo']).optional(),
  /** standard error of a Monte Carlo p-value */
  pMonteCarloError: z.number().optional(),
  /** `equivalence`: `ci` is the equivalence interval that decided `unchanged` */
  basis: z.enum(['equivalence']).optional(),
  /** the equivalence interval (two one-sided tests at alpha) and its level */
  equivalence: z.object({ ci: z.tuple([z.number(), z.number()]), level: z.number() }).optional(),
  /** with `basis: 'equivalence'`: the test's interval at the correction's level */
  tested: z.object({ ci: z.tuple([z.number(), z.number()]), level: z.number(), achievedConfidence: z.number().optional() }).optional(),
  /**
   * `min-change` applied (stats/floor.ts): the floor in the result's unit, as typed, and the relative
   * margin the verdict was read against (the larger of the threshold and the floor's share of the base)
   */
  floor: z.object({ amount: z.number(), text: z.string().max(64), margin: z.number() }).optional(),
  /** a throughput's change read from its time's (`reciprocalOf`): that result's name */
  readFrom: z.string().min(1).max(LIMITS.nameLength).optional(),
});

const FailureSchema = z.object({
  side: z.enum(['base', 'head']),
  kind: z.enum(['build', 'exit', 'timeout', 'signal', 'parse', 'spawn']),
  exitCode: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
  stderrTail: z.string().max(65_536).optional(),
  message: z.string().max(65_536),
});

/**
 * The longest text a recorded setting may hold (a `build` command is the longest pairbench writes);
 * a longer one reads as absent.
 */
const SETTING_TEXT = 65_536;

/** A recorded setting's value: one flat value, as every flag takes. */
const RecordedScalarSchema = z.union([z.string().max(SETTING_TEXT), finite, z.boolean(), z.null()]);

/** `settings.benchmarks`: the benchmarks of the run as its Spec named them (engine.ts, `recordedSettings`). */
const RecordedBenchmarksSchema = z
  .array(
    z.object({
      name: z.string().max(LIMITS.nameLength),
      run: z.string().max(SETTING_TEXT).optional(),
      format: z.string().max(64).optional(),
      metrics: z.array(z.string().max(64)).max(16).optional(),
      threshold: finite.optional(),
      minChange: z.string().max(64).optional(),
      direction: z.string().max(64).optional(),
      prepare: z.string().max(SETTING_TEXT).optional(),
      shell: z.string().max(64).optional(),
      filter: z.string().max(SETTING_TEXT).optional(),
      interleave: z.string().max(64).optional(),
      batch: z.number().int().min(1).max(LIMITS.batch).optional(),
      iterations: z.string().max(64).optional(),
      design: z.string().max(64).optional(),
    }),
  )
  .max(LIMITS.benchmarks);

/**
 * `settings`, read leniently: they are a convenience (the replay line, re-judging one's own file,
 * results/rejudge.ts), never needed to judge the pairs. Each value is a flat value (a string, a
 * finite number, true or false, null), or `benchmarks`, the one list pairbench writes there; any
 * other value (an object, a list, a nesting of them) reads as absent, and so does `settings`
 * itself when it is not an object. What each setting may then decide is rejudge.ts's rule.
 */
const RecordedSettingsSchema = z.unknown().transform((raw): Record<string, unknown> | undefined => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key.length > 64) continue;
    const read = (key === 'benchmarks' ? RecordedBenchmarksSchema : RecordedScalarSchema).safeParse(value);
    if (read.success) out[key] = read.data;
  }
  return out;
});

const VerdictSchema = z.enum(['regression', 'improvement', 'unchanged', 'inconclusive']);

const BenchmarkResultSchema = z.object({
  name: z.string().min(1).max(LIMITS.nameLength),
  unit: z.string().max(64),
  direction: z.enum(['lower-is-better', 'higher-is-better']),
  metric: z.string().max(64).optional(),
  /** this benchmark's own threshold (config file), relative */
  threshold: z.number().optional(),
  /** this benchmark's own minimum absolute change (config file `min-change`), as typed: `5ms` (stats/floor.ts) */
  minChange: z.string().max(64).optional(),
  /**
   * the name of the result this one is a scaled reciprocal of in every run (Go's `MB/s` of its
   * `ns/op`): judged from that result's pairs when they agree, outside the correction's family
   * (stats/judge.ts, `reciprocalRows`)
   */
  reciprocalOf: z.string().min(1).max(LIMITS.nameLength).optional(),
  verdict: VerdictSchema.optional(),
  /** `added` / `removed`: the benchmark appeared on one side only (harness suites) */
  presence: z.enum(['both', 'added', 'removed']).optional(),
  stoppedBecause: z.string().max(64).optional(),
  pairs: z.array(PairSchema).max(LIMITS.pairsPerBenchmark),
  /**
   * pairs in which one side printed 0 and the other did not (a Go `B/op` that a pool refilled in
   * some runs, an allocation a revision adds), in the order measured: they form no ratio, so they
   * are not in `pairs`, and an excess on one side weighs against `unchanged`
   * (stats/one-sided.ts)
   */
  oneSidedPairs: z.array(OneSidedPairSchema).max(LIMITS.pairsPerBenchmark).optional(),
  outliers: z.array(z.number().int().nonnegative()).optional(),
  outliersKept: z.array(z.number().int().nonnegative()).optional(),
  base: SideSummarySchema.optional(),
  head: SideSummarySchema.optional(),
  pairedCv: z.number().optional(),
  /** robust spread of the ratios head/base across pairs: MAD × 1.4826 / median */
  pairedMad: z.number().optional(),
  change: ChangeSchema.nullable().optional(),
  pairsToSettle: z.number().nullable().optional(),
  diagnostics: z.array(DiagnosticSchema).max(100).optional(),
  failure: FailureSchema.optional(),
  /**
   * pairbench's own per-run cost in this row's unit (the start of `sh -c`), measured by empty
   * calibration runs interleaved with the pairs. The pairs stay raw; the overhead (the median of
   * `samples` when present, else `ms`) is subtracted from both sides of every pair when judged.
   */
  overhead: z
    .object({
      ms: finite.refine((v) => v >= 0, 'must be 0 or more'),
      n: z.number().int().nonnegative().optional(),
      method: z.string().max(512).optional(),
      samples: z.array(finite).max(LIMITS.pairsPerBenchmark).optional(),
    })
    .optional(),
  /** Go, `--iterations fixed`: every run of this benchmark, on both sides, did this many iterations (`-test.benchtime=Nx`) */
  iterations: z.number().int().positive().optional(),
  /**
   * `--design auto`: how its runs were designed (schedule/choose-design.ts). Its first `pilotPairs` pairs ran
   * the pilot's design (its repetitions per process, at each of its lengths in turn); every later pair
   * `repetitions` repetitions of `lengthMs` per process (Go: `iterations` each; pyperf: `iterations` loops each), after `warmup` more
   * left out of the value, the same on both sides. With `coldStart`, the pilot's pairs are kept
   * here but not judged (results/cold-pilot.ts). `components` are what the pilot measured, on the
   * log scale as standard deviations: between processes, within one (for repetitions of
   * `repetitionMs`, falling as length^-lengthExponent).
   */
  design: z
    .object({
      repetitions: z.number().int().positive(),
      /** repetitions run first in each process and left out of its value (a warm-up); absent: none */
      warmup: z.number().int().nonnegative().max(16).optional(),
      lengthMs: z.number().nonnegative(),
      iterations: z.number().int().positive().optional(),
      pilotPairs: z.number().int().nonnegative(),
      pilot: z.object({ repetitions: z.number().int().positive(), warmup: z.number().int().nonnegative().max(16).optional(), lengthsMs: z.array(z.number().nonnegative()).max(16) }),
      chosen: z.boolean(),
      /** Go: its pilot ran a cold start (`first`: the listing's first iteration far slower than the pilot's; `modes`: the pilot's processes at speeds far apart); its `pilotPairs` are not judged */
      coldStart: z.enum(['first', 'modes']).optional(),
      components: z.object({ betweenSd: z.number(), withinSd: z.number(), repetitionMs: z.number(), lengthExponent: z.number(), processMs: z.number() }).optional(),
      predicted: z.object({ pairSd: z.number(), pairMs: z.number() }).optional(),
    })
    .optional(),
  /** `futile`: how many pairs in all it needed for a verdict (`hope`: the fewest on the most hopeful reading of its pairs), and how many the budget left could give it when it stopped */
  futility: z.object({ need: z.number().int().nonnegative(), hope: z.number().int().nonnegative().optional(), affordable: z.number().int().nonnegative() }).optional(),
  /** runs that failed and were retried (a flaky command), per side */
  failedRuns: z.object({ base: z.number().int().nonnegative(), head: z.number().int().nonnegative() }).optional(),
  /** `pairbench noise` (an A/A run): the noise floor of this benchmark on this machine */
  noise: z
    .object({
      pairs: z.number(),
      singleRunCv: z.number(),
      pairedCv: z.number(),
      pairedLogSd: z.number(),
      pairingGain: z.number(),
      aaChange: z.number(),
      detectable: z.array(z.object({ pairs: z.number(), change: z.number() })).max(16),
      pairsForThreshold: z.number(),
      suggestedThreshold: z.number(),
    })
    .optional(),
});

/** A toolchain's version line per tool (`go`, `rustc`, `node`, `python3`, `cc`), as the tool printed it. */
const ToolchainsSchema = z.record(z.string().max(32), z.string().max(256));

/**
 * Where a comparison ran: the machine (CPU model, cores, kernel, OS image) and the toolchains each
 * side was built with, each found in that side's folder with the run's PATH (measure/environment.ts).
 */
const EnvironmentSchema = z.object({
  os: z.string().max(256).optional(),
  cpu: z.string().max(256).optional(),
  cores: z.number().optional(),
  node: z.string().max(64).optional(),
  runner: z.string().max(256).optional(),
  /** the kernel's release (`uname -r`) */
  kernel: z.string().max(256).optional(),
  /** the OS image: /etc/os-release's PRETTY_NAME */
  image: z.string().max(256).optional(),
  toolchains: z.object({ base: ToolchainsSchema.optional(), head: ToolchainsSchema.optional() }).optional(),
});

export const ResultsSchema = z.object({
  schemaVersion: z.literal(1),
  /** `compare` (the default) or `noise` (an A/A run of one revision) */
  kind: z.enum(['compare', 'noise']).optional(),
  tool: z.object({ name: z.string().max(64), version: z.string().max(64) }).optional(),
  base: RevisionSchema,
  head: RevisionSchema,
  environment: EnvironmentSchema.optional(),
  /** after a merge of files from more than one environment: each environment, in the files' order (results/environment-differences.ts) */
  environments: z.array(EnvironmentSchema).max(1000).optional(),
  settings: RecordedSettingsSchema.optional(),
  status: z.enum(['running', 'complete', 'partial', 'failed']).optional(),
  stoppedBecause: z.string().max(64).optional(),
  startedAt: z.string().max(64).optional(),
  finishedAt: z.string().max(64).nullable().optional(),
  verdict: VerdictSchema.optional(),
  geomean: z.number().nullable().optional(),
  /** per round, the order in which the benchmarks were measured (freshly shuffled each round) */
  rounds: z.array(z.array(z.string().max(LIMITS.roundUnitLength))).optional(),
  shard: z.object({ index: z.number().int().min(1).max(1000), count: z.number().int().min(1).max(1000) }).optional(),
  /** after a merge: the shards (1-based) whose results file was missing */
  missingShards: z.array(z.number().int()).max(1000).optional(),
  /** benchmarks left out by changed-only (revisions/changed-paths.ts), each with why: listed, never dropped */
  notRun: z.array(z.object({ name: z.string().max(LIMITS.nameLength), why: z.string().max(200) })).max(LIMITS.benchmarks).optional(),
  failures: z.array(FailureSchema.extend({ benchmark: z.string().max(LIMITS.nameLength).optional() })).optional(),
  benchmarks: z.array(BenchmarkResultSchema).max(LIMITS.benchmarks),
});

export type BenchmarkResult = z.infer<typeof BenchmarkResultSchema>;
export type Results = z.infer<typeof ResultsSchema>;
export type Failure = z.infer<typeof FailureSchema>;
export type Environment = z.infer<typeof EnvironmentSchema>;
