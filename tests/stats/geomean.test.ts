/**
 * The suite's geometric mean change and its normal-approximation interval (geomean.ts).
 */
import { describe, expect, it } from 'vitest';
import { geomeanChange } from '../../src/stats/geomean.ts';

describe('geomeanChange', () => {
  it('of one benchmark is that benchmark, with its interval when the levels agree', () => {
    // a symmetric interval on the log scale: ln(1.05) ± 0.02
    const ci: [number, number] = [Math.expm1(Math.log(1.05) - 0.02), Math.expm1(Math.log(1.05) + 0.02)];
    const g = geomeanChange([{ estimate: 0.05, ci, level: 0.95 }], 0.95)!;
    expect(g.estimate).toBeCloseTo(0.05, 12);
    expect(g.ci[0]).toBeCloseTo(ci[0], 12);
    expect(g.ci[1]).toBeCloseTo(ci[1], 12);
  });

  it('of one benchmark with an asymmetric interval at the same level: that interval exactly', () => {
    expect(geomeanChange([{ estimate: 0.098, ci: [0.082, 0.106], level: 0.95 }], 0.95)).toEqual({ estimate: 0.098, ci: [0.082, 0.106], confidence: 0.95, count: 1 });
  });

  it('is the mean on the log scale: +10% and −10% (as ratios 1.1 and 1/1.1) cancel', () => {
    const g = geomeanChange(
      [
        { estimate: 0.1, ci: [0.09, 0.11], level: 0.95 },
        { estimate: 1 / 1.1 - 1, ci: [1 / 1.11 - 1, 1 / 1.09 - 1], level: 0.95 },
      ],
      0.95,
    )!;
    expect(g.estimate).toBeCloseTo(0, 12);
    expect(g.count).toBe(2);
  });

  it('narrows as sqrt(k) over k independent benchmarks of equal precision', () => {
    const one = { estimate: 0.02, ci: [Math.expm1(Math.log(1.02) - 0.01), Math.expm1(Math.log(1.02) + 0.01)] as [number, number], level: 0.95 };
    const g = geomeanChange([one, one, one, one], 0.95)!;
    expect(Math.log1p(g.ci[1]) - Math.log1p(g.estimate)).toBeCloseTo(0.01 / 2, 12);
  });

  it('reads an interval at the level it is given (99% here) and reports the combined one at the confidence asked', () => {
    // half-width z(0.99)·se with se = 0.01: at 95% the half-width is z(0.975)·0.01
    const g = geomeanChange([{ estimate: 0, ci: [Math.expm1(-2.5758293035489 * 0.01), Math.expm1(2.5758293035489 * 0.01)], level: 0.99 }], 0.95)!;
    expect(Math.log1p(g.ci[1])).toBeCloseTo(1.959963984540054 * 0.01, 10);
  });

  it('is null without a usable benchmark', () => {
    expect(geomeanChange([], 0.95)).toBeNull();
    expect(geomeanChange([{ estimate: Number.NaN, ci: [0, 0], level: 0.95 }], 0.95)).toBeNull();
  });
});
