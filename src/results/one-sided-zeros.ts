/**
 * The pairs of a benchmark in which one side printed 0 and the other did not (`oneSidedPairs`):
 * a Go `B/op` or `allocs/op` that the runtime fills in some runs and not in others, or a count a
 * revision truly adds or removes. They form no ratio, so the test and the interval are read from
 * the other pairs, and these are judged apart.
 *
 * Why the test stays exact. Whether a pair has exactly one side at 0 does not depend on which side
 * is labelled head: swapping the two runs of a pair keeps it one-sided. Under no change every pair's
 * sign is a fair coin given everything that does not depend on the labels (stats/signflip.ts), so
 * leaving out the one-sided pairs, a set chosen without looking at signs, leaves the other pairs'
 * signs fair coins: the sign-flip test of the rest keeps its level.
 *
 * What they still say. Each one-sided pair is a difference beyond any threshold, of a known sign:
 * the outlier screen's case in the limit (stats/outliers.ts). As the screen does, pairs that fall
 * on either side alike are left out in balanced pairs, one for one; an excess on one side cannot
 * be left out, since that would tilt the judgement, and cannot be put in a ratio. So an excess keeps
 * the benchmark from `unchanged` (its equivalence interval speaks for the ratios' pairs only) and
 * from a verdict that it contradicts (a `regression` while the excess is on the better side); a
 * verdict it agrees with stands. With the screen off (`outliers: none`) nothing is left out, and any
 * one-sided pair keeps the benchmark from `unchanged`. How far the excess leans is told by the
 * exact binomial test of the split (as R's `binom.test`), for the reader: it decides nothing.
 */
import { binomialTwoSidedHalf } from '../stats/outliers.ts';
import { oneSidedLeftOut } from './cold-pilot.ts';
import type { ChangeEstimate, Finding, OutlierRule, Verdict } from '../stats/types.ts';
import type { BenchmarkResult } from './schema.ts';

export interface OneSidedJudgement {
  verdict: Verdict;
  findings: Finding[];
}

/**
 * The change an `unchanged` held back shows: the test's interval, at the correction's level, as
 * every other inconclusive benchmark does, not the equivalence interval that no longer decides
 * (stats/verdict.ts, `decide`). Any other change as it is.
 */
export function shownChange<C extends ChangeEstimate | null | undefined>(change: C): C {
  if (!change || change.basis !== 'equivalence' || !change.tested) return change;
  const { basis: _b, tested, level: _l, achievedConfidence: _a, ...rest } = change;
  return {
    ...rest,
    ci: tested.ci,
    ciLevel: tested.level,
    ...(tested.level !== change.confidence ? { level: tested.level } : {}),
    ...(tested.achievedConfidence !== undefined ? { achievedConfidence: tested.achievedConfidence } : {}),
  } as C;
}

/**
 * The verdict of a benchmark with its one-sided pairs taken into account, and the finding that
 * says so; the verdict as given and no finding when it has none. `verdict` is the one its other
 * pairs gave (`inconclusive` when they gave none).
 */
export function withOneSidedZeros(b: Pick<BenchmarkResult, 'oneSidedPairs' | 'direction' | 'pairs' | 'design'>, verdict: Verdict, outliers: OutlierRule, judgedPairs = b.pairs.length): OneSidedJudgement {
  // those a cold pilot ran are left out with it (cold-pilot.ts)
  const one = (b.oneSidedPairs ?? []).slice(oneSidedLeftOut(b));
  const baseZero = one.filter((p) => p.base === 0).length;
  const headZero = one.length - baseZero;
  if (baseZero + headZero === 0) return { verdict, findings: [] };
  const balanced = baseZero === headZero && outliers !== 'none';
  // base printed 0 and head did not: head counted more, which is worse for a count, better for a throughput
  const headHigher = baseZero > headZero;
  const leanWorse = headHigher === (b.direction === 'lower-is-better');
  const leans = baseZero !== headZero;
  const contradicts = !balanced && (verdict === 'unchanged' || (leans && ((verdict === 'regression' && !leanWorse) || (verdict === 'improvement' && leanWorse))));
  const figures = {
    baseZero,
    headZero,
    pairs: judgedPairs,
    direction: b.direction,
    balanceP: binomialTwoSidedHalf(baseZero, baseZero + headZero),
    held: contradicts ? verdict : null,
  };
  const finding: Finding = { code: 'one-sided-zeros', severity: balanced ? 'info' : 'warning', figures };
  return { verdict: contradicts ? 'inconclusive' : verdict, findings: [finding] };
}
