/**
 * Judging: from one benchmark's pairs to its change, verdict and diagnostics, and across
 * benchmarks to the corrected p-values and the overall verdict.
 *
 * Method (docs/statistics.md): d = ln(head / base) per pair; outliers on d only; the test of no
 * change is the sign-flip randomization test with the outlier screen inside its statistic
 * (signflip.ts), or with `--outliers none` Wilcoxon's signed-rank test; the Hodges–Lehmann estimate
 * with the interval from inverting the signed-rank test on the kept pairs (R's
 * `wilcox.test(d, conf.int = TRUE)` conventions, see signrank.ts and hodges-lehmann.ts), computed
 * at a level raised for the screen as the test allows for it (`screenedIntervalLevel`); Holm
 * (default) or Benjamini–Hochberg across benchmarks, each interval at the level that agrees with the
 * correction (`intervalAlpha`) and the verdict read off it (`verdictOf`); verdicts as the README's
 * "Verdicts" table. Findings are codes with their figures; report/findings.ts words them.
 */
import type {
  BenchmarkAnalysis,
  BenchmarkInput,
  ChangeEstimate,
  Correction,
  Diagnostic,
  Direction,
  Judgement,
  JudgeOptions,
  OutlierRule,
  Pair,
  SideSummary,
  Verdict,
} from './types.ts';
import { cv, median, relativeMad, sd, summarize } from './describe.ts';
import { hodgesLehmann, type HodgesLehmannResult } from './hodges-lehmann.ts';
import { benjaminiHochberg, holm } from './multiple.ts';
import { LEAN_ALPHA, MIN_FLAGGED_FOR_LEAN, screenOutliers, type OutlierScreen } from './outliers.ts';
import { minimumDetectableChange, minPairsForAlpha, pairsToDetect } from './power.ts';
import { rankSumTest } from './rank-sum.ts';
import { drawsFor, intervalDrawsFor, screenedIntervalLevels, screenedTest, signFlipSeed, type ScreenedTestResult } from './signflip.ts';

/** Significance level of the diagnostics' own tests (order effect, drift): they advise, not gate. */
export const DIAGNOSTIC_ALPHA = 0.01;
/** Single-run CV above which pairing's rescue is worth telling. */
export const HIGH_SINGLE_CV = 0.05;
/** CV of the paired ratios above which a benchmark is called noisy. */
export const HIGH_PAIRED_CV = 0.05;

/** Everything computed from one benchmark's pairs before the cross-benchmark correction. */
export interface PairsAnalysis {
  /** ln(head / base) per pair, in pair order */
  d: Float64Array;
  screen: OutlierScreen;
  /** indices of the pairs used by the test and estimate (all but `screen.excluded`) */
  keptIndices: number[];
  base: SideSummary;
  head: SideSummary;
  /** CV of head/base over all pairs */
  pairedCv: number;
  /** robust spread of head/base over all pairs (`relativeMad`) */
  pairedMad: number;
  /** CV of head/base over the kept pairs (what the test sees) */
  keptPairedCv: number;
  /** null with no kept pair */
  test: ScreenedTestResult | null;
  /** on the log scale; null with no kept pair */
  hl: HodgesLehmannResult | null;
  /** the fixed-sample level of `hl`'s interval (`intervalLevel`) */
  level: number;
  /** the Hodges–Lehmann interval at the equivalence level (`equivalenceLevel`), on the log scale; null with no kept pair */
  equivalence: HodgesLehmannResult | null;
  /** the level of `equivalence` */
  equivalenceLevel: number;
  /** diagnostics that need only this benchmark's data */
  diagnostics: Diagnostic[];
}

/** Grid of the log-ratios: 1e-12, a relative difference far below any measurement's resolution. */
export const LOG_RATIO_GRID = 1e-12;

/**
 * Log-ratios d_i = ln(head_i / base_i), rounded (symmetrically about 0) to a grid of 1e-12. Without
 * the rounding, pairs with mathematically equal ratios (50/100 and 1/2, or every pair after scaling
 * the times) can differ in the last bit and have their tie broken by floating-point noise, which
 * changes the ranks; with it, swapping base and head negates every d exactly and scaling the times
 * leaves the ties as they were. R's `wilcox.test` has the same device (`digits.rank`).
 */
