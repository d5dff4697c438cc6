/**
 * bench/ceiling.ts: the chance of `unchanged` simulated from a benchmark's pair sizes, and the
 * allocation of a budget that gives the most expected verdicts (exact, where a greedy one is not).
 */
import { describe, expect, it } from 'vitest';
import { budgetFor, knapsack, pUnchanged } from '../../bench/ceiling.ts';
import { rngFor } from '../../src/schedule/random.ts';

const judging = { threshold: 0.02, alpha: 0.05, outliers: 'tukey' as const };

describe('the chance of unchanged from the sizes of the pairs', () => {
  it('is certain for pairs far narrower than the threshold and nil for pairs far wider, at few pairs', () => {
    const narrow = Array.from({ length: 40 }, (_, i) => 0.001 + i * 0.0001);
    const wide = Array.from({ length: 40 }, (_, i) => 0.3 + i * 0.01);
    expect(pUnchanged(narrow, 30, true, judging, 20, rngFor(1, 'narrow'))).toBe(1);
    expect(pUnchanged(wide, 10, true, judging, 20, rngFor(1, 'wide'))).toBe(0);
  });

  it('grows with the pairs, and is lower at the level compare judges (95%) than at one look (90%)', () => {
    // sizes of a benchmark spread by about ±6% a pair
    const sizes = Array.from({ length: 100 }, (_, i) => 0.06 * Math.abs(Math.log((i + 0.5) / 100)));
    const p = (n: number, sequential: boolean) => pUnchanged(sizes, n, sequential, judging, 60, rngFor(2, n, String(sequential)));
    const at20 = p(20, true);
    const at200 = p(200, true);
    expect(at200).toBeGreaterThan(at20 + 0.3);
    expect(p(120, false)).toBeGreaterThan(p(120, true));
  });
});

describe('the budget given where it decides the most', () => {
  it('takes two cheaper chances over one dear certainty where a greedy order by value per second takes the certainty', () => {
    // A: 6 s for a certain verdict (1/6 a second); B and C: 5 s each for 60% (0.12 a second)
    const options = [[{ cost: 6000, p: 1 }], [{ cost: 5000, p: 0.6 }], [{ cost: 5000, p: 0.6 }]];
    const k = knapsack(options, 20_000, 100);
    expect(k.best(10_000)).toBeCloseTo(1.2, 10);
    expect(k.choices(10_000)).toEqual([-1, 0, 0]);
    expect(k.best(11_000)).toBeCloseTo(1.6, 10);
    expect(k.best(16_000)).toBeCloseTo(2.2, 10);
    expect(k.best(4_900)).toBe(0);
  });

  it('picks at most one option per benchmark, the one worth most in the budget', () => {
    const options = [[{ cost: 1000, p: 0.3 }, { cost: 3000, p: 0.9 }]];
    const k = knapsack(options, 10_000, 100);
    expect(k.best(2000)).toBeCloseTo(0.3, 10);
    expect(k.best(10_000)).toBeCloseTo(0.9, 10);
    expect(k.choices(10_000)).toEqual([1]);
  });

  it('finds the least budget at which the expected verdicts reach a goal, or none', () => {
    const options = [[{ cost: 6000, p: 1 }], [{ cost: 5000, p: 0.6 }], [{ cost: 5000, p: 0.6 }]];
    const k = knapsack(options, 20_000, 100);
    expect(budgetFor(k.best, 1.5, 20_000, 100)).toBe(11_000);
    expect(budgetFor(k.best, 2.3, 20_000, 100)).toBeNull();
  });
});
