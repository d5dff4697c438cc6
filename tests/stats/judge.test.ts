/** Verdict rules, diagnostics, corrections and the degenerate cases of judge(). */
import { describe, expect, it } from 'vitest';
import {
  analyzePairs,
  estimatePairsToSettle,
  hodgesLehmann,
  intervalAlpha,
  intervalLevel,
  judge,
  minKeptFor,
  logRatios,
  minimumDetectableChange,
  minPairsForAlpha,
  pairedTestFor,
  pairsToDetect,
  STOPPED_EARLY_ALPHA_SHARE,
  verdictOf,
  wilcoxonSignedRank,
  worstVerdict,
} from '../../src/stats/index.ts';
import type { BenchmarkAnalysis, ChangeEstimate, DiagnosticCode, JudgeOptions, Pair } from '../../src/stats/types.ts';
import { wordFinding } from '../../src/report/findings.ts';
import type { Finding } from '../../src/stats/types.ts';
import { gaussian, makePairs, prng } from './helpers.ts';

/** A finding as the terminal words it. */
const words = (f: Finding): string => wordFinding(f, 'cli');

const opts: JudgeOptions = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' };

function one(pairs: Pair[], direction: 'lower-is-better' | 'higher-is-better' = 'lower-is-better', o: Partial<JudgeOptions> = {}): BenchmarkAnalysis {
  return judge([{ name: 'b', direction, pairs }], { ...opts, ...o }).benchmarks[0]!;
}

/** The test's interval (at the correction's level): `ci` itself unless the equivalence interval decided `unchanged`. */
function tested(b: BenchmarkAnalysis): { ci: [number, number]; level: number } {
  const c = b.change!;
  return c.tested ?? { ci: c.ci, level: c.ciLevel };
}

function codes(b: BenchmarkAnalysis): DiagnosticCode[] {
  return b.diagnostics.map((d) => d.code);
}


/** Simulations of thousands of judgements: room for a loaded machine (no timing is asserted). */
const HEAVY = 600_000;

describe('verdicts', () => {
  it('a clear slowdown is a regression (lower is better)', () => {
    const b = one(makePairs({ n: 30, change: 0.05, noise: 0.01 }));
    expect(b.verdict).toBe('regression');
    expect(b.change!.estimate).toBeGreaterThan(0.04);
    expect(b.change!.estimate).toBeLessThan(0.06);
    expect(b.change!.ci[0]).toBeGreaterThan(0.02);
    expect(b.change!.pAdjusted).toBeLessThan(0.05);
    expect(b.pairsToSettle).toBeNull();
  });

  it('a clear speed-up is an improvement', () => {
    expect(one(makePairs({ n: 30, change: -0.05, noise: 0.01 })).verdict).toBe('improvement');
  });

  it('higher is better: an increase is an improvement, a decrease a regression', () => {
    expect(one(makePairs({ n: 30, change: 0.05, noise: 0.01 }), 'higher-is-better').verdict).toBe('improvement');
    expect(one(makePairs({ n: 30, change: -0.05, noise: 0.01 }), 'higher-is-better').verdict).toBe('regression');
  });

  it('no change with a narrow interval is unchanged', () => {
    const b = one(makePairs({ n: 40, change: 0, noise: 0.005 }));
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.ci[0]).toBeGreaterThan(-0.02);
    expect(b.change!.ci[1]).toBeLessThan(0.02);
  });

  it('significant but smaller than the threshold is unchanged', () => {
    const b = one(makePairs({ n: 40, change: 0.01, noise: 0.001 }));
    expect(b.change!.pAdjusted).toBeLessThan(0.05);
    expect(b.change!.estimate).toBeGreaterThan(0.008);
    expect(b.verdict).toBe('unchanged');
  });

  it('a per-benchmark threshold overrides the default', () => {
    const pairs = makePairs({ n: 40, change: 0.01, noise: 0.001 });
    const j = judge([{ name: 'b', direction: 'lower-is-better', threshold: 0.005, pairs }], opts);
    expect(j.benchmarks[0]!.threshold).toBe(0.005);
    expect(j.benchmarks[0]!.verdict).toBe('regression');
  });

  it('not significant with a wide interval is inconclusive, with a count of pairs to settle it', () => {
    const b = one(makePairs({ n: 12, change: 0, noise: 0.08, seed: 3 }));
    expect(b.change!.pAdjusted).toBeGreaterThanOrEqual(0.05);
    expect(b.verdict).toBe('inconclusive');
    expect(b.pairsToSettle).toBeGreaterThan(12);
  });

  it('pairsToSettle scales the half-width as 1/sqrt(n) to the nearer way of settling', () => {
    const c: ChangeEstimate = { estimate: 0, ci: [-0.04, 0.04], confidence: 0.95, ciLevel: 0.95, pValue: 0.9, pAdjusted: 0.9, method: 'exact' };
    // half-width 0.04 must shrink to 0.02 (the interval within ±2%): 4 times the pairs
    expect(estimatePairsToSettle(c, null, 20, 0.02, 0.05)).toBe(80);
    // the equivalence interval (90%, narrower) is what must fit: half-width 0.03 down to 0.02, 2.25 times
    expect(estimatePairsToSettle(c, { ci: [-0.03, 0.03] }, 20, 0.02, 0.05)).toBe(45);
    const d: ChangeEstimate = { ...c, estimate: 0.03, ci: [-0.01, 0.07] };
    // half-width 0.04 must shrink below |estimate| = 0.03 (significant): (4/3)^2 = 1.78 times
    expect(estimatePairsToSettle(d, null, 18, 0.02, 0.05)).toBe(32);
    expect(estimatePairsToSettle(d, { ci: [0, 0.06] }, 18, 0.02, 0.05)).toBe(32);
  });

  it('too few pairs can never be unchanged, however narrow', () => {
    const c: ChangeEstimate = { estimate: 0, ci: [-0.001, 0.001], confidence: 0.95, ciLevel: 0.95, pValue: 1, pAdjusted: 1, method: 'exact', achievedConfidence: 0.875 };
    expect(verdictOf(c, 0.02, 'lower-is-better')).toBe('inconclusive');
    expect(verdictOf({ ...c, achievedConfidence: 0.96 }, 0.02, 'lower-is-better')).toBe('unchanged');
    const b = one(makePairs({ n: 4, change: 0, noise: 0.0001 }));
    expect(b.verdict).toBe('inconclusive');
  });

  it('the overall verdict is the worst: regression > inconclusive > improvement > unchanged', () => {
    expect(worstVerdict(['unchanged', 'improvement'])).toBe('improvement');
    expect(worstVerdict(['improvement', 'inconclusive', 'unchanged'])).toBe('inconclusive');
    expect(worstVerdict(['inconclusive', 'regression'])).toBe('regression');
    expect(worstVerdict([])).toBe('unchanged');
    const j = judge(
      [
        { name: 'fast', direction: 'lower-is-better', pairs: makePairs({ n: 30, change: -0.05, seed: 1 }) },
        { name: 'same', direction: 'lower-is-better', pairs: makePairs({ n: 30, change: 0, noise: 0.003, seed: 2 }) },
        { name: 'slow', direction: 'lower-is-better', pairs: makePairs({ n: 30, change: 0.08, seed: 3 }) },
      ],
      opts,
    );
    expect(j.benchmarks.map((b) => b.verdict)).toEqual(['improvement', 'unchanged', 'regression']);
    expect(j.verdict).toBe('regression');
  });

  it('judges no suite-wide change: the suite\'s change, oriented and with its interval, is the reports\' (report/model.ts)', () => {
    expect(judge([], opts)).toEqual({ benchmarks: [], verdict: 'unchanged' });
  });

  it('no usable pair: change null, inconclusive, a diagnostic', () => {
    const b = one([]);
    expect(b.change).toBeNull();
    expect(b.verdict).toBe('inconclusive');
    expect(codes(b)).toContain('too-few-pairs');
    expect(b.pairsToSettle).toBeNull();
  });

  it('one pair: a change, inconclusive, too few pairs', () => {
    const b = one([{ base: 100, head: 103, order: 'base-first' }]);
    expect(b.change!.estimate).toBeCloseTo(0.03, 12);
    expect(b.change!.pValue).toBe(1);
    expect(b.verdict).toBe('inconclusive');
    expect(codes(b)).toContain('too-few-pairs');
  });
});

