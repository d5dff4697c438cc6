/**
 * When to stop measuring a benchmark: after every round the scheduler asks `stopCheck`.
 *
 * Stopping when a fixed-n p-value dips below alpha inflates false positives (checking every 5
 * pairs: about 29% instead of 5%), so the only rules here are ones that keep the error rates:
 * - `precision`: the (1 - alpha) interval of the relative change is expected to be narrower than
 *   ±precision: the width it would have with no change, judged from the sizes of the differences
 *   alone (`nullHalfWidth`). A rule blind to the signs cannot bias the test (see there); the
 *   interval's own width is not consulted, so the interval reported at the stop (at 1 - alpha/2,
 *   analysis.ts) can be wider than ±precision, by about a half under bimodal noise.
 * - `decided`: an anytime-valid sign-flip betting test (an e-process) on d, valid however often it
 *   is checked, says the benchmark is settled either way: its change is beyond ±threshold, or
 *   within ±threshold.
 * The budget (max pairs, max time) is the scheduler's.
 *
 * The betting test. With the pair's order decided by a coin and no change, d is symmetric about 0
 * whatever the machine does; with a change m (log scale) and exchangeable noise, d - m is symmetric.
 * For an odd, bounded, non-decreasing g, E[g(d - c) | past] <= 0 whenever d is symmetric about some
 * m <= c. So for any bets 0 <= lambda_i <= 1 fixed before d_i is seen,
 * K_t = prod_{i<=t} (1 + lambda_i g(d_i - c)) is a non-negative supermartingale under every m <= c,
 * and by Ville's inequality P(sup_t K_t >= 1/a) <= a: K_t can be checked after every pair.
 * (Testing by betting: Shafer 2021, "Testing by betting", JRSS A 184, 407-431; Waudby-Smith &
 * Ramdas 2024, "Estimating means of bounded random variables by betting", JRSS B 86, 1-27; for
 * symmetry by sign flips, Ramdas, Grünwald, Vovk & Shafer 2023, "Game-theoretic statistics and
 * safe anytime-valid inference", Statist. Sci. 38, 576-601, and de la Peña 1999 for the
 * self-normalized sign-flip martingale.)
 * Here g(y) = clamp(y / s, -1, 1) with s = 2 × a robust spread (IQR / 1.349) of the pairs before
 * (predictable, so the martingale property holds; clamping bounds the effect of any one spike), and
 * instead of tuning a bet we average the wealth of a grid of constant bets: a mixture of test
 * supermartingales is one (the "diversified" strategy of Waudby-Smith & Ramdas, sec. 5).
 * - change: K for "m <= ln(1 + threshold)" or for "m >= ln(1 - threshold)" reaches 2 k/alpha for a
 *   family of k benchmarks (union of two tests at alpha/(2k) each, Bonferroni over the family: an
 *   unchanged benchmark is called changed with probability at most alpha/k). The verdict of a change
 *   is Holm's over the family (judge.ts), so a benchmark stopped at 2/alpha alone was often judged
 *   inconclusive afterwards, its measuring ended before the correction could agree (Bonferroni at
 *   k is the level Holm's first step uses, so the stop never outruns the verdict);
 * - unchanged: K for "m >= ln(1 + threshold)" and K for "m <= ln(1 - threshold)" both reach 1/alpha
 *   (intersection-union: a changed benchmark is called unchanged with probability at most alpha).
 */
import type { OutlierRule, Pair, StopCheck, StopOptions } from './types.ts';
import { MAD_NORMAL, median, quantileSorted } from './describe.ts';
import { qnorm } from './normal.ts';
import { hodgesLehmann } from './hodges-lehmann.ts';
import { analyzePairs, intervalLevel, logRatios, STOPPED_EARLY_ALPHA_SHARE } from './analysis.ts';
import { minPairsForAlpha } from './power.ts';
import { screenOutliers } from './outliers.ts';
import { mulberry32 } from './prng.ts';
import { smallestPValue } from './signflip.ts';
import { verdictOf } from './verdict.ts';
import { unchangedMargin } from './resolution.ts';

