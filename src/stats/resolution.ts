/**
 * The resolution of printed times: how coarse the values a harness prints are, against the change
 * a comparison must resolve. Criterion's and libtest's `--output-format bencher` print whole
 * nanoseconds per iteration, so a benchmark of 45 ns moves in steps of 2.2%, more than a 2%
 * threshold; a user's own JSON may print whole milliseconds. Pure.
 *
 * Why it matters for `unchanged`: a printed value lies within half a step of what was measured, so
 * each pair's log-ratio lies within about one step's share (`share`: the step over the smallest
 * value) of the unrounded one, and so does every Walsh average and every order statistic of them:
 * the Hodges–Lehmann estimate and its interval (Hodges & Lehmann 1963, "Estimates of location based
 * on rank tests", Ann. Math. Statist. 34) move by at most that share. A change smaller than a step
 * can print as no change at all in every pair (Lee & Vardeman 2001, "Interval estimation of a
 * normal process mean from rounded data", Journal of Quality Technology 33, on what rounding hides
 * from an interval). So `unchanged` needs the equivalence interval within ±(threshold − share)
 * (judge.ts), never when a step reaches the threshold, and the finding `coarse-resolution` says so.
 * The test of a change is untouched: under no change, rounded pairs are as exchangeable as the
 * unrounded ones, so its level holds.
 *
 * The step is inferred from the values themselves, so that every format and a user's JSON are
 * covered alike: the largest power of ten, from 10^-3 to 10^9 of the unit, that divides every value
 * of both sides. Values with more than three decimals have no step worth a finding (Go prints four
 * significant figures: a step of at most 0.1%).
 */

import { unitFamily } from './floor.ts';

/** The resolution of a benchmark's printed values, when they have one. */
export interface Resolution {
  /** one step of the printed values, in their unit */
  step: number;
  /** the smallest value printed (either side) */
  smallest: number;
  /** step / smallest: how far one step moves a pair's ratio */
  share: number;
  /** the values' unit, where the caller knows it (for the finding's words) */
  unit?: string;
}

/** Whether `value` is a whole number of `step`s, to within floating-point rounding. */
function multipleOf(value: number, step: number): boolean {
  const k = value / step;
  return Math.abs(k - Math.round(k)) <= 1e-9 * Math.max(1, Math.abs(k));
}

/** The steps tried, coarsest first: 10^9 down to 10^-3 of the unit. */
const STEPS: readonly number[] = Array.from({ length: 13 }, (_, i) => 10 ** (9 - i));

/**
 * The resolution of the pairs' printed values: the largest power of ten that divides every
 * positive value of both sides, and its share of the smallest; null when no such step (10^-3 or
 * coarser) divides them all, or there is no positive value.
 */
export function resolutionOf(pairs: ReadonlyArray<{ base: number; head: number }>): Resolution | null {
  let smallest = Infinity;
  for (const p of pairs) {
    if (p.base > 0 && p.base < smallest) smallest = p.base;
    if (p.head > 0 && p.head < smallest) smallest = p.head;
  }
  if (!Number.isFinite(smallest)) return null;
  for (const step of STEPS) {
    if (step > smallest) continue;
    let all = true;
    for (const p of pairs) {
      if ((p.base > 0 && !multipleOf(p.base, step)) || (p.head > 0 && !multipleOf(p.head, step))) {
        all = false;
        break;
      }
    }
    if (all) return { step, smallest, share: step / smallest };
  }
  return null;
}

/** The resolution of a row's values where they are times (floor.ts, `unitFamily`); counts and sizes are what they print. */
export function timeResolution(unit: string, pairs: ReadonlyArray<{ base: number; head: number }>): Resolution | null {
  const r = unitFamily(unit)?.family === 'time' ? resolutionOf(pairs) : null;
  return r ? { ...r, unit } : null;
}

/**
 * The margin within which the equivalence interval must lie for `unchanged`: the threshold less
 * one step's share, 0 (never `unchanged`) when a step reaches the threshold.
 */
export function unchangedMargin(threshold: number, resolution: Resolution | null | undefined): number {
  return resolution ? Math.max(0, threshold - resolution.share) : threshold;
}

/** The share of the threshold past which a step is worth a finding even where no verdict was held: a quarter. */
export const COARSE_SHARE_OF_THRESHOLD = 1 / 4;
