/**
 * Mann–Whitney–Wilcoxon rank-sum test, normal approximation, for the diagnostics (order effect,
 * drift). Not a gate, so the approximation is enough at any n.
 */
import { mergedRankSum } from './merged-ranks.ts';
import { pnorm } from './normal.ts';

/**
 * Two-sided rank-sum test of x against y: Mann & Whitney (1947), "On a test of whether one of two
 * random variables is stochastically larger than the other", Ann. Math. Statist. 18, 50-60; normal
 * approximation with tie correction and continuity correction, as R's
 * `wilcox.test(x, y, exact = FALSE)`. Returns p = 1 when either group is empty or all values tie.
 */
export function rankSumTest(x: ArrayLike<number>, y: ArrayLike<number>): { statistic: number; z: number; pValue: number } {
  const nx = x.length;
  const ny = y.length;
  if (nx === 0 || ny === 0) return { statistic: 0, z: 0, pValue: 1 };
  // both groups sorted natively, merged tie group by tie group (average ranks)
  const a = Float64Array.from(x as ArrayLike<number>).sort();
  const b = Float64Array.from(y as ArrayLike<number>).sort();
  const { rankSumA: rx, tieSum } = mergedRankSum(a, b);
  const w = rx - (nx * (nx + 1)) / 2;
  const n = nx + ny;
  const sigma = Math.sqrt(((nx * ny) / 12) * (n + 1 - tieSum / (n * (n - 1))));
  if (!(sigma > 0)) return { statistic: w, z: 0, pValue: 1 };
  let z = w - (nx * ny) / 2;
  z = (z - Math.sign(z) * 0.5) / sigma;
  return { statistic: w, z, pValue: 2 * Math.min(pnorm(z), pnorm(-z)) };
}
