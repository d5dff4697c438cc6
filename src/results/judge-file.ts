/**
 * Judging a results file: every statistic and verdict is recomputed from the raw pairs, so the
 * same file can be judged again with other settings (`pairbench report`), and a file written by
 * another tool with only the raw pairs gets the full analysis.
 */
import { judge, judgeSteps, worstVerdict } from '../stats/index.ts';
import { overheadDiagnostics, overheadEstimate, subtractOverhead, type Corrected } from '../stats/overhead-estimate.ts';
import type { BenchmarkInput, Finding, JudgeOptions, Judgement } from '../stats/types.ts';
import type { BenchmarkResult, Results } from './schema.ts';
import { harnessAdvice } from './advice.ts';
import { coldPilotNote, pilotLeftOut } from './cold-pilot.ts';
import { summarize } from '../stats/describe.ts';
import { judgedOneSidedPairs, oneSidedCounts } from './one-sided-zeros.ts';
import { floorInUnit, marginWithFloor, type AbsoluteFloor } from '../stats/floor.ts';
import { timeResolution } from '../stats/resolution.ts';
import { parseMinChange } from '../config/values.ts';
import { show } from '../config/errors.ts';

/** A benchmark's floor (its own `min-change`, else the comparison's) in its unit, when one applies (stats/floor.ts). */
function floorOf(b: BenchmarkResult, global: readonly AbsoluteFloor[] | undefined): { amount: number; text: string } | null {
  const floors = b.minChange !== undefined ? parseMinChange(`min-change of the benchmark ${show(b.name)}`, b.minChange) : global;
  return floors ? floorInUnit(floors, b.unit) : null;
}

/**
 * A benchmark takes part in the statistics when it was measured on both sides and did not fail:
 * with pairs, or pairs with one side at 0 alone (a count one side prints as 0 in every pair).
 */
function judgeable(b: BenchmarkResult): boolean {
  return (b.presence ?? 'both') === 'both' && !b.failure && (b.pairs.length > 0 || (b.oneSidedPairs?.length ?? 0) > 0);
}

export function judgeResults(results: Results, opts: JudgeOptions): Results {
  const judging = prepare(results, opts);
  return assemble(results, opts, judging, judge(judging.inputs, judging.options));
}

/** Judging stopped by a signal before it finished (`judgeResultsCooperatively`). */
export class JudgingInterrupted extends Error {
  constructor() {
    super('judging interrupted');
    this.name = 'JudgingInterrupted';
  }
}

/** Milliseconds of judging between two turns of the event loop. */
const SLICE_MS = 50;

/** Judging goes on this long after a signal, so an interrupted run of an ordinary suite still gets its verdicts. */
const JUDGING_GRACE_MS = 2000;

/**
 * `judgeResults`, sharing the thread: after each SLICE_MS of judging it lets the event loop run,
 * and once `signal` is aborted it goes on for at most JUDGING_GRACE_MS, then stops with
 * `JudgingInterrupted`. A suite of 100,000 benchmarks takes minutes to judge; a SIGTERM must still be
 * honoured within seconds (SECURITY.md, S11).
 */
