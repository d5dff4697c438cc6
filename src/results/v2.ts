/**
 * The in-memory results (the shape of results files of version 1, schema.ts) to and from the file
 * of version 2 (schema-v2.ts). pairbench works on the one model and writes version 2; it reads both.
 *
 * Version 2 says each thing once, where version 1 said some twice: a change's `ci` (the test's
 * interval or the equivalence interval, by `basis`) becomes `test.ci` and `equivalence.ci`, each
 * with its own level, and `decidedBy` says which one the verdict was read from; `confidence`
 * (1 − alpha, in every row) and `level` (a copy of `ciLevel`) are not written, and read back from
 * `judging.alpha` and the intervals' levels; the judging settings are in `judging` alone, a
 * benchmark's own threshold there by its name; `geomean`, never written since the reports compute
 * the suite's change, is gone.
 */
import { optionDef } from '../config/options.ts';
import { VERSION } from '../version.ts';
import type { BenchmarkResult, Results } from './schema.ts';
import { JudgingSchema, RunSettingsSchema, type ChangeV2, type JudgedBenchmarkV2, type JudgingV2, type MeasuredBenchmarkV2, type ResultsV2, type RunSettingsV2 } from './schema-v2.ts';

type Change = NonNullable<BenchmarkResult['change']>;

/** The settings of judging, in `judging` and not in `measured.settings`: every key of `judging` but its list of benchmarks. */
const JUDGING_KEYS = Object.keys(JudgingSchema.shape).filter((key) => key !== 'benchmarks');

/** The alpha a file that records none was judged with: the option's default. */
function defaultAlpha(): number {
  return Number(optionDef('alpha')!.default);
}

/** An object without its undefined values, so that a field is written only when it holds something. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A setting kept when its field of the v2 schema accepts it: a key v2 does not declare, or a value of another type, is left out. */
function accepted(shape: Record<string, { safeParse: (v: unknown) => { success: boolean; data?: unknown } }>, key: string, value: unknown): { value: unknown } | null {
  const field = shape[key];
  if (!field) return null;
  const read = field.safeParse(value);
  return read.success ? { value: read.data } : null;
}

/** The run's settings v2 declares, in the schema's order (a file's layout does not depend on the order they were recorded in). */
function runSettings(settings: Readonly<Record<string, unknown>>): RunSettingsV2 | undefined {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(RunSettingsSchema.shape)) {
    const raw = settings[key];
    if (raw === undefined) continue;
    // a benchmark's own threshold and floor are the judging's (`judging.benchmarks`), from its rows
    const value = key === 'benchmarks' && Array.isArray(raw) ? raw.map((b: Record<string, unknown>) => compact({ ...b, threshold: undefined, minChange: undefined })) : raw;
    const kept = accepted(RunSettingsSchema.shape, key, value);
    if (kept) out[key] = kept.value;
  }
  return Object.keys(out).length > 0 ? (out as RunSettingsV2) : undefined;
}

/** The judging settings, in the schema's order, and each benchmark's own threshold and floor. */
function judgingOf(results: Results): JudgingV2 {
  const out: Record<string, unknown> = {};
  for (const key of JUDGING_KEYS) {
    const raw = results.settings?.[key];
    if (raw === undefined) continue;
    const kept = accepted(JudgingSchema.shape, key, raw);
    if (kept) out[key] = kept.value;
  }
  const own = results.benchmarks.filter((b) => b.threshold !== undefined || b.minChange !== undefined).map((b) => compact({ name: b.name, metric: b.metric, threshold: b.threshold, minChange: b.minChange }));
  if (own.length > 0) out['benchmarks'] = own;
  return out as JudgingV2;
}

/** The level of a version-1 change's interval: `ciLevel`, else (older files) `level`, else its confidence. */
function levelOf(c: Change, alpha: number): number {
  return c.ciLevel ?? c.level ?? c.confidence ?? 1 - alpha;
}

