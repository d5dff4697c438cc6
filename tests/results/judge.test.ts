/**
 * Judging a results file again: a benchmark that a stopping rule ended (`precision`, `decided`)
 * gets the raised interval level that keeps its coverage; one that ran to its budget, or a file
 * with no stop reasons (another tool's), gets the plain interval, R's exactly. The test of no
 * change is recorded per benchmark (`change.test`) and follows the outlier rule judged with.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import { readResultsFile } from '../../src/results/read.ts';
import type { Results } from '../../src/results/schema.ts';
import { writeResultsFile } from '../../src/results/writer.ts';
import { drawsFor, hodgesLehmann, logRatios, signFlipSeed, signFlipTest, wilcoxonSignedRank } from '../../src/stats/index.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import { pairbench, resultsOf } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

function results(stoppedBecause: (string | undefined)[]): Results {
  const rng = mulberry32(99);
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    benchmarks: stoppedBecause.map((why, i) => ({
      name: `b${i}`,
      unit: 'ms',
      direction: 'lower-is-better' as const,
      ...(why ? { stoppedBecause: why } : {}),
      pairs: Array.from({ length: 20 }, () => {
        const machine = 1 + rng() * 0.2;
        return { base: 10 * machine * (1 + (rng() - 0.5) * 0.03), head: 10.2 * machine * (1 + (rng() - 0.5) * 0.03), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
      }),
    })),
  };
}

describe('judgeResults: the interval level follows the stop reason', () => {
  it('precision and decided stops raise the level to 1 - alpha/2; max-pairs and no reason keep 1 - alpha', () => {
    const r = results(['precision', 'decided', 'max-pairs', undefined]);
    const judged = judgeResults(r, { alpha: 0.05, threshold: 0.02, outliers: 'none', correction: 'holm' });
    const levels = judged.benchmarks.map((b) => b.change?.level ?? b.change?.confidence);
    expect(levels[0]).toBeCloseTo(0.975, 12);
    expect(levels[1]).toBeCloseTo(0.975, 12);
    expect(levels[2]).toBe(0.95);
    expect(levels[3]).toBe(0.95);
    judged.benchmarks.forEach((b, i) => {
      const hl = hodgesLehmann(Array.from(logRatios(r.benchmarks[i]!.pairs)), levels[i]!, { zeros: 'keep' });
      expect(b.change!.ci[0]).toBeCloseTo(Math.expm1(hl.lower), 14);
      expect(b.change!.ci[1]).toBeCloseTo(Math.expm1(hl.upper), 14);
      expect(b.change!.confidence).toBe(0.95);
    });
  });
});

describe('judgeResults: judging again with another threshold', () => {
  // A +5% change in every pair, little noise: a regression at 2%, unchanged at 10%.
  function fivePercent(threshold?: number): Results {
    const rng = mulberry32(7);
    return {
      schemaVersion: 1,
      base: { ref: 'main', sha: 'a'.repeat(40) },
      head: { ref: 'pr', sha: 'b'.repeat(40) },
      settings: { alpha: 0.05, threshold: 0.02 },
      benchmarks: ['own', 'global'].map((name) => ({
        name,
        unit: 'ms',
        direction: 'lower-is-better' as const,
        ...(name === 'own' && threshold !== undefined ? { threshold } : {}),
        pairs: Array.from({ length: 30 }, () => {
          const machine = 1 + rng() * 0.2;
          return { base: 10 * machine * (1 + (rng() - 0.5) * 0.002), head: 10.5 * machine * (1 + (rng() - 0.5) * 0.002), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
        }),
      })),
    };
  }
  const opts = { alpha: 0.05, outliers: 'none' as const, correction: 'holm' as const };

  it('a file judged at 2% and judged again at 10% follows the new threshold', () => {
    const first = judgeResults(fivePercent(), { ...opts, threshold: 0.02 });
    expect(first.benchmarks.map((b) => b.verdict)).toEqual(['regression', 'regression']);
    const again = judgeResults(JSON.parse(JSON.stringify(first)) as Results, { ...opts, threshold: 0.1 });
    expect(again.settings?.['threshold']).toBe(0.1);
    expect(again.benchmarks.map((b) => b.verdict)).toEqual(['unchanged', 'unchanged']);
    expect(again.verdict).toBe('unchanged');
  });

  it("a benchmark's own threshold (config) still wins over the global one, judged again or not", () => {
    const first = judgeResults(fivePercent(0.08), { ...opts, threshold: 0.02 });
    expect(first.benchmarks.map((b) => b.verdict)).toEqual(['unchanged', 'regression']);
    expect(first.benchmarks[0]!.threshold).toBe(0.08);
    const again = judgeResults(JSON.parse(JSON.stringify(first)) as Results, { ...opts, threshold: 0.01 });
    expect(again.benchmarks.map((b) => b.verdict)).toEqual(['unchanged', 'regression']);
    const wider = judgeResults(JSON.parse(JSON.stringify(again)) as Results, { ...opts, threshold: 0.1 });
    expect(wider.benchmarks.map((b) => b.verdict)).toEqual(['unchanged', 'unchanged']);
    expect(wider.benchmarks[0]!.threshold).toBe(0.08);
  });
});

describe('judgeResults: the test of no change is recorded per benchmark (change.test)', () => {
  const opts = { alpha: 0.05, threshold: 0.02, correction: 'holm' as const };
  type Recorded = { settings: { outliers: string }; benchmarks: { change: { test?: string; pValue: number } }[] };

  it('an outlier screen is judged by the sign-flip test, --outliers none by the signed-rank test: the recorded test is the one whose p-value each row holds', () => {
    const r = results([undefined, 'max-pairs', undefined]);
    const screened = judgeResults(r, { ...opts, outliers: 'tukey' });
    const plain = judgeResults(r, { ...opts, outliers: 'none' });
    r.benchmarks.forEach((b, i) => {
      const d = logRatios(b.pairs);
      expect(screened.benchmarks[i]!.change!.test).toBe('sign-flip');
      expect(screened.benchmarks[i]!.change!.pValue).toBe(signFlipTest(d, { outliers: 'tukey', seed: signFlipSeed(0, b.name), draws: drawsFor(r.benchmarks.length, 0.05) }).p);
      expect(plain.benchmarks[i]!.change!.test).toBe('signed-rank');
      expect(plain.benchmarks[i]!.change!.pValue).toBe(wilcoxonSignedRank(d).pValue);
    });
    expect(judgeResults(r, { ...opts, outliers: 'mad' }).benchmarks.map((b) => b.change!.test)).toEqual(['sign-flip', 'sign-flip', 'sign-flip']);
  });

  it.each(['tukey', 'none'] as const)('a file judged with --outliers %s and judged again by pairbench report keeps its test and p-values; --outliers given to report changes both', (outliers) => {
    const first = judgeResults(results([undefined, 'precision']), { ...opts, outliers });
    expect(first.benchmarks.map((b) => b.change!.test)).toEqual(outliers === 'none' ? ['signed-rank', 'signed-rank'] : ['sign-flip', 'sign-flip']);
    const file = join(tempDir('pairbench-test-kind-'), 'results.json');
    writeResultsFile(file, first);
    const read = readResultsFile(file);
    expect(read.benchmarks.map((b) => b.change?.test)).toEqual(first.benchmarks.map((b) => b.change!.test));
    const res = pairbench(['report', file, '--json']);
    expect([0, 1], res.stderr).toContain(res.status);
    const again = resultsOf(res.stdout) as unknown as Recorded;
    expect(again.settings.outliers).toBe(outliers);
    expect(again.benchmarks.map((b) => b.change)).toEqual(first.benchmarks.map((b) => expect.objectContaining({ test: b.change!.test, pValue: b.change!.pValue })));
    const other = outliers === 'none' ? 'tukey' : 'none';
    const switched = resultsOf(pairbench(['report', file, '--json', '--outliers', other]).stdout) as unknown as Recorded;
    expect(switched.benchmarks.map((b) => b.change.test)).toEqual(other === 'none' ? ['signed-rank', 'signed-rank'] : ['sign-flip', 'sign-flip']);
  });

  it('a file written before the test was recorded still reads, and is judged with the test its outlier rule implies', () => {
    const first = judgeResults(results([undefined, 'max-pairs']), { ...opts, outliers: 'none' });
    const older: Results = { ...first, benchmarks: first.benchmarks.map((b) => ({ ...b, change: (({ test: _test, ...rest }) => rest)(b.change!) })) };
    const file = join(tempDir('pairbench-test-kind-'), 'older.json');
    writeResultsFile(file, older);
    const read = readResultsFile(file);
    expect(read.benchmarks.map((b) => b.change && 'test' in b.change)).toEqual([false, false]);
    expect(read.benchmarks.map((b) => b.change?.pValue)).toEqual(first.benchmarks.map((b) => b.change!.pValue));
    expect(judgeResults(read, { ...opts, outliers: 'none' }).benchmarks.map((b) => b.change!.test)).toEqual(['signed-rank', 'signed-rank']);
    const res = pairbench(['report', file, '--json']);
    expect([0, 1], res.stderr).toContain(res.status);
    expect((resultsOf(res.stdout) as unknown as Recorded).benchmarks.map((b) => b.change.test)).toEqual(['signed-rank', 'signed-rank']);
  });
});
