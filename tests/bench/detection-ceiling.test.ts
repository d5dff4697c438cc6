/**
 * bench/detection-ceiling.ts: the chance of a `regression` simulated from a benchmark's own
 * differences, at a level of Holm's correction.
 */
import { describe, expect, it } from 'vitest';
import { pRegression } from '../../bench/detection-ceiling.ts';
import { rngFor } from '../../src/schedule/random.ts';

const judging = { threshold: 0.02, alpha: 0.05, outliers: 'tukey' as const, family: 42 };
// differences spread by about ±10% a pair, symmetric around a change c
const around = (c: number) => Array.from({ length: 400 }, (_, i) => Math.log1p(c) + 0.1 * (i % 2 === 0 ? 1 : -1) * Math.abs(Math.log((Math.floor(i / 2) + 0.5) / 200)));

describe('the chance of a regression from the differences of the pairs', () => {
  it('is nil without a change and near certain for a change far beyond the spread', () => {
    expect(pRegression(around(0), 60, 0.05 / 42, judging, 40, rngFor(1, 'none'))).toBe(0);
    expect(pRegression(around(0.5), 30, 0.05 / 42, judging, 40, rngFor(1, 'large'))).toBe(1);
  });

  it('is nil for a significant change within the threshold: the estimate must be beyond it', () => {
    // +1% at a spread of ±0.2%: the interval excludes 0, the estimate is below 2%
    const tight = Array.from({ length: 80 }, (_, i) => Math.log1p(0.01) + 0.002 * Math.sign(i % 2 - 0.5) * Math.abs(Math.log((i + 0.5) / 80)));
    expect(pRegression(tight, 60, 0.05 / 42, judging, 40, rngFor(1, 'within'))).toBe(0);
  });

  it('grows with the pairs and is lower at the stricter level (the same draws judged at both)', () => {
    const d = around(0.08);
    const p = (n: number, alphaAt: number) => pRegression(d, n, alphaAt, judging, 60, rngFor(2, n));
    expect(p(120, 0.05 / 31)).toBeGreaterThan(p(15, 0.05 / 31) + 0.3);
    expect(p(40, 0.05 / 31)).toBeGreaterThanOrEqual(p(40, 0.05 / 42));
  });
});
