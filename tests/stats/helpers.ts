/** Seeded generators of pairs for the stats tests. */
import type { Pair, PairOrder } from '../../src/stats/types.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

/** mulberry32: a small seeded PRNG, uniform in [0, 1) */
export const prng = mulberry32;

/** standard normal by Box–Muller */
export function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

export interface PairModel {
  n: number;
  /** relative change of head (0.05 = head 5% higher) */
  change?: number;
  /** per-run log-normal noise (sd of ln) */
  noise?: number;
  /** shared per-pair machine factor (sd of ln), cancels in the ratio */
  shared?: number;
  /** the run in the second slot is this much slower (relative) */
  secondSlot?: number;
  seed?: number;
  base?: number;
}

/** Pairs with a coin-flip order under a simple multiplicative noise model. */
export function makePairs(m: PairModel): Pair[] {
  const rand = prng(m.seed ?? 1);
  const z = gaussian(rand);
  const out: Pair[] = [];
  for (let i = 0; i < m.n; i++) {
    const order: PairOrder = rand() < 0.5 ? 'base-first' : 'head-first';
    const machine = Math.exp((m.shared ?? 0) * z());
    const slot = 1 + (m.secondSlot ?? 0);
    const baseRun = (m.base ?? 100) * machine * Math.exp((m.noise ?? 0.01) * z()) * (order === 'head-first' ? slot : 1);
    const headRun = (m.base ?? 100) * (1 + (m.change ?? 0)) * machine * Math.exp((m.noise ?? 0.01) * z()) * (order === 'base-first' ? slot : 1);
    out.push({ base: baseRun, head: headRun, order });
  }
  return out;
}
