/**
 * A Go pilot that ran a cold start is kept in the results file and not judged
 * (src/results/cold-pilot.ts): the verdict, its interval and its pair indices come from the design's
 * pairs; `pairbench report` judges the file the same way; a design without a cold start, or a
 * pilot that never led to a design, is judged on every pair as before.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import { writeResultsFile } from '../../src/results/writer.ts';
import { judge } from '../../src/stats/index.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import { pairbench } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const OPTS = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' } as const;
type Pair = BenchmarkResult['pairs'][number];

/** 10 pilot pairs spread by ±150% (a pool refilled), then `n` design pairs at +10% ± 4%, one of them far off. */
function pairs(n: number): { pilot: Pair[]; design: Pair[] } {
  const rng = mulberry32(7);
  const z = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const order = (): Pair['order'] => (rng() < 0.5 ? 'base-first' : 'head-first');
  const pilot = Array.from({ length: 10 }, () => ({ base: 1e6, head: 1e6 * Math.exp(1.5 * z()), order: order() }));
  const design = Array.from({ length: n }, (_, i) => ({ base: 1e6, head: 1e6 * Math.exp(i === 7 ? 0.9 : Math.log(1.1) + 0.04 * z()), order: order() }));
  return { pilot, design };
}

const DESIGN: NonNullable<BenchmarkResult['design']> = {
  repetitions: 3,
  warmup: 1,
  lengthMs: 40,
  iterations: 20,
  pilotPairs: 10,
  pilot: { repetitions: 2, warmup: 1, lengthsMs: [2, 6] },
  chosen: true,
};

function file(coldStart: 'first' | 'modes' | undefined, chosen = true): Results {
  const { pilot, design } = pairs(30);
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { seed: 3 },
    benchmarks: [
      {
        name: 'BenchmarkParse/canada/fastjson',
        unit: 'ns',
        direction: 'lower-is-better',
        stoppedBecause: 'max-time',
        pairs: [...pilot, ...design],
        design: { ...DESIGN, chosen, ...(coldStart ? { coldStart } : {}) },
      },
    ],
  };
}

describe("a cold start's pilot is not judged", () => {
  it("judges the design's pairs alone: the change, its interval and the outlier indices as the file counts them, with a note", () => {
    const judged = judgeResults(file('modes'), OPTS).benchmarks[0]!;
    // exactly what the design's 30 pairs give on their own
    const alone = judge([{ name: 'BenchmarkParse/canada/fastjson', direction: 'lower-is-better', sequential: true, pairs: pairs(30).design }], { ...OPTS, seed: 3 }).benchmarks[0]!;
    expect(judged.change!.estimate).toBeCloseTo(alone.change!.estimate, 12);
    expect(judged.change!.ci).toEqual(alone.change!.ci);
    expect(judged.verdict).toBe('regression');
    expect(judged.change!.estimate).toBeGreaterThan(0.09);
    // the far-off design pair is the file's 18th (index 17), not the judged pairs' 8th
    const flagged = (b: { outliers?: number[] | undefined; outliersKept?: number[] | undefined }) => [...(b.outliers ?? []), ...(b.outliersKept ?? [])];
    expect(flagged(alone)).toContain(7);
    expect(flagged(judged)).toEqual(flagged(alone).map((k) => k + 10));
    expect(judged.pairs).toHaveLength(40);
    expect(judged.diagnostics).toContainEqual({ code: 'cold-pilot', severity: 'info', figures: { pilotPairs: 10, judged: 30, start: 'modes' } });
  });

  it('with every pair judged, as before, the pilot widens the interval: a design without a cold start, or one never chosen', () => {
    const cold = judgeResults(file('first'), OPTS).benchmarks[0]!;
    for (const other of [judgeResults(file(undefined), OPTS).benchmarks[0]!, judgeResults(file('modes', false), OPTS).benchmarks[0]!]) {
      expect(other.diagnostics!.some((d) => d.code === 'cold-pilot')).toBe(false);
      expect(other.change!.ci[1] - other.change!.ci[0]).toBeGreaterThan(cold.change!.ci[1] - cold.change!.ci[0]);
    }
  });

  it("a row with the pilot's pairs alone (a Go allocs/op that only the pilot's short repetitions count) is judged on them, and the file reads back", () => {
    const r = file('modes');
    const { pilot } = pairs(0);
    r.benchmarks.push({ name: 'BenchmarkParse/canada/fastjson (allocs/op)', unit: 'allocs', direction: 'lower-is-better', stoppedBecause: 'max-time', pairs: pilot.map((p) => ({ ...p, base: 3, head: 3 })), design: r.benchmarks[0]!.design! });
    const judged = judgeResults(r, OPTS);
    const allocs = judged.benchmarks[1]!;
    expect(allocs.base!.n).toBe(10);
    expect(allocs.base!.median).toBe(3);
    expect(allocs.diagnostics!.some((d) => d.code === 'cold-pilot')).toBe(false);
    // what compare writes, report reads: no summary of an empty set of pairs (NaN, written as null)
    const dir = tempDir();
    const path = join(dir, 'results.json');
    writeResultsFile(path, judged);
    const again = pairbench(['report', path, '--json']);
    expect(again.stderr).toBe('');
    expect(again.status).toBe(1);
  });

  it('pairbench report judges the file again the same way, and says why', () => {
    const dir = tempDir();
    const path = join(dir, 'results.json');
    writeResultsFile(path, judgeResults(file('first'), OPTS));
    const r = pairbench(['report', path]);
    // the gate: a regression fails it (exit 1), as judged from the design's pairs
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("Judged on its 30 pairs after the pilot: the pilot's 10 pairs ran a cold start (its first iteration in a process took at least twice the later ones");
    expect(r.stdout).toMatch(/regression/);
  });
});