export function logRatios(pairs: readonly Pair[]): Float64Array {
  return Float64Array.from(pairs, (p) => {
    const d = Math.log(p.head / p.base);
    return (Math.sign(d) * Math.round(Math.abs(d) / LOG_RATIO_GRID)) * LOG_RATIO_GRID;
  });
}

/** At least this many pairs, and this share of them, excluded: the `many-outliers` note. */
const MANY_OUTLIERS_MIN = 4;
const MANY_OUTLIERS_SHARE = 0.1;


/**
 * Share of alpha left to the interval after an early stop: the interval is computed at the
 * fixed-sample level 1 - alpha × STOPPED_EARLY_ALPHA_SHARE (97.5% for alpha 0.05).
 *
 * Why. A fixed-sample interval computed at a stopping time that depended on the data covers less
 * often than its level: the rules stop preferentially when the pairs so far happen to look
 * precise or decisive (the sequential-estimation problem behind Stein's two-stage procedure and
 * Chow & Robbins' fixed-width intervals: Chow & Robbins 1965, Ann. Math. Statist. 36, 457-462;
 * Siegmund 1985, "Sequential Analysis", Springer, ch. 3). The stopping rules keep the *test*
 * exact with no change (stop.ts: the precision rule is blind to the signs), but not the interval
 * at every true change: measured (bench/results/calibration.md, column *plain interval*) the 95%
 * interval covered 92.7-95.9% after early stops under the drift-and-spikes model, against
 * 94.7-94.8% at a fixed 13 pairs. A confidence sequence would cover at any stop by construction,
 * but the betting one of stop.ts came out 1.7 times as wide at 60 pairs (and far wider at 13): too
 * high a price. Raising the level to 1 - alpha/2 costs about 15% of width and brings coverage to
 * 96.5-98.2% in every cell of that model (94.0% and 94.8% at a 2% change under the heavy-tailed
 * and the independent-noise models, within their sampling error). A comparison that ran to its
 * budget (`max-pairs`, `max-time`) or a file without stop reasons gets the plain interval, which
 * is R's `wilcox.test(conf.int = TRUE)` exactly.
 */
export const STOPPED_EARLY_ALPHA_SHARE = 0.5;

/**
 * The fixed-sample level at which a benchmark's interval is computed, from the error rate `alpha`
 * one interval may have (the comparison's alpha with one benchmark, `intervalAlpha` with several):
 * 1 - alpha, or 1 - alpha × STOPPED_EARLY_ALPHA_SHARE after an early stop (see there). The two
 * adjustments multiply: with 10 benchmarks, none rejected, alpha 0.05, an early-stopped interval
 * is at 1 - 0.005/2 = 99.75%.
 */
export function intervalLevel(alpha: number, stoppedEarly: boolean): number {
  return 1 - (stoppedEarly ? alpha * STOPPED_EARLY_ALPHA_SHARE : alpha);
}

/**
 * The level of a benchmark's equivalence interval: 1 - 2 alpha (90% at alpha 0.05), or
 * 1 - 2 alpha × STOPPED_EARLY_ALPHA_SHARE after an early stop (95%).
 *
 * Why this level. "Unchanged" is a claim of equivalence: the change lies within ±threshold. Its test
 * is two one-sided tests at alpha each (Schuirmann 1987, "A comparison of the two one-sided tests
 * procedure and the power approach for assessing the equivalence of average bioavailability",
 * J. Pharmacokin. Biopharm. 15, 657-680), which reject exactly when the 1 - 2 alpha interval lies
 * within ±threshold: the error of calling a benchmark unchanged when its change is at or beyond the
 * threshold is at most alpha. No correction across benchmarks is needed for the claim a comparison
 * makes with it, "every benchmark is unchanged": that claim is an intersection of the benchmarks'
 * equivalence claims, and an intersection-union test that rejects when each of its component tests
 * rejects at alpha has level alpha (Berger 1982, "Multiparameter hypothesis testing and acceptance
 * sampling", Technometrics 24, 295-300; Berger & Hsu 1996, "Bioequivalence trials, intersection-union
 * tests and equivalence confidence sets", Statist. Sci. 11, 283-319). Regressions keep the
 * family-wise correction (`intervalAlpha`): a false alarm is a claim about one benchmark among many.
 * After a data-dependent stop the interval is raised by the same share as the test's interval
 * (`STOPPED_EARLY_ALPHA_SHARE`), for the same reason; bench/results/calibration.md measures how often
 * a change at the threshold is called unchanged with the stopping rules on.
 */
