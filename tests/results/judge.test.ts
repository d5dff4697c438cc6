/**
 * Judging a results file again: a benchmark that a stopping rule ended (`precision`, `decided`)
 * gets the raised interval level that keeps its coverage; one that ran to its budget, or a file
 * with no stop reasons (another tool's), gets the plain interval, R's exactly.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge.ts';
import type { Results } from '../../src/results/schema.ts';
import { hodgesLehmann, logRatios } from '../../src/stats/index.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

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
