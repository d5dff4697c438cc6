/**
 * The results file on disk, `schemaVersion: 2`: what was measured, apart from what was judged.
 *
 * - `measured`: the revisions, the machine, the settings of the run, and per benchmark its raw
 *   pairs and how they were taken. Nothing in it is derived from the pairs, so `pairbench report`
 *   never changes it.
 * - `judging`: the settings a judgement is made with (alpha, threshold, outlier rule, correction,
 *   floor, gate), each once; a benchmark's own threshold or floor (a config file's) is listed there
 *   too, by its name. Present before anything is judged, so an interrupted run is judged later as
 *   it would have been.
 * - `judgement`: what the pairs were judged to say, stamped with the pairbench that judged them:
 *   per benchmark its verdict, each interval once with its own level (the test's and the
 *   equivalence interval), what decided the row, and the findings. `null` until the run is judged
 *   (a file written while measuring, `status: running`); `pairbench report` rebuilds it.
 *
 * Every object is strict: a field this schema does not declare is refused, so what a file says
 * is what the schema says (docs/results.schema.json is generated from it, scripts/results-schema.ts).
 * The in-memory model the rest of pairbench works on keeps the shape of version 1 (schema.ts);
 * results/v2.ts converts between the two.
 */
import { z } from 'zod';
import { LIMITS } from '../config/limits.ts';

const finite = z.number();
const nonnegative = z.number().min(0);
const count = z.number().int().min(0);
const name = z.string().min(1).max(LIMITS.nameLength);
const interval = z.tuple([z.number(), z.number()]);
const level = z.number().min(0).max(1);
/**
 * A figure of `pairbench noise` that these pairs may not give: null when it could not be measured
 * or reached (too few pairs to reach alpha at max-pairs, no spread to measure), read as NaN.
 */
const noiseFigure = z.number().nullable().describe('null: not measurable from these pairs');

const PairSchema = z
  .strictObject({
    base: nonnegative,
    head: nonnegative,
    order: z.enum(['base-first', 'head-first']).describe("the pair's coin: which side ran first in this pair (where the pairs ran at once, which side had the first of the two CPUs)"),
  })
  .refine((p) => (p.base === 0) === (p.head === 0), 'base and head must both be greater than 0, or both 0 (a pair with one side at 0 belongs in oneSidedPairs)')
  .describe('one pair: a run of each side, as measured (raw: no overhead subtracted)');

const OneSidedPairSchema = z
  .strictObject({
    base: nonnegative,
    head: nonnegative,
    order: z.enum(['base-first', 'head-first']),
    after: count.optional().describe("how many of the benchmark's pairs were measured before it"),
  })
  .refine((p) => (p.base === 0) !== (p.head === 0), 'exactly one of base and head must be 0')
  .describe('a pair with exactly one side at 0: it forms no ratio');

const RevisionSchema = z.strictObject({
  ref: z.string().max(1024).nullable().optional(),
  sha: z.string().max(64).nullable().optional(),
  dir: z.string().max(4096).nullable().optional(),
});

const ToolSchema = z.strictObject({ name: z.string().max(64), version: z.string().max(64) });

const ToolchainsSchema = z.record(z.string().max(32), z.string().max(256));

const EnvironmentSchema = z.strictObject({
  os: z.string().max(256).optional(),
  cpu: z.string().max(256).optional(),
  cores: z.number().optional(),
  node: z.string().max(64).optional(),
  runner: z.string().max(256).optional(),
  kernel: z.string().max(256).optional().describe('uname -r'),
  image: z.string().max(256).optional().describe("the OS image: /etc/os-release's PRETTY_NAME"),
  toolchains: z.strictObject({ base: ToolchainsSchema.optional(), head: ToolchainsSchema.optional() }).optional().describe('the toolchain version line per tool, as each side found it'),
});

const FailureSchema = z.strictObject({
  side: z.enum(['base', 'head']),
  kind: z.enum(['build', 'exit', 'timeout', 'signal', 'parse', 'spawn']),
  exitCode: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
  stderrTail: z.string().max(65_536).optional(),
  message: z.string().max(65_536),
});

/** The longest text a setting may hold (a `build` command is the longest pairbench writes). */
const SETTING_TEXT = 65_536;
const text = z.string().max(SETTING_TEXT);
const word = z.string().max(64);