/** Constant bets mixed with equal weight. */
const BET_GRID: readonly number[] = [0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8];
/** g's scale, in robust standard deviations of the earlier pairs. */
const SCALE_MULTIPLIER = 2;
/** Pairs seen before the first bet (the scale needs some history). */
const BURN_IN = 3;

export interface BettingEvidence {
  /** wealth against "change <= +threshold" (large: the change is above +threshold) */
  above: number;
  /** wealth against "change >= -threshold" (large: the change is below -threshold) */
  below: number;
  /** wealth against "change >= +threshold" (large: the change is below +threshold) */
  underUpper: number;
  /** wealth against "change <= -threshold" (large: the change is above -threshold) */
  overLower: number;
}

/** The earlier pairs' robust spread, recomputed on a geometric schedule so a call stays O(n log n). */
function scaleSchedule(d: Float64Array): Float64Array {
  const n = d.length;
  const scales = new Float64Array(n).fill(NaN);
  let current = NaN;
  let next = BURN_IN;
  for (let i = BURN_IN; i < n; i++) {
    // scale for pair i uses pairs 0..i-1 only
    if (i >= next) {
      const prefix = d.slice(0, i);
      prefix.sort();
      let s = (quantileSorted(prefix, 0.75) - quantileSorted(prefix, 0.25)) / 1.349;
      if (!(s > 0)) {
        const med = quantileSorted(prefix, 0.5);
        let acc = 0;
        for (let j = 0; j < i; j++) acc += Math.abs((prefix[j] as number) - med);
        s = (1.253314 * acc) / i;
      }
      current = s;
      next = i < 32 ? i + 1 : i + Math.max(1, Math.floor(i / (i < 1024 ? 8 : 2)));
    }
    scales[i] = current;
  }
  return scales;
}

/**
 * The four betting wealths of d against the threshold (see the module doc). Pure function of the
 * pairs' log-ratios in measuring order; checking it after every pair keeps its guarantees.
 */
export function bettingEvidence(d: ArrayLike<number>, threshold: number): BettingEvidence {
  const up = Math.log1p(threshold);
  const down = Math.log1p(-Math.min(threshold, 0.999999));
  const n = d.length;
  const scales = scaleSchedule(Float64Array.from(d as ArrayLike<number>));
  const J = BET_GRID.length;
  const logA = new Float64Array(J);
  const logB = new Float64Array(J);
  const logU = new Float64Array(J);
  const logO = new Float64Array(J);
  const g = (y: number, s: number): number => (s > 0 ? Math.max(-1, Math.min(1, y / (SCALE_MULTIPLIER * s))) : Math.sign(y));
  // Wealth is multiplied in linear space and moved into the logs every 32 pairs: each factor lies
  // in [0.2, 1.8], so 32 of them stay far from under- and overflow, and one log per 32 factors
  // instead of one per factor (4 x 7 per pair) is most of a stopping check's cost saved.
  const pA = new Float64Array(J).fill(1);
  const pB = new Float64Array(J).fill(1);
  const pU = new Float64Array(J).fill(1);
  const pO = new Float64Array(J).fill(1);
  const flush = (): void => {
    for (let j = 0; j < J; j++) {
      logA[j] = (logA[j] as number) + Math.log(pA[j] as number);
      logB[j] = (logB[j] as number) + Math.log(pB[j] as number);
      logU[j] = (logU[j] as number) + Math.log(pU[j] as number);
      logO[j] = (logO[j] as number) + Math.log(pO[j] as number);
    }
    pA.fill(1);
    pB.fill(1);
    pU.fill(1);
    pO.fill(1);
  };
  for (let i = BURN_IN; i < n; i++) {
    const s = scales[i] as number;
    const v = d[i] as number;
    const gu = g(v - up, s);
    const gd = g(v - down, s);
    for (let j = 0; j < J; j++) {
      const lam = BET_GRID[j] as number;
      pA[j] = (pA[j] as number) * (1 + lam * gu);
      pU[j] = (pU[j] as number) * (1 - lam * gu);
      pB[j] = (pB[j] as number) * (1 - lam * gd);
      pO[j] = (pO[j] as number) * (1 + lam * gd);
    }
    if ((i - BURN_IN) % 32 === 31) flush();
  }
  flush();
  const mix = (l: Float64Array): number => {
    let s = 0;
    for (let j = 0; j < J; j++) s += Math.exp(l[j] as number);
    return s / J;
  };
  return { above: mix(logA), below: mix(logB), underUpper: mix(logU), overLower: mix(logO) };
}

