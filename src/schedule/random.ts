/**
 * The seeded randomness of the schedule. Every coin is derived from (seed, what it decides), not
 * drawn from one stream, so the order of a given pair or round does not depend on which other
 * benchmarks were still running: the same `--seed` replays the same order.
 */
import { mulberry32 } from '../stats/prng.ts';

/** 32-bit FNV-1a of a string: a stable key for what a random choice decides. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export { mulberry32 };

/** A PRNG for one decision, e.g. `rngFor(seed, 'order', 'parse-large', 17)`. */
export function rngFor(seed: number, ...key: (string | number)[]): () => number {
  const rng = mulberry32((seed ^ fnv1a(key.join('\u0000'))) >>> 0);
  rng(); // discard the first output: nearby keys give correlated first draws
  return rng;
}

/** The coin of one pair: does base run first? */
export function baseFirst(seed: number, job: string, pairIndex: number): boolean {
  return rngFor(seed, 'order', job, pairIndex)() < 0.5;
}

/** Fisher–Yates shuffle with a seeded PRNG; returns a new array. */
export function shuffle<T>(items: readonly T[], rng: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