export function equivalenceLevel(alpha: number, stoppedEarly: boolean): number {
  return 1 - 2 * (stoppedEarly ? alpha * STOPPED_EARLY_ALPHA_SHARE : alpha);
}

/**
 * The error rate of each benchmark's interval when several are judged together, chosen so that the
 * interval shown agrees with the verdict of the correction and the verdict can be read off it
 * (significant exactly when the interval excludes 0, `verdictOf`). With m benchmarks that have a
 * test and R of them significant after the correction at `alpha`:
 *
 * - Holm: alpha / (m - R) (alpha when every one is rejected). Holm's step-down stops at the first
 *   benchmark it cannot reject, testing it at alpha / (m - R); every rejected benchmark had a
 *   p-value at most alpha / (m - R + 1), every other one above alpha / (m - R). So intervals that
 *   invert the test at this one level exclude 0 for the rejected benchmarks and contain it for the
 *   rest. This is the level of the Holm-compatible simultaneous intervals of Strassburger & Bretz
 *   (2008, "Compatible simultaneous lower confidence bounds for the Holm procedure and other
 *   Bonferroni-based closed tests", Statist. Med. 27, 4914-4927; two-sided: Guilbaud 2008,
 *   Biometrical J. 50, 678-692) for the benchmarks Holm does not reject; for the rejected ones
 *   their simultaneous statement is the sign of the change, which the interval shown carries (it
 *   excludes 0). Why not their intervals as such: for a rejected benchmark they end at 0 unless
 *   every benchmark is rejected, so they could not tell a change beyond the threshold from one
 *   within it. Why not Bonferroni's 1 - alpha/m for all: simultaneous, but the verdicts would then
 *   be Bonferroni's, less powerful than Holm's for every benchmark after the first rejection.
 * - Benjamini–Hochberg: R × alpha / m (alpha / m when R = 0), the false-coverage-rate adjusted
 *   level of Benjamini & Yekutieli (2005, "False discovery rate-adjusted multiple confidence
 *   intervals for selected parameters", JASA 100, 71-81): the intervals of the R selected
 *   benchmarks at 1 - R alpha / m cover their true changes with expected share of non-coverage at
 *   most alpha. BH's step-up rejects exactly the p-values at most R alpha / m and no other (every
 *   larger one exceeds (R + 1) alpha / m), so the same level for every benchmark agrees with it.
 *
 * With one benchmark both give alpha. The interval inverts the signed-rank test with zeros counted
 * (hodges-lehmann.ts), the p-value drops them, and discreteness differs between the two: in the
 * rare case where they part, the verdict follows the interval shown, never the p-value alone.
 */
export function intervalAlpha(pAdjusted: readonly number[], alpha: number, correction: Correction): number {
  const tested = pAdjusted.filter((p) => Number.isFinite(p));
  const m = tested.length;
  if (m <= 1) return alpha;
  const rejected = tested.filter((p) => p < alpha).length;
  if (correction === 'bh') return (Math.max(1, rejected) * alpha) / m;
  return alpha / Math.max(1, m - rejected);
}

/** The outlier screen and the test of one benchmark's pairs: what the correction across benchmarks needs. */
export interface ScreenedPairs {
  d: Float64Array;
  screen: OutlierScreen;
  keptIndices: number[];
  kept: Float64Array;
  test: ScreenedTestResult | null;
}

/** How a benchmark is tested: its outlier rule, and the seed and number of sign draws of the randomization test (and of its interval's level). */
export interface TestOptions {
  outliers: OutlierRule;
  seed?: number;
  draws?: number;
  intervalDraws?: number;
}

/**
 * Log-ratios, outlier screen, and the test of no change (the single call site of the test): with a
 * screen on, the sign-flip test with the screen inside its statistic (signflip.ts); with
 * `--outliers none`, Wilcoxon's signed-rank test of the kept pairs as R's `wilcox.test`.
 */
export function screenAndTest(pairs: readonly Pair[], opts: TestOptions): ScreenedPairs {
  const d = logRatios(pairs);
  const screen = screenOutliers(d, opts.outliers);
  const excluded = new Set(screen.excluded);
  const keptIndices: number[] = [];
  for (let i = 0; i < d.length; i++) if (!excluded.has(i)) keptIndices.push(i);
  const kept = Float64Array.from(keptIndices, (i) => d[i] as number);
  const test = kept.length > 0 ? screenedTest(d, kept, opts) : null;
  return { d, screen, keptIndices, kept, test };
}

