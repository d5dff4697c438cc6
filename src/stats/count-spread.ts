/**
 * How steady a benchmark's instruction counts are between runs of one side. A count of the same
 * program on the same input should repeat to a few parts in ten thousand (the variable part of a
 * runtime's set-up, spread over the counted iterations); a benchmark whose counts vary more
 * (threads, syscalls, timing-dependent code, a JIT) has a count that is not a property of its code
 * alone, and an interval built from a handful of nearly equal pairs would claim a precision its
 * counts do not have. Such a row is never called `unchanged` (judge.ts), and the finding
 * `unsteady-counts` says the measured spread. Pure.
 *
 * The spread is the range over the median, (max - min) / median, of one side's values: with the
 * few pairs counts need, the range is the plainest measure of how far two runs of one program can
 * be apart (for n values from a normal population its expectation is about 2.5 standard deviations
 * at n = 6: Tippett 1925, "On the extreme individuals and the range of samples", Biometrika 17).
 */
import type { Pair } from './types.ts';

/** The largest spread (max - min) / median of one side's counts still called steady: 0.25%. */
export const COUNT_SPREAD_TOLERANCE = 0.0025;

/** (max - min) / median of `values`; 0 for fewer than two values or a median of 0. */
export function spreadOf(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return median > 0 ? (sorted.at(-1)! - sorted[0]!) / median : 0;
}

/** Each side's spread, and whether either is beyond the tolerance. */
export function countSpread(pairs: readonly Pair[], tolerance = COUNT_SPREAD_TOLERANCE): { base: number; head: number; unsteady: boolean } {
  const base = spreadOf(pairs.map((p) => p.base));
  const head = spreadOf(pairs.map((p) => p.head));
  return { base, head, unsteady: Math.max(base, head) > tolerance };
}
