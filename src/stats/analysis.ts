/**
 * One benchmark's pairs analysed: the log-ratios, the outlier screen and the test of no change
 * (`screenAndTest`), the Hodges–Lehmann estimate with its interval at the level it must reach
 * (`intervalLevel`) and its equivalence interval (`equivalenceLevel`), the side summaries and the
 * diagnostics of the data alone (diagnostics.ts). No correction across benchmarks (judge.ts) and
 * no verdict (verdict.ts).
 *
 * Method (docs/statistics.md): d = ln(head / base) per pair; outliers on d only; the test of no
 * change is the sign-flip randomization test with the outlier screen inside its statistic
 * (signflip.ts), or with `--outliers none` Wilcoxon's signed-rank test; the Hodges–Lehmann estimate
 * with the interval from inverting the signed-rank test on the kept pairs (R's
 * `wilcox.test(d, conf.int = TRUE)` conventions, see signrank.ts and hodges-lehmann.ts), computed
 * at a level raised for the screen as the test allows for it (`screenedIntervalLevel`).
 */
import type { Diagnostic, Direction, OutlierRule, Pair, PairedTest, SideSummary } from './types.ts';
import { cv, relativeMad, summarize } from './describe.ts';
import { dataDiagnostics } from './diagnostics.ts';
import { hodgesLehmann, type HodgesLehmannResult } from './hodges-lehmann.ts';
import { screenOutliers, type OutlierScreen } from './outliers.ts';
import { screenedIntervalLevels, screenedTest, type ScreenedTestResult } from './signflip.ts';

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
  /**
   * with `extremes`: the equivalence interval with them kept as differences beyond any threshold
   * (`withExtremes`), on the log scale; null without
   */
  equivalenceWithExtremes: HodgesLehmannResult | null;
  /** diagnostics that need only this benchmark's data */
  diagnostics: Diagnostic[];
}

/**
 * head/base of a pair: 1 for a pair of two zeros (a count both sides printed as 0, Go's
 * `0 allocs/op`: equal values, so no change), which is the only pair with a 0 a row holds
 * (schedule/record.ts).
 */
export function pairRatio(p: Pair): number {
  return p.base === p.head ? 1 : p.head / p.base;
}

/** Grid of the log-ratios: 1e-12, a relative difference far below any measurement's resolution. */
const LOG_RATIO_GRID = 1e-12;

/**
 * Log-ratios d_i = ln(head_i / base_i), rounded (symmetrically about 0) to a grid of 1e-12. Without
 * the rounding, pairs with mathematically equal ratios (50/100 and 1/2, or every pair after scaling
 * the times) can differ in the last bit and have their tie broken by floating-point noise, which
 * changes the ranks; with it, swapping base and head negates every d exactly and scaling the times
 * leaves the ties as they were. R's `wilcox.test` has the same device (`digits.rank`).
 */
export function logRatios(pairs: readonly Pair[]): Float64Array {
  return Float64Array.from(pairs, (p) => {
    const d = Math.log(pairRatio(p));
    return (Math.sign(d) * Math.round(Math.abs(d) / LOG_RATIO_GRID)) * LOG_RATIO_GRID;
  });
}

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
 * 1 - 2 alpha × STOPPED_EARLY_ALPHA_SHARE (95%) for pairs measured under the stopping rules, whatever
 * ended them (`sequential`), and after an early stop.
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
 * (`STOPPED_EARLY_ALPHA_SHARE`), for the same reason. And so is the interval of a benchmark the
 * rules watched but the budget ended (`--max-pairs`, `--max-time`, futility): the betting rule
 * could have stopped it at any pair, and the plain level then called a change of exactly the
 * threshold unchanged more often than alpha: the final two one-sided tests are not the only look at
 * those pairs (the repeated-looks argument of Jennison & Turnbull 2000, "Group Sequential Methods
 * with Applications to Clinical Trials", ch. 1; `npm run bench:calibration` measures the rate with
 * the rules on, bench/results/calibration.md).
 */
export function equivalenceLevel(alpha: number, stoppedEarly: boolean): number {
  return 1 - 2 * (stoppedEarly ? alpha * STOPPED_EARLY_ALPHA_SHARE : alpha);
}

/** The outlier screen and the test of one benchmark's pairs: what the correction across benchmarks needs. */
export interface ScreenedPairs {
  d: Float64Array;
  screen: OutlierScreen;
  keptIndices: number[];
  kept: Float64Array;
  test: ScreenedTestResult | null;
}

/**
 * The test of no change that an outlier rule implies, the one place it is chosen: with a screen
 * (`tukey`, `mad`) the sign-flip test with the screen inside its statistic, the only one of the two
 * that stays exact when the screen's choice depends on the signs (signflip.ts); with `none`,
 * Wilcoxon's signed-rank test, R's `wilcox.test(d)` exactly (signrank.ts). `judge` records it per
 * benchmark (`change.test`), and judging a results file again derives it from the outlier rule it
 * is judged with, so the file and its re-judging agree.
 */
export function pairedTestFor(outliers: OutlierRule): PairedTest {
  return outliers === 'none' ? 'signed-rank' : 'sign-flip';
}