/** `measured.settings.benchmarks`: the benchmarks of the run as its config named them. */
const RunBenchmarkSchema = z.strictObject({
  name: z.string().max(LIMITS.nameLength),
  run: text.optional(),
  format: word.optional(),
  metrics: z.array(word).max(16).optional(),
  direction: word.optional(),
  prepare: text.optional(),
  shell: word.optional(),
  filter: text.optional(),
  interleave: word.optional(),
  batch: z.number().int().min(1).max(LIMITS.batch).optional(),
  iterations: word.optional(),
  design: word.optional(),
});

/**
 * How the run measured: each option of `compare` it was given that shapes the measuring, under
 * its camelCase name (a duration in milliseconds), and what it found out about the machine. The
 * settings of judging are in `judging`.
 */
export const RunSettingsSchema = z
  .strictObject({
    seed: z.number().int().optional().describe('seed of the pair order, and of the sign-flip test\'s Monte Carlo draws'),
    minPairs: count.optional(),
    maxPairs: count.optional(),
    maxTimeMs: nonnegative.optional(),
    precision: nonnegative.optional().describe('--precision as a fraction, when given'),
    warmup: count.optional(),
    timeoutMs: nonnegative.optional(),
    cpus: word.optional(),
    isolation: text.optional().describe('--cpus auto: whether the measured runs were bound to CPUs of their own, and why'),
    freshCopy: word.optional(),
    pairRuns: word.optional().describe('--pair-runs: auto (at once where the machine allowed), in-turn (the runs of a pair one after the other) or at-once (both together, each on a CPU of its own)'),
    atOnce: text.optional().describe('--pair-runs auto or at-once: the CPUs of the two sides ("at once: ..."), or why the pairs ran in turn ("in turn: ...")'),
    build: text.nullable().optional(),
    metric: word.optional().describe('the metrics measured, comma-separated'),
    timer: word.optional(),
    instructionCounter: word.optional(),
    buildCacheKey: text.optional(),
    buildCacheHit: z.boolean().optional(),
    changedOnly: z.boolean().optional(),
    pathsMode: word.optional(),
    benchmarks: z.array(RunBenchmarkSchema).max(LIMITS.benchmarks).optional(),
  })
  .describe('the settings of the run that shape the measuring');

const MeasuredBenchmarkSchema = z.strictObject({
  name,
  unit: word,
  direction: z.enum(['lower-is-better', 'higher-is-better']),
  metric: word.optional(),
  reciprocalOf: name.optional().describe("the result this one is a scaled reciprocal of in every run (Go's MB/s of its ns/op)"),
  presence: z.enum(['both', 'added', 'removed']).optional().describe('added / removed: measured on one side only'),
  stoppedBecause: word.optional(),
  futility: z
    .strictObject({ need: count, hope: count.optional(), affordable: count })
    .optional()
    .describe('stopped as futile: the pairs in all it needed for a verdict (hope: on the most hopeful reading), and how many the budget left could give'),
  pairs: z.array(PairSchema).max(LIMITS.pairsPerBenchmark),
  oneSidedPairs: z.array(OneSidedPairSchema).max(LIMITS.pairsPerBenchmark).optional(),
  overhead: z
    .strictObject({
      ms: nonnegative,
      n: count.optional(),
      method: z.string().max(512).optional(),
      samples: z.array(finite).max(LIMITS.pairsPerBenchmark).optional(),
    })
    .optional()
    .describe("pairbench's own per-run cost in this row's unit, subtracted from both sides of every pair when judged"),
  iterations: z.number().int().positive().optional().describe('Go, --iterations fixed: iterations of every run'),
  design: z
    .strictObject({
      repetitions: z.number().int().positive(),
      warmup: z.number().int().nonnegative().max(16).optional(),
      lengthMs: nonnegative,
      iterations: z.number().int().positive().optional(),
      pilotPairs: count,
      pilot: z.strictObject({ repetitions: z.number().int().positive(), warmup: z.number().int().nonnegative().max(16).optional(), lengthsMs: z.array(nonnegative).max(16) }),
      chosen: z.boolean(),
      coldStart: z.enum(['first', 'modes']).optional(),
      components: z.strictObject({ betweenSd: z.number(), withinSd: z.number(), repetitionMs: z.number(), lengthExponent: z.number(), processMs: z.number() }).optional(),
      predicted: z.strictObject({ pairSd: z.number(), pairMs: z.number() }).optional(),
    })
    .optional()
    .describe('--design auto: how its runs were designed; the first pilotPairs pairs ran the pilot'),
  failedRuns: z.strictObject({ base: count, head: count }).optional().describe('runs that failed and were retried, per side'),
  failure: FailureSchema.optional(),
});

