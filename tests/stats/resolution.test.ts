/**
 * Times printed in coarse steps (src/stats/resolution.ts): the step read from the values, and a
 * benchmark whose step is a material share of the threshold called `unchanged` only within the
 * threshold less one step, with the finding `coarse-resolution`, in the judgement, the stopping
 * rule and the words of the report. The pairs of the first test are the ones Criterion printed
 * (`--output-format bencher`, whole nanoseconds) for base64's `encode/50`, A/A.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { resolutionOf, unchangedMargin } from '../../src/stats/resolution.ts';
import { stopCheck } from '../../src/stats/stop.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

const OPTIONS = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' } as const;

/** base64's encode/50 under Criterion, A/A: 8 pairs of whole nanoseconds. */
const ENCODE_50: Array<[number, number]> = [[46, 45], [45, 45], [46, 46], [46, 46], [45, 45], [45, 45], [45, 45], [46, 45]];

function row(name: string, values: ReadonlyArray<readonly [number, number]>, unit = 'ns'): BenchmarkResult {
  return { name, unit, direction: 'lower-is-better', pairs: values.map(([base, head], i) => ({ base, head, order: i % 2 === 0 ? ('base-first' as const) : ('head-first' as const) })) };
}

function results(rows: BenchmarkResult[]): Results {
  return { schemaVersion: 1, base: { ref: 'main', sha: 'a'.repeat(40) }, head: { ref: 'pr', sha: 'b'.repeat(40) }, benchmarks: rows };
}

/** `n` pairs around `center`, spread by `noise` a run, printed with `digits` decimals. */
function printed(center: number, noise: number, n: number, digits: number, seed: number): Array<[number, number]> {
  const rng = mulberry32(seed);
  const round = (x: number) => Number(x.toFixed(digits));
  return Array.from({ length: n }, () => [round(center * (1 + noise * (rng() - 0.5))), round(center * (1 + noise * (rng() - 0.5)))]);
}

const pairsOf = (values: ReadonlyArray<readonly [number, number]>) => values.map(([base, head]) => ({ base, head }));
const coarse = (b: BenchmarkResult) => b.diagnostics?.find((d) => d.code === 'coarse-resolution');

describe('the step of printed values', () => {
  it('is the largest power of ten dividing every value of both sides, as a share of the smallest', () => {
    expect(resolutionOf(pairsOf(ENCODE_50))).toEqual({ step: 1, smallest: 45, share: 1 / 45 });
    // Go prints four significant figures: 45.23 ns/op moves in hundredths
    expect(resolutionOf(pairsOf([[45.23, 45.31], [45.2, 46]]))!.step).toBe(0.01);
    // whole milliseconds, written in nanoseconds
    expect(resolutionOf(pairsOf([[3_000_000, 4_000_000], [3_000_000, 3_000_000]]))).toEqual({ step: 1_000_000, smallest: 3_000_000, share: 1 / 3 });
    // a clock's fractions: no step worth a finding
    expect(resolutionOf(pairsOf([[45.123456, 45.2], [45.0001, 45.7]]))).toBeNull();
    expect(resolutionOf([])).toBeNull();
    expect(unchangedMargin(0.02, { step: 1, smallest: 200, share: 0.005 })).toBeCloseTo(0.015, 12);
    expect(unchangedMargin(0.02, { step: 1, smallest: 45, share: 1 / 45 })).toBe(0);
    expect(unchangedMargin(0.02, null)).toBe(0.02);
  });
});

