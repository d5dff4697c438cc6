/**
 * Calibration of counts that are sometimes 0 (Go's `B/op` and `allocs/op` at a design's few
 * iterations a repetition): pairs of two zeros are equal pairs, and pairs with one side at 0 are
 * weighed apart (src/stats/one-sided.ts). Each trial draws a fixed number of pairs of one count
 * model per side and judges them as `judge` does (Tukey, Holm over one benchmark, alpha 0.05,
 * threshold 2%), with the one-sided pairs counted beside the others.
 *
 * The models, per process (a Go repetition of `ITERATIONS` iterations): the count is
 * floor((F·N + R) / N), where F is what one operation allocates and R what the process pays once
 * (a pool filled, a map grown), 0 with probability 1 − q and otherwise uniform on (0, `once`]:
 * - pool refill:     F = 0, q = 0.1, once = 16·N: mostly 0, now and then a few bytes an operation
 * - half the time:   F = 0, q = 0.5, once = 64·N: a quarter of the pairs with two zeros, half one-sided
 * - amortized bytes: F = 24, q = 1, once = 8·N: never 0 (the control: no one-sided pair)
 * and two real changes of the pool refill's base: head allocates 16 bytes an operation more
 * (`new allocation`), or its base does and head not (`allocation removed`).
 */
import { judge } from '../../src/stats/index.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { Pair, Verdict } from '../../src/stats/types.ts';

const ITERATIONS = 7;
const PAIRS = 60;
const ALPHA = 0.05;
const THRESHOLD = 0.02;

interface CountModel {
  perOp: number;
  q: number;
  once: number;
}

const POOL: CountModel = { perOp: 0, q: 0.1, once: 16 * ITERATIONS };
const HALF: CountModel = { perOp: 0, q: 0.5, once: 64 * ITERATIONS };
const AMORTIZED: CountModel = { perOp: 24, q: 1, once: 8 * ITERATIONS };

export interface CountCell {
  name: string;
  base: CountModel;
  head: CountModel;
  /** the verdict a right call gives: null for an A/A (none flagged is right) */
  expect: 'regression' | 'improvement' | null;
}

export const COUNT_CELLS: CountCell[] = [
  { name: 'pool refill, A/A', base: POOL, head: POOL, expect: null },
  { name: 'half the time, A/A', base: HALF, head: HALF, expect: null },
  { name: 'amortized bytes, A/A', base: AMORTIZED, head: AMORTIZED, expect: null },
  { name: 'new allocation (+16 B an operation in head)', base: POOL, head: { ...POOL, perOp: 16 }, expect: 'regression' },
  { name: 'allocation removed (16 B an operation in base only)', base: { ...POOL, perOp: 16 }, head: POOL, expect: 'improvement' },
];

export interface CountCellResult {
  cell: CountCell;
  trials: number;
  verdicts: Record<Verdict, number>;
  /** trials whose one-sided pairs held a verdict back */
  held: number;
  /** mean pairs of two zeros and mean one-sided pairs per trial */
  zeroPairs: number;
  oneSided: number;
}

function draw(m: CountModel, rand: () => number): number {
  const once = rand() < m.q ? rand() * m.once : 0;
  return Math.floor((m.perOp * ITERATIONS + once) / ITERATIONS);
}

/** `trials` comparisons of one cell, seeded: the same counts give the same results. */
export function runCountCell(cell: CountCell, trials: number, seed: number): CountCellResult {
  const rand = mulberry32(seed);
  const verdicts: Record<Verdict, number> = { regression: 0, improvement: 0, unchanged: 0, inconclusive: 0 };
  let held = 0;
  let zeroPairs = 0;
  let oneSidedPairs = 0;
  for (let t = 0; t < trials; t++) {
    const pairs: Pair[] = [];
    const oneSided = { base: 0, head: 0 };
    for (let i = 0; i < PAIRS; i++) {
      const order = rand() < 0.5 ? 'base-first' : 'head-first';
      const base = draw(cell.base, rand);
      const head = draw(cell.head, rand);
      if ((base > 0) !== (head > 0)) oneSided[base === 0 ? 'base' : 'head']++;
      else pairs.push({ base, head, order });
    }
    zeroPairs += pairs.filter((p) => p.base === 0).length;
    oneSidedPairs += oneSided.base + oneSided.head;
    // a row whose every pair has one side at 0 is judged too, from those pairs (results/judge-file.ts)
    const j = judge([{ name: 'count', direction: 'lower-is-better', sequential: true, pairs, ...(oneSided.base + oneSided.head > 0 ? { oneSided } : {}) }], { alpha: ALPHA, threshold: THRESHOLD, outliers: 'tukey', correction: 'holm', seed: seed + t });
    const b = j.benchmarks[0]!;
    verdicts[b.verdict]++;
    const f = b.diagnostics.find((d) => d.code === 'one-sided-zeros');
    if (f && f.code === 'one-sided-zeros' && f.figures.held !== null) held++;
  }
  return { cell, trials, verdicts, held, zeroPairs: zeroPairs / trials, oneSided: oneSidedPairs / trials };
}

export const COUNT_SETTINGS = { iterations: ITERATIONS, pairs: PAIRS, alpha: ALPHA, threshold: THRESHOLD };
