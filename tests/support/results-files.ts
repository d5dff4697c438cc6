/**
 * Results files written by hand, as another tool or a forger would: a clear regression measured in
 * 30 pairs, for tests of what `pairbench report` and the action's `mode: report` make of a file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../src/stats/prng.ts';

export interface HandResults {
  schemaVersion: 1;
  base: { ref: string; sha: string };
  head: { ref: string; sha: string };
  status?: string;
  settings?: Record<string, unknown>;
  failures?: unknown[];
  benchmarks: Array<Record<string, unknown> & { name: string; pairs: { base: number; head: number; order: string }[] }>;
  [key: string]: unknown;
}

/**
 * One benchmark, `parse`, whose head is 50% slower in every one of 30 pairs (the machine drifts by
 * up to 20% between pairs, each run by ±0.5%): a regression at any threshold up to about 45%, with
 * the smallest p-value 30 pairs can give. Settings as `compare` records them by default.
 */
export function regression50(opts: { headSha?: string; change?: number } = {}): HandResults {
  const rng = mulberry32(5);
  const change = opts.change ?? 0.5;
  return {
    schemaVersion: 1,
    tool: { name: 'pairbench', version: '0.0.0-test' },
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'feature', sha: opts.headSha ?? 'b'.repeat(40) },
    status: 'complete',
    settings: { seed: 1, alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', failOn: 'regression', maxPairs: 30 },
    benchmarks: [
      {
        name: 'parse',
        unit: 'ms',
        direction: 'lower-is-better',
        stoppedBecause: 'max-pairs',
        pairs: Array.from({ length: 30 }, () => {
          const machine = 1 + rng() * 0.2;
          return { base: 10 * machine * (1 + (rng() - 0.5) * 0.01), head: 10 * (1 + change) * machine * (1 + (rng() - 0.5) * 0.01), order: rng() < 0.5 ? 'base-first' : 'head-first' };
        }),
      },
    ],
  };
}

/** Writes the file as JSON into `dir` and returns its path. */
export function writeResults(dir: string, name: string, results: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof results === 'string' ? results : JSON.stringify(results));
  return path;
}