/**
 * The precision a benchmark stops at when `--precision` is not given: a quarter of its threshold
 * (0.5% at the default 2%).
 *
 * Why a quarter. The precision rule stops a benchmark once its interval is expected within
 * ±precision, and an unchanged benchmark is then called `unchanged` only if its equivalence interval
 * (at 95% for what `compare` measures: analysis.ts, `equivalenceLevel`) lies within ±threshold: only
 * if its estimate lies within about threshold − precision of 0. At half the threshold that margin is
 * one half-width, about two standard errors of the estimate on paper, and less in practice: the
 * exact interval of heavy-tailed pairs (a few runs 15-40% off) comes out up to half again as wide
 * as the sign-blind width that stopped it, so benchmarks stopped by this rule ended `inconclusive`
 * with budget left. At a quarter the margin is three half-widths (the runs that showed it:
 * docs/design-notes.md, "When to stop: why the precision is a quarter of the threshold"). The rule stays blind to the signs whatever
 * its width, so the level of every test is kept; a narrower precision only costs pairs (about four
 * times as many for a benchmark this rule stops, fewer where the betting test or the budget ends
 * it first), and the budget (`--max-time`, `--max-pairs`) still bounds them.
 */
export function defaultPrecision(threshold: number): number {
  return threshold / 4;
}

/** Student t quantile by the Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5), enough here. */
function tQuantile(p: number, df: number): number {
  const z = qnorm(p);
  const z3 = z * z * z;
  const z5 = z3 * z * z;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
}

/**
 * The half-width (relative) that the (1 - alpha) interval has when the change is zero, computed
 * from the sizes |d_i| alone, never their signs: t_{n-1} × s0 × sqrt(π/3) / sqrt(n) on the log
 * scale (the Hodges–Lehmann interval's normal-theory width: efficiency 3/π), with s0 the root mean
 * square of |d| after leaving out spikes beyond 4 × 1.4826 × median |d|.
 *
 * Why sign-blind: with the order of each pair decided by a coin and no change, the signs of d are
 * fair coins independent of the sizes. A stopping rule that looks only at the sizes is then
 * independent of the signs, so the signed-rank test at the stop keeps its exact level however the
 * stopping time came about. A rule on the interval's own width does not: an interval comes out
 * narrow when its spread happens to look small, and stopping on that makes intervals too narrow
 * (measured on 4000 A/A runs, per-run noise 1.2%, precision 1%: stopping on the interval's own
 * width gave 7.0% significant results at alpha 0.05 and 93.0% coverage; this rule 5.6% and 94.4%,
 * the rest being the outlier exclusion's; with the same mean number of pairs, 13.9).
 * With a real change the sizes include it, so this width is larger than the interval's and the
 * rule waits for more pairs, never fewer.
 */
