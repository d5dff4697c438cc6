/**
 * A benchmark's verdict from its intervals (docs/cli.md, "Verdicts"; docs/statistics.md, steps 6 and
 * "Unchanged"): the test's interval decides a change, the equivalence interval decides
 * `unchanged`, otherwise `inconclusive` with a rough count of the pairs that would settle it; and
 * the worst verdict of a suite.
 */
import type { ChangeEstimate, Direction, Verdict } from './types.ts';
import { minPairsForAlpha } from './power.ts';

/**
 * The verdict one interval supports (docs/cli.md, "Verdicts"; docs/statistics.md), direction-aware:
 * significant means the interval excludes 0. Significant and the estimate worse than the threshold:
 * regression; better: improvement; the whole interval within ±threshold: unchanged; otherwise
 * inconclusive, a significant change within the threshold included (its interval still reaches
 * past the threshold: whether it is beyond is not settled). An interval whose confidence falls
 * short of its level (too few pairs) is neither significant nor unchanged. `decide` picks the
 * interval a benchmark shows so that this function, read off the shown interval, gives its verdict.
 */
export function verdictOf(change: ChangeEstimate | null, threshold: number, direction: Direction): Verdict {
  if (!change) return 'inconclusive';
  const level = change.ciLevel ?? change.level ?? change.confidence;
  const confident = (change.achievedConfidence ?? level) >= level - 1e-12;
  if (!confident) return 'inconclusive';
  const [lower, upper] = change.ci;
  const significant = lower > 0 || upper < 0;
  const up = change.estimate > threshold;
  const down = change.estimate < -threshold;
  if (significant && (up || down)) {
    const worse = direction === 'lower-is-better' ? up : down;
    return worse ? 'regression' : 'improvement';
  }
  if (lower >= -threshold && upper <= threshold) return 'unchanged';
  return 'inconclusive';
}

/** A benchmark's equivalence interval (`equivalenceLevel`), relative. */
export interface EquivalenceInterval {
  ci: [number, number];
  level: number;
  achievedConfidence: number;
}

/**
 * A benchmark's verdict from its two intervals, and the interval it shows.
 *
 * - The test's interval (at the correction's level, `intervalAlpha`) decides a change: it excludes
 *   0 and the estimate is beyond the threshold: `regression` or `improvement`.
 * - Otherwise the equivalence interval (`equivalenceLevel`: two one-sided tests at alpha, not
 *   corrected across benchmarks) decides `unchanged` when it lies within ±threshold.
 * - Otherwise `inconclusive`, shown with the test's interval; a change that is significant but
 *   estimated within the threshold is among these: the interval that would call it unchanged
 *   still reaches past the threshold, so calling it unchanged would claim what the data do not
 *   show (at a true change of exactly the threshold, that rule said "unchanged" about half the
 *   time; the equivalence interval says it at most alpha of the time).
 *
 * The interval shown (`change.ci`, `change.ciLevel`) is the one that decided: the equivalence
 * interval for an `unchanged` that it decided (`change.basis: 'equivalence'`), the test's interval
 * for every other verdict. So `verdictOf(change)` gives the verdict back, and no row shows an interval
 * that contradicts it: the equivalence interval is the narrower of the two (a lower level around the
 * same estimate), so an inconclusive row's test interval also reaches beyond ±threshold, and a
 * regression's estimate, outside ±threshold, could never have an equivalence interval inside it.
 * Both intervals are kept in the result: `change.equivalence`, and `change.tested` when `ci` is the
 * equivalence interval.
 */
export function decide(tested: ChangeEstimate, equivalence: EquivalenceInterval, threshold: number, direction: Direction): { change: ChangeEstimate; verdict: Verdict } {
  const byTest = verdictOf(tested, threshold, direction);
  const withEquivalence = { ...tested, equivalence: { ci: equivalence.ci, level: equivalence.level } };
  if (byTest === 'regression' || byTest === 'improvement') return { change: withEquivalence, verdict: byTest };
  const confident = equivalence.achievedConfidence >= equivalence.level - 1e-12;
  const [lower, upper] = equivalence.ci;
  if (confident && lower >= -threshold && upper <= threshold) {
    const { level: _level, ...rest } = withEquivalence;
    const shown: ChangeEstimate = {
      ...rest,
      ci: [lower, upper],
      ciLevel: equivalence.level,
      ...(equivalence.level !== tested.confidence ? { level: equivalence.level } : {}),
      achievedConfidence: equivalence.achievedConfidence,
      basis: 'equivalence',
      tested: { ci: tested.ci, level: tested.ciLevel, ...(tested.achievedConfidence !== undefined ? { achievedConfidence: tested.achievedConfidence } : {}) },
    };
    return { change: shown, verdict: 'unchanged' };
  }
  return { change: withEquivalence, verdict: byTest };
}

/**
 * For an inconclusive benchmark: a rough count of pairs in all that would likely settle it,
 * assuming the intervals' half-widths shrink as 1/sqrt(n): the fewer of the pairs that take the
 * test's interval away from 0 (half-width below |estimate|) and the pairs that fit the equivalence
 * interval within ±threshold (half-width below threshold - |estimate|).
 */
export function estimatePairsToSettle(tested: ChangeEstimate, equivalence: { ci: readonly [number, number] } | null, n: number, threshold: number, alpha: number): number | null {
  const half = (ci: readonly [number, number]) => (ci[1] - ci[0]) / 2;
  return pairsToSettle({ n, estimate: tested.estimate, testHalfWidth: half(tested.ci), equivalenceHalfWidth: half((equivalence ?? tested).ci), threshold, floor: minPairsForAlpha(alpha) });
}

/**
 * Pairs in all that would likely settle a benchmark, from its estimate and the half-widths of its
 * two intervals now, assuming they shrink as 1/sqrt(n): the fewer of the pairs that take the test's
 * interval away from 0 with the estimate beyond the threshold (a regression or improvement), and the
 * pairs that fit the equivalence interval within ±threshold (unchanged). Null when neither can
 * happen (an estimate exactly at the threshold). At least n + 1 and `floor`.
 */
function pairsToSettle(x: { n: number; estimate: number; testHalfWidth: number; equivalenceHalfWidth: number; threshold: number; floor?: number }): number | null {
  const est = Math.abs(x.estimate);
  const floor = Math.max(x.n + 1, x.floor ?? 0);
  const needs = (half: number, target: number): number => {
    if (!(target > 0)) return Infinity;
    if (!(half > 0)) return floor;
    return Math.max(floor, Math.ceil(x.n * (half / target) ** 2 - 1e-9));
  };
  const change = est > x.threshold ? needs(x.testHalfWidth, est) : Infinity;
  const best = Math.min(change, needs(x.equivalenceHalfWidth, x.threshold - est));
  return Number.isFinite(best) ? best : null;
}

const VERDICT_RANK: Record<Verdict, number> = { unchanged: 0, improvement: 1, inconclusive: 2, regression: 3 };

/** The worse of verdicts: regression > inconclusive > improvement > unchanged. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  let worst: Verdict = 'unchanged';
  for (const v of verdicts) if (VERDICT_RANK[v] > VERDICT_RANK[worst]) worst = v;
  return worst;
}
