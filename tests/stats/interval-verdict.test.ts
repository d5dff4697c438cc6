/**
 * The interval shown next to a verdict never contradicts it: over random suites of 1-50
 * benchmarks, with either correction, early stops or not, every row's verdict can be read off its
 * own interval (at the level recorded as `change.ciLevel`) and threshold:
 * - regression / improvement: the interval excludes 0 and the estimate is beyond the threshold,
 *   on the worse / better side;
 * - unchanged: the interval lies within ±threshold (the interval shown for an `unchanged` decided
 *   by equivalence is the equivalence interval, at 1 - 2 alpha, or 1 - alpha where the stopping
 *   rules watched the pairs: verdict.ts `decide`);
 * - inconclusive: neither, or the interval falls short of its level (too few pairs). A significant
 *   change estimated within the threshold is inconclusive unless its equivalence interval fits,
 *   and then the row shows that interval, so it reads as `unchanged` by the rule above.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hodgesLehmann, judge, logRatios } from '../../src/stats/index.ts';
import type { BenchmarkAnalysis, BenchmarkInput, Correction, Pair } from '../../src/stats/types.ts';
import { makePairs } from './helpers.ts';

/** One benchmark: a change from none to clear, noise from quiet to very noisy, 1-60 pairs. */
const benchArb = fc.record({
  n: fc.integer({ min: 1, max: 60 }),
  change: fc.oneof(fc.constant(0), fc.double({ min: -0.12, max: 0.12, noNaN: true })),
  noise: fc.double({ min: 0.0005, max: 0.08, noNaN: true }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  higher: fc.boolean(),
  stoppedEarly: fc.boolean(),
  sequential: fc.boolean(),
  threshold: fc.option(fc.constantFrom(0.01, 0.05), { nil: undefined }),
});

const suiteArb = fc.record({
  benchmarks: fc.array(benchArb, { minLength: 1, maxLength: 50 }),
  correction: fc.constantFrom<Correction>('holm', 'bh'),
  alpha: fc.constantFrom(0.01, 0.05, 0.1),
  threshold: fc.constantFrom(0.01, 0.02, 0.05),
});

/** What the row's own interval says, and whether the verdict agrees. */
function contradiction(b: BenchmarkAnalysis): string | null {
  const c = b.change;
  if (!c) return b.verdict === 'inconclusive' ? null : `no interval but ${b.verdict}`;
  const level = c.ciLevel;
  if (level === undefined) return 'no ciLevel';
  const [lo, hi] = c.ci;
  const confident = (c.achievedConfidence ?? level) >= level - 1e-12;
  const excludesZero = confident && (lo > 0 || hi < 0);
  const within = confident && lo >= -b.threshold && hi <= b.threshold;
  const worse = b.direction === 'lower-is-better' ? c.estimate > b.threshold : c.estimate < -b.threshold;
  const better = b.direction === 'lower-is-better' ? c.estimate < -b.threshold : c.estimate > b.threshold;
  const expected = excludesZero && worse ? 'regression' : excludesZero && better ? 'improvement' : within ? 'unchanged' : 'inconclusive';
  return b.verdict === expected ? null : `${b.name}: ${b.verdict} with ${c.estimate} [${lo}, ${hi}] at ${level} (threshold ${b.threshold}), expected ${expected}`;
}

describe('the interval agrees with the verdict', () => {
  it('for random suites of 1-50 benchmarks, no verdict contradicts its displayed interval', () => {
    fc.assert(
      fc.property(suiteArb, (suite) => {
        const inputs: BenchmarkInput[] = suite.benchmarks.map((x, i) => ({
          name: `b${i}`,
          direction: x.higher ? 'higher-is-better' : 'lower-is-better',
          ...(x.threshold !== undefined ? { threshold: x.threshold } : {}),
          ...(x.stoppedEarly ? { stoppedEarly: true } : {}),
          ...(x.sequential ? { sequential: true } : {}),
          pairs: makePairs({ n: x.n, change: x.change, noise: x.noise, seed: x.seed }),
        }));
        const j = judge(inputs, { alpha: suite.alpha, threshold: suite.threshold, outliers: 'tukey', correction: suite.correction });
        for (const b of j.benchmarks) expect(contradiction(b)).toBeNull();
        // a change is claimed only where the corrected test rejects
        for (const b of j.benchmarks) if (b.verdict === 'regression' || b.verdict === 'improvement') expect(b.change!.pAdjusted, b.name).toBeLessThan(suite.alpha);
        // an inconclusive row's count of pairs that would settle it counts every pair, the
        // excluded outliers too, and so is more than it has (never "9 in all" after 10)
        j.benchmarks.forEach((b, i) => {
          if (b.pairsToSettle !== null) expect(b.pairsToSettle, b.name).toBeGreaterThan(inputs[i]!.pairs.length);
        });
      }),
      {
        numRuns: 150,
        // a significant -2.9% within a 5% threshold whose equivalence interval does not fit: inconclusive
        examples: [[{ benchmarks: [{ n: 8, change: 0, noise: 0.02398223697144981, seed: 29928, higher: false, stoppedEarly: false, sequential: false, threshold: 0.05 }], correction: 'holm', alpha: 0.01, threshold: 0.01 }]],
      },
    );
  });

  it('claims a change only where the corrected test rejects, and widens the interval to agree with it', () => {
    // 60 pairs of a benchmark with no change, some repeated (drawn from 80 values), among 42: the
    // test's p was 0.0018 (adjusted 0.075), the interval at 99.9% [+0.06%, +10.8%], and the row
    // read `regression`
    const drawn = [13, 76, 1, 11, 43, 1, 3, 13, 49, 45, 21, 53, 31, 65, 3, 26, 22, 76, 66, 28, 3, 70, 51, 61, 29, 15, 51, 35, 41, 76, 69, 31, 58, 40, 28, 2, 75, 71, 53, 74, 23, 21, 19, 52, 48, 39, 9, 18, 56, 47, 15, 27, 41, 8, 44, 79, 45, 32, 51, 27];
    const d = drawn.map((i) => 0.1 * (i % 2 === 1 ? 1 : -1) * Math.abs(Math.log((i + 0.5) / 80)));
    const asPairs = (xs: readonly number[]): Pair[] => xs.map((x, i) => ({ base: 100, head: 100 * Math.exp(x), order: i % 2 ? 'base-first' : 'head-first' }));
    const others: BenchmarkInput[] = Array.from({ length: 41 }, (_, k) => ({ name: `o${k}`, direction: 'lower-is-better', pairs: asPairs(Array.from({ length: 60 }, (_, j) => ((((j + 1) * (k + 7) * 37) % 61) / 61 - 0.5) * 0.2)) }));
    const j = judge([{ name: 'x', direction: 'lower-is-better', pairs: asPairs(d) }, ...others], { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', seed: 0 });
    const x = j.benchmarks[0]!;
    expect(x.change!.pAdjusted).toBeGreaterThanOrEqual(0.05);
    expect(x.verdict).toBe('inconclusive');
    expect(contradiction(x)).toBeNull();
    // the interval shown holds 0, at a level above the family's
    expect(x.change!.ci[0]).toBeLessThanOrEqual(0);
    expect(x.change!.ciLevel).toBeGreaterThan(1 - 0.05 / 42);
    expect(x.change!.ciLevel).toBeLessThan(1);
  });

  it('the pairs that would settle an inconclusive row count the excluded outliers too: more than it has', () => {
    // 8 ordinary pairs and 4 outliers (two each way, so the screen excludes them): the count
    // predicted from the 8 kept pairs was 11, printed as "about 11 pairs in all" after 12
    const kept = [-0.02, 0.015, -0.01, 0.025, -0.018, 0.008, 0.012, -0.022].map((x) => x * 1.1);
    const d = [...kept.slice(0, 4), 0.4, ...kept.slice(4), -0.45, 0.5, -0.5];
    const pairs: Pair[] = d.map((x, i) => ({ base: 100, head: 100 * Math.exp(x), order: i % 2 ? 'base-first' : 'head-first' }));
    const b = judge([{ name: 'x', direction: 'lower-is-better', pairs }], { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }).benchmarks[0]!;
    expect(b.outliers).toHaveLength(4);
    expect(b.verdict).toBe('inconclusive');
    // the kept pairs' count, 11 of 8 kept, scaled to every pair: 11 × 12 / 8 = 16.5
    expect(b.pairsToSettle).toBe(17);
  });

  it('the interval shown is the Hodges–Lehmann interval at the recorded level', () => {
    fc.assert(
      fc.property(suiteArb, (suite) => {
        const pairs: Pair[][] = suite.benchmarks.map((x) => makePairs({ n: x.n, change: x.change, noise: x.noise, seed: x.seed }));
        const j = judge(
          pairs.map((p, i) => ({ name: `b${i}`, direction: 'lower-is-better', pairs: p, ...(suite.benchmarks[i]!.stoppedEarly ? { stoppedEarly: true } : {}), ...(suite.benchmarks[i]!.sequential ? { sequential: true } : {}) })),
          { alpha: suite.alpha, threshold: suite.threshold, outliers: 'none', correction: suite.correction },
        );
        j.benchmarks.forEach((b, i) => {
          const level = b.change!.ciLevel!;
          // the equivalence interval (1 - 2 alpha, raised after an early stop or wherever the rules watched) when it decided `unchanged`, else the test's
          const early = suite.benchmarks[i]!.stoppedEarly || suite.benchmarks[i]!.sequential;
          if (b.change!.basis === 'equivalence') {
            expect(b.verdict).toBe('unchanged');
            expect(level).toBeCloseTo(early ? 1 - suite.alpha : 1 - 2 * suite.alpha, 12);
            expect(b.change!.tested!.level).toBeGreaterThanOrEqual(1 - suite.alpha);
          } else expect(level).toBeGreaterThanOrEqual(1 - suite.alpha);
          expect(b.change!.equivalence!.level).toBeCloseTo(early ? 1 - suite.alpha : 1 - 2 * suite.alpha, 12);
          expect(level).toBeLessThan(1);
          const hl = hodgesLehmann(logRatios(pairs[i]!), level, { zeros: 'keep' });
          expect(b.change!.ci).toEqual([Math.expm1(hl.lower), Math.expm1(hl.upper)]);
        });
      }),
      { numRuns: 60 },
    );
  });
});
