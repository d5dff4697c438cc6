/**
 * Descriptive figures: quantiles, medians, spreads. Pure, no allocation beyond one sorted copy.
 */
import type { SideSummary } from './types.ts';

/** A sorted copy (ascending) of finite numbers. */
export function sorted(values: ArrayLike<number>): Float64Array {
  const a = Float64Array.from(values as ArrayLike<number>);
  a.sort();
  return a;
}

/**
 * The p-quantile of already sorted values, by linear interpolation between order statistics:
 * Hyndman & Fan (1996) "Sample quantiles in statistical packages", definition 7, R's
 * `quantile(type = 7)` and numpy's default.
 */
export function quantileSorted(s: ArrayLike<number>, p: number): number {
  const n = s.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = s[lo] as number;
  const b = s[hi] as number;
  return a + (h - lo) * (b - a);
}

/** The median of already sorted values (mean of the two middle ones for even n). */
export function medianSorted(s: ArrayLike<number>): number {
  const n = s.length;
  if (n === 0) return NaN;
  const m = n >> 1;
  return n % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** The median of values (sorts a copy). */
export function median(values: ArrayLike<number>): number {
  return medianSorted(sorted(values));
}

/** Arithmetic mean, with a second pass correcting the rounding of the first (as R's `mean`). */
export function mean(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i] as number;
  let m = s / n;
  let t = 0;
  for (let i = 0; i < n; i++) t += (values[i] as number) - m;
  m += t / n;
  return m;
}

/** Sample standard deviation (denominator n - 1); 0 for fewer than two values. */
export function sd(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const e = (values[i] as number) - m;
    ss += e * e;
  }
  return Math.sqrt(ss / (n - 1));
}

/** Coefficient of variation: sample standard deviation / mean (0 for fewer than two values). */
export function cv(values: ArrayLike<number>): number {
  const m = mean(values);
  return m === 0 || !Number.isFinite(m) ? 0 : sd(values) / Math.abs(m);
}

/** Median absolute deviation from the median (unscaled). */
export function mad(values: ArrayLike<number>): number {
  const s = sorted(values);
  const med = medianSorted(s);
  const dev = new Float64Array(s.length);
  for (let i = 0; i < s.length; i++) dev[i] = Math.abs((s[i] as number) - med);
  dev.sort();
  return medianSorted(dev);
}

/**
 * Descriptive summary of one side's samples, for the report: n, median, mean, min, max,
 * CV (sample sd / mean) and IQR (type-7 quartiles, as R's `IQR`).
 */
export function summarize(values: ArrayLike<number>): SideSummary {
  const n = values.length;
  if (n === 0) return { n: 0, median: NaN, mean: NaN, min: NaN, max: NaN, cv: NaN, iqr: NaN };
  const s = sorted(values);
  return {
    n,
    median: medianSorted(s),
    mean: mean(values),
    min: s[0] as number,
    max: s[n - 1] as number,
    cv: cv(values),
    iqr: quantileSorted(s, 0.75) - quantileSorted(s, 0.25),
  };
}
