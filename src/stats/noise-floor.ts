/**
 * The noise floor of a machine, from an A/A run (the same revision on both sides of every pair):
 * how much single runs vary, how much of that pairing removes, and the smallest change that
 * `compare` would then detect with a given number of pairs. Users run it once on their runner to
 * choose `threshold` and `max-pairs` from measurements instead of guesses.
 */
import { cv, sd } from './describe.ts';
import { logRatios } from './analysis.ts';
import { screenOutliers } from './outliers.ts';
import { minimumDetectableChange, pairsToDetect } from './power.ts';
import type { Pair } from './types.ts';

const NOISE_PAIR_COUNTS = [30, 100, 300] as const;

export interface NoiseFloor {
  pairs: number;
  /** CV of single runs, pooled over both sides (each side's own CV, averaged) */
  singleRunCv: number;
  /** CV of the ratios head/base of the pairs kept after outlier screening */
  pairedCv: number;
  /** standard deviation of ln(head/base) over the pairs kept */
  pairedLogSd: number;
  /** 1 - pairedCv / singleRunCv: the share of the run-to-run variation that pairing cancelled */
  pairingGain: number;
  /** the A/A change itself: with no real change it should be near 0 */
  aaChange: number;
  /** smallest relative change detected with 80% power at alpha, per pair count */
  detectable: { pairs: number; change: number }[];
  /** pairs needed to detect a change of the given threshold with 80% power */
  pairsForThreshold: number;
  /** a threshold that `max-pairs` pairs can resolve: the detectable change at maxPairs, rounded up to 0.5% */
  suggestedThreshold: number;
}

/**
 * Figures of an A/A run. Power figures use the normal approximation of the signed-rank test with
 * the Wilcoxon asymptotic relative efficiency (see `minimumDetectableChange`); outliers are screened
 * by Tukey's fences on the log-ratios, as `compare` does by default.
 */
export function noiseFloor(pairs: readonly Pair[], opts: { alpha: number; threshold: number; maxPairs: number }): NoiseFloor {
  const d = logRatios(pairs);
  const excluded = new Set(screenOutliers(d, 'tukey').excluded);
  const kept = Array.from(d).filter((_, i) => !excluded.has(i));
  const base = pairs.map((p) => p.base);
  const head = pairs.map((p) => p.head);
  const singleRunCv = (cv(base) + cv(head)) / 2;
  const pairedCv = cv(kept.map((x) => Math.exp(x)));
  const pairedLogSd = kept.length > 1 ? sd(kept) : NaN;
  const meanD = kept.reduce((a, b) => a + b, 0) / Math.max(1, kept.length);
  const detectable = NOISE_PAIR_COUNTS.map((n) => ({ pairs: n, change: minimumDetectableChange(pairedLogSd, n, opts.alpha) }));
  const atMax = minimumDetectableChange(pairedLogSd, opts.maxPairs, opts.alpha);
  return {
    pairs: pairs.length,
    singleRunCv,
    pairedCv,
    pairedLogSd,
    pairingGain: singleRunCv > 0 ? 1 - pairedCv / singleRunCv : 0,
    aaChange: Math.expm1(meanD),
    detectable,
    pairsForThreshold: pairsToDetect(pairedLogSd, opts.threshold, opts.alpha),
    suggestedThreshold: Number.isFinite(atMax) ? Math.max(0.005, Math.ceil(atMax * 200) / 200) : NaN,
  };
}

/**
 * Whether an A/A run's identical sides differ beyond chance and beyond 0.5%: the mean log-ratio
 * further from 0 than three of its standard errors (sd/√n, the z-test of a mean by the central
 * limit theorem, Wasserman, All of Statistics, 2004, §10.1), a size no real change explains. Then
 * the first or second run of a pair has an advantage on this machine (caches, frequency), which a
 * warm-up or a prepare step removes.
 */
export function slotAdvantage(noise: Pick<NoiseFloor, 'aaChange' | 'pairedLogSd' | 'pairs'>): boolean {
  return Math.abs(noise.aaChange) > Math.max(0.005, (3 * noise.pairedLogSd) / Math.sqrt(Math.max(1, noise.pairs)));
}

/**
 * The threshold to configure for a benchmark on this machine: its own when `maxPairs` pairs resolve
 * it here (80% power, `pairsToDetect`), else the smallest change `maxPairs` pairs do resolve.
 */
export function thresholdToConfigure(noise: Pick<NoiseFloor, 'pairsForThreshold' | 'suggestedThreshold'>, threshold: number, maxPairs: number): number {
  return noise.pairsForThreshold <= maxPairs || !Number.isFinite(noise.suggestedThreshold) ? threshold : Math.max(threshold, noise.suggestedThreshold);
}
