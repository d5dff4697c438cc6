/**
 * One number for a whole change: the geometric mean of the benchmarks' ratios head/base, with an
 * interval.
 *
 * The geometric mean is the summary of relative changes that does not depend on which side is the
 * reference (Fleming and Wallace, "How not to lie with statistics: the correct way to summarize
 * benchmark results", CACM 29(3), 1986); benchstat reports it the same way.
 *
 * Its interval comes from each benchmark's own interval: on the log scale an interval of level L
 * is close to estimate ± z(L)·se (the Hodges–Lehmann estimator is asymptotically normal: Hollander,
 * Wolfe and Chicken, "Nonparametric Statistical Methods", 3rd ed., §3.2), so se = half-width / z(L).
 * The benchmarks are measured in separate processes with their own pairs, so their errors are taken
 * as independent: the mean of k log-ratios has se = sqrt(Σ se²) / k, and the interval is
 * mean ± z(confidence)·se. It is a normal approximation, not an exact interval; with one benchmark
 * at the same level, its own interval is returned.
 */
import { qnorm } from './normal.ts';

export interface GeomeanInput {
  /** relative change (0.05 = +5%), oriented so that + is worse */
  estimate: number;
  /** its interval, relative, same orientation */
  ci: readonly [number, number];
  /**
   * the coverage of the interval (1 − alpha): after an early stop the interval is computed at a
   * raised fixed-sample level so that it keeps this coverage, and reading it at the coverage keeps
   * the combined interval's guarantee (conservatively)
   */
  level: number;
}

export interface Geomean {
  /** geometric mean of the ratios, minus one */
  estimate: number;
  ci: [number, number];
  confidence: number;
  /** how many benchmarks it summarises */
  count: number;
}

/** The geometric mean change and its interval at `confidence`; null without any finite input. */
export function geomeanChange(inputs: readonly GeomeanInput[], confidence: number): Geomean | null {
  const usable = inputs.filter((x) => Number.isFinite(x.estimate) && x.estimate > -1 && x.ci[0] > -1 && x.ci[1] > -1 && Number.isFinite(x.ci[0]) && Number.isFinite(x.ci[1]) && x.level > 0 && x.level < 1);
  if (usable.length === 0) return null;
  const k = usable.length;
  // one benchmark: its own interval, exact where it is, rather than a normal approximation of it
  const only = usable[0]!;
  if (k === 1 && Math.abs(only.level - confidence) < 1e-12) return { estimate: only.estimate, ci: [only.ci[0], only.ci[1]], confidence, count: 1 };
  let sum = 0;
  let variance = 0;
  for (const x of usable) {
    sum += Math.log1p(x.estimate);
    const half = (Math.log1p(x.ci[1]) - Math.log1p(x.ci[0])) / 2;
    const se = half / qnorm(1 - (1 - x.level) / 2);
    variance += se * se;
  }
  const mean = sum / k;
  const se = Math.sqrt(variance) / k;
  const z = qnorm(1 - (1 - confidence) / 2);
  return { estimate: Math.expm1(mean), ci: [Math.expm1(mean - z * se), Math.expm1(mean + z * se)], confidence, count: k };
}
