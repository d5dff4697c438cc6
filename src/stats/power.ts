/**
 * Power: the smallest change a number of pairs can detect, and the pairs a change needs.
 */
import { qnorm } from './normal.ts';

/**
 * Asymptotic relative efficiency of the signed-rank test against the t-test for normal data, 3/π
 * (Hodges & Lehmann 1956, "The efficiency of some nonparametric competitors of the t-test",
 * Ann. Math. Statist. 27, 324-335). For heavier tails it is higher (never below 0.864), so this is
 * the cautious value.
 */
const WILCOXON_ARE = 3 / Math.PI;

/**
 * The fewest pairs for which the two-sided exact signed-rank test can give p < alpha: its smallest
 * p-value is 2 / 2^n (all signs alike), so n must satisfy 2^(1-n) < alpha (6 at 0.05, 8 at 0.01).
 * Below it no change is detectable, whatever the normal approximation says.
 */
export function minPairsForAlpha(alpha: number): number {
  if (!(alpha > 0)) return Infinity;
  let n = 1;
  while (2 ** (1 - n) >= alpha) n++;
  return n;
}

/**
 * The smallest relative change (0.01 = 1%) that the two-sided signed-rank test at `alpha` detects
 * with probability `power` from n pairs whose log-ratios d have standard deviation `pairedLogSd`:
 * the normal-approximation shift (z_{1-alpha/2} + z_power) * sd / sqrt(n * 3/π) on the log scale
 * (the t-test's detectable shift with n scaled by the Wilcoxon ARE), returned as exp(shift) - 1.
 * Infinity for fewer pairs than the exact test needs to reach alpha (`minPairsForAlpha`); 0 when
 * there is no spread.
 */
export function minimumDetectableChange(pairedLogSd: number, n: number, alpha: number, power = 0.8): number {
  if (!(n > 0) || n < minPairsForAlpha(alpha)) return Infinity;
  if (!(pairedLogSd > 0)) return 0;
  const shift = ((qnorm(alpha / 2, false) + qnorm(power)) * pairedLogSd) / Math.sqrt(n * WILCOXON_ARE);
  return Math.expm1(shift);
}

/**
 * Pairs needed for the signed-rank test at `alpha` to detect a relative change `change` with
 * probability `power`, given the spread of d: the inverse of `minimumDetectableChange`, and never
 * fewer than the exact test needs to reach alpha at all (6 at 0.05: a quiet machine's "about 4
 * pairs" could never be significant).
 */
export function pairsToDetect(pairedLogSd: number, change: number, alpha: number, power = 0.8): number {
  const shift = Math.abs(Math.log1p(change));
  if (!(shift > 0)) return Infinity;
  const least = minPairsForAlpha(alpha);
  if (!(pairedLogSd > 0)) return least;
  const z = qnorm(alpha / 2, false) + qnorm(power);
  return Math.max(least, Math.ceil(((z * pairedLogSd) / shift) ** 2 / WILCOXON_ARE - 1e-9));
}
