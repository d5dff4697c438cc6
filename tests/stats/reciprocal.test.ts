/**
 * A throughput computed from a time (Go's MB/s of its ns/op) is one measurement shown twice: it is
 * judged from its time, outside the correction's family (stats/judge.ts, `reciprocalRows`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judge, verdictOf } from '../../src/stats/index.ts';
import type { BenchmarkInput, JudgeOptions, Pair } from '../../src/stats/types.ts';
import { makePairs } from './helpers.ts';

const OPTS: JudgeOptions = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', seed: 3 };

/** MB/s of a time in ns/op for `bytes` per op, printed to two decimals as Go prints it (in B/s). */
const mbps = (ns: number, bytes: number): number => Math.round(((bytes * 1e3) / ns) * 100) * 1e4;

/** The time's row and its MB/s row, `headBytes` per op on head (a SetBytes of another input when it differs). */
function withThroughput(name: string, pairs: Pair[], bytes = 4096, headBytes = bytes): BenchmarkInput[] {
  return [
    { name, direction: 'lower-is-better', pairs },
    { name: `${name} (MB/s)`, direction: 'higher-is-better', reciprocalOf: name, pairs: pairs.map((p) => ({ base: mbps(p.base, bytes), head: mbps(p.head, headBytes), order: p.order })) },
  ];
}

/**
 * A suite of `n` benchmarks of 10 pairs each (few enough for the test's exact null distribution, so
 * that a p-value does not depend on how many Monte Carlo draws a suite of that size gets), the
 * first `changed` of them 15% slower on head, per-run noise 2%.
 */
function suite(n: number, changed: number, seed = 1): Array<{ name: string; pairs: Pair[] }> {
  return Array.from({ length: n }, (_, i) => ({ name: `Benchmark${i}`, pairs: makePairs({ n: 10, change: i < changed ? 0.15 : 0, noise: 0.02, seed: seed + i, base: 2000 + 100 * i }) }));
}

describe('a throughput judged from its time', () => {
  it('leaves the times judged exactly as without their throughputs: the same family, the same adjusted p-values and verdicts', () => {
    const times = suite(8, 3).map((b) => ({ ...b, direction: 'lower-is-better' as const }));
    const alone = judge(times, OPTS);
    const both = judge(
      times.flatMap((b) => withThroughput(b.name, b.pairs)),
      OPTS,
    );
    for (const [i, t] of alone.benchmarks.entries()) {
      const again = both.benchmarks[2 * i]!;
      expect(again.change!.method).toBe('exact');
      expect(again.change!.pAdjusted).toBe(t.change!.pAdjusted);
      expect(again.change!.ci).toEqual(t.change!.ci);
      expect(again.verdict).toBe(t.verdict);
    }
    expect(alone.benchmarks.slice(0, 3).every((b) => b.verdict === 'regression')).toBe(true);
  });

  it("carries its time's p-value and intervals over by 1/(1 + x) - 1, with the outliers and no findings of its own", () => {
    const [time, throughput] = judge(withThroughput('BenchmarkParse', makePairs({ n: 40, change: 0.08, noise: 0.03, seed: 9 })), OPTS).benchmarks;
    const t = time!.change!;
    const m = throughput!.change!;
    expect(m.readFrom).toBe('BenchmarkParse');
    expect(m.pValue).toBe(t.pValue);
    expect(m.pAdjusted).toBe(t.pAdjusted);
    expect(m.estimate).toBeCloseTo(1 / (1 + t.estimate) - 1, 12);
    expect(m.ci[0]).toBeCloseTo(1 / (1 + t.ci[1]) - 1, 12);
    expect(m.ci[1]).toBeCloseTo(1 / (1 + t.ci[0]) - 1, 12);
    expect(time!.verdict).toBe('regression');
    // a throughput 7.4% lower is the same regression, higher being better
    expect(throughput!.verdict).toBe('regression');
    expect(throughput!.outliers).toEqual(time!.outliers);
    expect(throughput!.diagnostics).toEqual([]);
  });

  it('judges a throughput on its own, in the family, when the bytes per operation changed between the sides', () => {
    const pairs = makePairs({ n: 30, change: 0.05, noise: 0.02, seed: 4 });
    // head processes 5% more bytes per operation in 5% more time: the same throughput
    const [time, throughput] = judge(withThroughput('BenchmarkHash', pairs, 4096, 4096 * 1.05), OPTS).benchmarks;
    expect(throughput!.change!.readFrom).toBeUndefined();
    expect(time!.verdict).toBe('regression');
    expect(Math.abs(throughput!.change!.estimate)).toBeLessThan(0.01);
    expect(throughput!.verdict).not.toBe('regression');
    // two in the family: Holm doubles the smallest p-value
    const alone = judge([{ name: 'BenchmarkHash', direction: 'lower-is-better', pairs }], OPTS).benchmarks[0]!;
    expect(time!.change!.pAdjusted).toBeCloseTo(Math.min(1, 2 * alone.change!.pValue), 12);
  });

  it('judges a row that names a missing result, or that lost pairs its time has, on its own', () => {
    const pairs = makePairs({ n: 24, noise: 0.02, seed: 5 });
    const [, orphan] = judge([{ name: 'A', direction: 'lower-is-better', pairs }, { name: 'B (MB/s)', direction: 'higher-is-better', reciprocalOf: 'B', pairs }], OPTS).benchmarks;
    expect(orphan!.change!.readFrom).toBeUndefined();
    const [time, ...rest] = withThroughput('C', pairs);
    const shorter = { ...rest[0]!, pairs: rest[0]!.pairs.slice(1) };
    expect(judge([time!, shorter], OPTS).benchmarks[1]!.change!.readFrom).toBeUndefined();
  });

  it('never shows an interval that contradicts its verdict, and rejects exactly when its time does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.double({ min: -0.08, max: 0.08, noNaN: true }), fc.integer({ min: 8, max: 60 }), (seed, change, n) => {
        const pairs = makePairs({ n, change, noise: 0.03, seed });
        const [time, throughput] = judge(withThroughput('B', pairs), OPTS).benchmarks;
        expect(throughput!.change!.readFrom).toBe('B');
        expect(throughput!.verdict).toBe(verdictOf(throughput!.change, throughput!.threshold, 'higher-is-better'));
        const significant = (ci: [number, number]) => ci[0] > 0 || ci[1] < 0;
        if (time!.change!.basis === undefined && throughput!.change!.basis === undefined) expect(significant(throughput!.change!.ci)).toBe(significant(time!.change!.ci));
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});
