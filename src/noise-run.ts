/**
 * `pairbench noise`: an A/A run. The same revision is measured on both sides of every pair, for a
 * fixed number of pairs (no early stopping: the point is to measure the spread), and each
 * benchmark gets its noise floor: single-run CV, paired CV, and the smallest change `compare` would
 * detect here with 30, 100 and 300 pairs.
 */
import type { Spec } from './config/spec.ts';
import { runCompare, type EngineHooks, type Outcome } from './engine.ts';
import { ResultsWriter } from './results/writer.ts';
import type { Results } from './results/schema.ts';
import { noiseFloor } from './stats/noise-floor.ts';
import { overheadEstimate, subtractOverhead } from './stats/overhead-estimate.ts';

/**
 * Each benchmark's noise floor, from the pairs as `compare` judges them: pairbench's recorded
 * per-run overhead subtracted first (results/judge-file.ts), so that the floor and the spread it
 * predicts are those of the benchmark, not shrunk towards 1 by the shell's fixed start.
 */
export function withNoiseFloors(results: Results, opts: { alpha: number; threshold: number; maxPairs: number }): Results {
  return {
    ...results,
    kind: 'noise',
    benchmarks: results.benchmarks.map((b) => {
      if (b.pairs.length < 3) return b;
      const pairs = b.overhead ? subtractOverhead(b.pairs, overheadEstimate(b.overhead)).pairs : b.pairs;
      // each benchmark against its own threshold (a config file's `threshold: 5%`), else the comparison's
      return { ...b, noise: noiseFloor(pairs, { ...opts, threshold: b.threshold ?? opts.threshold }) };
    }),
  };
}

/** Runs the A/A comparison of `spec.head` against itself. */
export async function runNoise(spec: Spec, hooks: EngineHooks): Promise<Outcome> {
  const aa: Spec = { ...spec, base: spec.head, minPairs: spec.maxPairs, failOn: 'none' };
  const outcome = await runCompare(aa, hooks);
  const results = withNoiseFloors(outcome.results, { alpha: spec.alpha, threshold: spec.threshold, maxPairs: spec.maxPairs });
  new ResultsWriter(outcome.resultsPath).write(results);
  return { ...outcome, results };
}