export interface AnalyzeOptions {
  alpha: number;
  outliers: OutlierRule;
  direction?: Direction;
  threshold?: number;
  metric?: string;
  stoppedEarly?: boolean;
  seed?: number;
  draws?: number;
  /** sign patterns for the level of the intervals (signflip.ts, `intervalDrawsFor`); default INTERVAL_DRAWS */
  intervalDraws?: number;
  /** the interval's level; default `intervalLevel(alpha, stoppedEarly)` (one benchmark alone) */
  level?: number;
}

/**
 * Analyzes one benchmark's pairs at significance `alpha`: outliers, side summaries, the signed-rank
 * test and the Hodges–Lehmann estimate with its interval at `level` (log scale), and the
 * diagnostics of the data alone. No multiple-comparison correction and no verdict (see `judge`).
 */
export function analyzePairs(pairs: readonly Pair[], opts: AnalyzeOptions): PairsAnalysis {
  return completeAnalysis(pairs, screenAndTest(pairs, opts), opts);
}

function completeAnalysis(pairs: readonly Pair[], s: ScreenedPairs, opts: AnalyzeOptions): PairsAnalysis {
  const direction = opts.direction ?? 'lower-is-better';
  const { d, screen, keptIndices, kept, test } = s;
  const ratios = pairs.map((p) => p.head / p.base);
  const keptRatios = keptIndices.map((i) => ratios[i] as number);
  const base = summarize(pairs.map((p) => p.base));
  const head = summarize(pairs.map((p) => p.head));
  const pairedCv = ratios.length > 0 ? cv(ratios) : NaN;
  const pairedMad = ratios.length > 0 ? relativeMad(ratios) : NaN;
  const keptPairedCv = keptRatios.length > 0 ? cv(keptRatios) : NaN;
  // The estimate and interval count zeros (head == base) as values, the test drops them as R does:
  // see hodges-lehmann.ts. Without zeros both are R's `wilcox.test(d, conf.int = TRUE)`.
  const level = opts.level ?? intervalLevel(opts.alpha, opts.stoppedEarly ?? false);
  // With a screen, computed at a level raised as the test allows for the screen (signflip.ts), so that
  // it covers at `level`; `level` is what the interval claims and what the report shows.
  // The equivalence interval: never corrected for the number of benchmarks (`equivalenceLevel`).
  // Both levels are raised for the screen from the same sign patterns (signflip.ts).
  const eqLevel = equivalenceLevel(opts.alpha, opts.stoppedEarly ?? false);
  const [testAt, eqAt] = kept.length > 0 ? screenedIntervalLevels(d, kept, [level, eqLevel], opts) : [level, eqLevel];
  const hl = kept.length > 0 ? hodgesLehmann(kept, testAt!, { zeros: 'keep' }) : null;
  const equivalence = kept.length > 0 ? hodgesLehmann(kept, eqAt!, { zeros: 'keep' }) : null;
  const analysis: PairsAnalysis = { d, screen, keptIndices, base, head, pairedCv, pairedMad, keptPairedCv, test, hl, level, equivalence, equivalenceLevel: eqLevel, diagnostics: [] };
  analysis.diagnostics = dataDiagnostics(pairs, analysis, opts.alpha, direction, opts.threshold ?? 0.02, opts.metric);
  return analysis;
}