describe('the test of no change is a value (JudgeOptions.test, change.test)', () => {
  const pairs = makePairs({ n: 14, change: 0.01, noise: 0.01, seed: 3 });

  it('absent, it follows the outlier rule: a screen gives the sign-flip test, none the signed-rank test, each recorded', () => {
    expect(pairedTestFor('tukey')).toBe('sign-flip');
    expect(pairedTestFor('mad')).toBe('sign-flip');
    expect(pairedTestFor('none')).toBe('signed-rank');
    expect(one(pairs).change!.test).toBe('sign-flip');
    const plain = one(pairs, 'lower-is-better', { outliers: 'none' }).change!;
    expect(plain.test).toBe('signed-rank');
    expect(plain.pValue).toBe(wilcoxonSignedRank(logRatios(pairs)).pValue);
  });

  it('given, it is the test used: the sign-flip test without a screen draws sign patterns of the signed-rank statistic', () => {
    const flipped = one(pairs, 'lower-is-better', { outliers: 'none', test: 'sign-flip' }).change!;
    expect(flipped.test).toBe('sign-flip');
    // 14 non-zero pairs: beyond full enumeration, so Monte Carlo, where the signed-rank test is exact
    expect(flipped.method).toBe('monte-carlo');
    expect(one(pairs, 'lower-is-better', { outliers: 'none' }).change!.method).toBe('exact');
  });

  it('the signed-rank test with an outlier screen is refused: of the pairs a screen kept it is not exact', () => {
    expect(() => one(pairs, 'lower-is-better', { outliers: 'tukey', test: 'signed-rank' })).toThrow("the signed-rank test needs outliers 'none', not 'tukey'");
  });
});

describe('corrections across benchmarks', () => {
  const sets = [0.03, 0.004, 0.0, 0.02].map((change, i) => makePairs({ n: 25, change, noise: 0.01, seed: 10 + i }));
  const inputs = sets.map((pairs, i) => ({ name: `b${i}`, direction: 'lower-is-better' as const, pairs }));

  it('Holm by default: p-adjusted = cummax((m - i + 1) p_(i))', () => {
    const j = judge(inputs, opts);
    const p = j.benchmarks.map((b) => b.change!.pValue);
    const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
    let run = 0;
    order.forEach((idx, i) => {
      run = Math.max(run, (p.length - i) * p[idx]!);
      expect(j.benchmarks[idx]!.change!.pAdjusted).toBeCloseTo(Math.min(1, run), 15);
    });
  });

  it('Benjamini–Hochberg with correction: bh, never above Holm', () => {
    const h = judge(inputs, opts);
    const b = judge(inputs, { ...opts, correction: 'bh' });
    b.benchmarks.forEach((x, i) => {
      expect(x.change!.pAdjusted).toBeLessThanOrEqual(h.benchmarks[i]!.change!.pAdjusted);
      expect(x.change!.pAdjusted).toBeGreaterThanOrEqual(x.change!.pValue);
    });
  });

  it('benchmarks without pairs are not counted in the correction', () => {
    const j = judge([...inputs.slice(0, 1), { name: 'empty', direction: 'lower-is-better', pairs: [] }], opts);
    expect(j.benchmarks[0]!.change!.pAdjusted).toBe(j.benchmarks[0]!.change!.pValue);
  });
});

