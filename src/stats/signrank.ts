/**
 * Wilcoxon's signed-rank test on paired log-ratios.
 *
 * Reference (matched to 1e-9 relative, exact distributions exactly): R's
 * `wilcox.test(d, conf.int = TRUE)` (stats package, R 4.2), with its conventions:
 * - zeros (pairs with head == base) are dropped before ranking (Wilcoxon's own `zero_method`,
 *   also scipy's default `zero_method = 'wilcox'`);
 * - the exact null distribution is used when fewer than 50 non-zero pairs remain and there are
 *   no ties and no zeros; otherwise the normal approximation with the tie correction of the
 *   variance and a continuity correction of 0.5 towards the mean (R's default `correct = TRUE`).
 * scipy's `wilcoxon(d, correction=True, method='exact' | 'asymptotic')` with the same choice
 * gives the same p-values (cross-checked in the fixtures). scipy's *default* call differs: no
 * continuity correction, exact up to n <= 50, and a permutation test for small n with ties.
 */
import { pnorm } from './normal.ts';
import { mergedRankSum } from './merged-ranks.ts';

const countsCache = new Map<number, Float64Array>();

/**
 * Cumulative counts of the exact null distribution of the signed-rank statistic V for n
 * non-zero, untied values: cum[v] = #{sign patterns with V <= v}, out of 2^n.
 * Dynamic programming over ranks (the generating function prod_{i<=n} (1 + t^i)), as R's
 * `csignrank`. Counts stay exact integers in doubles for n <= 52 (2^52 patterns).
 */
export function signrankCumulativeCounts(n: number): Float64Array {
  const cached = countsCache.get(n);
  if (cached) return cached;
  if (!Number.isInteger(n) || n < 0 || n > 52) throw new RangeError(`exact signed-rank distribution needs 0 <= n <= 52, got ${n}`);
  const w = cumulativeCounts(n);
  countsCache.set(n, w);
  return w;
}

/** The generating function's cumulative counts for any n: exact integers up to n = 52, rounded at 1e-16 relative beyond. */
function cumulativeCounts(n: number): Float64Array {
  const total = (n * (n + 1)) / 2;
  const w = new Float64Array(total + 1);
  w[0] = 1;
  for (let i = 1; i <= n; i++) {
    const top = (i * (i + 1)) / 2;
    for (let v = top; v >= i; v--) w[v] = (w[v] as number) + (w[v - i] as number);
  }
  for (let v = 1; v <= total; v++) w[v] = (w[v] as number) + (w[v - 1] as number);
  return w;
}

/** P(V <= q) under the exact null with n values (R's `psignrank(q, n)`), exact to the last bit. */
export function psignrank(q: number, n: number): number {
  const total = (n * (n + 1)) / 2;
  const k = Math.floor(q + 1e-7);
  if (k < 0) return 0;
  if (k >= total) return 1;
  const cum = signrankCumulativeCounts(n);
  return (cum[k] as number) / 2 ** n;
}

/**
 * The smallest q with P(V <= q) >= p (R's `qsignrank(p, n)`, including its fuzz of
 * 10 machine epsilons below p that keeps p's own rounding from moving the quantile).
 */
export function qsignrank(p: number, n: number): number {
  const total = (n * (n + 1)) / 2;
  const cum = signrankCumulativeCounts(n);
  const scale = 2 ** n;
  if (p <= 0.5) {
    const x = p - 10 * Number.EPSILON;
    for (let q = 0; q <= total; q++) if ((cum[q] as number) / scale >= x) return q;
    return total;
  }
  const x = 1 - p + 10 * Number.EPSILON;
  for (let q = 0; q <= total; q++) if ((cum[q] as number) / scale > x) return total - q;
  return 0;
}

let lastTail: { n: number; cum: Float64Array } | null = null;

/**
 * The rank k of the lower end of the closed Walsh-average interval [w_(k), w_(N+1-k)] at two-sided
 * level 2p under the exact null of n untied values: R's `qsignrank(p, n)` (the smallest q with
 * P(V <= q) >= p, with its fuzz), raised to 1 when it is 0, and `tail` = P(V <= k - 1), the chance
 * the interval misses on each side. Unlike `qsignrank`, any n: up to 52 from the exact counts;
 * up to 600 from the same generating function in doubles (counts up to 2^600, exact in magnitude,
 * rounded at 1e-16 relative, far below any level asked); beyond (`exactUpTo`), from the normal
 * approximation of the untied V (skewness 0, excess kurtosis of order 1/n), continuity-corrected,
 * which is lighter-tailed than the normal: at 600 values and levels down to 5e-5 the rank it picks
 * is at most one above the exact one and at most 0.07% below it (an interval as wide or wider;
 * tests/stats/properties.test.ts).
 */
