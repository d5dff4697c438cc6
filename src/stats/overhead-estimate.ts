/**
 * Subtracting a fixed per-run overhead before the paired ratios (hyperfine's shell-spawning
 * correction: the mean time of the empty shell command is subtracted from every measured time;
 * sharkdp/hyperfine, src/benchmark/mod.rs). A fixed cost c shrinks every ratio towards 1:
 * (h + c) / (b + c). Here the overhead is the median of its calibration samples (robust to the
 * slow outliers a loaded machine gives), subtracted from both sides of every pair.
 *
 * A corrected time must stay positive for its logarithm: the subtracted amount is capped at
 * MAX_SHARE of the smallest time of the benchmark, so one constant is subtracted from every
 * pair (a per-pair clamp would distort the ratios of exactly the fastest pairs).
 */
import { medianSorted, sorted } from './describe.ts';
import type { Finding, Pair } from './types.ts';

/** At most this share of the smallest measured time is subtracted. */
export const MAX_SHARE = 0.9;
/** Runs shorter than this many times the overhead get the `short-run` warning. */
const SHORT_RUN_FACTOR = 5;

/** The overhead to subtract: the median of the samples when there are any, else the recorded value. */
export function overheadEstimate(o: { ms?: number | undefined; samples?: readonly number[] | undefined }): number {
  const s = (o.samples ?? []).filter((v) => Number.isFinite(v) && v >= 0);
  if (s.length > 0) return medianSorted(sorted(s));
  return o.ms !== undefined && Number.isFinite(o.ms) && o.ms > 0 ? o.ms : 0;
}

export interface Corrected {
  pairs: Pair[];
  /** what was subtracted from every time (the overhead, or less when capped) */
  subtracted: number;
  /** the overhead was larger than MAX_SHARE of the smallest time, and was cut to it */
  capped: boolean;
}

/** The pairs with `overhead` subtracted from both sides of each. */
export function subtractOverhead(pairs: readonly Pair[], overhead: number): Corrected {
  if (!(overhead > 0) || pairs.length === 0) return { pairs: [...pairs], subtracted: 0, capped: false };
  let smallest = Infinity;
  for (const p of pairs) smallest = Math.min(smallest, p.base, p.head);
  const cap = MAX_SHARE * smallest;
  const subtracted = Math.min(overhead, cap);
  return {
    pairs: pairs.map((p) => ({ ...p, base: p.base - subtracted, head: p.head - subtracted })),
    subtracted,
    capped: overhead > cap,
  };
}

/** Below this share of the typical run, the subtraction is not worth a line in the report. */
const MENTION_SHARE = 0.001;

/**
 * What a report says about the subtraction: an info line when it moved the times noticeably,
 * a warning when the runs are short against the overhead (its own noise then weighs on the
 * estimate), and when it had to be capped.
 */
export function overheadDiagnostics(raw: readonly Pair[], overhead: number, corrected: Corrected, unit = 'ms'): Finding[] {
  if (!(overhead > 0) || raw.length === 0) return [];
  const typical = medianSorted(sorted(raw.map((p) => p.base)));
  const out: Finding[] = [];
  if (corrected.capped || typical < SHORT_RUN_FACTOR * overhead) {
    out.push({ code: 'short-run', severity: 'warning', figures: { overhead, typical, subtracted: corrected.subtracted, capped: corrected.capped, unit } });
  }
  if (!corrected.capped && corrected.subtracted >= MENTION_SHARE * typical) {
    out.push({ code: 'overhead', severity: 'info', figures: { subtracted: corrected.subtracted, unit } });
  }
  return out;
}
