/**
 * The sign-flip randomization test of "no change" with the outlier screen inside its statistic:
 * the default test of `judge` when an outlier rule is on (`tukey`, `mad`).
 *
 * Why. The screen (outliers.ts) excludes flagged pairs in balanced pairs, one above for one below.
 * Which pairs it excludes depends on the signs of d, so the signed-rank test of the pairs it keeps
 * is no longer exact: on a machine that runs in bursts (a run slowed by 20% x Exp(1) in 30% of
 * runs) it flagged about 10% of the pairs and made 13% of 60-pair A/A comparisons significant at
 * alpha 0.05. The cure is Fisher's (1935, "The Design of Experiments", sec. 21) and Pitman's
 * (1937, "Significance tests which may be applied to samples from any populations", JRSS Suppl. 4,
 * 119-130): compare the statistic with its distribution over the sign patterns the design could
 * have produced, and compute the statistic, screen included, afresh on every one of them (Good,
 * "Permutation, Parametric and Bootstrap Tests of Hypotheses", 3rd ed., Springer 2005, ch. 3).
 *
 * The statistic T(x): screen x with the rule (exactly `screenOutliers`), then the standardized
 * signed-rank statistic of the kept non-zero values, |V - n(n+1)/4| / sd(V) with the tie
 * correction of the variance (two-sided; signed for one-sided alternatives). Standardized because
 * the number of pairs kept varies from one sign pattern to another. Where the screen set pairs
 * aside, T is the larger of that and the same statistic of every non-zero value: the direct
 * combination of two partial statistics on one scale (Pesarin 2001, "Multivariate Permutation
 * Tests", Wiley, ch. 6; Pesarin & Salmaso 2010, "Permutation Tests for Complex Data", sec. 4.2),
 * exact like either since both are computed afresh on every sign pattern. Why: a change far beyond
 * the noise puts every pair on one side, and the screen may still set aside pairs spread around
 * the change; the kept ones alone then reach a smaller statistic than many sign patterns do (10
 * pairs at +100%, 4 set aside: p 0.037 against 0.002 for all 10 on one side). The combination
 * costs little where the screen matters, since there the screened statistic is the larger. With no
 * screen the kept set never changes, T is a monotone function of |V - n(n+1)/4|, and the test is
 * Wilcoxon's exact signed-rank test (checked in tests/stats/signflip.test.ts).
 *
 * The assumption, exactly. Each pair's order is a fair coin drawn independently of the machine.
 * Write D_i = (run in the first slot) - (run in the second), on the log scale, and e_i = +1 when
 * head ran first; then d_i = e_i D_i. Under the null hypothesis the machine's run times do not
 * depend on which of the two programs is labelled head: the two are the same program, or
 * interchangeable to the machine. Then the vector D is independent of the coins e, and given D
 * every sign pattern of d = e ⊙ D is equally likely (probability 2^-n). No symmetry of the noise
 * is assumed and an order effect is allowed: a first-slot advantage is part of D, and the coin
 * decides which side gets it. A stopping rule that looks only at |d| (the `precision` rule) keeps
 * this, since it is a function of D. What it does not cover: two builds that the machine tells
 * apart (one binary cached, the other not) are not "the same program" to it; and the interval
 * for a non-zero change needs more (see below).
 *
 * The null distribution:
 * - exact: with m non-zero values and 2^m <= EXACT_MAX_PATTERNS, every sign pattern is
 *   enumerated and p = #{patterns with T >= T(observed)} / 2^m, an exact p-value.
 * - Monte Carlo (larger m): M sign patterns drawn uniformly with a seeded mulberry32 stream, with
 *   Besag & Clifford's sequential rule (1991, "Sequential Monte Carlo p-values", Biometrika 78,
 *   301-304): draw until SEQUENTIAL_HITS patterns reach T(observed) (p = hits / draws), or until
 *   M draws (p = (1 + hits) / (1 + M), Phipson & Smyth 2010, "Permutation p-values should never
 *   be zero", Stat. Appl. Genet. Mol. Biol. 9(1):39). Either p is valid: P(p <= u) <= u for every
 *   u under the null, whatever M, so the test keeps its level exactly; Monte Carlo only adds noise
 *   around the p-value enumeration would give. That noise is reported (`pMonteCarloError`): the
 *   binomial standard error sqrt(p (1 - p) / M) after M draws, p sqrt((1 - p) / hits) after a
 *   sequential stop (the negative binomial's); with 100 hits it is 10% of p, and at p near 0.05
 *   about 0.005. The smallest p-value is 1 / (M + 1): `judge` raises M with the number of
 *   benchmarks (`drawsFor`) so that a clear change can pass Holm's strictest threshold.
 * - large samples (more than LARGE_N non-zero values, where M draws of O(n) each would cost
 *   seconds; draws are also capped at WORK / m below that): the screen is left out of the test,
 *   which is then the signed-rank test of every pair in its normal approximation with tie
 *   correction (signrank.ts). It needs no Monte Carlo and keeps the level by the same argument;
 *   what it gives up is the screen's gain in power, which at thousands of pairs is rarely what
 *   decides a benchmark. The estimate and interval still use the kept pairs.
 *
 * Seeded and replayable: `judge` seeds each benchmark's stream from the results' `settings.seed`
 * and the benchmark's name (`signFlipSeed`), so `pairbench report` gives the same p-value.
 *
 * Speed: one sign pattern costs O(n). With d's sizes sorted once, the flipped sample in sorted
 * order is the negative values by decreasing size, the zeros, the positive ones by increasing size:
 * its quartiles are read off without sorting, the fences' counts found by binary search, balanced
 * exclusion is trimming j values from each end of that order, and the ranks of the kept sizes
 * come from one pass over the sizes' tie groups.
 *
 * The interval is not the exact inversion of this test: that (the range of shifts c whose sample
 * d - c the test does not reject, the screen recomputed for each) costs a search over c of M draws
 * each, some 60 tests, in every judgement. The estimate and interval stay the Hodges–Lehmann ones
 * of the kept pairs (hodges-lehmann.ts), computed at the level that allows for the screen as this
 * test does (`screenedIntervalLevel`: the randomization quantile of T in place of the normal one);
 * `signFlipTest` takes any shifted sample for a caller that wants the exact inversion.
 */