function dataDiagnostics(pairs: readonly Pair[], a: PairsAnalysis, alpha: number, direction: Direction, threshold: number, metric?: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kept = a.keptIndices.map((i) => a.d[i] as number);
  const n = kept.length;
  // pairs for any p-value below alpha, and for an exact interval at its level (higher with
  // several benchmarks or after an early stop)
  const need = Math.max(minPairsForAlpha(alpha), minPairsForAlpha(1 - a.level));
  const usable = a.test ? a.test.n : 0;
  const zeros = a.test ? a.test.zeros : 0;
  if (n === 0) {
    out.push({ code: 'too-few-pairs', severity: 'warning', figures: { pairs: 0, zeros: 0, smallestP: 1, alpha, level: a.level, need } });
    return out;
  }
  const allEqual = kept.every((v) => v === kept[0]);
  // The interval counts every kept pair, zeros included (hodges-lehmann.ts), so pairs with
  // head == base do pin the change; only too few pairs in all leave it unknown.
  const confident = a.hl !== null && a.hl.achievedConfidence >= a.level - 1e-12;
  if (n < need || !confident) {
    const smallestP = usable > 0 ? 2 ** (1 - usable) : 1;
    out.push({ code: 'too-few-pairs', severity: 'warning', figures: { pairs: n, zeros, smallestP, alpha, level: a.level, need } });
  } else if (zeros > 0 && 2 * zeros > n && !allEqual) {
    out.push({ code: 'mostly-equal', severity: 'info', figures: { pairs: n, zeros, differing: usable } });
  }
  if (allEqual && n >= 2) {
    out.push({ code: 'all-equal', severity: 'info', figures: { pairs: n, change: Math.expm1(kept[0] as number) } });
  }
  // One-sided outliers: flagged pairs that lean to one side beyond chance are kept as a finding.
  // The claim is made only under the condition it states (the screen's binomial test: at least
  // MIN_FLAGGED_FOR_LEAN flagged, p < LEAN_ALPHA), checked here again so finding and condition
  // cannot drift apart; an excess on one side that chance explains is reported neutrally.
  const flagged = a.screen.high + a.screen.low;
  const leans = a.screen.lean && flagged >= MIN_FLAGGED_FOR_LEAN && (a.screen.balanceP ?? 1) < LEAN_ALPHA;
  if (!leans && a.screen.kept.length > 0) {
    out.push({
      code: 'outliers-kept',
      severity: 'info',
      figures: { above: a.screen.high, below: a.screen.low, excluded: a.screen.excluded.length, kept: a.screen.kept.slice(), balanceP: a.screen.balanceP ?? 1 },
    });
  }
  if (leans) {
    const lower = direction === 'lower-is-better';
    out.push({
      code: 'one-sided-outliers',
      severity: 'warning',
      figures: {
        headWorse: lower ? a.screen.high : a.screen.low,
        baseWorse: lower ? a.screen.low : a.screen.high,
        direction,
        kept: a.screen.kept.slice(),
        balanceP: a.screen.balanceP ?? 1,
      },
    });
  }
  // Many pairs excluded: the test accounts for the screen (signflip.ts), so this only informs.
  const total = a.d.length;
  const dropped = a.screen.excluded.length;
  if (dropped >= MANY_OUTLIERS_MIN && dropped >= MANY_OUTLIERS_SHARE * total) {
    out.push({ code: 'many-outliers', severity: 'info', figures: { excluded: dropped, pairs: total, metric: metric ?? null } });
  }
  // Order effect: d of base-first pairs against head-first pairs.
  const bf: number[] = [];
  const hf: number[] = [];
  for (const i of a.keptIndices) (pairs[i]?.order === 'base-first' ? bf : hf).push(a.d[i] as number);
  if (bf.length >= 4 && hf.length >= 4) {
    const t = rankSumTest(bf, hf);
    if (t.pValue < DIAGNOSTIC_ALPHA) {
      const mb = median(bf);
      const mh = median(hf);
      out.push({
        code: 'order-effect',
        severity: 'warning',
        figures: { baseFirst: Math.expm1(mb), headFirst: Math.expm1(mh), secondSlot: Math.expm1((mb - mh) / 2), pValue: t.pValue },
      });
    }
  }
  // Drift: first half of the pairs against the second half, in measuring order.
  if (n >= 10) {
    const half = Math.floor(n / 2);
    const first = kept.slice(0, half);
    const second = kept.slice(half);
    const t = rankSumTest(first, second);
    if (t.pValue < DIAGNOSTIC_ALPHA) {
      out.push({ code: 'drift', severity: 'warning', figures: { firstHalf: Math.expm1(median(first)), secondHalf: Math.expm1(median(second)), pValue: t.pValue } });
    }
  }
  // Noise: still high after pairing, or high per run but rescued by pairing.
  const unpaired = Math.sqrt(a.base.cv ** 2 + a.head.cv ** 2);
  if (n >= 3 && a.keptPairedCv > HIGH_PAIRED_CV) {
    const logSd = sd(kept);
    const needed = pairsToDetect(logSd, threshold, alpha);
    out.push({
      code: 'high-noise',
      severity: 'warning',
      figures: {
        pairedCv: a.keptPairedCv,
        pairs: n,
        detectable: minimumDetectableChange(logSd, n, alpha),
        pairsForThreshold: Number.isFinite(needed) && needed > n ? needed : null,
        threshold,
        metric: metric ?? null,
      },
    });
  } else if (Math.max(a.base.cv, a.head.cv) > HIGH_SINGLE_CV && unpaired > 0 && a.pairedCv < 0.5 * unpaired) {
    out.push({ code: 'pairing-rescued', severity: 'info', figures: { baseCv: a.base.cv, headCv: a.head.cv, pairedCv: a.pairedCv, removed: 1 - a.pairedCv / unpaired } });
  }
  return out;
}

