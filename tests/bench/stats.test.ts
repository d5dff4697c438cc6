/**
 * The bench's sequential-design statistics against scipy 1.17 (values printed by scipy, see each
 * case): Welch's t-test as hyperfine's scripts/welch_ttest.py, the Mann–Whitney U test, the
 * Clopper–Pearson interval and Student's t tail. No timing here.
 */
import { describe, expect, it } from 'vitest';
import { clopperPearson, logRobustSpread, logSpread, mannWhitney, studentTTwoSided, welchTTest } from '../../bench/lib/stats.ts';

const a = [
  30.002, 30.597, 29.452, 28.219, 29.091, 28.017, 30.12, 32.68, 29.016, 28.759, 30.98, 30.714, 30.211, 28.139, 29.941, 31.391, 27.312, 29.085, 26.198, 27.421,
  26.317, 29.53, 27.465, 30.543, 30.314, 29.626, 24.966, 28.923, 29.903, 30.227,
];
const b = [
  26.41, 29.567, 28.064, 28.573, 34.183, 28.577, 30.902, 33.653, 29.249, 30.665, 31.331, 31.191, 27.325, 31.228, 35.076, 26.359, 33.578, 31.358, 29.076, 37.001,
  33.287, 27.402, 31.224, 32.73, 30.434, 33.049, 30.8, 33.002, 35.316, 28.973,
];

const close = (got: number, want: number, rel = 1e-9) => expect(Math.abs(got - want)).toBeLessThanOrEqual(rel * Math.abs(want) + 1e-15);

describe('bench statistics against scipy', () => {
  it('Welch t-test: scipy.stats.ttest_ind(a, b, equal_var=False)', () => {
    const r = welchTTest(a, b);
    close(r.t, -3.1110174695130337);
    close(r.df, 48.17432895515679);
    close(r.pValue, 0.0031304289333606533);
  });

  it('Student t two-sided tail: 2 * scipy.stats.t.sf', () => {
    close(studentTTwoSided(2.5, 3.7), 0.07182202291182678);
    close(studentTTwoSided(0.3, 57.2), 0.7652647099860791);
    close(studentTTwoSided(8, 20), 1.165662827148851e-7);
  });

  it("Mann-Whitney U: scipy.stats.mannwhitneyu(a, b, method='asymptotic')", () => {
    close(mannWhitney(a, b).pValue, 0.006097142345173947, 1e-7);
  });

  it('Clopper-Pearson: scipy.stats.beta.ppf', () => {
    const [l0, u0] = clopperPearson(0, 40);
    expect(l0).toBe(0);
    close(u0, 0.08809730287880237);
    const [l2, u2] = clopperPearson(2, 40);
    close(l2, 0.006113646599350838);
    close(u2, 0.16919686395941763);
    const [l7, u7] = clopperPearson(7, 40);
    close(l7, 0.07338272935208517);
    close(u7, 0.32779013336158586);
    const [l40, u40] = clopperPearson(40, 40);
    close(l40, 0.9119026971211976);
    expect(u40).toBe(1);
  });
});

describe('spreads on the log scale', () => {
  it('reads ratios symmetrically: a pair at ×1.1 and one at ÷1.1 spread as two at ±ln 1.1', () => {
    const r = [1.1, 1 / 1.1];
    expect(logSpread(r)).toBeCloseTo(Math.sqrt(2) * Math.log(1.1), 12);
    expect(logSpread(r)).toBeCloseTo(logSpread([1.1 * 7, 7 / 1.1]), 12); // scale-free
  });
  it('the robust one ignores a single wild ratio that the sample sd follows', () => {
    const steady = [0.99, 1.0, 1.01, 0.995, 1.005, 1.0, 1.002];
    const wild = [...steady.slice(0, -1), 3];
    expect(logRobustSpread(wild)).toBeCloseTo(logRobustSpread([...steady.slice(0, -1), 1.02]), 12);
    expect(logSpread(wild)).toBeGreaterThan(10 * logSpread(steady));
    // MAD × 1.4826 of ln values: ln of [0.99, 1, 1.01] has median 0 and MAD ln(1.01) (nearly −ln 0.99)
    expect(logRobustSpread([0.99, 1, 1.01])).toBeCloseTo(1.4826 * Math.log(1.01), 6);
  });
});
