/** Property tests (fast-check) of judging's invariances. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg, hodgesLehmann, holm, judge, walshAveragesNaive, walshOrderStatistics, walshSelect, walshSelectPair } from '../../src/stats/index.ts';
import type { JudgeOptions, Pair } from '../../src/stats/types.ts';
import { prng } from './helpers.ts';
import { signrankLowerRank } from '../../src/stats/signrank.ts';

const opts: JudgeOptions = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' };
// Both sides of each comparison below have one benchmark name: with the seed, the name selects the
// sign-flip test's Monte Carlo draws, and the same draws are part of "the same judgement".

/** Positive run times, continuous (no exact ties), 1..80 pairs */
const pairsArb = fc
  .array(
    fc.record({
      base: fc.double({ min: 1, max: 1000, noNaN: true }),
      ratio: fc.double({ min: 0.5, max: 2, noNaN: true }),
      order: fc.constantFrom('base-first' as const, 'head-first' as const),
    }),
    { minLength: 1, maxLength: 80 },
  )
  .map((rows) => rows.map((r): Pair => ({ base: r.base, head: r.base * r.ratio, order: r.order })));

/** Quantized run times (many ties and zeros), as integer-valued metrics give */
const quantizedArb = fc
  .array(
    fc.record({ base: fc.integer({ min: 95, max: 105 }), head: fc.integer({ min: 95, max: 110 }), order: fc.constantFrom('base-first' as const, 'head-first' as const) }),
    { minLength: 1, maxLength: 60 },
  )
  .map((rows) => rows.map((r): Pair => ({ ...r })));

function close(a: number, b: number, tol = 1e-9): boolean {
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}

