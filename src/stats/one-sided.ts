/**
 * Pairs with one side at 0 and the other not (a Go `B/op` that a pool refilled in some runs, an
 * allocation a revision adds): ln(x/0) is ±infinity, so they form no ratio, and `judge` reads the
 * interval from the other pairs and weighs these apart.
 *
 * Why the tests stay exact. Whether a pair has exactly one side at 0 does not change when its two
 * runs swap labels. Under no change every pair's sign is a fair coin given everything that does not
 * depend on the labels (signflip.ts), so leaving out the one-sided pairs, a set chosen without their
 * signs, leaves the signs of the rest fair coins, and the signs of the one-sided pairs are fair
 * coins too: their split has its own exact test, the sign test, which joins the test of the others
 * (`rowPValue`), and a benchmark the others leave undecided can be called from it
 * (`calledFromZeros`).
 *
 * What they still say. Each is a difference beyond any threshold, of a known sign: the outlier
 * screen's case in the limit (outliers.ts), and it is treated as the screen treats outliers. Those
 * on either side alike are left out in balanced pairs, one for one. An excess on one side is kept:
 * `unchanged` then needs the equivalence interval with the excess kept as values beyond every
 * other (analysis.ts, `withExtremes`) to lie within ±threshold too, as well as the interval of the
 * other pairs alone; both must hold, so the claim is never weaker than the exact one of the other
 * pairs. Nor may their split alone reject an even one at alpha (the sign test): a significant lean
 * is a difference, even where it moves no interval. Three refills among forty varying pairs leave
 * `unchanged` standing, twelve against one do not; among 80 pairs all equal, an excess of up to
 * five on one side leaves it standing (the closed interval of values tied at an end,
 * hodges-lehmann.ts, stays at [0, 0]), six or more hold it back. A `regression`
 * or `improvement` that the excess contradicts (it lies on the other side) is held back to
 * `inconclusive`; one it agrees with stands. With the screen off (`outliers: none`) nothing is
 * left out, balanced or not, and one-sided pairs of both signs have no ranks to stand in for, so
 * any one-sided pair holds `unchanged` back and none is called from them.
 */
import { withExtremes } from './analysis.ts';
import { binomialTwoSidedHalf } from './outliers.ts';
import type { Direction, Finding, OutlierRule, Verdict } from './types.ts';

/** How many one-sided pairs had base at 0 (head above it) and head at 0 (base above it). */
export interface OneSidedCounts {
  base: number;
  head: number;
}

/**
 * The signed count of one-sided pairs kept as extremes (`withExtremes`): the excess over the
 * balanced ones, + where head printed above 0 and base 0 (ln(head/base) = +infinity); 0 with none,
 * when they balance, or with the screen off (where none stands in: see the module's doc).
 */
export function keptExtremes(counts: OneSidedCounts | undefined, outliers: OutlierRule): number {
  if (!counts || outliers === 'none') return 0;
  return counts.base - counts.head;
}

/**
 * The verdict a benchmark's one-sided pairs hold back, given the verdict of its other pairs, or
 * null. `unchangedWithExtremes`: whether the equivalence interval with the excess kept still lies
 * within ±threshold (null when no excess was kept).
 */
export function heldVerdict(counts: OneSidedCounts, verdict: Verdict, direction: Direction, outliers: OutlierRule, unchangedWithExtremes: boolean | null, alpha: number): Verdict | null {
  if (counts.base + counts.head === 0) return null;
  if (verdict === 'unchanged') return outliers === 'none' || unchangedWithExtremes === false || leansSignificantly(counts, alpha) ? 'unchanged' : null;
  if (counts.base === counts.head) return null;
  // base at 0 and head above it: head counted more, worse for a count, better for a throughput
  const leanWorse = (counts.base > counts.head) === (direction === 'lower-is-better');
  if (verdict === 'regression' && !leanWorse) return verdict;
  if (verdict === 'improvement' && leanWorse) return verdict;
  return null;
}