function changeToV2(c: Change, alpha: number): ChangeV2 {
  const byEquivalence = c.basis === 'equivalence';
  // with `basis: equivalence`, `ci` is the equivalence interval and `tested` the test's (stats/verdict.ts, `decide`, always
  // writes `tested` with it; a file is judged again before it is written, so the fallback is never reached)
  const tested = byEquivalence ? (c.tested ?? { ci: c.ci, level: levelOf(c, alpha) }) : { ci: c.ci, level: levelOf(c, alpha), achievedConfidence: c.achievedConfidence };
  const equivalence = byEquivalence ? { ci: c.ci, level: levelOf(c, alpha), achieved: c.achievedConfidence } : c.equivalence ? { ci: c.equivalence.ci, level: c.equivalence.level } : undefined;
  return compact({
    estimate: c.estimate,
    test: compact({ name: c.test, method: c.method, p: c.pValue, pAdjusted: c.pAdjusted, pMonteCarloError: c.pMonteCarloError, n: (c as { n?: number }).n, ci: tested.ci, level: tested.level, achieved: tested.achievedConfidence }),
    equivalence: equivalence ? compact(equivalence) : undefined,
    decidedBy: byEquivalence ? ('equivalence' as const) : ('test' as const),
    floor: c.floor,
    readFrom: c.readFrom,
  });
}

function changeFromV2(c: ChangeV2, alpha: number): Change {
  const confidence = 1 - alpha;
  const t = c.test;
  const eq = c.equivalence;
  const common = compact({ estimate: c.estimate, confidence, pValue: t.p, pAdjusted: t.pAdjusted, test: t.name, method: t.method, pMonteCarloError: t.pMonteCarloError, n: t.n, floor: c.floor, readFrom: c.readFrom });
  if (c.decidedBy === 'equivalence' && eq) {
    return compact({
      ...common,
      ci: eq.ci,
      ciLevel: eq.level,
      level: eq.level !== confidence ? eq.level : undefined,
      achievedConfidence: eq.achieved,
      basis: 'equivalence' as const,
      equivalence: { ci: eq.ci, level: eq.level },
      tested: compact({ ci: t.ci, level: t.level, achievedConfidence: t.achieved }),
    }) as Change;
  }
  return compact({
    ...common,
    ci: t.ci,
    ciLevel: t.level,
    level: t.level !== confidence ? t.level : undefined,
    achievedConfidence: t.achieved,
    equivalence: eq ? { ci: eq.ci, level: eq.level } : undefined,
  }) as Change;
}

function measuredRow(b: BenchmarkResult): MeasuredBenchmarkV2 {
  return compact({
    name: b.name,
    unit: b.unit,
    direction: b.direction,
    metric: b.metric,
    reciprocalOf: b.reciprocalOf,
    presence: b.presence,
    stoppedBecause: b.stoppedBecause,
    futility: b.futility,
    pairs: b.pairs,
    oneSidedPairs: b.oneSidedPairs,
    overhead: b.overhead,
    iterations: b.iterations,
    design: b.design,
    failedRuns: b.failedRuns,
    // the failure as the schema declares it: the job's own name, which the engine also keeps on it, is the row's to say
    failure: b.failure ? failureOf(b.failure) : undefined,
  });
}

/** A failure's declared fields. */
function failureOf(f: NonNullable<BenchmarkResult['failure']>): NonNullable<MeasuredBenchmarkV2['failure']> {
  return compact({ side: f.side, kind: f.kind, exitCode: f.exitCode, signal: f.signal, stderrTail: f.stderrTail, message: f.message });
}

/** A noise block as read: a figure written as null (NaN or infinite when measured: JSON has neither) is NaN, not reached. */
function noiseFromV2(n: NonNullable<JudgedBenchmarkV2['noise']>): NonNullable<BenchmarkResult['noise']> {
  const figure = (v: number | null) => v ?? NaN;
  return {
    pairs: n.pairs,
    singleRunCv: figure(n.singleRunCv),
    pairedCv: figure(n.pairedCv),
    pairedLogSd: figure(n.pairedLogSd),
    pairingGain: figure(n.pairingGain),
    aaChange: figure(n.aaChange),
    detectable: n.detectable.map((d) => ({ pairs: d.pairs, change: figure(d.change) })),
    pairsForThreshold: figure(n.pairsForThreshold),
    suggestedThreshold: figure(n.suggestedThreshold),
  };
}