describe('intervals at the level of the correction', () => {
  // 2 clear changes among 10 benchmarks, the rest unchanged
  const inputs = Array.from({ length: 10 }, (_, i) => ({
    name: `b${i}`,
    direction: 'lower-is-better' as const,
    pairs: makePairs({ n: 30, change: i < 2 ? 0.06 : 0, noise: 0.01, seed: 40 + i }),
  }));

  it('Holm: every interval at 1 - alpha/(benchmarks not rejected), R wilcox.test at that level', () => {
    const j = judge(inputs, { ...opts, outliers: 'none' });
    const rejected = j.benchmarks.filter((b) => b.change!.pAdjusted < 0.05).length;
    expect(rejected).toBe(2);
    for (const b of j.benchmarks) {
      expect(tested(b).level).toBeCloseTo(1 - 0.05 / 8, 15);
      expect(b.change!.confidence).toBe(0.95);
    }
    j.benchmarks.forEach((b, i) => {
      const hl = hodgesLehmann(Array.from(logRatios(inputs[i]!.pairs)), 1 - 0.05 / 8, { zeros: 'keep' });
      expect(tested(b).ci).toEqual([Math.expm1(hl.lower), Math.expm1(hl.upper)]);
    });
    expect(j.benchmarks.map((b) => b.verdict)).toEqual(['regression', 'regression', ...Array(8).fill('unchanged')]);
  });

  it('Benjamini–Hochberg: at 1 - R alpha/m (Benjamini & Yekutieli), 1 - alpha/m when nothing is selected', () => {
    const j = judge(inputs, { ...opts, correction: 'bh' });
    for (const b of j.benchmarks) expect(tested(b).level).toBeCloseTo(1 - (2 * 0.05) / 10, 15);
    const none = judge(inputs.slice(2), { ...opts, correction: 'bh' });
    for (const b of none.benchmarks) expect(tested(b).level).toBeCloseTo(1 - 0.05 / 8, 15);
  });

  it('intervalAlpha: one benchmark keeps alpha; all rejected by Holm gives alpha; no test is not counted', () => {
    expect(intervalAlpha([0.3], 0.05, 'holm')).toBe(0.05);
    expect(intervalAlpha([0.3], 0.05, 'bh')).toBe(0.05);
    expect(intervalAlpha([0.001, 0.002, 0.01], 0.05, 'holm')).toBe(0.05);
    expect(intervalAlpha([0.001, 0.5, 0.9, NaN], 0.05, 'holm')).toBeCloseTo(0.025, 15);
    expect(intervalAlpha([0.001, 0.5, 0.9, NaN], 0.05, 'bh')).toBeCloseTo(0.05 / 3, 15);
  });

  it('an early stop halves the error rate again: 1 - alpha/(2 k)', () => {
    const j = judge(inputs.map((b, i) => (i === 5 ? { ...b, stoppedEarly: true } : b)), opts);
    expect(tested(j.benchmarks[5]!).level).toBeCloseTo(1 - 0.05 / 16, 15);
    expect(tested(j.benchmarks[4]!).level).toBeCloseTo(1 - 0.05 / 8, 15);
  });

  it('a change significant alone but not among 20 benchmarks is not shown with an interval that excludes 0', () => {
    const alone = makePairs({ n: 12, change: 0.03, noise: 0.02, seed: 3 });
    const single = judge([{ name: 'x', direction: 'lower-is-better', pairs: alone }], opts).benchmarks[0]!;
    expect(single.change!.pValue).toBeLessThan(0.05);
    expect(single.change!.ci[0]).toBeGreaterThan(0);
    const many = judge(
      [{ name: 'x', direction: 'lower-is-better' as const, pairs: alone }, ...Array.from({ length: 19 }, (_, i) => ({ name: `q${i}`, direction: 'lower-is-better' as const, pairs: makePairs({ n: 12, change: 0, noise: 0.02, seed: 70 + i }) }))],
      opts,
    ).benchmarks[0]!;
    expect(many.change!.pAdjusted).toBeGreaterThanOrEqual(0.05);
    expect(many.change!.ci[0]).toBeLessThan(0);
    expect(many.verdict).toBe('inconclusive');
  });
});