describe('a time printed in steps', () => {
  it('one step beyond the threshold: never unchanged, no count of pairs promised, and the finding says why in both surfaces', () => {
    const b = judgeResults(results([row('encode/50', ENCODE_50)]), OPTIONS).benchmarks[0]!;
    expect(b.verdict).toBe('inconclusive');
    expect(b.pairsToSettle ?? null).toBeNull();
    const d = coarse(b)!;
    expect(d).toMatchObject({ severity: 'warning', figures: { step: 1, smallest: 45, held: true, unit: 'ns', threshold: 0.02 } });
    expect(wordDiagnostic(d, 'cli')).toContain('printed in steps of 1 ns, and the smallest is 45 ns: one step is 2.2% of it');
    expect(wordDiagnostic(d, 'cli')).toContain('so it is never called unchanged');
    expect(wordDiagnostic(d, 'cli')).toContain('--format criterion');
    expect(wordDiagnostic(d, 'action')).toContain('format: criterion');
    // the same pairs printed in a unit with no step (fractions kept) are unchanged: the step held it back
    const fine = ENCODE_50.map(([x, y]) => [x + 0.123457, y + 0.123457] as const);
    const unstepped = judgeResults(results([row('encode/50', fine)]), OPTIONS).benchmarks[0]!;
    expect(unstepped.verdict).toBe('unchanged');
    expect(coarse(unstepped)).toBeUndefined();
  });

  it('a step of a quarter of the threshold or more: unchanged only within the threshold less a step, and said', () => {
    // whole nanoseconds at about 200 ns: a step of 0.5%; 40 pairs spread 0.6% a run
    const values = printed(200, 0.006, 40, 0, 7);
    const b = judgeResults(results([row('decode/500', values)]), OPTIONS).benchmarks[0]!;
    expect(b.verdict).toBe('unchanged');
    const [lower, upper] = b.change!.ci;
    const share = coarse(b)!.figures!['share'] as number;
    expect(share).toBeGreaterThanOrEqual(0.005);
    expect(lower).toBeGreaterThanOrEqual(-(0.02 - share));
    expect(upper).toBeLessThanOrEqual(0.02 - share);
    expect(coarse(b)).toMatchObject({ severity: 'info', figures: { held: false } });
    expect(wordDiagnostic(coarse(b)!, 'cli')).toMatch(/It is called unchanged only when its interval lies within ±1\.\d%, the threshold less one step\./);
  });

  it('held back where the interval is within the threshold but not within a step of it', () => {
    // whole nanoseconds at 100 ns (a step of 1%), head about 2.3% slower, at a threshold of 3%: an
    // interval within ±3% but not within ±2%
    const rng = mulberry32(3);
    const values = Array.from({ length: 30 }, () => [100 + (rng() < 0.2 ? 1 : 0), 102 + (rng() < 0.4 ? 1 : 0)] as const);
    const b = judgeResults(results([row('decode/50', values)]), { ...OPTIONS, threshold: 0.03 }).benchmarks[0]!;
    const stepless = judgeResults(results([row('decode/50', values.map(([x, y]) => [x + 0.0001234, y + 0.0001234] as const))]), { ...OPTIONS, threshold: 0.03 }).benchmarks[0]!;
    expect(stepless.verdict).toBe('unchanged');
    expect(Math.max(Math.abs(stepless.change!.ci[0]), Math.abs(stepless.change!.ci[1]))).toBeGreaterThan(0.03 - 0.01);
    expect(b.verdict).toBe('inconclusive');
    expect(coarse(b)).toMatchObject({ severity: 'warning', figures: { held: true } });
    expect(wordDiagnostic(coarse(b)!, 'cli')).toContain('the threshold less one step, and this one does not.');
    // the row shows the test's interval, as every inconclusive row does, and a count of pairs
    expect(b.change!.basis).toBeUndefined();
    expect(b.pairsToSettle).toBeGreaterThan(30);
  });

  it('a fine step changes nothing and says nothing: Go at four significant figures, whole nanoseconds past a microsecond', () => {
    for (const [values, name] of [[printed(45.5, 0.004, 20, 2, 11), 'go'], [printed(1458, 0.004, 20, 0, 12), 'bencher']] as const) {
      const b = judgeResults(results([row(name, values)]), OPTIONS).benchmarks[0]!;
      expect(b.verdict, name).toBe('unchanged');
      expect(coarse(b), name).toBeUndefined();
    }
  });

  it('a throughput read from a time held back is held back with it', () => {
    const time = row('enc/50', ENCODE_50);
    // MB/s of 50 bytes an iteration, read from the same runs (Criterion's throughput)
    const rate: BenchmarkResult = { name: 'enc/50 (MB/s)', unit: 'MB/s', direction: 'higher-is-better', reciprocalOf: 'enc/50', pairs: time.pairs.map((p) => ({ base: 50_000 / p.base, head: 50_000 / p.head, order: p.order })) };
    const [t, r] = judgeResults(results([time, rate]), OPTIONS).benchmarks;
    expect(t!.verdict).toBe('inconclusive');
    expect(r!.verdict).toBe('inconclusive');
  });

  it('counts and sizes are what they print: no step is read from allocs/op or B/op', () => {
    const allocs = judgeResults(results([row('BenchmarkA (allocs/op)', [[3, 3], [3, 3], [3, 3], [3, 3], [3, 3], [3, 3], [3, 3], [3, 3]], 'allocs/op')]), OPTIONS).benchmarks[0]!;
    expect(coarse(allocs)).toBeUndefined();
    const bytes = judgeResults(results([row('BenchmarkA (B/op)', [[48, 48], [48, 48], [48, 48], [48, 48], [48, 48], [48, 48], [48, 48], [48, 48]], 'B')]), OPTIONS).benchmarks[0]!;
    expect(coarse(bytes)).toBeUndefined();
  });

  it('the stopping rule does not stop a row decided unchanged that the judgement would hold back', () => {
    // 60 pairs of 45 ns, every one equal: the betting test reads them as no change
    const pairs = Array.from({ length: 60 }, (_, i) => ({ base: 45, head: 45, order: i % 2 === 0 ? ('base-first' as const) : ('head-first' as const) }));
    const opts = { minPairs: 5, maxPairs: 200, precision: 0.005, alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const };
    expect(stopCheck(pairs, opts)).toMatchObject({ stop: true, reason: 'decided', decision: 'unchanged' });
    const held = stopCheck(pairs, { ...opts, resolution: resolutionOf(pairs) });
    expect(held.decision === 'unchanged' && held.reason === 'decided').toBe(false);
  });
});
