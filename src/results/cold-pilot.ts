/**
 * A Go pilot that ran a cold start is not judged (the rule: harness/go-cold-start.ts).
 *
 * The pilot of a designed Go benchmark (schedule/choose-design.ts) runs one to a few iterations a
 * repetition. Where the benchmark fills a pool or a cache on first use, and the collector Go runs
 * before each repetition empties it, such short repetitions time the refill: on the fastjson suite
 * the pilot pairs of its four pool-filling parsers spread by ±100-260% (sd of ln(head/base)), the
 * pairs of their designs (at least 20 iterations a repetition) by ±5-20%. They measure another
 * regime than the steady iteration the benchmark's own `-test.benchtime` times, as a JVM's
 * warm-up iterations do (Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time", ISMM:
 * measurements before the steady state are discarded; Georges, Buytaert & Eeckhout 2007,
 * "Statistically rigorous Java performance evaluation", OOPSLA). Judged with the design's, ten such
 * pairs among thirty widened the interval and the sizes the allocation reads, and a parser slowed by
 * a tenth was left undecided.
 *
 * So where the design found a cold start (`design.coldStart`), its pilot's pairs stay in the
 * results file, measured and shown, and the verdict, the stopping rules and the allocation read the
 * pairs after them. The test stays exact: which pairs are left out is decided from times alone,
 * the same for both sides (the listing's iteration against the pilot's, the spread of the pilot's
 * processes), before any of the pairs judged was run; under no change their signs are fair coins
 * whatever was left out. One sequence is watched by the betting rule, the design's from its first
 * pair: nothing stops during a pilot (schedule/stopping.ts), and the design is chosen as the pilot's
 * last pair is recorded, before the rules look again (schedule/loop.ts).
 */
import { coldPilotLeftOut } from '../harness/go-cold-start.ts';
import type { Finding } from '../stats/types.ts';
import type { BenchmarkResult } from './schema.ts';

/**
 * How many of a benchmark's first pairs are not judged: a chosen Go design's pilot after a cold
 * start, when pairs of the design follow it; else none. A row with the pilot's pairs alone is judged
 * on them, as before: a comparison the budget ended right after the pilots has nothing else. (A Go
 * `allocs/op` that counts allocations only in the pilot's short repetitions, and that its design's
 * amortize to 0 on both sides, has the design's pairs too: equal pairs, schedule/record.ts.)
 */
export function pilotLeftOut(b: Pick<BenchmarkResult, 'design' | 'pairs' | 'oneSidedPairs'>): number {
  return pilotSplit(b).pairs;
}

/**
 * How many of a benchmark's pairs with one side at 0 (`oneSidedPairs`, schedule/record.ts) ran in a
 * pilot that `pilotLeftOut` leaves out: they are left out with it.
 */
export function oneSidedLeftOut(b: Pick<BenchmarkResult, 'design' | 'pairs' | 'oneSidedPairs'>): number {
  return pilotSplit(b).oneSided;
}

/**
 * The pilot's pairs among a benchmark's `pairs` and its `oneSidedPairs`: the unit's first
 * `pilotPairs` pairs gave each of its rows one of either (a pair with one side at 0 is kept apart),
 * so they are the first `pilotPairs` of the two in measuring order, a one-sided pair standing
 * before `pairs[after]`. One without `after` (another tool's file) is taken as measured last.
 */
function pilotSplit(b: Pick<BenchmarkResult, 'design' | 'pairs' | 'oneSidedPairs'>): { pairs: number; oneSided: number } {
  const d = b.design;
  if (d?.chosen !== true || d.coldStart === undefined) return { pairs: 0, oneSided: 0 };
  const one = b.oneSidedPairs ?? [];
  if (coldPilotLeftOut(d.pilotPairs, b.pairs.length + one.length) === 0) return { pairs: 0, oneSided: 0 };
  let pairs = 0;
  let oneSided = 0;
  for (let t = 0; t < d.pilotPairs; t++) {
    if (oneSided < one.length && (one[oneSided]!.after ?? Infinity) <= pairs) oneSided++;
    else pairs++;
  }
  return { pairs, oneSided };
}

/** The `cold-pilot` finding of a benchmark whose pilot's pairs were left out; else none. */
export function coldPilotNote(b: Pick<BenchmarkResult, 'design' | 'pairs' | 'oneSidedPairs'>): Finding[] {
  const left = pilotLeftOut(b);
  if (left === 0 || b.design?.coldStart === undefined) return [];
  return [{ code: 'cold-pilot', severity: 'info', figures: { pilotPairs: left, judged: b.pairs.length - left, start: b.design.coldStart } }];
}
