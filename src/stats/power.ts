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
export const WILCOXON_ARE = 3 / Math.PI;

/**
 * The smallest relative change (0.01 = 1%) that the two-sided signed-rank test at `alpha` detects
 * with probability `power` from n pairs whose log-ratios d have standard deviation `pairedLogSd`:
 * the normal-approximation shift (z_{1-alpha/2} + z_power) * sd / sqrt(n * 3/π) on the log scale
 * (the t-test's detectable shift with n scaled by the Wilcoxon ARE), returned as exp(shift) - 1.
 * Infinity for n <= 0; 0 when there is no spread.
 */
export function minimumDetectableChange(pairedLogSd: number, n: number, alpha: number, power = 0.8): number {
  if (!(n > 0)) return Infinity;
  if (!(pairedLogSd > 0)) return 0;
  const shift = ((qnorm(alpha / 2, false) + qnorm(power)) * pairedLogSd) / Math.sqrt(n * WILCOXON_ARE);
  return Math.expm1(shift);
}

/**
 * Pairs needed for the signed-rank test at `alpha` to detect a relative change `change` with
 * probability `power`, given the spread of d: the inverse of `minimumDetectableChange`.
 */
export function pairsToDetect(pairedLogSd: number, change: number, alpha: number, power = 0.8): number {
  const shift = Math.abs(Math.log1p(change));
  if (!(shift > 0)) return Infinity;
  if (!(pairedLogSd > 0)) return 1;
  const z = qnorm(alpha / 2, false) + qnorm(power);
  return Math.ceil(((z * pairedLogSd) / shift) ** 2 / WILCOXON_ARE - 1e-9);
}
