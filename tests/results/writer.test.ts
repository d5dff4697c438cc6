/**
 * The results file while pairs complete (S12): rewritten after a pair only while writing it takes
 * under a tenth of the time, the building of the results counted in that time. A real file in a
 * temp folder; the writer's clock is a counter the test moves, so nothing here depends on speed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsWriter } from '../../src/results/writer.ts';
import type { Results } from '../../src/results/schema.ts';
import { tempDir } from '../support/repo.ts';
import { readResults } from '../support/cli.ts';

function results(pairs: number): Results {
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: null },
    head: { ref: 'feature', sha: null },
    status: 'running',
    benchmarks: [{ name: 'parse', unit: 'ms', direction: 'lower-is-better', pairs: Array.from({ length: pairs }, () => ({ base: 1, head: 1, order: 'base-first' as const })) }],
  };
}

describe('S12: the results file after every pair, within a tenth of the time', () => {
  it('S12: building the results counts in the cost of a write: one that took 100 ms to build is not redone 500 ms later, but is 1,000 ms later', () => {
    const path = join(tempDir('pairbench-writer-'), 'r.json');
    let clock = 1_000;
    const writer = new ResultsWriter(path, '--out', () => clock);
    // building the results of a huge suite takes time (here 100 ms on the writer's clock); the write itself none
    const built = (pairs: number) => () => {
      clock += 100;
      return results(pairs);
    };
    expect(writer.writeSoon(built(1))).toBe(true);
    clock += 500;
    // 100 ms of 500: more than a tenth, so not now
    expect(writer.writeSoon(built(2))).toBe(false);
    expect(readResults(path).benchmarks[0]!.pairs).toHaveLength(1);
    clock += 500;
    // 100 ms of 1,000: a tenth
    expect(writer.writeSoon(built(3))).toBe(true);
    expect(readResults(path).benchmarks[0]!.pairs).toHaveLength(3);
  });

  it('S12: a small file, written at once, is written after every pair', () => {
    const path = join(tempDir('pairbench-writer-'), 'r.json');
    let clock = 1_000;
    const writer = new ResultsWriter(path, '--out', () => clock);
    for (let pairs = 1; pairs <= 5; pairs++) {
      clock += 10;
      expect(writer.writeSoon(() => results(pairs))).toBe(true);
    }
    expect(readResults(path).benchmarks[0]!.pairs).toHaveLength(5);
  });
});
