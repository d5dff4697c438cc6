/**
 * The spreads behind bench/go-combine.ts: how widely pairs of recorded processes differ when each
 * process's time is the median, the least or the mean of its repetitions. Pure, so that a test can
 * run it on processes of a known structure (tests/bench/combine.test.ts).
 */
import { mad, median } from '../../src/stats/describe.ts';

/** 1 / Φ⁻¹(3/4): a MAD times this estimates the standard deviation of normal values. */
const MAD_NORMAL = 1.482602218505602;

export interface Spread {
  /** 1.4826 × the median absolute deviation of d */
  robust: number;
  /** the standard deviation of d */
  sd: number;
}

export interface CombineSpread {
  name: string;
  median: Spread;
  min: Spread;
  mean: Spread;
}

/** The spread of d = ln(a / b) over every ordered pair of two different values (so d is symmetric about 0). */
function pairSpread(values: readonly number[]): Spread {
  const d: number[] = [];
  for (let i = 0; i < values.length; i++) for (let j = 0; j < values.length; j++) if (i !== j) d.push(Math.log(values[i]! / values[j]!));
  const ss = d.reduce((t, x) => t + x * x, 0);
  return { robust: MAD_NORMAL * mad(d), sd: Math.sqrt(ss / Math.max(1, d.length - 1)) };
}

/**
 * Per benchmark, the spreads of its processes' values, each made from the `k` repetitions after
 * the first `warmup` of a process; processes with fewer repetitions, or a repetition not > 0, are
 * left out.
 */
export function combineSpreads(rows: ReadonlyArray<{ name: string; processes: ReadonlyArray<{ reps: readonly number[] }> }>, warmup: number, k: number): CombineSpread[] {
  const out: CombineSpread[] = [];
  for (const r of rows) {
    const kept = r.processes.map((p) => p.reps.slice(warmup, warmup + k)).filter((reps) => reps.length === k && reps.every((v) => v > 0));
    if (kept.length < 2) continue;
    const least = kept.map((reps) => reps.reduce((m, v) => (v < m ? v : m), Infinity));
    out.push({
      name: r.name,
      median: pairSpread(kept.map((reps) => median(reps))),
      min: pairSpread(least),
      mean: pairSpread(kept.map((reps) => reps.reduce((t, v) => t + v, 0) / reps.length)),
    });
  }
  return out;
}
