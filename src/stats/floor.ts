/**
 * The absolute floor (`min-change`): the smallest change in a benchmark's own unit that may count
 * as a regression or an improvement, beside the relative threshold. A +30% change of 40 ns is
 * real and significant after enough pairs, and no user acts on it; a +30% change of 2 ms is the
 * same ratio and matters. Teams gate on both: infino #569 blocks only on a change beyond 50% AND
 * beyond 5 ms, so that sub-millisecond spikes never block. In the statistics of equivalence this is
 * the smallest effect size of interest, the margin of the two one-sided tests (Schuirmann 1987;
 * Lakens 2017, "Equivalence tests", Social Psychological and Personality Science 8(4)), which may
 * be set on the raw scale as well as the relative one.
 *
 * The rule, in one place: a benchmark's margin is the larger of its relative threshold and the
 * floor as a fraction of its base (the median of the base side's values):
 *
 *   margin = max(threshold, floor / median(base))
 *
 * and every verdict reads this margin where it read the threshold (verdict.ts): a regression or an
 * improvement must be significant and beyond the margin, so beyond both the threshold and the
 * floor; `unchanged` still needs its equivalence interval within ±margin (a change shown to lie
 * below the floor is unchanged in the sense the user set), and a change that may lie beyond the
 * floor but is not shown to be stays inconclusive. No guarantee is relaxed: the tests and the
 * intervals are the same, only the margin they are read against is wider. The margin depends on
 * the base's median, an estimate: with the tens of pairs a verdict takes its relative error is a
 * few percent of the floor, far below any floor a user sets.
 *
 * A floor applies to the benchmarks of its unit family only: times (ns to s), sizes in bytes, or
 * counts (instructions, allocations, any other unit); rates (`/s`) have none. Pure.
 */

/** What an absolute floor is measured in. */
export type UnitFamily = 'time' | 'bytes' | 'count';

/** One floor: its family and its size in that family's base unit (nanoseconds, bytes, or the count). */
export interface AbsoluteFloor {
  family: UnitFamily;
  amount: number;
  /** as the user typed it, for the report: `5ms` */
  text: string;
}

const NS_PER: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9 };
const BYTES_PER: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** A result unit's family and how many base units one of it is; null for a rate (`MB/s`, `ops/s`), which has no floor. */
export function unitFamily(unit: string): { family: UnitFamily; scale: number } | null {
  if (unit in NS_PER) return { family: 'time', scale: NS_PER[unit]! };
  if (unit in BYTES_PER) return { family: 'bytes', scale: BYTES_PER[unit]! };
  if (unit.endsWith('/s')) return null;
  return { family: 'count', scale: 1 };
}

/** The unit suffixes a floor may be typed with, per family (config/values.ts parses them). */
export const FLOOR_UNITS: Readonly<Record<string, { family: UnitFamily; scale: number }>> = {
  ...Object.fromEntries(Object.entries(NS_PER).map(([u, s]) => [u, { family: 'time' as const, scale: s }])),
  ...Object.fromEntries(Object.entries(BYTES_PER).map(([u, s]) => [u, { family: 'bytes' as const, scale: s }])),
};

/** The floor of `floors` that applies to a result in `unit`, in that unit; null when none does. */
export function floorInUnit(floors: readonly AbsoluteFloor[], unit: string): { amount: number; text: string } | null {
  const u = unitFamily(unit);
  if (!u) return null;
  const f = floors.find((x) => x.family === u.family);
  return f ? { amount: f.amount / u.scale, text: f.text } : null;
}

/** The median of the base side's values of the pairs. */
function baseMedian(pairs: ReadonlyArray<{ base: number }>): number {
  const v = Float64Array.from(pairs, (p) => p.base).sort();
  const n = v.length;
  if (n === 0) return NaN;
  return n % 2 === 1 ? v[(n - 1) / 2]! : (v[n / 2 - 1]! + v[n / 2]!) / 2;
}

/**
 * The relative margin a benchmark is judged against: its threshold, raised to the floor's share of
 * its base (`floor` in the result's unit). Without a floor, or without a positive base, the threshold.
 */
export function marginWithFloor(threshold: number, floor: number | null, pairs: ReadonlyArray<{ base: number }>): number {
  if (floor === null || !(floor > 0)) return threshold;
  const base = baseMedian(pairs);
  if (!(base > 0)) return threshold;
  return Math.max(threshold, floor / base);
}