/**
 * The verdict one interval supports (README.md, "Verdicts"; docs/statistics.md), direction-aware:
 * significant means the interval excludes 0. Significant and the estimate worse than the threshold:
 * regression; better: improvement; the whole interval within ±threshold: unchanged; otherwise
 * inconclusive, a significant change within the threshold included (its interval still reaches
 * past the threshold: whether it is beyond is not settled). An interval whose confidence falls
 * short of its level (too few pairs) is neither significant nor unchanged. `decide` picks the
 * interval a benchmark shows so that this function, read off the shown interval, gives its verdict.
 */
export function verdictOf(change: ChangeEstimate | null, threshold: number, direction: Direction): Verdict {
  if (!change) return 'inconclusive';
  const level = change.ciLevel ?? change.level ?? change.confidence;
  const confident = (change.achievedConfidence ?? level) >= level - 1e-12;
  if (!confident) return 'inconclusive';
  const [lower, upper] = change.ci;
  const significant = lower > 0 || upper < 0;
  const up = change.estimate > threshold;
  const down = change.estimate < -threshold;
  if (significant && (up || down)) {
    const worse = direction === 'lower-is-better' ? up : down;
    return worse ? 'regression' : 'improvement';
  }
  if (lower >= -threshold && upper <= threshold) return 'unchanged';
  return 'inconclusive';
}

/** A benchmark's equivalence interval (`equivalenceLevel`), relative. */
export interface EquivalenceInterval {
  ci: [number, number];
  level: number;
  achievedConfidence: number;
}

/**
 * A benchmark's verdict from its two intervals, and the interval it shows.
 *
 * - The test's interval (at the correction's level, `intervalAlpha`) decides a change: it excludes
 *   0 and the estimate is beyond the threshold: `regression` or `improvement`.
 * - Otherwise the equivalence interval (`equivalenceLevel`: two one-sided tests at alpha, not
 *   corrected across benchmarks) decides `unchanged` when it lies within ±threshold.
 * - Otherwise `inconclusive`, shown with the test's interval; a change that is significant but
 *   estimated within the threshold is among these: the interval that would call it unchanged
 *   still reaches past the threshold, so calling it unchanged would claim what the data do not
 *   show (at a true change of exactly the threshold, that rule said "unchanged" about half the
 *   time; the equivalence interval says it at most alpha of the time).
 *
 * The interval shown (`change.ci`, `change.ciLevel`) is the one that decided: the equivalence
 * interval for an `unchanged` that it decided (`change.basis: 'equivalence'`), the test's interval
 * for every other verdict. So `verdictOf(change)` gives the verdict back, and no row shows an interval
 * that contradicts it: the equivalence interval is the narrower of the two (a lower level around the
 * same estimate), so an inconclusive row's test interval also reaches beyond ±threshold, and a
 * regression's estimate, outside ±threshold, could never have an equivalence interval inside it.
 * Both intervals are kept in the result: `change.equivalence`, and `change.tested` when `ci` is the
 * equivalence interval.
 */
export function decide(tested: ChangeEstimate, equivalence: EquivalenceInterval, threshold: number, direction: Direction): { change: ChangeEstimate; verdict: Verdict } {
  const byTest = verdictOf(tested, threshold, direction);
  const withEquivalence = { ...tested, equivalence: { ci: equivalence.ci, level: equivalence.level } };
  if (byTest === 'regression' || byTest === 'improvement') return { change: withEquivalence, verdict: byTest };
  const confident = equivalence.achievedConfidence >= equivalence.level - 1e-12;
  const [lower, upper] = equivalence.ci;
  if (confident && lower >= -threshold && upper <= threshold) {
    const { level: _level, ...rest } = withEquivalence;
    const shown: ChangeEstimate = {
      ...rest,
      ci: [lower, upper],
      ciLevel: equivalence.level,
      ...(equivalence.level !== tested.confidence ? { level: equivalence.level } : {}),
      achievedConfidence: equivalence.achievedConfidence,
      basis: 'equivalence',
      tested: { ci: tested.ci, level: tested.ciLevel, ...(tested.achievedConfidence !== undefined ? { achievedConfidence: tested.achievedConfidence } : {}) },
    };
    return { change: shown, verdict: 'unchanged' };
  }
  return { change: withEquivalence, verdict: byTest };
}

