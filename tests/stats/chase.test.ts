/**
 * The chase (src/stats/chase.ts): which benchmarks it takes and how many fresh pairs it plans, and
 * how judge divides the error between chased and unchased benchmarks, judges a chased one on its
 * fresh pairs alone, and never calls it unchanged, with no interval that contradicts its verdict.
 */
import { describe, expect, it } from 'vitest';
import { CHASE_SHARE, chasePlan } from '../../src/stats/chase.ts';
import { judge } from '../../src/stats/judge.ts';
import { verdictOf } from '../../src/stats/verdict.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { BenchmarkInput, Pair } from '../../src/stats/types.ts';

function normal(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** n pairs whose ln(head/base) is `shift` plus normal noise of sd `sd`, order by a coin. */
function pairs(n: number, shift: number, sd: number, seed: number): Pair[] {
  const rand = mulberry32(seed);
  const z = normal(rand);
  return Array.from({ length: n }, () => {
    const d = shift + sd * z();
    return { base: 100, head: 100 * Math.exp(d), order: rand() < 0.5 ? 'base-first' : 'head-first' };
  });
}

const logs = (ps: readonly Pair[]) => ps.map((p) => Math.log(p.head / p.base));

describe('chasePlan', () => {
  const opts = { alpha: 0.05, threshold: 0.02, family: 40, maxFresh: 180 };

  /** n log-ratios: shift plus normal noise of sd `sd` */
  const draws = (n: number, shift: number, sd: number, seed: number): number[] => {
    const rand = mulberry32(seed);
    const z = normal(rand);
    return Array.from({ length: n }, () => shift + sd * z());
  };

  it('takes a benchmark whose pairs lean well beyond the threshold but are not yet significant, planning the fresh pairs by normal theory at its share of the level', () => {
    // 20 pairs of +49% at ±60% a pair: 2.9 standard errors, short of the 3.3 its unchased test needs
    const d = draws(20, 0.4, 0.6, 2);
    const plan = chasePlan(d, opts)!;
    expect(plan).not.toBeNull();
    expect(plan.estimate).toBeGreaterThan(0.2);
    expect(plan.z).toBeGreaterThanOrEqual(2);
    expect(plan.pairs).toBeGreaterThanOrEqual(10);
    expect(plan.pairs).toBeLessThanOrEqual(opts.maxFresh);
    // a stricter level (more benchmarks, a smaller share) plans more pairs
    const roomy = { ...opts, maxFresh: 100_000 };
    const at = chasePlan(d, roomy)!.pairs;
    expect(chasePlan(d, { ...roomy, family: 400 })!.pairs).toBeGreaterThan(at);
    expect(chasePlan(d, { ...roomy, share: 0.05 })!.pairs).toBeGreaterThan(at);
  });

  it('leaves a benchmark whose pairs already show its change at the strictest level of its unchased test: they keep their verdict', () => {
    expect(chasePlan(draws(30, 0.5, 0.3, 3), opts)).toBeNull();
  });

  it('leaves a benchmark that leans little, within the threshold, or beyond what --max-pairs leaves it', () => {
    // no change: centred on 0
    expect(chasePlan(logs(pairs(40, 0, 0.3, 2)), opts)).toBeNull();
    // clearly changed, but within the threshold once shrunk by a standard error
    expect(chasePlan(logs(pairs(200, Math.log(1.015), 0.01, 3)), opts)).toBeNull();
    // +12% at ±60% a pair: even odds would take hundreds of fresh pairs
    const far = logs(pairs(40, Math.log(1.35), 0.6, 4));
    const roomy = chasePlan(far, { ...opts, maxFresh: 100_000 });
    if (roomy !== null) expect(chasePlan(far, { ...opts, maxFresh: Math.floor(roomy.pairs / 4) })).toBeNull();
    // too few pairs to read
    expect(chasePlan(logs(pairs(5, 1, 0.01, 5)), opts)).toBeNull();
  });
});

describe('judge with the chase', () => {
  const base = { alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const, correction: 'holm' as const, seed: 1 };

  it("divides an unchased benchmark's p-value by 1 - ε and a chased one's by ε, judging the chased one on its fresh pairs alone", () => {
    const a = pairs(40, Math.log(1.03), 0.05, 11);
    const b = [...pairs(30, Math.log(1.6), 0.05, 12), ...pairs(25, Math.log(1.05), 0.05, 13)];
    const inputs: BenchmarkInput[] = [
      { name: 'a', direction: 'lower-is-better', pairs: a },
      { name: 'b', direction: 'lower-is-better', pairs: b, chasedFrom: 30 },
    ];
    const off = judge(inputs, base);
    const on = judge(inputs, { ...base, chaseShare: CHASE_SHARE });
    const fresh = judge([{ name: 'b', direction: 'lower-is-better', pairs: b.slice(30) }], base);
    // without the share, `chasedFrom` is ignored: all of b's pairs judged
    expect(off.benchmarks[1]!.change!.n).toBe(55);
    // with it: b's estimate and raw p-value are those of its 25 fresh pairs alone
    expect(on.benchmarks[1]!.change!.n).toBe(25);
    expect(on.benchmarks[1]!.change!.estimate).toBeCloseTo(fresh.benchmarks[0]!.change!.estimate, 12);
    expect(on.benchmarks[1]!.change!.pValue).toBe(fresh.benchmarks[0]!.change!.pValue);
    // Holm over p / share: the smaller adjusted p-value is the smaller of the scaled ones times 2
    const pa = on.benchmarks[0]!.change!.pValue / (1 - CHASE_SHARE);
    const pb = on.benchmarks[1]!.change!.pValue / CHASE_SHARE;
    const adjusted = [on.benchmarks[0]!.change!.pAdjusted, on.benchmarks[1]!.change!.pAdjusted];
    expect(Math.min(...adjusted)).toBeCloseTo(Math.min(1, 2 * Math.min(pa, pb)), 12);
    expect(Math.max(...adjusted)).toBeCloseTo(Math.min(1, Math.max(2 * Math.min(pa, pb), Math.max(pa, pb))), 12);
    // the fresh +5% is judged at the chased share: a regression there too
    expect(on.benchmarks[1]!.verdict).toBe('regression');
    // every shown interval agrees with its verdict
    for (const j of [off, on]) for (const r of j.benchmarks) expect(verdictOf(r.change, r.threshold, r.direction)).toBe(r.verdict);
  });

  it('never calls a chased benchmark unchanged, and widens its interval past the threshold so that it reads inconclusive', () => {
    // fresh pairs tightly around no change: unchased, these would be `unchanged`
    const b = [...pairs(20, Math.log(1.5), 0.05, 21), ...pairs(120, 0, 0.002, 22)];
    const unchased = judge([{ name: 'b', direction: 'lower-is-better', pairs: b.slice(20) }], base);
    expect(unchased.benchmarks[0]!.verdict).toBe('unchanged');
    const chased = judge([{ name: 'b', direction: 'lower-is-better', pairs: b, chasedFrom: 20 }], { ...base, chaseShare: CHASE_SHARE });
    const row = chased.benchmarks[0]!;
    expect(row.verdict).toBe('inconclusive');
    expect(verdictOf(row.change, row.threshold, row.direction)).toBe('inconclusive');
    // shown with the test's interval, not the equivalence one
    expect(row.change!.basis).toBeUndefined();
  });

  it('under no change, a chased benchmark is called changed no more often than its share of alpha (fresh pairs, 2,000 trials)', () => {
    // the first pairs choose it (here: whatever they were), the fresh ones are judged alone at ε alpha
    let alarms = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const b = pairs(40, 0, 0.1, 1000 + t);
      const j = judge([{ name: 'b', direction: 'lower-is-better', pairs: b, chasedFrom: 15 }], { ...base, threshold: 0, chaseShare: CHASE_SHARE, seed: t });
      if (j.benchmarks[0]!.verdict === 'regression' || j.benchmarks[0]!.verdict === 'improvement') alarms++;
    }
    // ε alpha = 1%: 20 expected; the Clopper–Pearson 99.9% upper bound of 2,000 trials at 1% is about 37
    expect(alarms).toBeLessThanOrEqual(37);
  });
});
