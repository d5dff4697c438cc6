/**
 * "Unchanged" as an equivalence claim (analysis.ts, `equivalenceLevel`; verdict.ts, `decide`): two one-sided
 * tests at alpha each, read off the 1 - 2 alpha interval, with no correction across benchmarks
 * (Berger's intersection-union principle), while a change keeps Holm's correction.
 */
import { describe, expect, it } from 'vitest';
import { equivalenceLevel, hodgesLehmann, judge, logRatios, STOPPED_EARLY_ALPHA_SHARE } from '../../src/stats/index.ts';
import type { BenchmarkInput, JudgeOptions } from '../../src/stats/types.ts';
import { makePairs } from './helpers.ts';

const opts: JudgeOptions = { alpha: 0.05, threshold: 0.02, outliers: 'none', correction: 'holm' };

describe('unchanged: the equivalence interval at 1 - 2 alpha, not corrected across benchmarks', () => {
  it('the level: 90% at alpha 0.05, 95% after an early stop, 98% at alpha 0.01', () => {
    expect(equivalenceLevel(0.05, false)).toBeCloseTo(0.9, 15);
    expect(equivalenceLevel(0.05, true)).toBeCloseTo(1 - 2 * 0.05 * STOPPED_EARLY_ALPHA_SHARE, 15);
    expect(equivalenceLevel(0.01, false)).toBeCloseTo(0.98, 15);
  });

  it('among 42 benchmarks, one whose Holm interval reaches past ±2% but whose 90% interval does not is unchanged, shown with the 90% interval', () => {
    // 41 quiet benchmarks and one noisier: at Holm's level over 42 (99.88%) its interval is too wide
    const inputs: BenchmarkInput[] = Array.from({ length: 42 }, (_, i) => ({
      name: `b${i}`,
      direction: 'lower-is-better',
      pairs: makePairs({ n: 40, change: 0, noise: i === 0 ? 0.03 : 0.002, seed: 100 + i }),
    }));
    // find a seed for b0 where the two intervals part: the 90% one inside ±2%, the 99.88% one not
    let found = false;
    for (let seed = 1; seed < 200 && !found; seed++) {
      inputs[0] = { ...inputs[0]!, pairs: makePairs({ n: 40, change: 0, noise: 0.03, seed }) };
      const d = Array.from(logRatios(inputs[0].pairs));
      const eq = hodgesLehmann(d, 0.9, { zeros: 'keep' });
      const holm = hodgesLehmann(d, 1 - 0.05 / 42, { zeros: 'keep' });
      if (Math.expm1(eq.lower) >= -0.02 && Math.expm1(eq.upper) <= 0.02 && (Math.expm1(holm.lower) < -0.02 || Math.expm1(holm.upper) > 0.02)) found = true;
    }
    expect(found).toBe(true);
    const j = judge(inputs, opts);
    const b = j.benchmarks[0]!;
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.basis).toBe('equivalence');
    expect(b.change!.ciLevel).toBeCloseTo(0.9, 15);
    const d = Array.from(logRatios(inputs[0]!.pairs));
    const eq = hodgesLehmann(d, 0.9, { zeros: 'keep' });
    expect(b.change!.ci).toEqual([Math.expm1(eq.lower), Math.expm1(eq.upper)]);
    // the test's interval, at Holm's level over the 42, is kept beside it and reaches past the threshold
    expect(b.change!.tested!.level).toBeCloseTo(1 - 0.05 / 42, 12);
    expect(b.change!.tested!.ci[0] < -0.02 || b.change!.tested!.ci[1] > 0.02).toBe(true);
    expect(j.verdict).toBe('unchanged');
  });

  it('a regression keeps Holm: significant alone at 90% is not a regression among 42', () => {
    const inputs: BenchmarkInput[] = Array.from({ length: 42 }, (_, i) => ({
      name: `b${i}`,
      direction: 'lower-is-better',
      pairs: makePairs({ n: 30, change: i === 0 ? 0.03 : 0, noise: i === 0 ? 0.03 : 0.002, seed: 7 + i }),
    }));
    const j = judge(inputs, opts);
    const b = j.benchmarks[0]!;
    expect(b.change!.pValue).toBeLessThan(0.05);
    expect(b.change!.pAdjusted).toBeGreaterThanOrEqual(0.05);
    expect(b.verdict).toBe('inconclusive');
    expect(b.change!.basis).toBeUndefined();
    expect(b.change!.ciLevel).toBeCloseTo(1 - 0.05 / 42, 12);
  });

  it('a change at the threshold is called unchanged at most alpha of the time (2,000 trials, 30 pairs, 2% noise)', () => {
    const trials = 2000;
    let unchanged = 0;
    for (let t = 0; t < trials; t++) {
      const b = judge([{ name: 'x', direction: 'lower-is-better', pairs: makePairs({ n: 30, change: 0.02, noise: 0.02, seed: 5000 + t }) }], opts).benchmarks[0]!;
      if (b.verdict === 'unchanged') unchanged++;
    }
    // one-sided 99.9% binomial margin above alpha
    expect(unchanged / trials).toBeLessThanOrEqual(0.05 + 3.1 * Math.sqrt((0.05 * 0.95) / trials));
    // and the test has power: not every such benchmark is left undecided for the wrong reason
    expect(unchanged).toBeGreaterThan(0);
  }, 120_000);

  it('with no change, nearly every one of 42 benchmarks is unchanged, where intervals at Holm\'s level would leave many undecided', () => {
    const inputs: BenchmarkInput[] = Array.from({ length: 42 }, (_, i) => ({
      name: `b${i}`,
      direction: 'lower-is-better',
      pairs: makePairs({ n: 60, change: 0, noise: 0.025, seed: 900 + i }),
    }));
    const j = judge(inputs, opts);
    const unchanged = j.benchmarks.filter((b) => b.verdict === 'unchanged').length;
    // d has sd 3.5%: the 90% half-width is about 0.8%, the 99.88% one (Holm over 42) about 1.5%
    expect(unchanged).toBeGreaterThanOrEqual(40);
    const holmWithin = j.benchmarks.filter((b) => {
      const tested = b.change!.tested ?? b.change!;
      return tested.ci[0] >= -0.02 && tested.ci[1] <= 0.02;
    }).length;
    expect(holmWithin).toBeLessThan(unchanged - 5);
  });

  it('a significant change estimated within the threshold is inconclusive unless its equivalence interval fits', () => {
    // +1.5% with 1% noise over 20 pairs: significant, and the 90% interval reaches past +2% for some seeds
    let seen = 0;
    for (let seed = 1; seed < 300; seed++) {
      const b = judge([{ name: 'x', direction: 'lower-is-better', pairs: makePairs({ n: 20, change: 0.015, noise: 0.01, seed }) }], opts).benchmarks[0]!;
      const c = b.change!;
      const eq = c.equivalence!.ci;
      const significant = (c.tested ?? c).ci[0] > 0;
      if (!significant || c.estimate > 0.02) continue;
      if (eq[1] > 0.02) {
        expect(b.verdict).toBe('inconclusive');
        seen++;
      } else expect(b.verdict).toBe('unchanged');
    }
    expect(seen).toBeGreaterThan(0);
  });
});
