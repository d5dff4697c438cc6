import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DRAWS,
  LARGE_N,
  ScreenedSignedRank,
  drawsFor,
  screenedIntervalLevel,
  screenedTest,
  signFlipSeed,
  signFlipTest,
} from '../../src/stats/signflip.ts';
import { screenOutliers } from '../../src/stats/outliers.ts';
import { signedRankSum, signrankCumulativeCounts, wilcoxonSignedRank } from '../../src/stats/signrank.ts';
import { logRatios } from '../../src/stats/analysis.ts';
import { judge } from '../../src/stats/judge.ts';
import type { OutlierRule, Pair } from '../../src/stats/types.ts';
import { gaussian, makePairs, prng } from './helpers.ts';

/** ln of a run on a machine that runs in bursts: 30% of runs slowed by 20% x Exp(1), 1% noise. */
function burstyRun(rand: () => number, z: () => number): number {
  return Math.log(rand() < 0.3 ? 1 - 0.2 * Math.log(1 - rand()) : 1) + 0.01 * z();
}

/** A/A log-ratios on the bursty machine, coin-flip order (the order does not matter for d's law). */
function burstyD(n: number, rand: () => number, shift = 0): Float64Array {
  const z = gaussian(rand);
  return Float64Array.from({ length: n }, () => burstyRun(rand, z) - burstyRun(rand, z) + shift);
}

/** The brute-force statistic: the screen by `screenOutliers`, the ranks by `signedRankSum`. */
function bruteT(x: Float64Array, rule: OutlierRule, minKept = 0): { t: number; v: number; n: number } {
  const excluded = new Set(screenOutliers(x, rule, undefined, minKept).excluded);
  const kept = Array.from(x).filter((_, i) => !excluded.has(i));
  const r = signedRankSum(kept);
  const sigma = Math.sqrt((r.n * (r.n + 1) * (2 * r.n + 1)) / 24 - r.tieSum / 48);
  const t = r.n === 0 || !(sigma > 0) ? 0 : Math.abs((r.v - (r.n * (r.n + 1)) / 4) / sigma);
  return { t, v: r.v, n: r.n };
}

/** The test's combined statistic by brute force: the larger of the screened |z| and the |z| of every non-zero value. */
function bruteCombined(x: Float64Array, rule: OutlierRule, minKept = 0): number {
  const r = signedRankSum(Array.from(x));
  const sigma = Math.sqrt((r.n * (r.n + 1) * (2 * r.n + 1)) / 24 - r.tieSum / 48);
  const all = r.n === 0 || !(sigma > 0) ? 0 : Math.abs((r.v - (r.n * (r.n + 1)) / 4) / sigma);
  return Math.max(bruteT(x, rule, minKept).t, all);
}

/** p by listing every sign pattern of x and applying the brute-force combined statistic to each. */
function bruteExactP(d: Float64Array, rule: OutlierRule): number {
  const nz = Array.from(d).filter((v) => v !== 0);
  const zeros = d.length - nz.length;
  const obs = bruteCombined(d, rule);
  let hits = 0;
  const total = 2 ** nz.length;
  for (let k = 0; k < total; k++) {
    const x = new Float64Array(d.length);
    nz.forEach((v, i) => (x[i] = (k >>> i) & 1 ? -Math.abs(v) : Math.abs(v)));
    // zeros at the end: the screen and ranks do not depend on the order of the values
    for (let i = 0; i < zeros; i++) x[nz.length + i] = 0;
    if (bruteCombined(x, rule) >= obs - 1e-9 * Math.max(1, obs)) hits++;
  }
  return hits / total;
}


/** Simulations of thousands of tests: room for a loaded machine (no timing is asserted). */
const HEAVY = 600_000;

