/**
 * The statistics room: pure functions from pairs to verdicts. No I/O.
 *
 * Method: docs/statistics.md. The default test of no change is the sign-flip test with the outlier
 * screen inside its statistic (signflip.ts). References: R's `wilcox.test(d, conf.int = TRUE)` for the
 * signed-rank test (`--outliers none`), Hodges–Lehmann estimate and interval (zeros kept as values in the estimate and
 * interval, dropped by the test: hodges-lehmann.ts; fixtures from scripts/reference-stats.py,
 * tests/stats/reference.test.ts), R's `p.adjust` for Holm and Benjamini–Hochberg.
 */
export * from './types.ts';
export { judge, judgeSteps, intervalAlpha } from './judge.ts';
export { analyzePairs, screenAndTest, pairedTestFor, logRatios, intervalLevel, equivalenceLevel, STOPPED_EARLY_ALPHA_SHARE } from './analysis.ts';
export type { AnalyzeOptions, ScreenedPairs, PairsAnalysis } from './analysis.ts';
export { verdictOf, decide, worstVerdict, estimatePairsToSettle, pairsToSettle } from './verdict.ts';
export type { EquivalenceInterval } from './verdict.ts';
export { stopCheck, bettingEvidence, nullHalfWidth } from './stop.ts';
export type { BettingEvidence } from './stop.ts';
export { minimumDetectableChange, minPairsForAlpha, pairsToDetect, WILCOXON_ARE } from './power.ts';
export { wilcoxonSignedRank, signedRankSum, psignrank, qsignrank, signrankCumulativeCounts } from './signrank.ts';
export type { SignedRankResult, SignedRankOptions } from './signrank.ts';
export { hodgesLehmann, walshMedian } from './hodges-lehmann.ts';
export type { HodgesLehmannResult, HodgesLehmannOptions } from './hodges-lehmann.ts';
export { walshSelect, walshSelectPair, walshOrderStatistics, walshAveragesNaive } from './walsh.ts';
export { holm, benjaminiHochberg } from './multiple.ts';
export { signFlipTest, signFlipSeed, drawsFor, screenedTest, DEFAULT_DRAWS, EXACT_MAX_PATTERNS, LARGE_N } from './signflip.ts';
export type { SignFlipOptions, SignFlipResult, ScreenedTestResult, Alternative } from './signflip.ts';
export { screenOutliers, outlierFences, binomialTwoSidedHalf, LEAN_ALPHA, MIN_FLAGGED_FOR_LEAN } from './outliers.ts';
export type { OutlierScreen } from './outliers.ts';
export { summarize, median, mean, sd, cv, mad, relativeMad, MAD_NORMAL, quantileSorted } from './describe.ts';
export { rankSumTest } from './rank-sum.ts';
export { pnorm, pnormUpper, qnorm } from './normal.ts';
