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
export { judge, judgeSteps, intervalAlpha, minKeptFor } from './judge.ts';
export { analyzePairs, pairedTestFor, logRatios, intervalLevel, equivalenceLevel, STOPPED_EARLY_ALPHA_SHARE } from './analysis.ts';
export { verdictOf, worstVerdict, estimatePairsToSettle } from './verdict.ts';
export { stopCheck, bettingEvidence, nullHalfWidth, flippedHalfWidth, precisionHalfWidth, defaultPrecision } from './stop.ts';
export { minimumDetectableChange, minPairsForAlpha, pairsToDetect } from './power.ts';
export { wilcoxonSignedRank } from './signrank.ts';
export { hodgesLehmann } from './hodges-lehmann.ts';
export { walshSelect, walshSelectPair, walshOrderStatistics, walshAveragesNaive } from './walsh.ts';
export { holm, benjaminiHochberg } from './multiple.ts';
export { signFlipTest, signFlipSeed, drawsFor, intervalDrawsFor } from './signflip.ts';
export { binomialTwoSidedHalf } from './outliers.ts';
export { median, mean, sd, mad, quantileSorted } from './describe.ts';
export { rankSumTest } from './rank-sum.ts';
export { pnorm, pnormUpper, qnorm } from './normal.ts';