describe('sign-flip test with the outlier screen inside the statistic', () => {
  it('the O(n) statistic equals the screen of screenOutliers and the ranks of signedRankSum, pattern by pattern', () => {
    const rand = prng(11);
    for (let t = 0; t < 600; t++) {
      const n = 3 + Math.floor(rand() * 50);
      // coarse rounding makes ties, some exact zeros
      const d = burstyD(n, rand).map((v) => (rand() < 0.1 ? 0 : Math.round(v * 300) / 300));
      for (const rule of ['tukey', 'mad', 'none'] as const) {
        const k = new ScreenedSignedRank(d, rule);
        const s = Int8Array.from(k.observed, (x) => (rand() < 0.5 ? -x : x));
        const x = new Float64Array(n);
        k.a.forEach((a, i) => (x[i] = a * (s[i] as number)));
        const ref = bruteT(x, rule);
        expect(k.evaluate(s)).toBeCloseTo(ref.t, 12);
        expect(k.lastV).toBe(ref.v);
        expect(k.lastN).toBe(ref.n);
        // the test's statistic: the larger of that and the unscreened one
        const c = new ScreenedSignedRank(d, rule, 'two-sided', true);
        expect(c.evaluate(s)).toBeCloseTo(bruteCombined(x, rule), 12);
        expect(c.lastScreened).toBeCloseTo(ref.t, 12);
        // a floor of kept pairs (judge.ts, minKeptFor): the same cap as screenOutliers applies
        const minKept = Math.floor(rand() * (n + 1));
        const f = new ScreenedSignedRank(d, rule, 'two-sided', true, minKept);
        const capped = bruteT(x, rule, minKept);
        expect(f.evaluate(s)).toBeCloseTo(bruteCombined(x, rule, minKept), 12);
        expect(f.lastN).toBe(capped.n);
        expect(f.lastV).toBe(capped.v);
      }
    }
  });

  it('exact enumeration matches the brute-force reference (every pattern through screenOutliers)', () => {
    const rand = prng(5);
    for (let t = 0; t < 40; t++) {
      const n = 4 + Math.floor(rand() * 7);
      const d = burstyD(n, rand).map((v) => (rand() < 0.08 ? 0 : Math.round(v * 500) / 500));
      for (const rule of ['tukey', 'mad'] as const) {
        const r = signFlipTest(d, { outliers: rule });
        expect(r.exact).toBe(true);
        expect(r.method).toBe('exact');
        expect(r.pMonteCarloError).toBe(0);
        expect(r.p).toBe(bruteExactP(d, rule));
      }
    }
  });

  it('without a screen, the enumerated statistic is distributed as the exact signed-rank V (csignrank)', () => {
    // every pattern of n untied sizes: the counts of V must be the generating function's
    for (const n of [5, 8, 11]) {
      const d = Float64Array.from({ length: n }, (_, i) => (i + 1) * 0.01);
      const k = new ScreenedSignedRank(d, 'none');
      const counts = new Float64Array((n * (n + 1)) / 2 + 1);
      const s = new Int8Array(n);
      for (let p = 0; p < 2 ** n; p++) {
        for (let i = 0; i < n; i++) s[i] = (p >>> i) & 1 ? -1 : 1;
        k.evaluate(s);
        counts[k.lastV] = (counts[k.lastV] as number) + 1;
      }
      const cum = signrankCumulativeCounts(n);
      let acc = 0;
      counts.forEach((c, v) => {
        acc += c;
        expect(acc).toBe(cum[v]);
      });
    }
  });

  it('without a screen, the p-value is the exact signed-rank test (R: wilcox.test exact), n <= 10', () => {
    const rand = prng(8);
    for (let t = 0; t < 50; t++) {
      const n = 3 + Math.floor(rand() * 8);
      const d = burstyD(n, rand);
      const r = signFlipTest(d, { outliers: 'none' });
      const w = wilcoxonSignedRank(d);
      expect(w.method).toBe('exact');
      expect(r.p).toBeCloseTo(w.pValue, 14);
    }
  });

  it('without a screen, the Monte Carlo p-value is within 4 standard errors of the exact signed-rank p (n = 30)', () => {
    const rand = prng(9);
    for (let t = 0; t < 20; t++) {
      const d = burstyD(30, rand, 0.02 * rand());
      const r = signFlipTest(d, { outliers: 'none', seed: t, draws: 4000 });
      const w = wilcoxonSignedRank(d);
      expect(r.method).toBe('monte-carlo');
      expect(Math.abs(r.p - w.pValue)).toBeLessThan(4 * r.pMonteCarloError + 1 / 4001);
    }
  });

  it('A/A on the bursty machine: Monte Carlo p-values are uniform or conservative (Tukey screen, n = 40)', () => {
    const rand = prng(2024);
    const trials = 2000;
    const ps: number[] = [];
    for (let t = 0; t < trials; t++) ps.push(signFlipTest(burstyD(40, rand), { seed: t }).p);
    for (const u of [0.01, 0.05, 0.1, 0.25, 0.5]) {
      const rate = ps.filter((p) => p <= u).length / trials;
      expect(rate).toBeLessThan(u + 2.6 * Math.sqrt((u * (1 - u)) / trials));
    }
    // and not uselessly conservative: about u, not far below
    expect(ps.filter((p) => p <= 0.5).length / trials).toBeGreaterThan(0.44);
  }, HEAVY);

  it('A/A on the bursty machine: the exact enumeration keeps the level at n = 10', () => {
    const rand = prng(77);
    const trials = 1500;
    let sig = 0;
    for (let t = 0; t < trials; t++) {
      const r = signFlipTest(burstyD(10, rand));
      expect(r.exact).toBe(true);
      if (r.p <= 0.05) sig++;
    }
    expect(sig / trials).toBeLessThan(0.05 + 2.6 * Math.sqrt((0.05 * 0.95) / trials));
  }, HEAVY);

  it('detects a real change: a 5% shift at 60 bursty pairs gives p below 0.01 in most samples', () => {
    const rand = prng(3);
    let detected = 0;
    for (let t = 0; t < 50; t++) if (signFlipTest(burstyD(60, rand, Math.log(1.05)), { seed: t }).p < 0.01) detected++;
    expect(detected).toBeGreaterThan(40);
  });

  it('the smallest Monte Carlo p-value is 1 / (M + 1) (Phipson & Smyth), never 0', () => {
    const d = Float64Array.from({ length: 40 }, (_, i) => 0.05 + 0.001 * i);
    const r = signFlipTest(d, { draws: 999, seed: 1 });
    expect(r.method).toBe('monte-carlo');
    expect(r.draws).toBe(999);
    expect(r.p).toBe(1 / 1000);
  });

  it('one-sided alternatives: all positive is significant for greater, not for less', () => {
    const d = Float64Array.from({ length: 10 }, (_, i) => 0.01 * (i + 1));
    expect(signFlipTest(d, { alternative: 'greater' }).p).toBe(1 / 1024);
    expect(signFlipTest(d, { alternative: 'less' }).p).toBe(1);
    expect(signFlipTest(d).p).toBe(2 / 1024);
  });

  it('seeded: the same seed replays the same p-value, another seed draws other patterns', () => {
    const d = burstyD(80, prng(4));
    const a = signFlipTest(d, { seed: 42 });
    const b = signFlipTest(d, { seed: 42 });
    expect(b.p).toBe(a.p);
    expect(b.draws).toBe(a.draws);
    const others = [1, 2, 3, 5, 6].map((seed) => signFlipTest(d, { seed }).p);
    expect(others.some((p) => p !== a.p)).toBe(true);
    expect(signFlipSeed(7, 'parse')).toBe(signFlipSeed(7, 'parse'));
    expect(signFlipSeed(7, 'parse')).not.toBe(signFlipSeed(7, 'render'));
    expect(signFlipSeed(7, 'parse')).not.toBe(signFlipSeed(8, 'parse'));
  });

  it('judge: the same results judged twice give the same p-values; the seed and the name select the draws', () => {
    const pairs = makePairs({ n: 80, change: 0.003, noise: 0.02, seed: 12 });
    const opts = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', seed: 99 } as const;
    const p1 = judge([{ name: 'x', direction: 'lower-is-better', pairs }], opts).benchmarks[0]!.change!;
    const p2 = judge([{ name: 'x', direction: 'lower-is-better', pairs }], opts).benchmarks[0]!.change!;
    expect(p1.method).toBe('monte-carlo');
    expect(p2.pValue).toBe(p1.pValue);
    expect(p1.pMonteCarloError).toBeGreaterThan(0);
    const direct = signFlipTest(logRatios(pairs), { seed: signFlipSeed(99, 'x'), draws: drawsFor(1, 0.05) });
    expect(p1.pValue).toBe(direct.p);
  });

  it('judge with --outliers none keeps the signed-rank test of R exactly', () => {
    const pairs: Pair[] = makePairs({ n: 25, change: 0.01, noise: 0.02, seed: 3 });
    const c = judge([{ name: 'x', direction: 'lower-is-better', pairs }], { alpha: 0.05, threshold: 0.02, outliers: 'none', correction: 'holm' }).benchmarks[0]!.change!;
    const w = wilcoxonSignedRank(logRatios(pairs));
    expect(c.pValue).toBe(w.pValue);
    expect(c.method).toBe(w.method);
    expect(c.pMonteCarloError).toBeUndefined();
  });

  it("the observed statistic's kept pairs and counts are judge's: n, zeros and V match the signed-rank test of the kept pairs", () => {
    const rand = prng(21);
    for (let t = 0; t < 30; t++) {
      const d = burstyD(20 + Math.floor(rand() * 60), rand).map((v) => (rand() < 0.05 ? 0 : v));
      const excluded = new Set(screenOutliers(d, 'tukey').excluded);
      const kept = d.filter((_, i) => !excluded.has(i));
      const r = screenedTest(d, kept, { test: 'sign-flip', outliers: 'tukey', seed: t });
      const w = wilcoxonSignedRank(kept);
      expect(r.n).toBe(w.n);
      expect(r.zeros).toBe(w.zeros);
      expect(r.statistic).toBe(w.statistic);
    }
  });

  it('more benchmarks, more draws: the smallest p stays a tenth of Holm\'s strictest threshold', () => {
    expect(drawsFor(1, 0.05)).toBe(DEFAULT_DRAWS);
    expect(1 / (drawsFor(500, 0.05) + 1)).toBeLessThanOrEqual(0.05 / 500 / 10);
  });

  it(`above ${LARGE_N} non-zero values: the signed-rank test of every pair, normal approximation`, () => {
    const d = burstyD(LARGE_N + 500, prng(6));
    const r = signFlipTest(d);
    const w = wilcoxonSignedRank(d);
    expect(r.method).toBe('normal');
    expect(r.p).toBe(w.pValue);
  });

  it('no non-zero value: p = 1', () => {
    expect(signFlipTest(new Float64Array(5)).p).toBe(1);
    expect(signFlipTest(new Float64Array(0)).p).toBe(1);
  });

  describe('the interval allows for the screen as the test does', () => {
    function burstyPairs(n: number, rand: () => number, change = 0): Pair[] {
      const z = gaussian(rand);
      return Array.from({ length: n }, (): Pair => ({ base: Math.exp(burstyRun(rand, z)), head: Math.exp(burstyRun(rand, z) + Math.log1p(change)), order: rand() < 0.5 ? 'base-first' : 'head-first' }));
    }

    it('on bursty noise at 60 pairs the 95% interval covers the true change about 95% of the time (the signed-rank interval of the kept pairs: 86%)', () => {
      const rand = prng(505);
      const trials = 600;
      for (const change of [0, 0.02]) {
        let covered = 0;
        let coveredEquivalence = 0;
        for (let t = 0; t < trials; t++) {
          const c = judge([{ name: 'x', direction: 'lower-is-better', pairs: burstyPairs(60, rand, change) }], { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', seed: t }).benchmarks[0]!.change!;
          // the test's interval (shown unless the equivalence interval decided `unchanged`)
          const ci = c.tested?.ci ?? c.ci;
          if (ci[0] <= change && change <= ci[1]) covered++;
          const eq = c.equivalence!;
          expect(eq.level).toBeCloseTo(0.9, 12);
          if (eq.ci[0] <= change && change <= eq.ci[1]) coveredEquivalence++;
        }
        expect(covered / trials).toBeGreaterThan(0.95 - 2.6 * Math.sqrt((0.95 * 0.05) / trials));
        // the equivalence interval (1 - 2 alpha) allows for the screen alike
        expect(coveredEquivalence / trials).toBeGreaterThan(0.9 - 2.6 * Math.sqrt((0.9 * 0.1) / trials));
      }
    }, HEAVY);

    it('raises the level where the screen widens the statistic, leaves it on well-behaved noise and with none', () => {
      const rand = prng(6);
      const bursty = burstyD(60, rand);
      const keptOf = (d: Float64Array): Float64Array => {
        const ex = new Set(screenOutliers(d, 'tukey').excluded);
        return d.filter((_, i) => !ex.has(i));
      };
      expect(screenedIntervalLevel(bursty, bursty, 0.95, { outliers: 'none' })).toBe(0.95);
      const raised = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => {
        const d = burstyD(60, rand);
        return screenedIntervalLevel(d, keptOf(d), 0.95, { outliers: 'tukey', seed: k });
      });
      expect(raised.filter((l) => l > 0.97).length).toBeGreaterThan(4);
      const quiet = logRatios(makePairs({ n: 60, noise: 0.01, seed: 8 }));
      const lq = screenedIntervalLevel(quiet, keptOf(quiet), 0.95, { outliers: 'tukey', seed: 1 });
      expect(lq).toBeGreaterThanOrEqual(0.95);
      expect(lq).toBeLessThan(0.97);
    });
  });
});