/**
 * For an inconclusive benchmark: a rough count of pairs in all that would likely settle it,
 * assuming the intervals' half-widths shrink as 1/sqrt(n): the fewer of the pairs that take the
 * test's interval away from 0 (half-width below |estimate|) and the pairs that fit the equivalence
 * interval within ±threshold (half-width below threshold - |estimate|).
 */
export function estimatePairsToSettle(tested: ChangeEstimate, equivalence: { ci: readonly [number, number] } | null, n: number, threshold: number, alpha: number): number | null {
  const half = (ci: readonly [number, number]) => (ci[1] - ci[0]) / 2;
  return pairsToSettle({ n, estimate: tested.estimate, testHalfWidth: half(tested.ci), equivalenceHalfWidth: half((equivalence ?? tested).ci), threshold, floor: minPairsForAlpha(alpha) });
}

/**
 * Pairs in all that would likely settle a benchmark, from its estimate and the half-widths of its
 * two intervals now, assuming they shrink as 1/sqrt(n): the fewer of the pairs that take the test's
 * interval away from 0 with the estimate beyond the threshold (a regression or improvement), and the
 * pairs that fit the equivalence interval within ±threshold (unchanged). Null when neither can
 * happen (an estimate exactly at the threshold). At least n + 1 and `floor`.
 */
export function pairsToSettle(x: { n: number; estimate: number; testHalfWidth: number; equivalenceHalfWidth: number; threshold: number; floor?: number }): number | null {
  const est = Math.abs(x.estimate);
  const floor = Math.max(x.n + 1, x.floor ?? 0);
  const needs = (half: number, target: number): number => {
    if (!(target > 0)) return Infinity;
    if (!(half > 0)) return floor;
    return Math.max(floor, Math.ceil(x.n * (half / target) ** 2 - 1e-9));
  };
  const change = est > x.threshold ? needs(x.testHalfWidth, est) : Infinity;
  const best = Math.min(change, needs(x.equivalenceHalfWidth, x.threshold - est));
  return Number.isFinite(best) ? best : null;
}

const VERDICT_RANK: Record<Verdict, number> = { unchanged: 0, improvement: 1, inconclusive: 2, regression: 3 };

/** The worse of verdicts: regression > inconclusive > improvement > unchanged. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  let worst: Verdict = 'unchanged';
  for (const v of verdicts) if (VERDICT_RANK[v] > VERDICT_RANK[worst]) worst = v;
  return worst;
}

/**
 * Whether a row counts in the multiple-comparison correction. A row whose every pair is equal
 * (Go's `allocs/op` and `B/op` of a benchmark that allocates alike on both sides, instruction
 * counts of an unchanged path) has a test that cannot reject at any level: given the sizes |d|,
 * all zero, every sign pattern gives the same statistic, p = 1. Counting it would make every other
 * row's level stricter for nothing: a Go suite with `b.ReportAllocs()` has three rows a benchmark,
 * two of them usually constant. Leaving out hypotheses whose smallest attainable p-value is above
 * alpha keeps the family-wise error rate (Tarone 1990, "A modified Bonferroni method for discrete
 * data", Biometrics 46:1071-1085; for Holm's step-down: Hommel & Krummenauer 1998, Biometrics
 * 54:673-681); the sizes |d| that decide it are what the sign-flip test conditions on, so the
 * choice does not depend on the signs the test is about. Only this certain case is left out.
 */
export function inFamily(s: ScreenedPairs): boolean {
  if (!s.test) return false;
  for (let i = 0; i < s.d.length; i++) if (s.d[i] !== 0) return true;
  return false;
}

/**
 * Judges every benchmark: per benchmark the outlier screen and test, the multiple-comparison
 * correction of the p-values over all benchmarks with a test (Holm, or Benjamini–Hochberg with
 * `correction: 'bh'`), each interval at the level that agrees with the correction
 * (`intervalAlpha`, raised after an early stop: `intervalLevel`), verdicts read off those
 * intervals, the worst verdict, and the geometric mean of the estimated ratios head/base over the
 * benchmarks with an estimate.
 */