export function nullHalfWidth(d: ArrayLike<number>, alpha: number): number {
  const n = d.length;
  if (n < 2) return Infinity;
  const a = Float64Array.from(d as ArrayLike<number>, Math.abs).sort();
  const med = a[n >> 1] as number;
  const cut = 4 * 1.4826 * med;
  let ss = 0;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = a[i] as number;
    if (med > 0 && v > cut) continue;
    ss += v * v;
    m++;
  }
  const s0 = Math.sqrt(ss / m);
  const h = (tQuantile(1 - alpha / 2, n - 1) * s0 * Math.sqrt(Math.PI / 3)) / Math.sqrt(n);
  return (Math.expm1(h) - Math.expm1(-h)) / 2;
}

/** Sign patterns drawn by `flippedHalfWidth`. */
const FLIP_DRAWS = 99;
/** The share of sign patterns whose interval must lie within the precision (`flippedHalfWidth`). */
const FLIP_QUANTILE = 0.9;
/**
 * Above this many pairs the precision rule reads `nullHalfWidth` alone. The signed-rank interval at
 * 95% ends at the Walsh average of rank C ≈ n(n+1)/4 − 1.96 sqrt(n(n+1)(2n+1)/24), and k spikes on
 * one side make about k·n Walsh averages beyond it: one spike moves the bound at 8 pairs (C = 4),
 * three at 20 (C = 53), twelve at 60 (C = 649, a fifth of the pairs), a share that grows toward a quarter
 * with n. So past 60 pairs it takes a burst that the normal-theory width sees too, and the 99
 * intervals are no longer cheap (6 ms at 50 pairs, 55 ms at 200, for each benchmark at each check).
 */
const FLIP_MAX_PAIRS = 60;

/**
 * The half-width (relative) that the benchmark's interval would have with no change, read from
 * the sizes |d_i| alone by giving them random signs: for each of FLIP_DRAWS sign patterns (drawn
 * from a fixed seed, so that the result is a function of the sizes alone), the outlier screen that
 * judging applies (`screenOutliers` under `rule`) and the Hodges–Lehmann interval at 1 - alpha of
 * the pairs it keeps; the FLIP_QUANTILE quantile of those half-widths, so that the precision rule
 * stops only where nine sign patterns in ten would give an interval within ±precision.
 *
 * Why, beside `nullHalfWidth`. That one is normal theory on the sizes with spikes left out: right
 * for many pairs. With few, one or two spikes decide the exact interval, and judging keeps them
 * whenever the screen does: every pair under `--outliers none`, and under `tukey` or `mad` the
 * flagged pairs in excess on one side. Seen in CI runs of the example projects (threshold 5%,
 * precision 1.25%): the vitest example's untouched sort, 8 pairs, seven within ±0.6% and one at
 * −17.9%, stopped at a normal-theory width of ±0.24% and was judged by [−9.4%, +0.2%], so
 * `inconclusive`, one pair short of what its own report said would settle it; pyperf's, 15 pairs
 * with two at +33% and +45%, stopped at ±1.2% and was judged by [−2.2%, +14.0%]. With this width
 * the first stops at 12 pairs ([−0.4%, +0.1%], its 8 pairs followed by simulated quiet ones) and the
 * second at 22 ([−1.6%, +0.5%]). At the median of the sign patterns instead of nine in ten,
 * three spikes of one sign among 17 pairs of Catch2's sort stopped at [−1.0%, +8.4%]: such a
 * pattern is one in four.
 *
 * Under no change the signs are fair coins independent of the sizes, so the interval's
 * distribution given the sizes is exactly the one over sign patterns: the randomization argument
 * of the signed-rank interval (Fisher 1935, "The Design of Experiments"; Hodges & Lehmann
 * 1963, "Estimates of location based on rank tests", Ann. Math. Statist. 34, 598-611). Blind to the
 * actual signs, a stop on it keeps the test exact, as `nullHalfWidth` does; and required as well
 * as that one, it can only add pairs. Its cost, 99 intervals of O(n log n), is paid only where
 * the normal-theory width would stop the benchmark, and only up to FLIP_MAX_PAIRS pairs.
 */