import { outlierFences, binomialTwoSidedHalf, trimLimit, LEAN_ALPHA, MIN_FLAGGED_FOR_LEAN } from './outliers.ts';
import { mulberry32 } from './prng.ts';
import { pnormUpper } from './normal.ts';
import { wilcoxonSignedRank, type SignedRankResult } from './signrank.ts';
import { walshMedian } from './hodges-lehmann.ts';
import type { OutlierRule, PairedTest } from './types.ts';

/** Enumerate every sign pattern up to this many (2^10: 10 non-zero values). */
const EXACT_MAX_PATTERNS = 1024;
/** Monte Carlo draws for one benchmark judged alone (the floor of `drawsFor`). */
export const DEFAULT_DRAWS = 2000;
/** Besag–Clifford: stop drawing once this many patterns reach the observed statistic. */
const SEQUENTIAL_HITS = 100;
/** Above this many non-zero values, the signed-rank test of every pair in its normal approximation. */
export const LARGE_N = 1000;
/** Monte Carlo draws are capped at WORK / m (m non-zero values), never below DEFAULT_DRAWS: 5,000 at m = 1,000. */
const WORK = 5_000_000;
/** Relative tolerance of "T* >= T": equal statistics computed in another order count as equal. */
const FUZZ = 1e-9;

export type Alternative = 'two-sided' | 'greater' | 'less';

export interface SignFlipOptions {
  /** the outlier rule recomputed on every sign pattern (default `tukey`) */
  outliers?: OutlierRule;
  /** seed of the Monte Carlo stream (default 0) */
  seed?: number;
  /** `greater`: d tends to be positive (head higher); default two-sided */
  alternative?: Alternative;
  /** most Monte Carlo draws M (default DEFAULT_DRAWS) */
  draws?: number;
  /** the screen leaves at least this many pairs (outliers.ts, `trimLimit`); default 0 */
  minKept?: number;
}

export interface SignFlipResult {
  /** the p-value */
  p: number;
  /** standard error of p as an estimate of the full enumeration's p-value; 0 when exact */
  pMonteCarloError: number;
  /** T of the observed sample (|z| two-sided, z one-sided) */
  statistic: number;
  /** the signed-rank statistic V of the kept non-zero values of the observed sample (of all, for `normal`) */
  v: number;
  /** kept non-zero values of the observed sample (the test's n) */
  n: number;
  /** zeros among the kept values of the observed sample */
  zeros: number;
  /** ties among the kept non-zero sizes of the observed sample */
  ties: boolean;
  /** enumerated every sign pattern */
  exact: boolean;
  /** `exact`, `monte-carlo`, or `normal` (large samples: the signed-rank test of every pair) */
  method: 'exact' | 'monte-carlo' | 'normal';
  /** sign patterns evaluated (2^m when exact, 0 for `normal`) */
  draws: number;
}

