/**
 * The chase: a benchmark whose pairs lean clearly one way, but that the sign-blind allocation
 * would give up (futile) or measure last (a long shot), is given a fixed number of fresh pairs,
 * chosen from the pairs it has, and its verdict is judged on those fresh pairs alone.
 *
 * Why. The allocation (schedule/allocate.ts) reads only the sizes of the differences, never their
 * signs, so that under no change how many pairs a benchmark gets says nothing of which way they
 * lean and its test stays exact. The price: it cannot tell a slowed benchmark from a noisy one.
 * Under the noise generator a Go parser 48% slower by its pairs so far (p = 0.003 over 30-46 pairs,
 * ±50% a pair) was given up as futile, twice, while unaffected benchmarks took the budget; an
 * allocation that knew which benchmarks were slowed would have detected 11.0-11.8 of 12 where the
 * sign-blind one detected 9 and 8 (bench/results/detection-ceiling-go-2026-12-01.md).
 *
 * How the guarantee is kept: data splitting (Cox 1975, "A note on data-splitting for the
 * evaluation of significance levels", Biometrika 62, 441-444), with a union bound over the two
 * ways a benchmark can be judged. With a share ε of each benchmark's error (CHASE_SHARE):
 * - a benchmark that is never chased is judged as before, on all its pairs, with its p-value
 *   divided by 1 - ε. On the event "never chased" its run is exactly the run it would have had
 *   were the chase switched off for it (the same pairs, ended by the same rules), whose test keeps
 *   its level as without the chase, so P(not chased and p ≤ (1 - ε) u) ≤ P(p_unchased ≤ (1 - ε) u)
 *   ≤ (1 - ε) u under no change;
 * - a chased benchmark is judged on its fresh pairs alone, their number fixed when it was chased
 *   (or cut by the budget, which reads times and sizes, not signs), with its p-value divided by ε.
 *   Given everything before the chase, the fresh pairs' signs are fair coins under no change, so
 *   P(chased and p_fresh ≤ ε u) ≤ ε u.
 * So p* = p / (1 - ε) or p_fresh / ε is a valid p-value, P(p* ≤ u) ≤ u for every u, and the
 * correction across benchmarks (Holm, Benjamini–Hochberg) runs on p* unchanged (judge.ts). A
 * chased benchmark is never called `unchanged`: its equivalence claim has no share of its own.
 * Calibrated with the chase on: bench/results/calibration.md.
 *
 * The number of fresh pairs: the pairs that would give the test at the chased benchmark's level
 * (ε alpha / family, the strictest Holm's correction applies) 80% power at the change its pairs
 * show, taken one standard error smaller (the winner's curse: a benchmark is chased because its
 * estimate is large), by the normal theory of the Hodges–Lehmann estimate that stop.ts uses
 * (n = ((z_a + z_power) σ / δ)², σ = s sqrt(π/3), Hodges & Lehmann 1963). Where --max-pairs leaves
 * fewer, the chase takes what is left if that still gives the test even odds.
 */
import { hodgesLehmann } from './hodges-lehmann.ts';
import { MAD_NORMAL, median } from './describe.ts';
import { qnorm } from './normal.ts';
import { minPairsForAlpha } from './power.ts';

/** ε: the share of a benchmark's error given to its verdict if it is chased (the rest, 1 - ε, to its verdict if it is not). */
export const CHASE_SHARE = 0.2;

/** How far, in standard errors, its estimate must lean beyond 0 for a benchmark to be chased (two-sided 4.6% by chance). */
export const CHASE_LEAN_Z = 2;

/** z of 80% power, the power the fresh pairs are planned for. */
const Z_POWER = qnorm(0.2, false);

/** At least this many fresh pairs: fewer say nothing at a family's level. */
const MIN_FRESH = 10;

export interface ChaseOptions {
  alpha: number;
  /** the benchmark's threshold, relative */
  threshold: number;
  /** the benchmarks in the correction's family */
  family: number;
  /** the most fresh pairs it may get (what --max-pairs leaves) */
  maxFresh: number;
  /** ε (default CHASE_SHARE) */
  share?: number;
}

export interface ChasePlan {
  /** fresh pairs to measure and judge it on */
  pairs: number;
  /** its change so far (relative), and how many standard errors that is from 0 */
  estimate: number;
  z: number;
}

/**
 * Whether a benchmark with these log-ratios (its pairs so far, in order) is worth chasing, and with
 * how many fresh pairs; null when it leans too little, its change so far is within the threshold
 * (after the winner's-curse shrink), its pairs already show it at the strictest level its unchased
 * test can be judged at (they would be set aside for fewer), or even all the fresh pairs it may get
 * would give the test less than even odds. Which benchmarks are chased may read anything: the
 * guarantee (above) holds for any rule that decides before the fresh pairs.
 */
export function chasePlan(d: ArrayLike<number>, opts: ChaseOptions): ChasePlan | null {
  const n = d.length;
  if (n < MIN_FRESH) return null;
  const values = Array.from(d);
  const center = hodgesLehmann(values, 0.5, { zeros: 'keep' }).estimate;
  const s = MAD_NORMAL * median(values.map((v) => Math.abs(v - center)));
  const sigma = s * Math.sqrt(Math.PI / 3);
  if (!(sigma > 0)) return null;
  const se = sigma / Math.sqrt(n);
  const z = Math.abs(center) / se;
  if (!(z >= CHASE_LEAN_Z)) return null;
  const shrunk = Math.abs(center) - se;
  if (!(shrunk > Math.log1p(opts.threshold))) return null;
  const share = opts.share ?? CHASE_SHARE;
  // already beyond what its own test needs unchased (at the strictest level of Holm's correction):
  // it keeps its pairs, whose verdict the fresh ones could only weaken
  if (z >= qnorm(((1 - share) * opts.alpha) / (2 * Math.max(1, opts.family)), false)) return null;
  const level = (share * opts.alpha) / Math.max(1, opts.family);
  const zTest = qnorm(level / 2, false);
  const floor = Math.max(MIN_FRESH, minPairsForAlpha(level));
  const planned = Math.max(floor, Math.ceil((((zTest + Z_POWER) * sigma) / shrunk) ** 2));
  const evenOdds = Math.max(floor, Math.ceil(((zTest * sigma) / shrunk) ** 2));
  if (evenOdds > opts.maxFresh) return null;
  return { pairs: Math.min(planned, opts.maxFresh), estimate: Math.expm1(center), z };
}