export function flippedHalfWidth(d: ArrayLike<number>, alpha: number, rule: OutlierRule): number {
  const n = d.length;
  if (n < 2) return Infinity;
  const sizes = Float64Array.from(d as ArrayLike<number>, Math.abs);
  const rand = mulberry32(0x9e3779b9);
  const x = new Float64Array(n);
  const widths: number[] = [];
  for (let k = 0; k < FLIP_DRAWS; k++) {
    for (let i = 0; i < n; i++) x[i] = rand() < 0.5 ? -(sizes[i] as number) : (sizes[i] as number);
    const excluded = new Set(screenOutliers(x, rule).excluded);
    const kept: number[] = [];
    for (let i = 0; i < n; i++) if (!excluded.has(i)) kept.push(x[i] as number);
    if (kept.length < 2) {
      widths.push(Infinity);
      continue;
    }
    const hl = hodgesLehmann(kept, 1 - alpha, { zeros: 'keep' });
    widths.push((Math.expm1(hl.upper) - Math.expm1(hl.lower)) / 2);
  }
  widths.sort((a, b) => a - b);
  return quantileSorted(widths, FLIP_QUANTILE);
}

/**
 * The half-width the precision rule compares with `--precision`: the larger of `nullHalfWidth` and,
 * up to FLIP_MAX_PAIRS pairs, `flippedHalfWidth`. Blind to the signs of d, as both are. `normal`:
 * `nullHalfWidth(d, alpha)` where the caller has it already.
 */
export function precisionHalfWidth(d: ArrayLike<number>, alpha: number, rule: OutlierRule, normal = nullHalfWidth(d, alpha)): number {
  return d.length > FLIP_MAX_PAIRS ? normal : Math.max(normal, flippedHalfWidth(d, alpha, rule));
}

/**
 * The pairs after which a benchmark whose differences d = ln(head / base) have variance Var would
 * likely settle were it unchanged, per unit of Var: the `expected` count of `settleNeeds` (an
 * equivalence interval at 1 - 2 alpha of half-width threshold / 2, Hodges–Lehmann's efficiency
 * 3/π), as a design predicts it before any of its pairs (stats/design-model.ts, `settlesWithin`).
 */
export function settlePairsPerVariance(alpha: number, threshold: number): number {
  const half = Math.log1p(threshold) / 2;
  return (qnorm(alpha, false) ** 2 * (Math.PI / 3)) / half ** 2;
}

/**
 * A benchmark that cannot be shown unchanged within the budget (its `hope` does not fit) is still
 * measured, after every benchmark that can be, while a change of this many thresholds (20% at the
 * default 2%) would show within the pairs the budget could give it: such a change is a regression
 * worth catching, and the pairs that could show it are not wasted (`reach`, schedule/allocate.ts).
 * Without it, under heavy noise every benchmark can look out of reach after its first pairs, and a
 * suite is given up with its regressions undetected and its budget unspent. One whose pairs spread so widely that
 * even such a change would not show (Go parsers whose runs vary by ±230-300% within a process) is
 * still given up.
 */
const LONG_SHOT_THRESHOLDS = 10;

/** z of 80% power, the power `reach` plans for (a one-sided normal quantile). */
const Z_POWER = qnorm(0.2, false);

