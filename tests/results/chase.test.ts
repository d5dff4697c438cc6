/**
 * A results file with a chased benchmark (src/stats/chase.ts): judged again, the chased benchmark
 * is judged on its fresh pairs alone and says so, every p-value carries its share of the error,
 * and a file without `settings.chaseShare` is judged on all the pairs as before.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge.ts';
import { mergeResults } from '../../src/results/merge.ts';
import type { Results } from '../../src/results/schema.ts';
import { writeResultsFile } from '../../src/results/writer.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { Pair } from '../../src/stats/types.ts';
import { pairbench } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

function pairs(n: number, change: number, noise: number, seed: number): Pair[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const machine = 1 + rng() * 0.2;
    return { base: 10 * machine * (1 + (rng() - 0.5) * noise), head: 10 * (1 + change) * machine * (1 + (rng() - 0.5) * noise), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
  });
}

/** Two benchmarks: `steady` (+1%, 40 pairs) and `chased` (20 pairs leaning +60% in wide noise, then 40 fresh pairs of +8%). */
function file(chaseShare: number | null): Results {
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { seed: 5, ...(chaseShare !== null ? { chaseShare } : {}) },
    benchmarks: [
      { name: 'steady', unit: 'ns', direction: 'lower-is-better', stoppedBecause: 'max-time', pairs: pairs(40, 0.01, 0.01, 1) },
      { name: 'chased', unit: 'ns', direction: 'lower-is-better', stoppedBecause: 'max-pairs', chase: { from: 20, pairs: 40, estimate: 0.6 }, pairs: [...pairs(20, 0.6, 1.5, 2), ...pairs(40, 0.08, 0.02, 3)] },
    ],
  };
}

const opts = { alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const, correction: 'holm' as const };

describe('judging a results file with a chased benchmark', () => {
  it('judges the chased benchmark on its fresh pairs alone, names them in a finding, and counts pair indices from the file', () => {
    const judged = judgeResults(file(0.2), opts);
    const chased = judged.benchmarks.find((b) => b.name === 'chased')!;
    expect(chased.verdict).toBe('regression');
    expect(chased.change!.estimate).toBeGreaterThan(0.06);
    expect(chased.change!.estimate).toBeLessThan(0.1);
    expect((chased.change as { n?: number }).n).toBeLessThanOrEqual(40);
    expect(chased.diagnostics).toContainEqual({ code: 'chased', severity: 'info', figures: { before: 20, fresh: 40, planned: 40, estimate: 0.6 } });
    for (const k of [...(chased.outliers ?? []), ...(chased.outliersKept ?? [])]) expect(k).toBeGreaterThanOrEqual(20);
    expect(renderTerminal(judged, { color: false })).toContain('Judged on its 40 fresh pairs alone: its first 20 pairs leaned +60.0%');
  });

  it('divides every p-value by its share of the error: ε for the chased, 1 - ε for the others', () => {
    const on = judgeResults(file(0.2), opts).benchmarks;
    const steady = on.find((b) => b.name === 'steady')!.change!;
    const chased = on.find((b) => b.name === 'chased')!.change!;
    // Holm over two: the smaller scaled p-value times 2, the larger at least that
    const scaled = [steady.pValue / 0.8, chased.pValue / 0.2];
    const adjusted = [steady.pAdjusted, chased.pAdjusted];
    const first = scaled[0]! <= scaled[1]! ? 0 : 1;
    expect(adjusted[first]).toBeCloseTo(Math.min(1, 2 * scaled[first]!), 12);
    expect(adjusted[1 - first]).toBeCloseTo(Math.min(1, Math.max(2 * scaled[first]!, scaled[1 - first]!)), 12);
  });

  it('without settings.chaseShare (a file from before, or another tool) judges every pair, as before', () => {
    const judged = judgeResults(file(null), opts);
    const chased = judged.benchmarks.find((b) => b.name === 'chased')!;
    expect((chased.change as { n?: number }).n).toBeGreaterThan(40);
    expect(chased.diagnostics!.some((f) => f.code === 'chased')).toBe(false);
  });

  it('merged shards keep the chase of any shard that had one, whichever file comes first', () => {
    const whole = file(0.2);
    const first: Results = { ...whole, settings: { seed: 5 }, shard: { index: 1, count: 2 }, benchmarks: [whole.benchmarks[0]!] };
    const second: Results = { ...whole, shard: { index: 2, count: 2 }, benchmarks: [whole.benchmarks[1]!] };
    const merged = mergeResults([first, second], ['1.json', '2.json']);
    expect(merged.settings!.chaseShare).toBe(0.2);
    const chased = judgeResults(merged, opts).benchmarks.find((b) => b.name === 'chased')!;
    expect((chased.change as { n?: number }).n).toBeLessThanOrEqual(40);
  });

  it('pairbench report judges the file again to the same verdicts, the share read from its settings', () => {
    const dir = tempDir();
    const path = join(dir, 'results.json');
    writeResultsFile(path, file(0.2));
    const out = join(dir, 'again.json');
    const r = pairbench(['report', path, '--out', out, '--fail-on', 'none'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('fresh pairs alone');
    const again = JSON.parse(readFileSync(out, 'utf8')) as Results;
    expect(again.settings!.chaseShare).toBe(0.2);
    expect(again.benchmarks.map((b) => b.verdict)).toEqual(judgeResults(file(0.2), opts).benchmarks.map((b) => b.verdict));
  });
});
