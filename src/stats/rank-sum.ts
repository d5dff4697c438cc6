/**
 * Mann–Whitney–Wilcoxon rank-sum test, normal approximation, for the diagnostics (order effect,
 * drift). Not a gate, so the approximation is enough at any n.
 */
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
  let i = 0;
  let j = 0;
  let rank = 0;
  let rx = 0;
  let tieSum = 0;
  while (i < nx || j < ny) {
    const va = i < nx ? (a[i] as number) : Infinity;
    const vb = j < ny ? (b[j] as number) : Infinity;
    const m = va < vb ? va : vb;
    let p = 0;
    let q = 0;
    while (i < nx && a[i] === m) {
      i++;
      p++;
    }
    while (j < ny && b[j] === m) {
      j++;
      q++;
    }
    const t = p + q;
    rx += p * (rank + (t + 1) / 2);
    if (t > 1) tieSum += t * t * t - t;
    rank += t;
  }
  const w = rx - (nx * (nx + 1)) / 2;
  const n = nx + ny;
  const sigma = Math.sqrt(((nx * ny) / 12) * (n + 1 - tieSum / (n * (n - 1))));
  if (!(sigma > 0)) return { statistic: w, z: 0, pValue: 1 };
  let z = w - (nx * ny) / 2;
  z = (z - Math.sign(z) * 0.5) / sigma;
  return { statistic: w, z, pValue: 2 * Math.min(pnorm(z), pnorm(-z)) };
}
