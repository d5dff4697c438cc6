/**
 * Ranks of two sorted samples in their union, with ties given their average rank, without sorting
 * indices: the two arrays are merged tie group by tie group. The signed-rank statistic (positive
 * against negative |x|) and the rank-sum statistic (x against y) are both this one walk.
 */

/** Sum of the average ranks of `a`'s values in a ∪ b, and sum(t^3 - t) over the tie groups (for the variance's tie correction). */
export function mergedRankSum(a: Float64Array, b: Float64Array): { rankSumA: number; tieSum: number } {
  const na = a.length;
  const nb = b.length;
  let i = 0;
  let j = 0;
  let rank = 0;
  let rankSumA = 0;
  let tieSum = 0;
  while (i < na || j < nb) {
    const va = i < na ? (a[i] as number) : Infinity;
    const vb = j < nb ? (b[j] as number) : Infinity;
    const m = va < vb ? va : vb;
    let p = 0;
    let q = 0;
    while (i < na && a[i] === m) {
      i++;
      p++;
    }
    while (j < nb && b[j] === m) {
      j++;
      q++;
    }
    const t = p + q;
    rankSumA += p * (rank + (t + 1) / 2);
    if (t > 1) tieSum += t * t * t - t;
    rank += t;
  }
  return { rankSumA, tieSum };
}
