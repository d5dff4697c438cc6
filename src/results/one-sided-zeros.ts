/**
 * A benchmark's pairs with one side at 0 (`oneSidedPairs`), counted for judging: those a cold
 * pilot ran are left out with it (cold-pilot.ts), and the rest are weighed as stats/one-sided.ts
 * says.
 */
import type { OneSidedCounts } from '../stats/one-sided.ts';
import { oneSidedLeftOut } from './cold-pilot.ts';
import type { BenchmarkResult } from './schema.ts';

/** How many of the judged one-sided pairs had base at 0, and how many head; undefined with none. */
export function oneSidedCounts(b: Pick<BenchmarkResult, 'oneSidedPairs' | 'pairs' | 'design'>): OneSidedCounts | undefined {
  const judged = (b.oneSidedPairs ?? []).slice(oneSidedLeftOut(b));
  if (judged.length === 0) return undefined;
  const base = judged.filter((p) => p.base === 0).length;
  return { base, head: judged.length - base };
}
