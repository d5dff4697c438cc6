/**
 * Go: a pilot that ran a cold start, and what follows from it (the Go harness's `design.coldStart`).
 *
 * The pilot of a designed Go benchmark (schedule/choose-design.ts) runs one to a few iterations a
 * repetition. Where the benchmark fills a pool or a cache on first use, and the collector Go runs
 * before each repetition empties it, such short repetitions time the refill, not the steady
 * iteration the benchmark's own `-test.benchtime` times. They measure another regime, as a JVM's
 * warm-up iterations do (Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time", ISMM:
 * measurements before the steady state are discarded; Georges, Buytaert & Eeckhout 2007,
 * "Statistically rigorous Java performance evaluation", OOPSLA). So where a cold start is evident:
 * - each designed repetition runs at least COLD_START_MIN_ITERATIONS iterations;
 * - the pilot's pairs stay in the results file, measured and shown, and the verdict, the stopping
 *   rules and the allocation read the pairs after them (results/cold-pilot.ts).
 * The test stays exact: which pairs are left out is decided from times alone, the same for both
 * sides (the listing's iteration against the pilot's, the spread of the pilot's processes), before
 * any of the pairs judged was run; under no change their signs are fair coins whatever was left out.
 */
import type { ColdStartRule } from './harness.ts';

/**
 * How many times longer than the pilot's steady iteration the listing's must take for a cold
 * start to count as evident (state filled on first use: a pool, a cache; the listing's short run
 * stops after Go's b.N = 1 round when that one iteration outlasts it). Twice leaves the ordinary
 * variation of a listing's single iteration below it and the pool-filling parsers of a real suite
 * far above it (docs/measuring.md, "How runs are designed", item 5).
 */
const COLD_START_FACTOR = 2;
/**
 * The fewest iterations a designed repetition runs where a cold start is evident (or as many as
 * the command's own length allows, if fewer). Go collects garbage before each repetition, which
 * empties a `sync.Pool` within two collections, and under `b.RunParallel` each goroutine takes its
 * own pooled state: a repetition of a few iterations then measures mostly the refill, which the
 * pilot, sized from the cold first iteration (one iteration per repetition, one goroutine busy),
 * never saw: it then chose repetitions of 2-4 iterations, whose pairs time mostly the refill and
 * spread ten times wider than at 20 (docs/measuring.md, "How runs are designed", item 5).
 */
const COLD_START_MIN_ITERATIONS = 20;

/** Whether the pilot's processes ran an iteration at speeds more than COLD_START_FACTOR apart from their median `opMs`. */
function inModes(ops: readonly number[], opMs: number): boolean {
  return ops.length >= 4 && ops.some((op) => op >= COLD_START_FACTOR * opMs || op * COLD_START_FACTOR <= opMs);
}

/**
 * Whether a cold start is evident (COLD_START_FACTOR), and how: the listing's first iteration
 * far slower than the pilot's steady ones, or the pilot's processes running their iterations at
 * speeds that far apart (some of them still refilling what a collection emptied, others not). The
 * second catches what the first misses when the pilot's own repetitions were too short to warm:
 * on the fastjson suite, `canada/fastjson-get` listed 6.7 ms an iteration, its pilot's processes
 * took 1 to 30 ms (the median 5 ms: not twice the listing), and its design of 2 iterations a
 * repetition spread its A/A pairs by ±147%. Its processes' fastest ran 0.26 times their median,
 * the pool parsers' slowest 17-22 times; no other benchmark of the suite went beyond 0.74 and 1.56
 * (the A/A pilots of a real Go suite, bench/results/HISTORY.md).
 * Only where the pilot's own repetitions ran fewer than COLD_START_MIN_ITERATIONS iterations:
 * longer ones were past a refill, and a slow process among them is a burst of the machine's load.
 * Read from times alone, both sides alike.
 */
function detect(pilot: { listedMs: number; opMs: number; ops: readonly number[]; pilotIterations: ReadonlyArray<number | undefined> }): 'first' | 'modes' | null {
  // a pilot whose repetitions ran COLD_START_MIN_ITERATIONS iterations or more was past any refill:
  // a slow process there is the machine's (a burst of load), not a cold start
  if (pilot.pilotIterations.some((n) => n === undefined || n >= COLD_START_MIN_ITERATIONS)) return null;
  if (pilot.listedMs >= COLD_START_FACTOR * pilot.opMs) return 'first';
  return inModes(pilot.ops, pilot.opMs) ? 'modes' : null;
}

/**
 * Of `pairs` pairs, how many of a cold start's `pilotPairs` are left out of the judgement: all of
 * them when pairs of the design follow, else none (a comparison the budget ended right after the
 * pilots has nothing else, and is judged on them). One rule for the judgement of the results file
 * (results/cold-pilot.ts) and the stopping rules that read the same pairs (schedule/stopping.ts),
 * for any design that recorded a cold start.
 */
export function coldPilotLeftOut(pilotPairs: number, pairs: number): number {
  return pilotPairs < pairs ? pilotPairs : 0;
}

export const goColdStart: ColdStartRule = { minIterations: COLD_START_MIN_ITERATIONS, detect, inModes };