describe('outliers', () => {
  function withSpikes(highs: number, lows: number, n = 40): Pair[] {
    const pairs = makePairs({ n, change: 0, noise: 0.005, seed: 7 });
    for (let i = 0; i < highs; i++) pairs[3 + 5 * i]!.head *= 1.3;
    for (let i = 0; i < lows; i++) pairs[4 + 5 * i]!.base *= 1.3;
    return pairs;
  }

  it('tukey excludes balanced outliers and lists them', () => {
    const b = one(withSpikes(2, 2));
    expect(b.outliers).toEqual([3, 4, 8, 9]);
    expect(b.outliersKept).toEqual([]);
    expect(codes(b)).not.toContain('one-sided-outliers');
  });

  it('one-sided outliers are kept and reported as a finding', () => {
    const b = one(withSpikes(6, 0));
    expect(b.outliers).toEqual([]);
    expect(b.outliersKept).toEqual([3, 8, 13, 18, 23, 28]);
    const diag = b.diagnostics.find((d) => d.code === 'one-sided-outliers')!;
    expect(words(diag)).toMatch(/head has 6 slow outliers, base none: a tail regression\?/i);
    expect(diag.severity).toBe('warning');
  });

  it('a split within chance (4 above, 2 below) is reported neutrally, never as a tail regression', () => {
    const b = one(withSpikes(4, 2));
    expect(b.outliers).toHaveLength(4);
    expect(b.outliersKept).toHaveLength(2);
    expect(codes(b)).not.toContain('one-sided-outliers');
    const diag = b.diagnostics.find((d) => d.code === 'outliers-kept')!;
    expect(diag.severity).toBe('info');
    expect(words(diag)).toMatch(/4 above, 2 below/);
    expect(words(diag)).toMatch(/within chance \(binomial p = 0\.69\)/);
    expect(words(diag)).not.toMatch(/tail regression|far more than chance/);
    // 5 to 0 (p = 0.06) and 7 to 1 (p = 0.07): not beyond chance at 0.05 either
    for (const [h, l] of [[5, 0], [7, 1]] as const) {
      const c = one(withSpikes(h, l));
      expect(codes(c)).not.toContain('one-sided-outliers');
      expect(codes(c)).toContain('outliers-kept');
    }
  });

  it('the one-sided claim comes only with the binomial p it states below 0.05', () => {
    for (const [h, l] of [[6, 0], [7, 0], [5, 0], [4, 2], [7, 1]] as const) {
      const b = one(withSpikes(h, l));
      const diag = b.diagnostics.find((d) => d.code === 'one-sided-outliers');
      const p = Number(/binomial p = ([0-9.e-]+)/.exec(diag ? words(diag) : '')?.[1]);
      if (diag) expect(p).toBeLessThan(0.05);
      expect(Boolean(diag)).toBe(h + l >= 4 && b.outliers.length === 0 && b.outliersKept.length === h + l && p < 0.05);
    }
    expect(codes(one(withSpikes(6, 0)))).not.toContain('outliers-kept');
  });

  it('a clear change in every pair stays decidable at few pairs: the screen leaves enough for the interval', () => {
    // 10 pairs at +100%, 2 spread above and 2 below a tight cluster: the screen set all 4 aside,
    // and the 6 left could not give an interval at Holm's 98.3% (3 benchmarks): inconclusive
    const spread = [0, 0.002, -0.002, 0.001, -0.001, 0.0005, 0.03, 0.04, -0.03, -0.04];
    const pairs = spread.map((e, i): Pair => ({ base: 1, head: Math.exp(Math.log(2) + e), order: i % 2 === 0 ? 'base-first' : 'head-first' }));
    const flat = (k: number): Pair[] => spread.map((_, i) => ({ base: 1, head: 1 + 0.002 * Math.sin(i * k), order: i % 2 === 0 ? 'head-first' : 'base-first' }));
    const j = judge(
      [
        { name: 'doubled', direction: 'lower-is-better', pairs },
        { name: 'a', direction: 'lower-is-better', pairs: flat(2.3) },
        { name: 'b', direction: 'lower-is-better', pairs: flat(1.7) },
      ],
      { ...opts, threshold: 0.05 },
    );
    const b = j.benchmarks[0]!;
    expect(b.verdict).toBe('regression');
    // 7 pairs reach 1 - 0.05/3 exactly (1 - 2^-6): the screen sets aside at most one on each side
    expect(minKeptFor(3, 0.05, false)).toBe(7);
    expect(b.outliers.length).toBeLessThanOrEqual(2);
    expect(b.change!.ci[0]).toBeGreaterThan(0.9);
    // every pair on one side: the unscreened statistic decides, the least p of 10 pairs
    expect(b.change!.pValue).toBe(2 / 1024);
    expect(codes(b)).not.toContain('too-few-pairs');
  });

  it('a harness that prints few digits: 8 pairs, 7 of them exactly +100%, is a regression (Noether 1967)', () => {
    const heads = [2, 2, 2, 2, 2, 2, 2, 2.5];
    const pairs = heads.map((h, i): Pair => ({ base: 1, head: h, order: i % 2 === 0 ? 'base-first' : 'head-first' }));
    for (const outliers of ['tukey', 'none'] as const) {
      const b = one(pairs, 'lower-is-better', { outliers, threshold: 0.05 });
      expect(b.verdict).toBe('regression');
      expect(b.change!.ci[0]).toBeCloseTo(1, 9);
      expect(b.change!.achievedConfidence).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('too few pairs never asks for fewer than the row has: 6 kept of 8 whose raised interval falls short ask for 7', () => {
    const heads = [1.1, 0.86, 1.1, 1.1, 1.06, 1.22, 1.04, 1.1];
    const pairs = heads.map((h, i): Pair => ({ base: 1, head: h, order: i % 2 ? 'base-first' : 'head-first' }));
    const b = one(pairs, 'lower-is-better', { seed: 1 });
    const f = b.diagnostics.find((d) => d.code === 'too-few-pairs')!;
    expect(f.figures).toMatchObject({ pairs: 6 });
    // by count alone 6 would do at 95% (1 - 2^-5): the shortfall is the screen's raised level
    expect(minPairsForAlpha(0.05)).toBe(6);
    expect((f.figures as { need: number }).need).toBe(7);
    expect(words(f)).toMatch(/Need >= 7 pairs/);
  });

  it('mad: modified z-score beyond 3.5', () => {
    const b = one(withSpikes(1, 1), 'lower-is-better', { outliers: 'mad' });
    expect(b.outliers).toEqual([3, 4]);
    const a = analyzePairs(withSpikes(1, 1), { alpha: 0.05, outliers: 'none', threshold: 0.02 });
    expect(a.screen.excluded).toEqual([]);
  });

  it('exclusion keeps the level of the test: A/A at fixed n stays at alpha', () => {
    // Excluding lone one-sided outliers made 9% of these tests significant at n = 11; balanced
    // exclusion keeps about 5% (the exact test's own level is a little below 5% at small n).
    for (const n of [11, 40]) {
      let significant = 0;
      const trials = 2000;
      for (let s = 1; s <= trials; s++) {
        const b = one(makePairs({ n, change: 0, noise: 0.01, seed: 7919 * s + n }));
        if (b.change!.pValue < 0.05) significant++;
      }
      expect(significant / trials).toBeLessThan(0.05 + 2 * Math.sqrt((0.05 * 0.95) / trials));
    }
  }, HEAVY);

  describe('bursty noise (a run slowed by 20% x Exp(1) in 30% of runs, as under bench/noise-generator.ts)', () => {
    function burstyAA(seed: number, trials: number): Pair[][] {
      const rand = prng(seed);
      const z = gaussian(rand);
      const run = () => 100 * (rand() < 0.3 ? 1 - 0.2 * Math.log(1 - rand()) : 1) * Math.exp(0.01 * z());
      return Array.from({ length: trials }, () => Array.from({ length: 60 }, (): Pair => ({ base: run(), head: run(), order: rand() < 0.5 ? 'base-first' : 'head-first' })));
    }
    const trials = 2000;
    const bound = 0.05 + 2 * Math.sqrt((0.05 * 0.95) / trials);

    it('--outliers none keeps the level: the advice of the many-outliers note', () => {
      let significant = 0;
      for (const pairs of burstyAA(4242, trials)) {
        const b = one(pairs, 'lower-is-better', { outliers: 'none' });
        expect(b.outliers).toEqual([]);
        expect(codes(b)).not.toContain('many-outliers');
        if (b.change!.pValue < 0.05) significant++;
      }
      expect(significant / trials).toBeLessThan(bound);
    }, HEAVY);

    it('the default screen keeps the level there (the sign-flip test recomputes it on every pattern), and the note only informs', () => {
      // with the signed-rank test of the kept pairs, 13% of these came out significant at 0.05
      let significant = 0;
      let noted = 0;
      for (const pairs of burstyAA(4242, trials)) {
        const b = one(pairs);
        if (b.change!.pValue < 0.05) significant++;
        const diag = b.diagnostics.find((d) => d.code === 'many-outliers');
        if (diag) {
          noted++;
          expect(diag.severity).toBe('info');
          expect(words(diag)).toContain('keeps its level');
          expect(words(diag)).toContain('--outliers none');
        }
      }
      expect(significant / trials).toBeLessThan(bound);
      expect(noted / trials).toBeGreaterThan(0.8);
    }, HEAVY);

    it('no many-outliers note on well-behaved noise', () => {
      let warned = 0;
      for (let s = 1; s <= 200; s++) if (codes(one(makePairs({ n: 60, change: 0, noise: 0.01, seed: s }))).includes('many-outliers')) warned++;
      expect(warned).toBeLessThan(5);
    });
  });

  it('a lone outlier is kept, not excluded: excluding it would tilt the test', () => {
    const b = one(withSpikes(1, 0));
    expect(b.outliers).toEqual([]);
    expect(b.outliersKept).toEqual([3]);
    expect(codes(b)).not.toContain('one-sided-outliers');
    const c = one(withSpikes(3, 1));
    expect(c.outliers).toHaveLength(2);
    expect(c.outliersKept).toHaveLength(2);
  });

  it('side summaries cover all pairs, outliers included', () => {
    const b = one(withSpikes(2, 2));
    expect(b.base.n).toBe(40);
    expect(b.head.n).toBe(40);
    expect(b.head.max).toBeGreaterThan(120);
  });
});

describe('diagnostics', () => {
  it('too-few-pairs: 2/2^n cannot go below alpha; need >= 6 at 0.05, 8 at 0.01', () => {
    expect(minPairsForAlpha(0.05)).toBe(6);
    expect(minPairsForAlpha(0.01)).toBe(8);
    const b = one(makePairs({ n: 5, change: 0.2, noise: 0.001 }), 'lower-is-better', { outliers: 'none' });
    expect(b.change!.pValue).toBe(2 / 32);
    const diag = b.diagnostics.find((d) => d.code === 'too-few-pairs')!;
    expect(words(diag)).toMatch(/need >= 6 pairs/i);
    expect(codes(one(makePairs({ n: 6, change: 0.2, noise: 0.001 }), 'lower-is-better', { outliers: 'none' }))).not.toContain('too-few-pairs');
    expect(words(one(makePairs({ n: 7, change: 0.2 }), 'lower-is-better', { alpha: 0.01 }).diagnostics.find((d) => d.code === 'too-few-pairs')!)).toMatch(/need >= 8 pairs/i);
  });

  it('order-effect: the first slot has an advantage', () => {
    const b = one(makePairs({ n: 40, change: 0, noise: 0.005, secondSlot: 0.04 }));
    const diag = b.diagnostics.find((d) => d.code === 'order-effect')!;
    expect(diag).toBeDefined();
    expect(words(diag)).toMatch(/--warmup/);
    expect(words(diag)).toMatch(/--prepare/);
    expect(words(diag)).toMatch(/second run of a pair measures about [34]\.\d% higher/);
    expect(codes(one(makePairs({ n: 40, change: 0, noise: 0.005 })))).not.toContain('order-effect');
  });

  it('order-effect: not where the slots differ by less than a tenth of the threshold (a Go B/op row: medians 0.0% both ways)', () => {
    // bytes per op of a real Go A/A (58 pairs): most pairs equal, the others ±0.4-1.9%, leaning
    // by slot; a rank-sum test tells the slots apart (p = 0.004), yet both medians are 0.0% and the
    // warning read "the second run of a pair measures about 0.0% higher"
    const pairs: Pair[] = Array.from({ length: 40 }, (_, i) => {
      const baseFirst = i % 2 === 0;
      const d = i % 5 < 3 ? 0 : (baseFirst ? 1 : -1) * 0.004 * (1 + (i % 3));
      return { base: 1000, head: 1000 * Math.exp(d), order: baseFirst ? 'base-first' : 'head-first' };
    });
    expect(codes(one(pairs))).not.toContain('order-effect');
    // a second slot 0.1% slower, clear to the rank-sum test on quiet pairs, is below 0.2%; 0.6% is not
    expect(codes(one(makePairs({ n: 40, change: 0, noise: 0.0005, secondSlot: 0.001 })))).not.toContain('order-effect');
    expect(codes(one(makePairs({ n: 40, change: 0, noise: 0.0005, secondSlot: 0.006 })))).toContain('order-effect');
  });

  it('drift: the first and second half of the pairs disagree', () => {
    const pairs = [...makePairs({ n: 20, change: 0, noise: 0.005, seed: 1 }), ...makePairs({ n: 20, change: 0.05, noise: 0.005, seed: 2 })];
    const diag = one(pairs).diagnostics.find((d) => d.code === 'drift')!;
    expect(words(diag)).toMatch(/first half/);
    expect(codes(one(makePairs({ n: 40, change: 0.05, noise: 0.005, seed: 3 })))).not.toContain('drift');
  });

  it('pairing-rescued: noisy single runs, quiet pairs', () => {
    const b = one(makePairs({ n: 40, change: 0, noise: 0.003, shared: 0.1 }));
    expect(b.base.cv).toBeGreaterThan(0.05);
    expect(b.pairedCv).toBeLessThan(0.01);
    const diag = b.diagnostics.find((d) => d.code === 'pairing-rescued')!;
    expect(words(diag)).toMatch(/pairing removed 9\d% of the noise/);
    expect(diag.severity).toBe('info');
  });

  it('high-noise: still noisy after pairing, with what to do', () => {
    const pairs = makePairs({ n: 30, change: 0, noise: 0.08 });
    const b = judge([{ name: 'b', direction: 'lower-is-better', metric: 'wall', pairs }], opts).benchmarks[0]!;
    const diag = b.diagnostics.find((d) => d.code === 'high-noise')!;
    expect(words(diag)).toMatch(/--metric cpu/);
    // one count of pairs per benchmark (pairsToSettle), not a second one here; the figure stays
    expect(words(diag)).toMatch(/smallest change this detects reliably is about \d/);
    expect(words(diag)).not.toMatch(/\d+ pairs would/);
    expect(diag.figures).toMatchObject({ pairsForThreshold: expect.any(Number) });
    expect(codes(b)).not.toContain('pairing-rescued');
    // a harness result or CPU time already: no advice to switch to CPU time
    const harness = one(pairs).diagnostics.find((d) => d.code === 'high-noise')!;
    expect(words(harness)).not.toMatch(/--metric cpu/);
    expect(words(harness)).toMatch(/quieter machine/);
  });

  it('all-equal: identical measurements', () => {
    const same = Array.from({ length: 12 }, (_, i): Pair => ({ base: 1000, head: 1000, order: i % 2 ? 'base-first' : 'head-first' }));
    const b = one(same);
    expect(codes(b)).toEqual(['all-equal']);
    expect(b.change).toMatchObject({ estimate: 0, ci: [0, 0], pValue: 1 });
    expect(b.verdict).toBe('unchanged');
    const shifted = same.map((p) => ({ ...p, head: 1030 }));
    const c = one(shifted);
    expect(codes(c)).toEqual(['all-equal']);
    expect(c.change!.estimate).toBeCloseTo(0.03, 10);
    expect(c.change!.ci[0]).toBeCloseTo(0.03, 10);
    expect(c.verdict).toBe('regression');
  });

  it('a quiet, clean comparison has no diagnostics', () => {
    expect(one(makePairs({ n: 30, change: 0.05, noise: 0.01 })).diagnostics).toEqual([]);
  });
});

describe('minimumDetectableChange', () => {
  it('the normal approximation with the Wilcoxon ARE 3/pi', () => {
    const shift = ((1.959963984540054 + 0.8416212335729143) * 0.01) / Math.sqrt((30 * 3) / Math.PI);
    expect(minimumDetectableChange(0.01, 30, 0.05)).toBeCloseTo(Math.expm1(shift), 12);
    expect(minimumDetectableChange(0.01, 120, 0.05)).toBeLessThan(minimumDetectableChange(0.01, 30, 0.05));
    expect(minimumDetectableChange(0.02, 30, 0.05)).toBeGreaterThan(minimumDetectableChange(0.01, 30, 0.05));
    expect(minimumDetectableChange(0.01, 30, 0.01)).toBeGreaterThan(minimumDetectableChange(0.01, 30, 0.05));
    expect(minimumDetectableChange(0.01, 0, 0.05)).toBe(Infinity);
    expect(minimumDetectableChange(0, 10, 0.05)).toBe(0);
    expect(pairsToDetect(0.01, minimumDetectableChange(0.01, 30, 0.05), 0.05)).toBe(30);
  });

  it('never promises detection with fewer pairs than the exact test needs to reach alpha', () => {
    // 2 / 2^n is the smallest two-sided p: 5 pairs give 0.0625, 6 give 0.03125 (alpha 0.05); 8 at 0.01
    expect(minPairsForAlpha(0.05)).toBe(6);
    expect(minPairsForAlpha(0.01)).toBe(8);
    expect(minimumDetectableChange(0.001, 5, 0.05)).toBe(Infinity);
    expect(minimumDetectableChange(0.001, 6, 0.05)).toBeLessThan(0.01);
    expect(minimumDetectableChange(0.001, 7, 0.01)).toBe(Infinity);
    // a quiet machine: the normal approximation alone would say 1 or 2 pairs detect 2%
    expect(pairsToDetect(0.001, 0.02, 0.05)).toBe(6);
    expect(pairsToDetect(0.001, 0.02, 0.01)).toBe(8);
    expect(pairsToDetect(0, 0.02, 0.05)).toBe(6);
    expect(pairsToDetect(0.05, 0.02, 0.05)).toBeGreaterThan(6);
  });

  it('has about the promised power in simulation', () => {
    const rand = prng(99);
    const z = gaussian(rand);
    const n = 30;
    const sd = 0.01;
    const shift = Math.log1p(minimumDetectableChange(sd, n, 0.05));
    let hits = 0;
    const trials = 1000;
    for (let t = 0; t < trials; t++) {
      const d = Array.from({ length: n }, () => shift + sd * z());
      if (wilcoxonSignedRank(d).pValue < 0.05) hits++;
    }
    expect(hits / trials).toBeGreaterThan(0.74);
    expect(hits / trials).toBeLessThan(0.86);
  });
});

describe('pairs with head == base (zeros)', () => {
  /** Go's B/op of one benchmark: 30 pairs of 8192..8194 bytes, 26 exactly equal, 4 one byte apart */
  function bytesPerOp(): Pair[] {
    const values = [8192, 8193, 8194];
    const pairs: Pair[] = [];
    for (let i = 0; i < 26; i++) {
      const v = values[i % 3]!;
      pairs.push({ base: v, head: v, order: i % 2 ? 'base-first' : 'head-first' });
    }
    pairs.splice(3, 0, { base: 8192, head: 8193, order: 'base-first' });
    pairs.splice(9, 0, { base: 8193, head: 8192, order: 'head-first' });
    pairs.splice(17, 0, { base: 8193, head: 8194, order: 'head-first' });
    pairs.splice(25, 0, { base: 8194, head: 8193, order: 'base-first' });
    return pairs;
  }

  it('26 of 30 pairs exactly equal, +-1 byte in the others: unchanged, interval about +-0.01%', () => {
    const b = one(bytesPerOp());
    expect(b.verdict).toBe('unchanged');
    expect(codes(b)).not.toContain('too-few-pairs');
    expect(codes(b)).toContain('mostly-equal');
    expect(words(b.diagnostics.find((d) => d.code === 'mostly-equal')!)).toMatch(/26 of 30 pairs/);
    const c = b.change!;
    // decided by the equivalence interval (90%: two one-sided tests at 5%), shown at its level
    expect(c.basis).toBe('equivalence');
    expect(c.ciLevel).toBeCloseTo(0.9, 15);
    expect(c.achievedConfidence).toBeGreaterThanOrEqual(0.9 - 1e-12);
    expect(c.tested!.achievedConfidence).toBeGreaterThanOrEqual(0.95 - 1e-12);
    expect(c.ci[0]).toBeLessThanOrEqual(0);
    expect(c.ci[1]).toBeGreaterThanOrEqual(0);
    expect(Math.max(-c.ci[0], c.ci[1])).toBeLessThan(0.0002);
    expect(Math.abs(c.estimate)).toBeLessThan(1e-4);
    // the test itself still follows R: zeros dropped, 4 pairs left, far from significant
    expect(c.n).toBe(4);
    expect(c.pValue).toBeGreaterThan(0.5);
  });

  it('28 or 29 of 30 pairs equal, the others on one side: unchanged, at full confidence', () => {
    // All differing pairs on one side put the kept zeros at one end of the range, where R's
    // normal approximation finds 95% out of reach; the range itself has 1 - 2^-29 (hodges-lehmann.ts).
    for (const diffs of [[-2], [-2, -1], [1, 2]]) {
      const pairs: Pair[] = Array.from({ length: 30 }, (_, i) => ({ base: 8192, head: 8192, order: i % 2 ? 'base-first' : 'head-first' }));
      diffs.forEach((delta, k) => (pairs[5 + 7 * k] = { ...pairs[5 + 7 * k]!, head: 8192 + delta }));
      const b = one(pairs, 'lower-is-better', { threshold: 0.05 });
      expect(b.verdict, String(diffs)).toBe('unchanged');
      expect(b.change!.ciLevel).toBeCloseTo(0.9, 15);
      expect(b.change!.achievedConfidence).toBe(b.change!.ciLevel);
      expect(b.change!.tested!.achievedConfidence).toBe(0.95);
      expect(b.change!.ci[0]).toBeLessThanOrEqual(0);
      expect(b.change!.ci[1]).toBeGreaterThanOrEqual(0);
      expect(Math.max(-b.change!.ci[0], b.change!.ci[1])).toBeLessThan(0.0003);
    }
  });

  it('the same with all pairs one byte heavier in head is still unchanged (well within 2%)', () => {
    const pairs = bytesPerOp().map((p, i) => (i % 10 === 0 ? { ...p, head: p.head + 1 } : p));
    expect(one(pairs).verdict).toBe('unchanged');
  });

  it('a real change with a few zero pairs keeps working', () => {
    const pairs = makePairs({ n: 30, change: 0.05, noise: 0.01, seed: 21 });
    for (const i of [2, 11, 19]) pairs[i] = { ...pairs[i]!, head: pairs[i]!.base };
    const b = one(pairs);
    expect(b.verdict).toBe('regression');
    expect(b.change!.estimate).toBeGreaterThan(0.04);
    expect(b.change!.ci[0]).toBeGreaterThan(0.02);
    expect(codes(b)).not.toContain('mostly-equal');
    const imp = one(pairs.map((p) => ({ ...p, base: p.head, head: p.base })));
    expect(imp.verdict).toBe('improvement');
  });

  it('too few pairs in all still warn, zeros or not', () => {
    const few: Pair[] = [
      { base: 100, head: 100, order: 'base-first' },
      { base: 100, head: 100, order: 'head-first' },
      { base: 100, head: 101, order: 'base-first' },
    ];
    const b = one(few);
    expect(b.verdict).toBe('inconclusive');
    expect(words(b.diagnostics.find((d) => d.code === 'too-few-pairs')!)).toMatch(/Only 3 usable pairs \(2 of them with head == base/);
  });
});

describe('the interval after an early stop', () => {
  const pairs = makePairs({ n: 24, change: 0.02, noise: 0.02, seed: 11 });

  it('is computed at 1 - alpha/2 and contains the plain 1 - alpha interval; the test is the same', () => {
    const plain = judge([{ name: 'b', direction: 'lower-is-better', pairs }], opts).benchmarks[0]!.change!;
    const raised = judge([{ name: 'b', direction: 'lower-is-better', pairs, stoppedEarly: true }], opts).benchmarks[0]!.change!;
    expect(intervalLevel(0.05, true)).toBeCloseTo(1 - 0.05 * STOPPED_EARLY_ALPHA_SHARE, 15);
    expect(intervalLevel(0.05, false)).toBe(0.95);
    expect(plain.level).toBeUndefined();
    expect(raised.level).toBeCloseTo(0.975, 12);
    expect(raised.confidence).toBe(0.95);
    expect(raised.ci[0]).toBeLessThan(plain.ci[0]);
    expect(raised.ci[1]).toBeGreaterThan(plain.ci[1]);
    expect(raised.estimate).toBe(plain.estimate);
    expect(raised.pValue).toBe(plain.pValue);
    // exactly the fixed-sample interval at the raised level (R: wilcox.test(d, conf.level = 0.975))
    const d = Array.from(logRatios(pairs));
    const hl = hodgesLehmann(d, 0.975, { zeros: 'keep' });
    expect(raised.ci[0]).toBeCloseTo(Math.expm1(hl.lower), 14);
    expect(raised.ci[1]).toBeCloseTo(Math.expm1(hl.upper), 14);
  });

  it('an interval that cannot reach the raised level cannot make a benchmark unchanged', () => {
    const c: ChangeEstimate = { estimate: 0, ci: [-0.001, 0.001], confidence: 0.95, ciLevel: 0.975, level: 0.975, pValue: 1, pAdjusted: 1, method: 'exact', achievedConfidence: 0.96 };
    expect(verdictOf(c, 0.02, 'lower-is-better')).toBe('inconclusive');
    expect(verdictOf({ ...c, achievedConfidence: 0.98 }, 0.02, 'lower-is-better')).toBe('unchanged');
  });
});

describe('the correction family: rows whose every pair is equal are left out (Tarone 1990)', () => {
  const shifted = { name: 'parse', direction: 'lower-is-better' as const, pairs: makePairs({ n: 14, change: 0.04, noise: 0.005, seed: 3 }) };
  const constant = (i: number) => ({ name: `parse (allocs/op ${i})`, direction: 'lower-is-better' as const, pairs: Array.from({ length: 14 }, () => ({ base: 34, head: 34, order: 'base-first' as const })) });

  it('ten constant rows beside a clear +4% leave its verdict, p-value and interval level as if it were alone', () => {
    const alone = judge([shifted], { ...opts, seed: 5 }).benchmarks[0]!;
    const beside = judge([shifted, ...Array.from({ length: 10 }, (_, i) => constant(i))], { ...opts, seed: 5 });
    const parse = beside.benchmarks[0]!;
    expect(alone.verdict).toBe('regression');
    expect(parse.verdict).toBe('regression');
    expect(parse.change!.pAdjusted).toBe(parse.change!.pValue);
    expect(parse.change!.ciLevel).toBe(alone.change!.ciLevel);
    for (const b of beside.benchmarks.slice(1)) {
      expect(b.verdict).toBe('unchanged');
      expect(b.change!.pAdjusted).toBe(1);
    }
  });

  it('a row with one differing pair is in the family', () => {
    const almost = constant(0);
    almost.pairs[3] = { base: 34, head: 35, order: 'base-first' };
    const two = judge([shifted, almost], { ...opts, seed: 5 }).benchmarks[0]!;
    expect(two.change!.pAdjusted).toBeCloseTo(Math.min(1, 2 * two.change!.pValue), 12);
  });
});