function judgedRow(b: BenchmarkResult, alpha: number): JudgedBenchmarkV2 {
  return compact({
    name: b.name,
    metric: b.metric,
    verdict: b.verdict!,
    change: b.change ? changeToV2(b.change, alpha) : null,
    outlierPairs: b.outliers || b.outliersKept ? { excluded: b.outliers ?? [], kept: b.outliersKept ?? [] } : undefined,
    base: b.base,
    head: b.head,
    pairedCv: b.pairedCv,
    pairedMad: b.pairedMad,
    pairsToSettle: b.pairsToSettle,
    diagnostics: b.diagnostics,
    noise: b.noise,
  });
}

/**
 * The results as a file of version 2. `judgement` is written once the results are judged (a
 * verdict, for the file and each benchmark): a file written while measuring holds none.
 */
export function toV2(results: Results): ResultsV2 {
  const judging = judgingOf(results);
  const alpha = judging.alpha ?? defaultAlpha();
  const judged = results.verdict !== undefined && results.benchmarks.every((b) => b.verdict !== undefined);
  return compact({
    schemaVersion: 2 as const,
    kind: results.kind,
    status: results.status,
    measured: compact({
      tool: results.tool,
      revisions: { base: results.base, head: results.head },
      environment: results.environment,
      environments: results.environments,
      settings: runSettings(results.settings ?? {}),
      startedAt: results.startedAt,
      finishedAt: results.finishedAt,
      stoppedBecause: results.stoppedBecause,
      rounds: results.rounds,
      shard: results.shard,
      missingShards: results.missingShards,
      notRun: results.notRun,
      failures: results.failures,
      benchmarks: results.benchmarks.map(measuredRow),
    }),
    judging,
    judgement: judged ? { tool: { name: 'pairbench', version: VERSION }, verdict: results.verdict!, benchmarks: results.benchmarks.map((b) => judgedRow(b, alpha)) } : null,
  });
}

/** A file of version 2 (validated, rows aligned: schema-v2.ts) as the in-memory results. */
export function fromV2(doc: ResultsV2): Results {
  const { benchmarks: own, ...judging } = doc.judging;
  const alpha = judging.alpha ?? defaultAlpha();
  const ownOf = new Map((own ?? []).map((o) => [`${o.name}\u0000${o.metric ?? ''}`, o]));
  const m = doc.measured;
  const benchmarks = m.benchmarks.map((b, i): BenchmarkResult => {
    const o = ownOf.get(`${b.name}\u0000${b.metric ?? ''}`);
    const j = doc.judgement?.benchmarks[i];
    const { name: _n, metric: _m, change, outlierPairs, ...judged } = j ?? { name: b.name, change: undefined, outlierPairs: undefined };
    return compact({
      ...b,
      threshold: o?.threshold,
      minChange: o?.minChange,
      ...judged,
      outliers: outlierPairs?.excluded,
      outliersKept: outlierPairs?.kept,
      ...(j ? { change: change ? changeFromV2(change, alpha) : null } : {}),
      ...(j?.noise ? { noise: noiseFromV2(j.noise) } : {}),
    }) as BenchmarkResult;
  });
  const settings = { ...m.settings, ...judging };
  return compact({
    schemaVersion: 1 as const,
    kind: doc.kind,
    tool: m.tool,
    base: m.revisions.base,
    head: m.revisions.head,
    environment: m.environment,
    environments: m.environments,
    settings: Object.keys(settings).length > 0 ? settings : undefined,
    status: doc.status,
    stoppedBecause: m.stoppedBecause,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    verdict: doc.judgement?.verdict,
    rounds: m.rounds,
    shard: m.shard,
    missingShards: m.missingShards,
    notRun: m.notRun,
    failures: m.failures,
    benchmarks,
  });
}