const MeasuredSchema = z.strictObject({
  tool: ToolSchema.optional().describe('the pairbench that measured'),
  revisions: z.strictObject({ base: RevisionSchema, head: RevisionSchema }),
  environment: EnvironmentSchema.optional(),
  environments: z.array(EnvironmentSchema).max(1000).optional().describe('after a merge of files from more than one environment: each of them'),
  settings: RunSettingsSchema.optional(),
  startedAt: z.string().max(64).optional(),
  finishedAt: z.string().max(64).nullable().optional(),
  stoppedBecause: word.optional(),
  rounds: z.array(z.array(z.string().max(LIMITS.roundUnitLength))).optional().describe('per round, the order in which the benchmarks were measured'),
  shard: z.strictObject({ index: z.number().int().min(1).max(1000), count: z.number().int().min(1).max(1000) }).optional(),
  missingShards: z.array(z.number().int()).max(1000).optional(),
  notRun: z.array(z.strictObject({ name: z.string().max(LIMITS.nameLength), why: z.string().max(200) })).max(LIMITS.benchmarks).optional().describe('benchmarks left out by changed-only, each with why'),
  failures: z.array(FailureSchema.extend({ benchmark: z.string().max(LIMITS.nameLength).optional() })).optional(),
  benchmarks: z.array(MeasuredBenchmarkSchema).max(LIMITS.benchmarks),
});

// The values of judging are read as their types only: whether one may decide a judgement is the
// rule of results/rejudge.ts, which drops a forged one with a warning, in a file of either version.
const ThresholdSchema = z.number().describe('smallest relative change that counts (0.02: 2%)');
const MinChangeSchema = z.string().max(64).describe('smallest absolute change that also counts, as typed: 5ms, 1KB');

export const JudgingSchema = z
  .strictObject({
    alpha: z.number().optional().describe('significance level, after the correction for the number of benchmarks'),
    threshold: ThresholdSchema.optional(),
    minChange: MinChangeSchema.optional(),
    outliers: word.optional(),
    correction: word.optional(),
    failOn: word.optional().describe('the gate'),
    allowNothingCompared: z.boolean().optional(),
    gateMetric: z.enum(['instructions', 'wall']).optional().describe('gate-metric: the rows the gate weighs, when not every row (instructions: the instruction counts only; wall: every other row)'),
    benchmarks: z
      .array(z.strictObject({ name, metric: word.optional(), threshold: ThresholdSchema.optional(), minChange: MinChangeSchema.optional() }))
      .max(LIMITS.benchmarks)
      .optional()
      .describe("a benchmark's own threshold or floor (its config file's), by its name and metric"),
  })
  .describe('the settings the judgement is made with, each once');

const SideSummarySchema = z.strictObject({
  n: count,
  median: z.number(),
  mean: z.number(),
  min: z.number(),
  max: z.number().optional(),
  cv: z.number(),
  iqr: z.number(),
  mad: z.number().optional(),
});

const DiagnosticSchema = z.strictObject({
  code: word,
  severity: z.enum(['info', 'warning']),
  message: z.string().max(4096).optional().describe('the finding in words, when a report cannot word it from the code and figures'),
  figures: z.record(z.string(), z.unknown()).optional(),
});

const ChangeSchema = z
  .strictObject({
    estimate: z.number().describe('head/base − 1 (Hodges–Lehmann)'),
    test: z
      .strictObject({
        name: z.enum(['sign-flip', 'signed-rank']).optional(),
        method: z.enum(['exact', 'normal', 'monte-carlo']).optional().describe('exact: every sign pattern; monte-carlo: sign patterns drawn (seeded); normal: the signed-rank approximation'),
        p: z.number(),
        pAdjusted: z.number().optional().describe('after the multiple-comparison correction'),
        pMonteCarloError: z.number().optional(),
        n: count.optional().describe('pairs the test used'),
        ci: interval.describe("the test's interval of the change"),
        level: level.describe('the level it is computed at'),
        achieved: level.optional().describe('the confidence it has: below level only when too few pairs make level unreachable'),
      })
      .describe("the test of no change and its interval"),
    equivalence: z
      .strictObject({ ci: interval, level, achieved: level.optional() })
      .optional()
      .describe('the equivalence interval (two one-sided tests) and its level'),
    decidedBy: z.enum(['test', 'equivalence']).describe("the interval the verdict was read from: the test's, or the equivalence interval (unchanged)"),
    floor: z.strictObject({ amount: z.number(), text: word, margin: z.number() }).optional().describe('min-change applied: the floor in the unit, and the relative margin read against'),
    readFrom: name.optional().describe("a throughput's change read from its time's: that result's name"),
  })
  .describe('the change of head against base');

