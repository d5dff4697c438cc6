/**
 * The statistics of the sequential design (what users run today) and of the bench's own summaries.
 * pairbench's own tests are not here: the bench runs the real CLI and reads its results.
 *
 * - Welch's t-test, as hyperfine's scripts/welch_ttest.py calls it:
 *   `scipy.stats.ttest_ind(a, b, equal_var=False)`: t = (mean a - mean b) / sqrt(va/na + vb/nb) with
 *   sample variances (ddof 1), Welch–Satterthwaite degrees of freedom, two-sided p from Student's
 *   t distribution. The t distribution's CDF is the regularized incomplete beta function:
 *   P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2) (Abramowitz & Stegun 26.7.1 / 26.5.27), evaluated with
 *   the continued fraction of Numerical Recipes (3rd ed., 6.4, modified Lentz).
 * - Mann–Whitney U, benchstat's method (golang.org/x/perf/benchstat: two-sided U test, alpha 0.05):
 *   `rankSumTest` of src/stats (normal approximation with tie and continuity corrections, as R's
 *   `wilcox.test(x, y, exact = FALSE)`; for 30 runs per side without ties the exact and normal
 *   p-values agree to about 1e-3).
 * - Clopper–Pearson ("exact") binomial interval: quantiles of the beta distribution, found by
 *   bisection on the same incomplete beta function.
 *
 * Cross-checked against scipy 1.17 in tests/bench/stats.test.ts.
 */
import { mean, median, rankSumTest, sd } from '../../src/stats/index.ts';
import { mad, MAD_NORMAL } from '../../src/stats/describe.ts';

/** ln Γ(x) for x > 0: Lanczos approximation (g = 7, n = 9), |relative error| < 1e-14. */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const xx = x - 1;
  let a = c[0]!;
  const t = xx + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (xx + i);
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (Numerical Recipes, betacf, modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const FPMIN = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Two-sided tail of Student's t distribution: P(|T| >= |t|) with df degrees of freedom. */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

export interface WelchResult {
  t: number;
  df: number;
  pValue: number;
}

/** Welch's unequal-variances t-test of a against b, two-sided: `scipy.stats.ttest_ind(a, b, equal_var=False)`. */
export function welchTTest(a: readonly number[], b: readonly number[]): WelchResult {
  const na = a.length;
  const nb = b.length;
  if (na < 2 || nb < 2) return { t: NaN, df: NaN, pValue: NaN };
  const va = sd(a) ** 2 / na;
  const vb = sd(b) ** 2 / nb;
  const se = Math.sqrt(va + vb);
  const diff = mean(a) - mean(b);
  if (!(se > 0)) return { t: diff === 0 ? NaN : Math.sign(diff) * Infinity, df: NaN, pValue: diff === 0 ? NaN : 0 };
  const t = diff / se;
  const df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1));
  return { t, df, pValue: studentTTwoSided(t, df) };
}

/** Mann–Whitney U test of a against b, two-sided (normal approximation; see the header). */
export function mannWhitney(a: readonly number[], b: readonly number[]): { pValue: number } {
  return { pValue: rankSumTest(a, b).pValue };
}

/** The p-quantile of the beta(a, b) distribution, by bisection (60 halvings: far below any print precision). */
export function betaQuantile(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Clopper–Pearson interval of a binomial proportion k / n at the given confidence (default 95%). */
export function clopperPearson(k: number, n: number, confidence = 0.95): [number, number] {
  if (n <= 0) return [0, 1];
  const tail = (1 - confidence) / 2;
  const lower = k === 0 ? 0 : betaQuantile(tail, k, n - k + 1);
  const upper = k === n ? 1 : betaQuantile(1 - tail, k + 1, n - k);
  return [lower, upper];
}

/** The spread of positive values (times, or ratios of two) on the log scale: their sample sd. */
export const logSpread = (xs: readonly number[]): number => sd(xs.map(Math.log));
/** The same, robust: their MAD scaled to an sd under normal noise (× 1.4826). */
export const logRobustSpread = (xs: readonly number[]): number => MAD_NORMAL * mad(xs.map(Math.log));

export { mean, median, sd };