/**
 * Pairs in all after which the benchmark would likely stop (`need`), the fewest it could take
 * if it has not changed, read from the sizes of its differences alone (`hope`), and the pairs after
 * which it would likely settle then (`expected`, below).
 *
 * `need`, for the progress lines and the report: the fewest of the pairs that settle its verdict
 * (its equivalence interval within ±threshold, or its test's interval away from 0 with the estimate
 * beyond the threshold) and the pairs that bring the sign-blind half-width of the precision rule
 * below `precision`. Normal theory for the Hodges–Lehmann interval, n = (z σ / δ)² with
 * σ = s sqrt(π/3) (efficiency 3/π; Hodges & Lehmann 1963) from a robust spread s of the kept pairs
 * (1.4826 × their MAD around the estimate): the exact interval of a few pairs at a high level spans
 * nearly all of them and would predict far too many. The levels are those `compare` judges at
 * (analysis.ts, `equivalenceLevel`, `intervalLevel`; judge.ts, `intervalAlpha`): the equivalence
 * interval at 1 - alpha (its rules watch every benchmark), the test's at 1 - alpha / family.
 *
 * `hope`, for the allocation (schedule/allocate.ts): the pairs the equivalence interval (at the
 * fixed-sample 1 - 2 alpha: the hopeful side, as `expected` below) needs to fit within ±threshold
 * were the change 0 (or the precision rule to stop, if sooner), with the spread
 * read from the sizes |d| alone (1.4826 × their median: blind to the signs, as the precision rule
 * is) and taken three standard errors smaller (the standard deviation from n pairs has a relative
 * standard error of about 1/sqrt(2n) for normal data), so that noise in a few pairs does not give
 * up on a benchmark within reach. Blind to the signs, so that where the budget goes cannot depend
 * on which way a benchmark's pairs lean: under no change the signs of every benchmark's pairs stay
 * fair coins, independent of how many pairs it got, and its test stays exact. A large change shows
 * as a large spread of sizes and is decided by the betting rule instead (`bettingEvidence`), or,
 * where the spread is wide, measured while `reach` (LONG_SHOT_THRESHOLDS) fits.
 */
function settleNeeds(n: number, estimate: number, kept: readonly number[], d: Float64Array, opts: StopOptions): { need: number | null; hope: number | null; expected: number | null; reach: number | null } {
  const family = Math.max(1, opts.family ?? 1);
  const floor = Math.max(n + 1, opts.minKept ?? 0, minPairsForAlpha(opts.alpha));
  const center = Math.log1p(estimate);
  const s = MAD_NORMAL * median(kept.map((v) => Math.abs(v - center)));
  const sigma = s * Math.sqrt(Math.PI / 3);
  const zTest = qnorm(opts.alpha / (2 * family), false);
  const zEq = qnorm(opts.alpha, false);
  // `need` is what the progress lines say: the equivalence interval as `compare` judges it (1 - alpha:
  // analysis.ts, `equivalenceLevel`), where `hope` and `expected` keep the fixed-sample level
  const zJudged = qnorm(opts.alpha * STOPPED_EARLY_ALPHA_SHARE, false);
  const threshold = Math.log1p(opts.threshold);
  const size = Math.abs(center);
  const pairsFor = (z: number, spread: number, target: number): number => {
    if (!(target > 0)) return Infinity;
    if (!(spread > 0)) return floor;
    return Math.max(floor, Math.ceil(((z * spread) / target) ** 2 - 1e-9));
  };
  const nullHalf = nullHalfWidth(d, opts.alpha);
  const precise = !Number.isFinite(nullHalf) ? Infinity : nullHalf <= 0 ? floor : Math.max(floor, Math.ceil(n * (nullHalf / opts.precision) ** 2 - 1e-9));
  const need = Math.min(size > threshold ? pairsFor(zTest, sigma, size) : Infinity, pairsFor(zJudged, sigma, threshold - size), precise);
  const shrink = Math.max(0.3, 1 - 3 / Math.sqrt(2 * Math.max(n, 1)));
  const sizesSd = MAD_NORMAL * median(Array.from(d, Math.abs));
  const sizes = sizesSd * Math.sqrt(Math.PI / 3);
  const hope = Math.min(pairsFor(zEq, sizes * shrink, threshold), Number.isFinite(precise) ? Math.max(floor, Math.ceil(precise * shrink * shrink)) : Infinity);
  // `expected`, what the budget is ranked by: an interval of half-width threshold / 2 around an estimate that
  // is itself off by about a standard error fits within ±threshold in about 90% of comparisons (the
  // estimate is within z·se = threshold / 2 of 0 that often), where `hope`'s half-width of the whole
  // threshold fits only when the estimate is exactly 0; the count a design predicts before its pairs
  const settle = !(threshold > 0) ? Infinity : sizesSd > 0 ? Math.max(floor, Math.ceil(settlePairsPerVariance(opts.alpha, opts.threshold) * sizesSd ** 2 - 1e-9)) : floor;
  const expected = Math.min(settle, precise);
  // `reach`: the pairs that would show a change of LONG_SHOT_THRESHOLDS thresholds at the test's
  // level (the family's, as `need`) with 80% power, on the same hopeful sign-blind spread as `hope`
  const reach = pairsFor(zTest + Z_POWER, sizes * shrink, Math.log1p(LONG_SHOT_THRESHOLDS * opts.threshold));
  return {
    need: Number.isFinite(need) ? need : null,
    hope: Number.isFinite(hope) ? hope : null,
    expected: Number.isFinite(expected) ? expected : null,
    reach: Number.isFinite(reach) ? reach : null,
  };
}