const VerdictSchema = z.enum(['regression', 'improvement', 'unchanged', 'inconclusive']);

const JudgedBenchmarkSchema = z.strictObject({
  name,
  metric: word.optional(),
  verdict: VerdictSchema,
  change: ChangeSchema.nullable(),
  outlierPairs: z
    .strictObject({
      excluded: z.array(count).describe('flagged by the outlier rule and left out of the test and the estimate'),
      kept: z.array(count).describe('flagged but kept: outliers are left out only in balanced pairs, one above for one below, so that leaving them out cannot tilt the test'),
    })
    .optional()
    .describe("the outlier rule's pairs, as indices into measured pairs (from 0)"),
  base: SideSummarySchema.optional(),
  head: SideSummarySchema.optional(),
  pairedCv: z.number().optional(),
  pairedMad: z.number().optional(),
  pairsToSettle: count.nullable().optional().describe('inconclusive: about how many pairs in all would settle it'),
  diagnostics: z.array(DiagnosticSchema).max(100).optional(),
  noise: z
    .strictObject({
      pairs: z.number(),
      singleRunCv: noiseFigure,
      pairedCv: noiseFigure,
      pairedLogSd: noiseFigure,
      pairingGain: noiseFigure,
      aaChange: noiseFigure,
      detectable: z.array(z.strictObject({ pairs: z.number(), change: noiseFigure })).max(16),
      pairsForThreshold: noiseFigure,
      suggestedThreshold: noiseFigure,
    })
    .optional()
    .describe('pairbench noise (an A/A run): the noise floor of this benchmark'),
});

const JudgementSchema = z
  .strictObject({
    tool: ToolSchema.describe('the pairbench that judged'),
    verdict: VerdictSchema,
    benchmarks: z.array(JudgedBenchmarkSchema).max(LIMITS.benchmarks).describe("one per measured benchmark, in measured.benchmarks' order"),
  })
  .describe('what the pairs were judged to say');

export const ResultsV2Schema = z
  .strictObject({
    schemaVersion: z.literal(2),
    kind: z.enum(['compare', 'noise']).optional().describe('noise: an A/A run of one revision'),
    status: z.enum(['running', 'complete', 'partial', 'failed']).optional(),
    measured: MeasuredSchema,
    judging: JudgingSchema,
    judgement: JudgementSchema.nullable(),
  })
  .superRefine((doc, ctx) => {
    // a judged row belongs to the measured row at its index: the two lists name the same benchmarks in the same order
    const judged = doc.judgement?.benchmarks;
    if (!judged) return;
    const measured = doc.measured.benchmarks;
    if (judged.length !== measured.length) {
      ctx.addIssue({ code: 'custom', path: ['judgement', 'benchmarks'], message: `holds ${judged.length} benchmarks but measured.benchmarks ${measured.length}; expected one judged row per measured benchmark` });
      return;
    }
    judged.forEach((j, i) => {
      const m = measured[i]!;
      if (j.name !== m.name || (j.metric ?? '') !== (m.metric ?? '')) {
        ctx.addIssue({ code: 'custom', path: ['judgement', 'benchmarks', i], message: `names ${JSON.stringify(j.name)}${j.metric ? ` (metric ${j.metric})` : ''} but measured.benchmarks[${i}] is ${JSON.stringify(m.name)}${m.metric ? ` (metric ${m.metric})` : ''}; expected the judged rows in the measured rows' order` });
      }
    });
  })
  .describe('A pairbench results file');

export type ResultsV2 = z.infer<typeof ResultsV2Schema>;
export type MeasuredBenchmarkV2 = z.infer<typeof MeasuredBenchmarkSchema>;
export type JudgedBenchmarkV2 = z.infer<typeof JudgedBenchmarkSchema>;
export type ChangeV2 = z.infer<typeof ChangeSchema>;
export type RunSettingsV2 = z.infer<typeof RunSettingsSchema>;
export type JudgingV2 = z.infer<typeof JudgingSchema>;