export async function judgeResultsCooperatively(results: Results, opts: JudgeOptions, signal?: AbortSignal): Promise<Results> {
  const judging = prepare(results, opts);
  const steps = judgeSteps(judging.inputs, judging.options);
  let slice = performance.now();
  let abortedAt: number | null = null;
  for (;;) {
    const step = steps.next();
    if (step.done) return assemble(results, opts, judging, step.value);
    if (performance.now() - slice >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    if (signal?.aborted) {
      abortedAt ??= performance.now();
      if (performance.now() - abortedAt > JUDGING_GRACE_MS) throw new JudgingInterrupted();
    }
  }
}

interface Prepared {
  inputs: BenchmarkInput[];
  index: number[];
  corrections: Map<number, { overhead: number; corrected: Corrected }>;
  options: JudgeOptions;
  /** by index into the results' benchmarks: the floor that raised its margin (stats/floor.ts) */
  floors: Map<number, { amount: number; text: string; margin: number }>;
}

function prepare(results: Results, opts: JudgeOptions): Prepared {
  const inputs: BenchmarkInput[] = [];
  const index: number[] = [];
  // pairbench's recorded per-run overhead is subtracted from the raw pairs here, so the file keeps what was measured.
  const corrections = new Map<number, { overhead: number; corrected: Corrected }>();
  const floors = new Map<number, { amount: number; text: string; margin: number }>();
  results.benchmarks.forEach((b, i) => {
    if (!judgeable(b)) return;
    // a Go pilot that ran a cold start is kept in the file, not judged (cold-pilot.ts)
    let pairs = b.pairs.slice(pilotLeftOut(b));
    // a time's printed steps, read from the values as recorded (before any overhead is subtracted)
    const resolution = timeResolution(b.unit, pairs);
    const oneSided = oneSidedCounts(judgedOneSidedPairs(b));
    if (b.overhead) {
      const overhead = overheadEstimate(b.overhead);
      const corrected = subtractOverhead(pairs, overhead);
      corrections.set(i, { overhead, corrected });
      pairs = corrected.pairs;
    }
    // min-change: the threshold raised to the floor's share of the base (stats/floor.ts)
    const floor = floorOf(b, opts.minChange);
    const threshold = floor ? marginWithFloor(b.threshold ?? opts.threshold, floor.amount, pairs) : b.threshold;
    if (floor && threshold !== undefined) floors.set(i, { ...floor, margin: threshold });
    inputs.push({ name: b.name, direction: b.direction, ...(threshold !== undefined ? { threshold } : {}), ...(b.metric ? { metric: b.metric } : {}), ...(b.unit === 'instructions' ? { counted: true } : {}), ...(b.reciprocalOf !== undefined ? { reciprocalOf: b.reciprocalOf } : {}),
      // Stopped by a rule that looked at the pairs: the interval is raised to keep its coverage (stats/analysis.ts, `intervalLevel`).
      ...(b.stoppedBecause === 'precision' || b.stoppedBecause === 'decided' ? { stoppedEarly: true } : {}),
      // Measured under the stopping rules (any stop reason, the budget's too): `unchanged` at the raised level (stats/analysis.ts, `equivalenceLevel`).
      ...(b.stoppedBecause !== undefined ? { sequential: true } : {}),
      ...(resolution ? { resolution } : {}),
      pairs,
      ...(oneSided ? { oneSided } : {}),
    });
    index.push(i);
  });
  // a throughput judged from its time (Go's MB/s of its ns/op) reads its time's floor too: one change, one margin
  const byName = new Map(inputs.map((x, j) => [x.name, j]));
  inputs.forEach((x, j) => {
    const time = x.reciprocalOf === undefined ? undefined : byName.get(x.reciprocalOf);
    const floor = time === undefined ? undefined : floors.get(index[time]!);
    if (floor && floor.margin > (x.threshold ?? opts.threshold)) {
      x.threshold = floor.margin;
      floors.set(index[j]!, floor);
    }
  });
  // the sign-flip test's draws are seeded from the run's seed: judging the file again replays them
  const seed = typeof results.settings?.seed === 'number' ? results.settings.seed : undefined;
  return { inputs, index, corrections, floors, options: { ...opts, ...(opts.seed === undefined && seed !== undefined ? { seed } : {}) } };
}

function assemble(results: Results, opts: JudgeOptions, { index, corrections, floors }: Prepared, judgement: Judgement): Results {
  const benchmarks = results.benchmarks.map((b): BenchmarkResult => {
    if (judgeable(b)) return b;
    // Added, removed, failed or empty: no test is possible; say so instead of dropping the row.
    const { outliers: _o, outliersKept: _k, base: _b, head: _h, pairedCv: _p, pairedMad: _m, change: _c, ...rest } = b;
    return { ...rest, verdict: 'inconclusive', change: null, pairsToSettle: null, diagnostics: b.diagnostics ?? [] };
  });
  judgement.benchmarks.forEach((a, j) => {
    const i = index[j]!;
    const b = results.benchmarks[i]!;
    // `threshold` stays what the benchmark set for itself (config file, per benchmark or per
    // metric), never the global threshold it was judged with: that one is in `settings`, and
    // copying it here would make it the benchmark's own on the next judging (`report --threshold`).
    // indices of pairs count from the file's first pair, the pilot's left out included
    const left = pilotLeftOut(b);
    const oneSided = judgedOneSidedPairs(b);
    benchmarks[i] = {
      ...b,
      verdict: a.verdict,
      outliers: shifted(a.outliers, left),
      outliersKept: shifted(a.outliersKept, left),
      // each side's values: with the pairs that formed no ratio, so that 0 B → 16 B reads as measured
      base: oneSided.length > 0 ? summarize([...b.pairs.slice(left), ...oneSided].map((p) => p.base)) : a.base,
      head: oneSided.length > 0 ? summarize([...b.pairs.slice(left), ...oneSided].map((p) => p.head)) : a.head,
      // a row of pairs with one side at 0 alone has no ratio to spread
      ...(Number.isFinite(a.pairedCv) ? { pairedCv: a.pairedCv } : {}),
      ...(Number.isFinite(a.pairedMad) ? { pairedMad: a.pairedMad } : {}),
      change: a.change && floors.has(i) ? { ...a.change, floor: floors.get(i)! } : a.change,
      // pairs in all, as the file counts them: the pilot's left out too
      pairsToSettle: a.pairsToSettle === null || a.pairsToSettle === undefined ? a.pairsToSettle : a.pairsToSettle + left,
      // each finding as its code and figures: every report words it for where it is read (report/findings.ts)
      diagnostics: [...coldPilotNote(b), ...a.diagnostics.map((f) => shiftedFinding(f, left)), ...overheadNotes(b, corrections.get(i)), ...harnessAdvice(b, a.diagnostics, results)].map((f) => ({ code: f.code, severity: f.severity, figures: f.figures })),
    };
  });
  // A benchmark that failed or was measured on one side only cannot pass the gate silently:
  // a failed one counts as inconclusive; added/removed ones are reported but do not gate.
  const gating = benchmarks.filter((b) => (b.presence ?? 'both') === 'both');
  // A missing shard may hide a regression: the verdict is then at least inconclusive.
  const incomplete = (results.missingShards?.length ?? 0) > 0;
  const verdicts = gating.map((b) => b.verdict ?? 'inconclusive');
  // changed-only left every benchmark out (nothing under their paths changed): unchanged by construction, and the gate passes
  const nothingChanged = benchmarks.length === 0 && (results.notRun?.length ?? 0) > 0 && !incomplete;
  const verdict = gating.length === 0 ? (nothingChanged ? 'unchanged' : 'inconclusive') : worstVerdict(incomplete ? [...verdicts, 'inconclusive'] : verdicts);
  return {
    ...results,
    settings: { ...withoutMinChange(results.settings), alpha: opts.alpha, threshold: opts.threshold, outliers: opts.outliers, correction: opts.correction, ...(opts.minChange ? { minChange: opts.minChange.map((f) => f.text).join(',') } : {}) },
    verdict,
    // the suite's change is the reports' (report/model.ts: oriented, with its interval); an older file's unoriented `geomean` is not carried on
    geomean: undefined,
    benchmarks,
  };
}

/** The settings without the floor: the one judged with is recorded in its place. */
function withoutMinChange(settings: Results['settings']): Record<string, unknown> {
  const { minChange: _m, ...rest } = settings ?? {};
  return rest;
}

/** Indices of judged pairs as indices of the file's pairs, `left` of them not judged before them. */
function shifted(indices: number[], left: number): number[] {
  return left === 0 ? indices : indices.map((k) => k + left);
}

/** A finding whose figures name pairs by index, those indices as the file's (`shifted`). */
function shiftedFinding(f: Finding, left: number): Finding {
  if (left === 0) return f;
  if (f.code === 'outliers-kept' || f.code === 'one-sided-outliers') return { ...f, figures: { ...f.figures, kept: shifted(f.figures.kept, left) } } as Finding;
  return f;
}

function overheadNotes(b: BenchmarkResult, c: { overhead: number; corrected: Corrected } | undefined) {
  return c ? overheadDiagnostics(b.pairs, c.overhead, c.corrected, b.unit) : [];
}