/**
 * Whether to stop measuring a benchmark, called by the scheduler after every round with all its
 * pairs so far. Never stops before `minPairs`. Stops with `decided` when the anytime-valid betting
 * test settles the benchmark (a change beyond ±threshold, or one within ±threshold); else with
 * `precision` when the Hodges–Lehmann interval (after the comparison's outlier rule) reaches
 * its full confidence and the sign-blind half-width of `nullHalfWidth` is below `precision` (which
 * keeps the test exact at the stop).
 * `halfWidth` (the interval's) and `estimate` are reported whenever there is a usable pair.
 */
export function stopCheck(pairs: readonly Pair[], opts: StopOptions): StopCheck {
  const n = pairs.length;
  if (n === 0) return { stop: false, reason: null, halfWidth: null, estimate: null, decision: null, need: null, hope: null, expected: null, reach: null };
  const rule: OutlierRule = opts.outliers;
  const d = logRatios(pairs);
  const screen = screenOutliers(d, rule);
  const excluded = new Set(screen.excluded);
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (!excluded.has(i)) kept.push(d[i] as number);
  // zeros (head == base) count as values, as in judging (hodges-lehmann.ts: a metric whose pairs
  // are almost all exactly equal has its change pinned near 0, not unknown)
  const hl = hodgesLehmann(kept, 1 - opts.alpha, { zeros: 'keep' });
  const lower = Math.expm1(hl.lower);
  const upper = Math.expm1(hl.upper);
  const halfWidth = (upper - lower) / 2;
  const estimate = Math.expm1(hl.estimate);
  const base = { halfWidth, estimate, ...settleNeeds(n, estimate, kept, d, opts) };
  if (n < opts.minPairs || kept.length < (opts.minKept ?? 0)) return { stop: false, reason: null, ...base, decision: null };
  const ev = bettingEvidence(d, opts.threshold);
  // a change is judged under the correction across the family: the betting test decides one at the
  // family's Bonferroni level, so that a benchmark it stops is one the correction will call changed
  const family = Math.max(1, opts.family ?? 1);
  // ...and only when the verdict the report will give from the same pairs agrees (`verdictBacks`)
  if ((ev.above >= (2 * family) / opts.alpha || ev.below >= (2 * family) / opts.alpha) && verdictBacks(pairs, 'change', opts, family)) return { stop: true, reason: 'decided', ...base, decision: 'change' };
  if (ev.underUpper >= 1 / opts.alpha && ev.overLower >= 1 / opts.alpha && verdictBacks(pairs, 'unchanged', opts, family)) return { stop: true, reason: 'decided', ...base, decision: 'unchanged' };
  const confident = hl.achievedConfidence >= 1 - opts.alpha - 1e-12 && kept.length >= minPairsForAlpha(opts.alpha);
  // the normal-theory width first, as it is cheap; then both readings (`precisionHalfWidth`)
  if (confident) {
    const normal = nullHalfWidth(d, opts.alpha);
    if (normal < opts.precision && precisionHalfWidth(d, opts.alpha, rule, normal) < opts.precision) return { stop: true, reason: 'precision', ...base, decision: null };
  }
  return { stop: false, reason: null, ...base, decision: null };
}