export function judge(inputs: readonly BenchmarkInput[], opts: JudgeOptions): Judgement {
  const steps = judgeSteps(inputs, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `judge` one benchmark at a time: the generator yields after each benchmark's test and after each
 * one's interval, so that a caller can share the thread between them (results/judge.ts,
 * `judgeResultsCooperatively`: a suite of 100,000 benchmarks takes minutes to judge, and a signal
 * must still be honoured within seconds). Pure: no I/O, no clock; `judge` drains it at once.
 */
export function* judgeSteps(inputs: readonly BenchmarkInput[], opts: JudgeOptions): Generator<void, Judgement, void> {
  const draws = drawsFor(inputs.length, opts.alpha);
  const intervalDraws = intervalDrawsFor(inputs.length);
  const testOptions = (b: BenchmarkInput): TestOptions => ({ outliers: opts.outliers, seed: signFlipSeed(opts.seed ?? 0, b.name), draws, intervalDraws });
  const screened: ScreenedPairs[] = [];
  for (const b of inputs) {
    screened.push(screenAndTest(b.pairs, testOptions(b)));
    yield;
  }
  const raw = screened.map((s) => (s.test ? s.test.pValue : NaN));
  // The correction's family: rows whose test can reach alpha (inFamily). A row outside it keeps
  // its own p-value, which cannot be significant anyway.
  const family = screened.map(inFamily);
  const familyAdjusted = (opts.correction === 'bh' ? benjaminiHochberg : holm)(raw.map((p, i) => (family[i] ? p : NaN)));
  const adjusted = raw.map((p, i) => (family[i] ? (familyAdjusted[i] as number) : p));
  const perInterval = intervalAlpha(familyAdjusted, opts.alpha, opts.correction);
  const analyses: PairsAnalysis[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const b = inputs[i]!;
    analyses.push(
      completeAnalysis(b.pairs, screened[i] as ScreenedPairs, {
        alpha: opts.alpha,
        direction: b.direction,
        threshold: b.threshold ?? opts.threshold,
        ...(b.metric ? { metric: b.metric } : {}),
        ...testOptions(b),
        level: intervalLevel(perInterval, b.stoppedEarly ?? false),
        ...(b.stoppedEarly ? { stoppedEarly: true } : {}),
      }),
    );
    yield;
  }
  const benchmarks = inputs.map((b, i): BenchmarkAnalysis => {
    const a = analyses[i] as PairsAnalysis;
    const threshold = b.threshold ?? opts.threshold;
    let change: ChangeEstimate | null = null;
    let verdict: Verdict = 'inconclusive';
    let pairsToSettle: number | null = null;
    if (a.test && a.hl) {
      const tested: ChangeEstimate = {
        estimate: Math.expm1(a.hl.estimate),
        ci: [Math.expm1(a.hl.lower), Math.expm1(a.hl.upper)],
        confidence: 1 - opts.alpha,
        ciLevel: a.level,
        ...(a.level !== 1 - opts.alpha ? { level: a.level } : {}),
        pValue: a.test.pValue,
        pAdjusted: adjusted[i] as number,
        method: a.test.method,
        ...(a.test.pMonteCarloError ? { pMonteCarloError: a.test.pMonteCarloError } : {}),
        achievedConfidence: a.hl.achievedConfidence,
        n: a.test.n,
      };
      const eq = a.equivalence!;
      const equivalence = { ci: [Math.expm1(eq.lower), Math.expm1(eq.upper)] as [number, number], level: a.equivalenceLevel, achievedConfidence: eq.achievedConfidence };
      ({ change, verdict } = decide(tested, equivalence, threshold, b.direction));
      if (verdict === 'inconclusive') pairsToSettle = estimatePairsToSettle(tested, equivalence, a.keptIndices.length, threshold, 1 - a.level);
    }
    return {
      name: b.name,
      direction: b.direction,
      threshold,
      outliers: a.screen.excluded,
      outliersKept: a.screen.kept,
      base: a.base,
      head: a.head,
      pairedCv: a.pairedCv,
      pairedMad: a.pairedMad,
      change,
      verdict,
      pairsToSettle,
      diagnostics: a.diagnostics,
    };
  });
  return { benchmarks, verdict: worstVerdict(benchmarks.map((b) => b.verdict)) };
}