/** How a benchmark is tested: the test, its outlier rule, and the seed and number of sign draws of the randomization test (and of its interval's level). */
export interface TestOptions {
  test: PairedTest;
  outliers: OutlierRule;
  seed?: number;
  draws?: number;
  intervalDraws?: number;
  /** the screen leaves at least this many pairs (outliers.ts, `trimLimit`; judge.ts, `minKeptFor`) */
  minKept?: number;
}

/**
 * Log-ratios, outlier screen, and the test of no change (the single call site of the test), the one
 * `opts.test` names (`pairedTestFor`): the sign-flip test with the screen inside its statistic
 * (signflip.ts), or Wilcoxon's signed-rank test of the kept pairs as R's `wilcox.test`.
 */
export function screenAndTest(pairs: readonly Pair[], opts: TestOptions): ScreenedPairs {
  const d = logRatios(pairs);
  const screen = screenOutliers(d, opts.outliers, undefined, opts.minKept ?? 0);
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
  /** the test of no change; default `pairedTestFor(outliers)` */
  test?: PairedTest;
  direction?: Direction;
  threshold: number;
  metric?: string;
  stoppedEarly?: boolean;
  /** measured under the stopping rules, whatever ended it: the equivalence interval at the raised level (`equivalenceLevel`) */
  sequential?: boolean;
  seed?: number;
  draws?: number;
  /** sign patterns for the level of the intervals (signflip.ts, `intervalDrawsFor`); default INTERVAL_DRAWS */
  intervalDraws?: number;
  /** the screen leaves at least this many pairs (TestOptions) */
  minKept?: number;
  /** pairs beyond any ratio, kept (BenchmarkInput, `extremes`): + where head printed above 0 and base 0 */
  extremes?: number;
  /** the interval's level; default `intervalLevel(alpha, stoppedEarly)` (one benchmark alone) */
  level?: number;
}

/**
 * Analyzes one benchmark's pairs at significance `alpha`: outliers, side summaries, the test of no
 * change (`pairedTestFor`) and the Hodges–Lehmann estimate with its interval at `level` (log scale), and the
 * diagnostics of the data alone. No multiple-comparison correction and no verdict (see `judge`).
 */
export function analyzePairs(pairs: readonly Pair[], opts: AnalyzeOptions): PairsAnalysis {
  return completeAnalysis(pairs, screenAndTest(pairs, { ...opts, test: opts.test ?? pairedTestFor(opts.outliers) }), opts);
}

/**
 * The Hodges–Lehmann interval of `kept` with |`extremes`| more values beyond any of them, on the
 * side of its sign: pairs with one side at 0 (ln(x/0) = ±infinity) that an outlier screen would
 * keep, as it keeps an excess of outliers on one side (one-sided.ts). The interval
 * is a pair of order statistics of the Walsh averages (Bauer 1972), so only the ranks of the values
 * matter: each extreme stands in as M = 4 max|kept| + 10, and a Walsh average that holds one is at
 * least (M - max|kept|) / 2 >= 5 on the log scale (a change of 147 times), beyond any threshold,
 * which is what an endpoint on such an average says. With `kept` empty every value is a stand-in,
 * and the interval is the stand-in itself (a change from 0 in every pair).
 */
export function withExtremes(kept: ArrayLike<number>, extremes: number, level: number): HodgesLehmannResult {
  let largest = 0;
  for (let i = 0; i < kept.length; i++) largest = Math.max(largest, Math.abs(kept[i] as number));
  const stand = Math.sign(extremes) * (4 * largest + 10);
  const values = Float64Array.from({ length: kept.length + Math.abs(extremes) }, (_, i) => (i < kept.length ? (kept[i] as number) : stand));
  return hodgesLehmann(values, level, { zeros: 'keep' });
}

/**
 * `analyzePairs` from a screen and test already made: `judge` tests every benchmark first, since
 * the level of each interval depends on the correction across all of them (judge.ts, `intervalAlpha`).
 */
export function completeAnalysis(pairs: readonly Pair[], s: ScreenedPairs, opts: AnalyzeOptions): PairsAnalysis {
  const direction = opts.direction ?? 'lower-is-better';
  const { d, screen, keptIndices, kept, test } = s;
  const ratios = pairs.map(pairRatio);
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
  const eqLevel = equivalenceLevel(opts.alpha, (opts.stoppedEarly ?? false) || (opts.sequential ?? false));
  const [testAt, eqAt] = kept.length > 0 ? screenedIntervalLevels(d, kept, [level, eqLevel], opts) : [level, eqLevel];
  const hl = kept.length > 0 ? hodgesLehmann(kept, testAt!, { zeros: 'keep' }) : null;
  const equivalence = kept.length > 0 ? hodgesLehmann(kept, eqAt!, { zeros: 'keep' }) : null;
  const equivalenceWithExtremes = kept.length > 0 && opts.extremes ? withExtremes(kept, opts.extremes, eqAt!) : null;
  const analysis: PairsAnalysis = { d, screen, keptIndices, base, head, pairedCv, pairedMad, keptPairedCv, test, hl, level, equivalence, equivalenceLevel: eqLevel, equivalenceWithExtremes, diagnostics: [] };
  analysis.diagnostics = dataDiagnostics(pairs, analysis, opts.alpha, direction, opts.threshold, opts.metric);
  return analysis;
}