describe('properties of judge', () => {
  it('swapping base and head negates the log estimate and mirrors the interval', () => {
    fc.assert(
      fc.property(pairsArb, (pairs) => {
        const swapped = pairs.map((p): Pair => ({ base: p.head, head: p.base, order: p.order === 'base-first' ? 'head-first' : 'base-first' }));
        const a = judge([{ name: 'a', direction: 'lower-is-better', pairs }], opts).benchmarks[0]!.change!;
        const b = judge([{ name: 'a', direction: 'lower-is-better', pairs: swapped }], opts).benchmarks[0]!.change!;
        expect(close(Math.log1p(a.estimate), -Math.log1p(b.estimate))).toBe(true);
        expect(close(Math.log1p(a.ci[0]), -Math.log1p(b.ci[1]))).toBe(true);
        expect(close(Math.log1p(a.ci[1]), -Math.log1p(b.ci[0]))).toBe(true);
        expect(close(a.pValue, b.pValue)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('scaling all times by a constant leaves everything unchanged', () => {
    fc.assert(
      fc.property(pairsArb, fc.double({ min: 1e-3, max: 1e6, noNaN: true }), (pairs, c) => {
        const scaled = pairs.map((p): Pair => ({ base: p.base * c, head: p.head * c, order: p.order }));
        const a = judge([{ name: 'a', direction: 'lower-is-better', pairs }], opts).benchmarks[0]!;
        const b = judge([{ name: 'a', direction: 'lower-is-better', pairs: scaled }], opts).benchmarks[0]!;
        expect(close(a.change!.estimate, b.change!.estimate)).toBe(true);
        expect(close(a.change!.ci[0], b.change!.ci[0])).toBe(true);
        expect(close(a.change!.ci[1], b.change!.ci[1])).toBe(true);
        expect(close(a.change!.pValue, b.change!.pValue)).toBe(true);
        expect(b.verdict).toBe(a.verdict);
        expect(b.outliers).toEqual(a.outliers);
        expect(close(a.pairedCv, b.pairedCv, 1e-6)).toBe(true);
        expect(close(a.base.cv, b.base.cv, 1e-6)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('scaling by a power of two changes nothing at all, ties included', () => {
    fc.assert(
      fc.property(quantizedArb, fc.integer({ min: -20, max: 20 }), (pairs, e) => {
        const c = 2 ** e;
        const scaled = pairs.map((p): Pair => ({ base: p.base * c, head: p.head * c, order: p.order }));
        const a = judge([{ name: 'a', direction: 'lower-is-better', pairs }], opts).benchmarks[0]!;
        const b = judge([{ name: 'a', direction: 'lower-is-better', pairs: scaled }], opts).benchmarks[0]!;
        expect(b.change).toEqual(a.change);
        expect(b.verdict).toBe(a.verdict);
      }),
      { numRuns: 200 },
    );
  });

  it('the interval contains the estimate, ties and zeros included', () => {
    fc.assert(
      fc.property(fc.oneof(pairsArb, quantizedArb), fc.constantFrom(0.01, 0.05, 0.2), fc.constantFrom('tukey' as const, 'mad' as const, 'none' as const), (pairs, alpha, outliers) => {
        const c = judge([{ name: 'a', direction: 'lower-is-better', pairs }], { ...opts, alpha, outliers }).benchmarks[0]!.change!;
        expect(c.ci[0]).toBeLessThanOrEqual(c.estimate);
        expect(c.estimate).toBeLessThanOrEqual(c.ci[1]);
        expect(c.pValue).toBeGreaterThanOrEqual(0);
        expect(c.pValue).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('pAdjusted >= pValue, for Holm and BH across benchmarks', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(pairsArb, quantizedArb), { minLength: 1, maxLength: 6 }), fc.constantFrom('holm' as const, 'bh' as const), (sets, correction) => {
        const j = judge(
          sets.map((pairs, i) => ({ name: `b${i}`, direction: 'lower-is-better' as const, pairs })),
          { ...opts, correction },
        );
        for (const b of j.benchmarks) {
          expect(b.change!.pAdjusted).toBeGreaterThanOrEqual(b.change!.pValue);
          expect(b.change!.pAdjusted).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('properties of the corrections', () => {
  const pArb = fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.05, 1)), { minLength: 1, maxLength: 30 });

  it("Holm's adjusted values are monotone in the raw p-values, >= raw, <= 1", () => {
    fc.assert(
      fc.property(pArb, (p) => {
        const adj = holm(p);
        const idx = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
        for (let k = 1; k < idx.length; k++) expect(adj[idx[k]!]!).toBeGreaterThanOrEqual(adj[idx[k - 1]!]!);
        adj.forEach((a, i) => {
          expect(a).toBeGreaterThanOrEqual(p[i]!);
          expect(a).toBeLessThanOrEqual(1);
        });
      }),
    );
  });

  it('BH is monotone too, and never above Holm', () => {
    fc.assert(
      fc.property(pArb, (p) => {
        const bh = benjaminiHochberg(p);
        const h = holm(p);
        const idx = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
        for (let k = 1; k < idx.length; k++) expect(bh[idx[k]!]!).toBeGreaterThanOrEqual(bh[idx[k - 1]!]!);
        bh.forEach((a, i) => {
          expect(a).toBeGreaterThanOrEqual(p[i]!);
          expect(a).toBeLessThanOrEqual(h[i]! + 1e-15);
        });
      }),
    );
  });
});

describe('Walsh selection equals the full sort', () => {
  it('every rank, continuous and tied values', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 120 }), fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 120 })),
        (values) => {
          const x = Float64Array.from(values).sort();
          const all = walshAveragesNaive(x);
          const step = Math.max(1, Math.floor(all.length / 17));
          // + 0 makes -0 and +0 one value: two Walsh averages equal to 0 (of subnormals such as
          // 5e-324 and -1e-323) may carry either sign, and either is the right order statistic
          const z = (v: number | undefined) => (v === undefined ? v : v + 0);
          for (let k = 1; k <= all.length; k += step) expect(z(walshSelect(x, k))).toBe(z(all[k - 1]));
          expect(z(walshSelect(x, all.length))).toBe(z(all[all.length - 1]));
          if (all.length > 1) {
            const k = Math.floor(all.length / 2);
            expect(walshSelectPair(x, k).map(z)).toEqual([z(all[k - 1]), z(all[k])]);
          }
        },
      ),
      { numRuns: 300, examples: [[[0, 5e-324, -1e-323]]] },
    );
  });

  it('several ranks at once, both paths (listed and implicit), brackets and successors', () => {
    let a = 7;
    const rand = (): number => ((a = (a * 16807) % 2147483647), a / 2147483647);
    for (const [n, q] of [
      [300, 0],
      [600, 0],
      [650, 50],
    ] as const) {
      const x = Float64Array.from({ length: n }, () => (q ? Math.round(rand() * q) / q : rand() - 0.4)).sort();
      const all = walshAveragesNaive(x);
      const N = all.length;
      const mid = Math.floor(N / 2);
      const ranks = [Math.floor(N * 0.3), N + 1 - Math.floor(N * 0.3), mid, mid + 1, 1, N, Math.floor(N * 0.49)];
      expect(walshOrderStatistics(x, ranks)).toEqual(ranks.map((k) => all[k - 1]));
      // a bracket that does not hold the answer is ignored
      expect(walshSelect(x, 5, [all[N - 3]!, all[N - 1]!])).toBe(all[4]);
    }
  });

  it('large n (sampled passes) against the full sort', () => {
    const rand = (() => {
      let a = 42;
      return () => ((a = (a * 16807) % 2147483647), a / 2147483647);
    })();
    for (const [n, q] of [
      [700, 0],
      [900, 100],
      [1200, 3],
    ] as const) {
      const x = Float64Array.from({ length: n }, () => (q ? Math.round(rand() * q) / q : rand() - 0.3) ** 3).sort();
      const all = walshAveragesNaive(x);
      for (const k of [1, 2, 1000, Math.floor(all.length / 3), Math.floor(all.length / 2), all.length - 5, all.length]) expect(walshSelect(x, k)).toBe(all[k - 1]);
    }
  });
});

describe('the interval of heavily tied values keeps its confidence', () => {
  // Kept zeros tied at one end (a count equal in most pairs) take the closed interval at the ranks
  // of the untied signed-rank null (hodges-lehmann.ts, Noether 1967). Discrete data symmetric about
  // 0, mostly exact zeros: the 95% interval must cover 0 at least 95% of the time, give or take the
  // simulation's error, and the fallback must be reached often enough to be what is measured.
  it('covers the centre of a symmetric discrete distribution with most mass at 0, and is narrower than the range', () => {
    const rand = prng(20261202);
    let covered = 0;
    let tiedEnd = 0;
    let inside = 0;
    const trials = 3000;
    for (let t = 0; t < trials; t++) {
      const n = 20 + Math.floor(rand() * 100);
      const d = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const u = rand();
        d[i] = u < 0.03 ? -0.01 - 0.01 * Math.floor(rand() * 3) : u < 0.06 ? 0.01 + 0.01 * Math.floor(rand() * 3) : 0;
      }
      const hl = hodgesLehmann(d, 0.95, { zeros: 'keep' });
      if (hl.lower <= 0 && hl.upper >= 0) covered++;
      const nonZero = d.filter((v) => v !== 0);
      if (nonZero.length > 0 && (nonZero.every((v) => v > 0) || nonZero.every((v) => v < 0))) {
        tiedEnd++;
        // narrower than the range [min, max] that the fallback was before
        if (hl.lower > Math.min(...d) || hl.upper < Math.max(...d)) inside++;
      }
    }
    expect(tiedEnd).toBeGreaterThan(trials / 10);
    expect(inside / tiedEnd).toBeGreaterThan(0.5);
    // 3000 trials at 95%: the binomial SD is 0.4%; three of them below is 93.8%
    expect(covered / trials).toBeGreaterThanOrEqual(0.95 - 3 * Math.sqrt((0.95 * 0.05) / trials));
  });
});

describe('the ranks of the untied signed-rank null, at any n', () => {
  it('the normal approximation used above 600 values is conservative and close there', () => {
    // V is lighter-tailed than the normal (negative excess kurtosis), so the normal's tail at a
    // rank is the larger and the rank it picks the lower (at most one above, from the continuity
    // correction): the interval as wide or wider
    for (const n of [200, 400, 600]) {
      for (const p of [0.05, 0.025, 0.005, 0.0005, 0.00005]) {
        const exact = signrankLowerRank(p, n);
        const normal = signrankLowerRank(p, n, 0);
        expect(normal.rank).toBeLessThanOrEqual(exact.rank + 1);
        if (n === 600) expect(exact.rank - normal.rank).toBeLessThanOrEqual(exact.rank * 0.001);
        // the exact rank's tail is at most p and the next one's is above it
        expect(exact.tail).toBeLessThanOrEqual(p);
        expect(signrankLowerRank(p, n).rank).toBe(exact.rank);
      }
    }
    // small n reads the exact counts: R's qsignrank(0.025, 20) = 53, so the rank is 53
    expect(signrankLowerRank(0.025, 20).rank).toBe(53);
  });
});