/**
 * Whether the split of the one-sided pairs alone rejects an even split at alpha (the exact sign
 * test, uncorrected): head counting above 0 where base printed 0 in 12 pairs and never the other
 * way is a difference, though among 80 equal pairs it moves no interval. `unchanged` is then held
 * back; holding back never costs a guarantee, and under no change it happens in at most alpha of
 * the rows with one-sided pairs.
 */
function leansSignificantly(counts: OneSidedCounts, alpha: number): boolean {
  return binomialTwoSidedHalf(counts.base, counts.base + counts.head) < alpha;
}

/**
 * The p-value of a benchmark's test of no change with its one-sided pairs: the exact sign test of
 * their split joins the test of the other pairs by Bonferroni within the row (twice the smaller
 * p-value), which holds its level whatever the two tests' dependence; where the other pairs cannot
 * reject at all (none, or all equal: `speaks` false, a fact of their sizes, not their signs) the
 * sign test alone. Under no change the signs of the one-sided pairs are fair coins given which pairs
 * they are (the module's doc), so the sign test is exact: the binomial test with p = 1/2 (as R's
 * `binom.test`).
 */
export function rowPValue(pairsP: number, speaks: boolean, counts: OneSidedCounts | undefined): number {
  const m = counts ? counts.base + counts.head : 0;
  if (m === 0) return pairsP;
  const sign = binomialTwoSidedHalf(counts!.base, m);
  if (!speaks || !Number.isFinite(pairsP)) return sign;
  return Math.min(1, 2 * Math.min(pairsP, sign));
}

/** Whether the sign test of the one-sided pairs can give a p-value below 1 (two or more): the row then belongs in the correction's family. */
export function signTestCanReject(counts: OneSidedCounts | undefined): boolean {
  return counts !== undefined && counts.base + counts.head >= 2;
}

/**
 * A benchmark undecided by its other pairs, called from its one-sided pairs: when its test
 * (`rowPValue`, corrected) rejects at alpha, and the Hodges–Lehmann interval of its kept pairs
 * with the excess kept as values beyond every other (analysis.ts, `withExtremes`), at the level
 * of its test's interval, lies beyond ±threshold on the excess's side. Returns +1 where head counted
 * more (head above 0 where base printed 0), −1 the other way, null when not called. A count that
 * goes from 0 to 16 bytes an operation is thus a change beyond any threshold, shown by the pairs
 * that form no ratio; a lean among pairs mostly equal is not, since the interval then reaches 0.
 * With the screen off no excess is kept (`keptExtremes`), and none is called.
 */
export function calledFromZeros(counts: OneSidedCounts, kept: Float64Array, level: number, pAdjusted: number, alpha: number, threshold: number, outliers: OutlierRule): 1 | -1 | null {
  const excess = keptExtremes(counts, outliers);
  if (excess === 0 || !(pAdjusted < alpha)) return null;
  const hl = withExtremes(kept, excess, level);
  if (excess > 0) return Math.expm1(hl.lower) > threshold ? 1 : null;
  return Math.expm1(hl.upper) < -threshold ? -1 : null;
}

/** The finding that says what a benchmark's one-sided pairs did to its verdict (report/findings.ts words it). */
export function oneSidedFinding(counts: OneSidedCounts, judgedPairs: number, direction: Direction, outliers: OutlierRule, held: Verdict | null, decided: { verdict: Verdict; pAdjusted: number } | null = null, heldBy?: 'interval' | 'lean'): Finding {
  const screened = outliers !== 'none';
  const balanced = screened && counts.base === counts.head;
  return {
    code: 'one-sided-zeros',
    severity: balanced ? 'info' : 'warning',
    figures: {
      baseZero: counts.base,
      headZero: counts.head,
      pairs: judgedPairs,
      direction,
      balanceP: binomialTwoSidedHalf(counts.base, counts.base + counts.head),
      held,
      screened,
      ...(decided ? { decided: decided.verdict, pAdjusted: decided.pAdjusted } : {}),
      ...(held === 'unchanged' && screened && heldBy ? { heldBy } : {}),
    },
  };
}