export function signrankLowerRank(p: number, n: number, exactUpTo = 600): { rank: number; tail: number } {
  const total = (n * (n + 1)) / 2;
  let cum: Float64Array | null = null;
  if (n > exactUpTo) cum = null;
  else if (n <= 52) cum = signrankCumulativeCounts(n);
  else {
    // one n kept: the stopping rule asks again for the same n between rounds, never for many at once
    if (lastTail?.n !== n) lastTail = { n, cum: cumulativeCounts(n) };
    cum = lastTail.cum;
  }
  const scale = 2 ** n;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  const tailAt = (q: number): number => {
    if (q < 0) return 0;
    if (q >= total) return 1;
    if (cum) return (cum[q] as number) / scale;
    return pnorm((q + 0.5 - total / 2) / sigma);
  };
  const x = p - 10 * Number.EPSILON;
  let rank = 0;
  while (rank < total && tailAt(rank) < x) rank++;
  if (rank === 0) rank = 1;
  return { rank, tail: tailAt(rank - 1) };
}

/**
 * The signed-rank statistic of the non-zero values without an index sort: |values| of each sign
 * sorted natively, then merged tie group by tie group (average ranks). Returns the number of
 * non-zero values, V = the sum of the average ranks of |x| over the positive x, and
 * sum(t^3 - t) over the tie groups of |x| (for the variance's tie correction).
 */
export function signedRankSum(values: ArrayLike<number>): { n: number; v: number; tieSum: number; ties: boolean } {
  let np = 0;
  let nn = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x > 0) np++;
    else if (x < 0) nn++;
  }
  const pos = new Float64Array(np);
  const neg = new Float64Array(nn);
  np = 0;
  nn = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x > 0) pos[np++] = x;
    else if (x < 0) neg[nn++] = -x;
  }
  pos.sort();
  neg.sort();
  const { rankSumA: v, tieSum } = mergedRankSum(pos, neg);
  return { n: np + nn, v, tieSum, ties: tieSum > 0 };
}

export interface SignedRankOptions {
  /** continuity correction in the normal approximation (R's `correct`; default true) */
  correct?: boolean;
  /** use the exact distribution below this many non-zero values, without ties or zeros (R: 50) */
  exactBelow?: number;
}

export interface SignedRankResult {
  /** V: the sum of the ranks of |d| of the positive d */
  statistic: number;
  /** non-zero values used */
  n: number;
  /** zeros dropped */
  zeros: number;
  /** whether |d| has ties among the non-zero values */
  ties: boolean;
  method: 'exact' | 'normal';
  /** the standardized statistic (after continuity correction) for `normal`, null for `exact` */
  z: number | null;
  /** two-sided p-value */
  pValue: number;
}

/**
 * Two-sided Wilcoxon signed-rank test of symmetry about 0 (Wilcoxon 1945, "Individual comparisons
 * by ranking methods", Biometrics Bulletin 1, 80-83), exactly as R's `wilcox.test(d)`: see this
 * module's doc for the conventions. With no non-zero values left the p-value is 1.
 */
export function wilcoxonSignedRank(d: ArrayLike<number>, options: SignedRankOptions = {}): SignedRankResult {
  const correct = options.correct ?? true;
  const exactBelow = options.exactBelow ?? 50;
  let zeros = 0;
  for (let i = 0; i < d.length; i++) if (d[i] === 0) zeros++;
  const { n, v, tieSum, ties } = signedRankSum(d);
  if (n === 0) return { statistic: 0, n: 0, zeros, ties: false, method: 'normal', z: null, pValue: 1 };
  if (n < exactBelow && !ties && zeros === 0) {
    // P(V >= v) = P(V <= total - v) by the symmetry of V about total / 2: exact counts either way
    const total = (n * (n + 1)) / 2;
    const p = v > total / 2 ? psignrank(total - v, n) : psignrank(v, n);
    return { statistic: v, n, zeros, ties, method: 'exact', z: null, pValue: Math.min(2 * p, 1) };
  }
  let z = v - (n * (n + 1)) / 4;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieSum / 48);
  const corr = correct ? Math.sign(z) * 0.5 : 0;
  z = (z - corr) / sigma;
  const pValue = sigma === 0 ? 1 : 2 * Math.min(pnorm(z), pnorm(-z));
  return { statistic: v, n, zeros, ties, method: 'normal', z: sigma === 0 ? null : z, pValue };
}