/**
 * Whether the verdict judged from these pairs (judge.ts, as the report will judge them after an
 * early stop) agrees with what the betting test decided: for a change, the test rejects at the
 * family's Bonferroni level (where its Monte Carlo floor lets it: judge.ts claims a change only
 * then) and its interval at that level, raised for the early stop, excludes 0 with the estimate
 * beyond the threshold (Holm's level at the end is never stricter, so the correction agrees); for `unchanged`,
 * the equivalence interval at its raised level lies within ±threshold.
 *
 * Why: the betting test and the final test read the same pairs differently. The betting test bets
 * on each pair as it comes, scaled by the spread of the pairs before it, so a run of steady pairs
 * after a few wild ones piles up evidence quickly; the final Hodges–Lehmann interval weighs every
 * pair alike, and the wild ones keep it wide. Seen on a Go suite bound to one CPU: a benchmark
 * whose first 10 pairs (its pilot, runs of 10 ms holding one or two 5.8 ms iterations) spread by
 * ±6% and whose next 15 by ±0.8% stopped `decided` unchanged at 25 pairs, and its equivalence
 * interval [−0.4%, +3.1%] left it `inconclusive` with most of its budget unspent; a benchmark
 * 6% faster stopped at the betting test's Bonferroni level while its sign-flip p-value, after
 * Holm's correction, was 0.19. Such a stop ended the measuring before the verdict could follow.
 *
 * The guarantee is unchanged: a benchmark stops `decided` only where the betting test decided,
 * an event of probability at most alpha under its null however often it is checked (Ville's
 * inequality), so requiring the verdict's agreement on top can only make such stops fewer; one
 * that the verdict does not back goes on to the precision rule and the budget, and is judged as
 * any benchmark they end (calibrated in bench/results/calibration.md).
 */
function verdictBacks(pairs: readonly Pair[], decision: 'change' | 'unchanged', opts: StopOptions, family: number): boolean {
  const a = analyzePairs(pairs, { alpha: opts.alpha, outliers: opts.outliers, threshold: opts.threshold, stoppedEarly: true, level: intervalLevel(opts.alpha / family, true), ...opts.judging });
  if (!a.hl || !a.equivalence || !a.test) return false;
  if (decision === 'change') {
    const verdict = verdictOf(
      {
        estimate: Math.expm1(a.hl.estimate),
        ci: [Math.expm1(a.hl.lower), Math.expm1(a.hl.upper)],
        confidence: 1 - opts.alpha,
        ciLevel: a.level,
        pValue: a.test.pValue,
        pAdjusted: Math.min(1, a.test.pValue * family),
        method: a.test.method,
        achievedConfidence: a.hl.achievedConfidence,
      },
      opts.threshold,
      'lower-is-better',
    );
    // as judge.ts claims a change: its test must reject too, where its Monte Carlo floor allows
    const testCanReject = smallestPValue(a.test) < opts.alpha / family;
    const rejects = !testCanReject || a.test.pValue * family < opts.alpha;
    return rejects && (verdict === 'regression' || verdict === 'improvement');
  }
  const eq = a.equivalence;
  // as judge.ts: times printed in coarse steps are `unchanged` only within the threshold less a step (resolution.ts)
  const margin = unchangedMargin(opts.threshold, opts.resolution);
  return margin > 0 && eq.achievedConfidence >= a.equivalenceLevel - 1e-12 && Math.expm1(eq.lower) >= -margin && Math.expm1(eq.upper) <= margin;
}