/** Draws M for a judgement of `benchmarks` benchmarks at `alpha`: the smallest p, 1 / (M + 1), is a tenth of alpha / benchmarks or less. */
export function drawsFor(benchmarks: number, alpha: number): number {
  return Math.max(DEFAULT_DRAWS, Math.ceil((10 * Math.max(1, benchmarks)) / alpha));
}

/** A 32-bit seed for one benchmark's stream: FNV-1a of its name, mixed with the run's seed (murmur3's finalizer). */
export function signFlipSeed(seed: number, name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // domain separation from the schedule's coins, which draw from mulberry32(seed) itself
  h ^= Math.imul((Math.trunc(seed) >>> 0) ^ 0x5f1f11b5, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const leanLimits = new Map<number, number>();

/**
 * The largest count c on the smaller side for which `flagged` flagged pairs lean beyond chance
 * (binomialTwoSidedHalf(c, flagged) < LEAN_ALPHA; -1 if none): the screen's lean test as a
 * threshold, found once per count. The binomial tail grows with c up to flagged / 2.
 */
function leanLimit(flagged: number): number {
  const cached = leanLimits.get(flagged);
  if (cached !== undefined) return cached;
  const half = Math.floor(flagged / 2);
  let c = Math.max(-1, Math.min(half, Math.floor(flagged / 2 - Math.sqrt(flagged))));
  while (c >= 0 && binomialTwoSidedHalf(c, flagged) >= LEAN_ALPHA) c--;
  while (c + 1 <= half && binomialTwoSidedHalf(c + 1, flagged) < LEAN_ALPHA) c++;
  leanLimits.set(flagged, c);
  return c;
}

/**
 * The statistic's machinery for one sample's sizes: sorted once, then evaluated for any sign
 * pattern in O(m). Exported for the tests, which compare it with `screenOutliers` and
 * `signedRankSum` pattern by pattern.
 */
export class ScreenedSignedRank {
  /** non-zero sizes |d|, ascending */
  readonly a: Float64Array;
  /** signs of the observed sample, by position in `a` (+1 or -1) */
  readonly observed: Int8Array;
  readonly zeros: number;
  private readonly rule: OutlierRule;
  private readonly alternative: Alternative;
  /** start of each tie group of `a`, and m at the end */
  private readonly groups: Int32Array;
  private readonly neg: Int32Array;
  private readonly pos: Int32Array;
  private readonly excluded: Uint8Array;
  private readonly marked: Int32Array;
  private nn = 0;
  private np = 0;
  /** the last evaluation's V, kept non-zero count, kept zeros and tie sum */
  lastV = 0;
  lastN = 0;
  lastZeros = 0;
  lastTieSum = 0;

  /** T is the larger of the screened statistic and the unscreened one (`signFlipTest`'s combined statistic) */
  private readonly combined: boolean;
  /** the last evaluation's standardized statistic of the screened pairs alone (= T when not combined) */
  lastScreened = 0;

  /** the most the screen may set aside on each side (`trimLimit`) */
  private readonly maxTrim: number;

  constructor(d: ArrayLike<number>, rule: OutlierRule, alternative: Alternative = 'two-sided', combined = false, minKept = 0) {
    this.maxTrim = trimLimit(d.length, minKept);
    this.rule = rule;
    this.alternative = alternative;
    this.combined = combined && rule !== 'none';
    let zeros = 0;
    for (let i = 0; i < d.length; i++) if ((d[i] as number) === 0) zeros++;
    this.zeros = zeros;
    const m = d.length - zeros;
    const idx: number[] = [];
    for (let i = 0; i < d.length; i++) if ((d[i] as number) !== 0) idx.push(i);
    idx.sort((x, y) => Math.abs(d[x] as number) - Math.abs(d[y] as number));
    this.a = Float64Array.from(idx, (i) => Math.abs(d[i] as number));
    this.observed = Int8Array.from(idx, (i) => ((d[i] as number) > 0 ? 1 : -1));
    const g: number[] = [];
    for (let i = 0; i < m; i++) if (i === 0 || this.a[i] !== this.a[i - 1]) g.push(i);
    g.push(m);
    this.groups = Int32Array.from(g);
    this.neg = new Int32Array(m);
    this.pos = new Int32Array(m);
    this.excluded = new Uint8Array(m);
    this.marked = new Int32Array(d.length);
  }

  get m(): number {
    return this.a.length;
  }

  /** Value at position r (0-based) of the flipped sample sorted ascending. */
  private at(r: number): number {
    if (r < this.nn) return -(this.a[this.neg[r] as number] as number);
    const q = r - this.nn - this.zeros;
    return q < 0 ? 0 : (this.a[this.pos[q] as number] as number);
  }

  /** a-position at sorted position r, or -1 for a zero. */
  private positionAt(r: number): number {
    if (r < this.nn) return this.neg[r] as number;
    const q = r - this.nn - this.zeros;
    return q < 0 ? -1 : (this.pos[q] as number);
  }

  /** Count of sorted positions with value < v (`strict` false) or <= v (`strict` true). */
  private countBelow(v: number, orEqual: boolean): number {
    let lo = 0;
    let hi = this.nn + this.zeros + this.np;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const x = this.at(mid);
      if (x < v || (orEqual && x === v)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private quantile(p: number): number {
    // quantileSorted (describe.ts), term by term, on the implicit sorted order
    const n = this.nn + this.zeros + this.np;
    const h = (n - 1) * p;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, n - 1);
    const a = this.at(lo);
    const b = this.at(hi);
    return a + (h - lo) * (b - a);
  }

  /**
   * T for the sign pattern `s` (by position in `a`, +1 or -1): the screen as `screenOutliers`
   * applies it, then the standardized signed-rank statistic of the kept non-zero values.
   */
  evaluate(s: Int8Array): number {
    const m = this.a.length;
    const N = m + this.zeros;
    // negatives by decreasing size, positives by increasing size: the sorted order of s ⊙ a
    let nn = 0;
    for (let i = m - 1; i >= 0; i--) if ((s[i] as number) < 0) this.neg[nn++] = i;
    let np = 0;
    for (let i = 0; i < m; i++) if ((s[i] as number) > 0) this.pos[np++] = i;
    this.nn = nn;
    this.np = np;
    let j = 0;
    if (this.rule !== 'none' && N >= 3) {
      let fences: [number, number] | null;
      if (this.rule === 'tukey') {
        const q1 = this.quantile(0.25);
        const q3 = this.quantile(0.75);
        const iqr = q3 - q1;
        fences = iqr === 0 ? null : [q1 - 1.5 * iqr, q3 + 1.5 * iqr];
      } else {
        const x = new Float64Array(N);
        for (let r = 0; r < N; r++) x[r] = this.at(r);
        fences = outlierFences(x, this.rule);
      }
      if (fences) {
        const low = this.countBelow(fences[0], false);
        const high = N - this.countBelow(fences[1], true);
        const flagged = low + high;
        const lean = flagged >= MIN_FLAGGED_FOR_LEAN && Math.min(low, high) <= leanLimit(flagged);
        if (!lean) j = Math.min(low, high, this.maxTrim);
      }
    }
    // balanced exclusion = the j lowest and the j highest of the sorted order
    let nMarked = 0;
    for (let r = 0; r < j; r++) {
      const lo = this.positionAt(r);
      const hi = this.positionAt(N - 1 - r);
      if (lo >= 0) {
        this.excluded[lo] = 1;
        this.marked[nMarked++] = lo;
      }
      if (hi >= 0) {
        this.excluded[hi] = 1;
        this.marked[nMarked++] = hi;
      }
    }
    // zeros excluded: sorted positions nn .. nn + zeros - 1 that fall in the trimmed ends
    const zerosTrimmed = Math.max(0, Math.min(j, nn + this.zeros) - nn) + Math.max(0, Math.min(j, N - nn) - np);
    const { v, n, tieSum } = this.signedRanks(s, this.excluded);
    for (let k = 0; k < nMarked; k++) this.excluded[this.marked[k] as number] = 0;
    this.lastV = v;
    this.lastN = n;
    this.lastZeros = this.zeros - zerosTrimmed;
    this.lastTieSum = tieSum;
    const screened = this.oriented(v, n, tieSum);
    this.lastScreened = screened;
    if (!this.combined || nMarked === 0) return screened;
    // the screen set pairs aside: the unscreened statistic of every non-zero pair competes with it
    const all = this.signedRanks(s, null);
    return Math.max(screened, this.oriented(all.v, all.n, all.tieSum));
  }

  /** Signed-rank sum of the non-excluded sizes under pattern s, average ranks within tie groups. */
  private signedRanks(s: Int8Array, excluded: Uint8Array | null): { v: number; n: number; tieSum: number } {
    const m = this.a.length;
    let rank = 0;
    let v = 0;
    let tieSum = 0;
    const groups = this.groups;
    if (groups.length === m + 1) {
      // no ties among the sizes: ranks 1, 2, ... over the kept ones
      for (let i = 0; i < m; i++) {
        if (excluded && excluded[i]) continue;
        rank++;
        if ((s[i] as number) > 0) v += rank;
      }
    } else for (let g = 0; g + 1 < groups.length; g++) {
      const start = groups[g] as number;
      const end = groups[g + 1] as number;
      let c = 0;
      let cp = 0;
      for (let i = start; i < end; i++) {
        if (excluded && excluded[i]) continue;
        c++;
        if ((s[i] as number) > 0) cp++;
      }
      if (c === 0) continue;
      v += cp * (rank + (c + 1) / 2);
      if (c > 1) tieSum += c * c * c - c;
      rank += c;
    }
    return { v, n: rank, tieSum };
  }

  /** The standardized signed-rank statistic, oriented by the alternative (|z| two-sided). */
  private oriented(v: number, n: number, tieSum: number): number {
    if (n === 0) return 0;
    const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieSum / 48);
    if (!(sigma > 0)) return 0;
    const z = (v - (n * (n + 1)) / 4) / sigma;
    return this.alternative === 'two-sided' ? Math.abs(z) : this.alternative === 'greater' ? z : -z;
  }
}

/**
 * Sign-flip randomization test of "d is symmetric about 0 pair by pair" (no change), with the
 * outlier screen recomputed on every sign pattern (see the module doc). Zeros carry no sign and
 * stay zeros. An empty sample, or one with no non-zero value, gives p = 1.
 */
export function signFlipTest(d: ArrayLike<number>, options: SignFlipOptions = {}): SignFlipResult {
  const rule = options.outliers ?? 'tukey';
  const alternative = options.alternative ?? 'two-sided';
  let nonZero = 0;
  for (let i = 0; i < d.length; i++) if ((d[i] as number) !== 0) nonZero++;
  if (nonZero > LARGE_N) {
    // the signed-rank test of every pair, screen off: exact in law by the same coin-flip argument,
    // in its normal approximation (R's conventions, signrank.ts)
    const w = wilcoxonSignedRank(d);
    const z = w.z ?? 0;
    const p = alternative === 'two-sided' ? w.pValue : alternative === 'greater' ? pnormUpper(z) : pnormUpper(-z);
    return { statistic: alternative === 'two-sided' ? Math.abs(z) : alternative === 'greater' ? z : -z, v: w.statistic, n: w.n, zeros: w.zeros, ties: w.ties, p, pMonteCarloError: 0, exact: false, method: 'normal', draws: 0 };
  }
  const kernel = new ScreenedSignedRank(d, rule, alternative, true, options.minKept ?? 0);
  const m = kernel.m;
  const t0 = kernel.evaluate(kernel.observed);
  const base = { statistic: t0, v: kernel.lastV, n: kernel.lastN, zeros: kernel.lastZeros, ties: kernel.lastTieSum > 0 };
  if (m === 0 || kernel.lastN === 0) return { ...base, p: 1, pMonteCarloError: 0, exact: true, method: 'exact', draws: 0 };
  const bar = t0 - FUZZ * Math.max(1, Math.abs(t0));
  const s = new Int8Array(m);
  if (2 ** m <= EXACT_MAX_PATTERNS) {
    const patterns = 2 ** m;
    let hits = 0;
    for (let k = 0; k < patterns; k++) {
      for (let i = 0; i < m; i++) s[i] = (k >>> i) & 1 ? -1 : 1;
      if (kernel.evaluate(s) >= bar) hits++;
    }
    return { ...base, p: hits / patterns, pMonteCarloError: 0, exact: true, method: 'exact', draws: patterns };
  }
  const maxDraws = Math.max(1, Math.min(Math.floor(options.draws ?? DEFAULT_DRAWS), Math.max(DEFAULT_DRAWS, Math.floor(WORK / m))));
  const rand = mulberry32(options.seed ?? 0);
  const draw = (): void => {
    for (let i = 0; i < m; i += 32) {
      let bits = (rand() * 4294967296) >>> 0;
      const top = Math.min(m, i + 32);
      for (let k = i; k < top; k++) {
        s[k] = bits & 1 ? -1 : 1;
        bits >>>= 1;
      }
    }
  };
  let hits = 0;
  for (let k = 1; k <= maxDraws; k++) {
    draw();
    if (kernel.evaluate(s) >= bar) {
      hits++;
      if (hits >= SEQUENTIAL_HITS) {
        const p = hits / k;
        return { ...base, p, pMonteCarloError: p * Math.sqrt((1 - p) / hits), exact: false, method: 'monte-carlo', draws: k };
      }
    }
  }
  const p = (1 + hits) / (1 + maxDraws);
  return { ...base, p, pMonteCarloError: Math.sqrt((p * (1 - p)) / maxDraws), exact: false, method: 'monte-carlo', draws: maxDraws };
}

/** The test `judge` reports: the signed-rank result's shape, with the sign-flip test's method and error. */
export interface ScreenedTestResult extends Omit<SignedRankResult, 'method'> {
  method: 'exact' | 'normal' | 'monte-carlo';
  /** standard error of a Monte Carlo p-value (absent when exact or normal) */
  pMonteCarloError?: number;
  /** sign patterns drawn (Monte Carlo only) */
  draws?: number;
}

/**
 * The least p-value the test could have given these pairs: a Monte Carlo p-value is never below
 * 1 / (draws + 1), and its draws are capped by the pairs (`signFlipTest`); exact and normal ones
 * are not bounded so (0). Where this floor is above a row's level the test cannot reject it at
 * all, and the interval decides (judge.ts; stop.ts, `verdictBacks`).
 */
export function smallestPValue(test: ScreenedTestResult): number {
  return test.method === 'monte-carlo' ? 1 / ((test.draws ?? Infinity) + 1) : 0;
}

/**
 * `judge`'s test of "no change" for one benchmark, the one `opts.test` names: `signed-rank`,
 * Wilcoxon's signed-rank test of the kept pairs, R's `wilcox.test` exactly, only with `outliers:
 * 'none'` (the kept pairs are then all of them; with a screen that test is not exact, see above);
 * `sign-flip`, `signFlipTest` of all pairs `d` with the screen inside the statistic, whose observed
 * kept set is `kept`.
 */
export function screenedTest(d: ArrayLike<number>, kept: ArrayLike<number>, opts: { test: PairedTest; outliers: OutlierRule; seed?: number; draws?: number; minKept?: number }): ScreenedTestResult {
  if (opts.test === 'signed-rank') {
    if (opts.outliers !== 'none') throw new Error(`the signed-rank test needs outliers 'none', not '${opts.outliers}': of the pairs a screen kept it is not exact (use the sign-flip test)`);
    return wilcoxonSignedRank(kept);
  }
  const r = signFlipTest(d, { outliers: opts.outliers, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.draws !== undefined ? { draws: opts.draws } : {}), ...(opts.minKept !== undefined ? { minKept: opts.minKept } : {}) });
  return {
    statistic: r.v,
    n: r.n,
    zeros: r.zeros,
    ties: r.ties,
    method: r.method,
    z: null,
    pValue: r.p,
    ...(r.method === 'monte-carlo' ? { pMonteCarloError: r.pMonteCarloError, draws: r.draws } : {}),
  };
}

/** Sign patterns drawn for the interval's critical value (`screenedIntervalLevel`), for one benchmark. */
const INTERVAL_DRAWS = 1000;

/**
 * The interval's draws per benchmark when k are judged together: INTERVAL_DRAWS up to 2,000
 * benchmarks, then fewer, 2,000,000 in all, never below 200: judging 100,000 benchmarks stays
 * within minutes. The draws set only how far the interval is raised for the screen; with fewer of
 * them its quantile is rougher, and the raise (capped at 0.999 anyway) is less exact.
 */
export function intervalDrawsFor(benchmarks: number): number {
  return Math.max(200, Math.min(INTERVAL_DRAWS, Math.floor(2_000_000 / Math.max(1, benchmarks))));
}
/** The highest level `screenedIntervalLevel` asks of the interval. */
const MAX_INTERVAL_LEVEL = 0.999;

/**
 * The level at which to compute the Hodges–Lehmann interval of the kept pairs so that it allows for
 * the screen as the test does: at least `level`, raised when the screen widens the randomization
 * distribution of the standardized signed-rank statistic of the kept pairs.
 *
 * Why. The interval inverts the signed-rank test of the kept pairs, whose normal critical value
 * (1.96 at 95%) is too small when the screen's choice depends on the signs: on bursty noise that
 * interval covered 86% at 60 pairs (bench/results/calibration.md). The exact inversion of the
 * sign-flip test (every shift c, the screen recomputed on d - c, M patterns each) costs some 60
 * tests. Instead: centre d at the Hodges–Lehmann estimate of the kept pairs (under a constant
 * change m, d - m has the null's sign symmetry, and the estimate stands in for m), draw sign
 * patterns of the centred values (every one up to 10 non-zero values, else INTERVAL_DRAWS seeded
 * ones), and take the `level` quantile c* of the statistic T (screen included); the interval is
 * then the signed-rank inversion of the kept pairs with c* in place of the normal quantile, i.e.
 * at the level 1 - 2 P(Z > c*). Only raised, never lowered (on well-behaved noise c* is about the
 * normal quantile and the interval is R's); capped at 0.999. With `none`, or above LARGE_N
 * non-zero values, `level` itself.
 */
export function screenedIntervalLevel(d: ArrayLike<number>, kept: ArrayLike<number>, level: number, opts: { outliers: OutlierRule; seed?: number; minKept?: number }): number {
  return screenedIntervalLevels(d, kept, [level], opts)[0]!;
}

/**
 * `screenedIntervalLevel` for several levels from the same sign patterns (a benchmark's test
 * interval and its equivalence interval): one randomization distribution, one quantile per level.
 */
export function screenedIntervalLevels(d: ArrayLike<number>, kept: ArrayLike<number>, levels: readonly number[], opts: { outliers: OutlierRule; seed?: number; intervalDraws?: number; minKept?: number }): number[] {
  if (opts.outliers === 'none' || kept.length < 2) return levels.slice();
  let nonZero = 0;
  for (let i = 0; i < d.length; i++) if ((d[i] as number) !== 0) nonZero++;
  if (nonZero > LARGE_N || nonZero < 2) return levels.slice();
  // the estimate, computed so that negating d negates it exactly (swapping head and base mirrors the interval)
  const ks = Float64Array.from(kept as ArrayLike<number>).sort();
  const neg = Float64Array.from(kept as ArrayLike<number>, (v) => -v).sort();
  const centre = (walshMedian(ks) - walshMedian(neg)) / 2;
  const e = Float64Array.from(d as ArrayLike<number>, (v) => v - centre);
  const kernel = new ScreenedSignedRank(e, opts.outliers, 'two-sided', false, opts.minKept ?? 0);
  const m = kernel.m;
  if (m < 2) return levels.slice();
  const s = new Int8Array(m);
  let values: Float64Array;
  if (2 ** m <= EXACT_MAX_PATTERNS) {
    values = new Float64Array(2 ** m);
    for (let k = 0; k < values.length; k++) {
      for (let i = 0; i < m; i++) s[i] = (k >>> i) & 1 ? -1 : 1;
      values[k] = kernel.evaluate(s);
    }
  } else {
    const rand = mulberry32(((opts.seed ?? 0) ^ 0x3c6ef372) >>> 0);
    const draws = opts.intervalDraws ?? INTERVAL_DRAWS;
    values = new Float64Array(draws);
    for (let k = 0; k < draws; k++) {
      for (let i = 0; i < m; i += 32) {
        let bits = (rand() * 4294967296) >>> 0;
        const top = Math.min(m, i + 32);
        for (let j = i; j < top; j++) {
          s[j] = bits & 1 ? -1 : 1;
          bits >>>= 1;
        }
      }
      values[k] = kernel.evaluate(s);
    }
  }
  values.sort();
  return levels.map((level) => {
    const c = values[Math.min(values.length - 1, Math.max(0, Math.ceil(level * values.length) - 1))] as number;
    const raised = Math.min(MAX_INTERVAL_LEVEL, 1 - 2 * pnormUpper(c));
    return Math.max(level, raised);
  });
}
