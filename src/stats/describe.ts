/**
 * Descriptive figures: quantiles, medians, spreads.
 *
 * simple-statistics computes them exactly as the references do, so it does the work here: its
 * quantiles are Hyndman & Fan (1996, "Sample quantiles in statistical packages", Amer. Statist.
 * 50, 361-365) definition 7, R's `quantile(type = 7)` and numpy's default (bit for bit the linear
 * interpolation x[lo] + (h - lo)(x[hi] - x[lo]), h = (n - 1)p); its median is that quantile at 1/2,
 * its MAD the unscaled median absolute deviation (R's `mad(x, constant = 1)`), its standard
 * deviation the sample one (n - 1). Checked against R in tests/stats/reference.test.ts. The
 * wrappers only define the empty case (NaN, or 0 for a spread of fewer than two values) where the
 * library throws, and accept typed arrays. Kept hand-written elsewhere, because no library does
 * them right: the exact signed-rank distribution (signrank.ts) and the Hodges–Lehmann estimate and
 * interval in O(n log n) (hodges-lehmann.ts, walsh.ts).
 */
import * as ss from 'simple-statistics';
import type { SideSummary } from './types.ts';

/** simple-statistics reads only `length` and indices: a typed array serves as well as an array. */
const view = (values: ArrayLike<number>): readonly number[] => values as unknown as readonly number[];

/** The factor that makes the MAD estimate the standard deviation of normal data: 1 / Φ⁻¹(3/4) (R's `mad` default). */
export const MAD_NORMAL = 1.4826;

/** A sorted copy (ascending) of finite numbers. */
export function sorted(values: ArrayLike<number>): Float64Array {
  const a = Float64Array.from(values as ArrayLike<number>);
  a.sort();
  return a;
}

/** The p-quantile of already sorted values, type 7 (see the module doc); NaN for no values. */
export function quantileSorted(s: ArrayLike<number>, p: number): number {
  return s.length === 0 ? NaN : ss.quantileSorted(view(s), p);
}

/** The median of already sorted values; NaN for no values. */
export function medianSorted(s: ArrayLike<number>): number {
  return s.length === 0 ? NaN : ss.medianSorted(view(s));
}

/** The median of values (a copy is partially sorted); NaN for no values. */
export function median(values: ArrayLike<number>): number {
  return values.length === 0 ? NaN : ss.median(view(values));
}

/** Arithmetic mean (compensated summation); NaN for no values. */
export function mean(values: ArrayLike<number>): number {
  return values.length === 0 ? NaN : ss.mean(view(values));
}

/** Sample standard deviation (denominator n - 1); 0 for fewer than two values. */
export function sd(values: ArrayLike<number>): number {
  return values.length < 2 ? 0 : ss.sampleStandardDeviation(view(values));
}

/** Coefficient of variation: sample standard deviation / mean (0 for fewer than two values). */
export function cv(values: ArrayLike<number>): number {
  const m = mean(values);
  return m === 0 || !Number.isFinite(m) ? 0 : sd(values) / Math.abs(m);
}

/** Median absolute deviation from the median (unscaled); NaN for no values. */
export function mad(values: ArrayLike<number>): number {
  return values.length === 0 ? NaN : ss.medianAbsoluteDeviation(view(values));
}

/**
 * Robust relative spread: MAD × 1.4826 / |median|, a standard deviation relative to the median that
 * a few wild runs cannot inflate (Hampel 1974, "The influence curve and its role in robust
 * estimation", JASA 69, 383-393; Rousseeuw & Croux 1993, JASA 88, 1273-1283). Where a CV of 500%
 * says only that one run took a second, this says how far typical runs stray from the median.
 * 0 for fewer than two values, NaN for a median of 0.
 */
export function relativeMad(values: ArrayLike<number>): number {
  if (values.length < 2) return 0;
  const m = median(values);
  return m === 0 ? NaN : (MAD_NORMAL * mad(values)) / Math.abs(m);
}

/**
 * Descriptive summary of one side's samples, for the report: n, median, mean, min, max,
 * CV (sample sd / mean), IQR (type-7 quartiles, as R's `IQR`) and MAD (× 1.4826, as R's `mad`).
 */
export function summarize(values: ArrayLike<number>): SideSummary {
  const n = values.length;
  if (n === 0) return { n: 0, median: NaN, mean: NaN, min: NaN, max: NaN, cv: NaN, iqr: NaN, mad: NaN };
  const s = sorted(values);
  const med = medianSorted(s);
  return {
    n,
    median: med,
    mean: mean(values),
    min: s[0] as number,
    max: s[n - 1] as number,
    cv: cv(values),
    iqr: quantileSorted(s, 0.75) - quantileSorted(s, 0.25),
    mad: MAD_NORMAL * mad(s),
  };
}
