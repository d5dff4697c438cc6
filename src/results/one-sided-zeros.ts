/**
 * A benchmark's pairs with one side at 0 (`oneSidedPairs`), for judging: those a cold pilot ran
 * are left out with it (cold-pilot.ts), and the rest are weighed as stats/one-sided.ts says.
 */
import type { OneSidedCounts } from '../stats/one-sided.ts';
import { oneSidedLeftOut } from './cold-pilot.ts';
import type { BenchmarkResult } from './schema.ts';

type OneSidedPair = NonNullable<BenchmarkResult['oneSidedPairs']>[number];

/** The one-sided pairs that are judged: all but those of a cold pilot left out. */
export function judgedOneSidedPairs(b: Pick<BenchmarkResult, 'oneSidedPairs' | 'pairs' | 'design'>): OneSidedPair[] {
  return (b.oneSidedPairs ?? []).slice(oneSidedLeftOut(b));
}

/** How many of `pairs` had base at 0, and how many head; undefined with none. */
export function oneSidedCounts(pairs: readonly OneSidedPair[]): OneSidedCounts | undefined {
  if (pairs.length === 0) return undefined;
  const base = pairs.filter((p) => p.base === 0).length;
  return { base, head: pairs.length - base };
}
