/** stopCheck: never before minPairs, precision, anytime-valid decisions. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bettingEvidence, drawsFor, flippedHalfWidth, hodgesLehmann, intervalDrawsFor, judge, logRatios, nullHalfWidth, precisionHalfWidth, signFlipSeed, stopCheck } from '../../src/stats/index.ts';
import type { Pair, StopOptions } from '../../src/stats/types.ts';
import { gaussian, makePairs, prng } from './helpers.ts';

const opts: StopOptions = { minPairs: 10, maxPairs: 200, precision: 0.01, alpha: 0.05, threshold: 0.02, outliers: 'tukey' };

/** Pairs one by one until stopCheck stops (or maxPairs): how many and why. */
function run(pairs: Pair[], o: StopOptions = opts): { n: number; reason: string | null; decision: string | null | undefined } {
  for (let n = 1; n <= pairs.length; n++) {
    const c = stopCheck(pairs.slice(0, n), o);
    if (c.stop) return { n, reason: c.reason, decision: c.decision };
  }
  return { n: pairs.length, reason: null, decision: null };
}

describe('stopCheck', () => {
  it('the pairs a benchmark needs, as the progress lines say them, read its equivalence interval at the level compare judges it (1 - alpha)', () => {
    // 40 pairs of ±10%: estimate 0, a robust spread of 1.4826 × 10% (MAD around 0), nothing set aside
    const pairs: Pair[] = Array.from({ length: 40 }, (_, i) => ({ base: 100, head: 100 * Math.exp(i % 2 ? 0.1 : -0.1), order: i % 4 < 2 ? 'base-first' : 'head-first' }));
    const c = stopCheck(pairs, { ...opts, precision: 1e-6 });
    const sigma = 1.4826 * 0.1 * Math.sqrt(Math.PI / 3);
    // z at alpha/2 each side (1.96), not at alpha (1.645): the interval a budget's stop is judged with
    expect(c.need).toBe(Math.ceil(((1.959963984540054 * sigma) / Math.log(1.02)) ** 2 - 1e-9));
  });

  it('never stops before minPairs, however clear', () => {
    const pairs = makePairs({ n: 30, change: 0.5, noise: 0.001 });
    for (let n = 0; n < 10; n++) expect(stopCheck(pairs.slice(0, n), opts).stop).toBe(false);
    expect(run(pairs, opts)).toMatchObject({ reason: 'decided', decision: 'change' });
    expect(run(pairs, opts).n).toBeLessThanOrEqual(15);
    for (let n = 0; n < 25; n++) expect(stopCheck(pairs.slice(0, n), { ...opts, minPairs: 25 }).stop).toBe(false);
  });

  it('reports the estimate and half-width even before minPairs', () => {
    const c = stopCheck(makePairs({ n: 5, change: 0.05, noise: 0.001 }), opts);
    expect(c.stop).toBe(false);
    expect(c.estimate).toBeCloseTo(0.05, 2);
    expect(c.halfWidth).toBeGreaterThan(0);
    expect(stopCheck([], opts)).toMatchObject({ stop: false, reason: null, halfWidth: null, estimate: null });
  });

  it('stops for precision once the interval is narrow enough, judged blind to the signs', () => {
    // threshold 0: no "unchanged" decision is possible, so only precision can stop an A/A run
    const o = { ...opts, threshold: 0 };
    const pairs = makePairs({ n: 200, change: 0, noise: 0.02, seed: 5 });
    const r = run(pairs, o);
    expect(r.reason).toBe('precision');
    expect(r.n).toBeGreaterThan(10);
    const d = logRatios(pairs);
    // both sign-blind widths are within the precision at the stop, and one of them was not a pair before
    expect(nullHalfWidth(d.slice(0, r.n), 0.05)).toBeLessThan(0.01);
    expect(flippedHalfWidth(d.slice(0, r.n), 0.05, 'tukey')).toBeLessThan(0.01);
    expect(precisionHalfWidth(d.slice(0, r.n - 1), 0.05, 'tukey')).toBeGreaterThanOrEqual(0.01);
    // the interval itself is about as narrow as the sign-blind width says
    expect(stopCheck(pairs.slice(0, r.n), o).halfWidth).toBeLessThan(0.0125);
  });

  it('the sign-blind width ignores signs and tracks the interval with no change', () => {
    const d = logRatios(makePairs({ n: 40, change: 0, noise: 0.02, seed: 9 }));
    const flipped = d.map((v, i) => (i % 3 === 0 ? -v : v));
    expect(nullHalfWidth(flipped, 0.05)).toBe(nullHalfWidth(d, 0.05));
    const c = stopCheck(makePairs({ n: 40, change: 0, noise: 0.02, seed: 9 }), { ...opts, minPairs: 100 });
    expect(nullHalfWidth(d, 0.05) / c.halfWidth!).toBeGreaterThan(0.7);
    expect(nullHalfWidth(d, 0.05) / c.halfWidth!).toBeLessThan(1.4);
    // with a real change the sizes include it: wider, so the rule waits longer
    const shifted = logRatios(makePairs({ n: 40, change: 0.03, noise: 0.02, seed: 9 }));
    expect(nullHalfWidth(shifted, 0.05)).toBeGreaterThan(nullHalfWidth(d, 0.05));
  });

  it('a spike that judging keeps holds back the precision rule until the interval can do without it', () => {
    // the untouched sort of the vitest example in a CI run (threshold 5%, so precision 1.25%; every
    // pair kept): seven pairs within ±0.6% and one at −17.9%
    const o: StopOptions = { minPairs: 7, maxPairs: 40, precision: 0.0125, alpha: 0.05, threshold: 0.05, outliers: 'none' };
    const seen = [-17.9, 0.2, 0.2, 0.3, 0.0, -0.1, 0.1, -0.6];
    const toPair = (pct: number, i: number): Pair => ({ base: 100, head: 100 * (1 + pct / 100), order: i % 2 ? 'head-first' : 'base-first' });
    const pairs = seen.map(toPair);
    const d = logRatios(pairs);
    // normal theory on the sizes, the spike left out, is far within the precision...
    expect(nullHalfWidth(d, 0.05)).toBeLessThan(0.005);
    // ...but the interval the benchmark is judged by is not, and so nor is the width over sign patterns
    const hl = hodgesLehmann(d, 0.95, { zeros: 'keep' });
    expect(Math.expm1(hl.lower)).toBeLessThan(-0.05);
    expect(flippedHalfWidth(d, 0.05, 'none')).toBeGreaterThan(0.03);
    expect(stopCheck(pairs, o).stop).toBe(false);
    // followed by quiet pairs it stops, and the interval at the stop lies within ±threshold
    const z = gaussian(prng(3));
    const more = Array.from({ length: 32 }, (_, i) => toPair(0.3 * z(), i));
    const r = run([...pairs, ...more], o);
    expect(r.reason).not.toBeNull();
    expect(r.n).toBeGreaterThan(8);
    const at = hodgesLehmann(logRatios([...pairs, ...more].slice(0, r.n)), 0.95, { zeros: 'keep' });
    expect(Math.max(-Math.expm1(at.lower), Math.expm1(at.upper))).toBeLessThan(0.05);
  });

  it('without spikes the width over sign patterns is about the normal-theory one, and it reads the sizes only', () => {
    for (const seed of [1, 2, 3]) {
      const d = logRatios(makePairs({ n: 30, change: 0, noise: 0.02, seed }));
      const ratio = flippedHalfWidth(d, 0.05, 'tukey') / nullHalfWidth(d, 0.05);
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.5);
      const flipped = d.map((v, i) => (i % 3 === 0 ? -v : v));
      expect(flippedHalfWidth(flipped, 0.05, 'tukey')).toBe(flippedHalfWidth(d, 0.05, 'tukey'));
    }
    // past 60 pairs the rule reads normal theory alone (a spike no longer moves the interval's bound)
    const many = logRatios(makePairs({ n: 61, change: 0, noise: 0.02, seed: 4 }));
    expect(precisionHalfWidth(many, 0.05, 'tukey')).toBe(nullHalfWidth(many, 0.05));
    expect(precisionHalfWidth(many.slice(0, 60), 0.05, 'tukey')).toBe(Math.max(nullHalfWidth(many.slice(0, 60), 0.05), flippedHalfWidth(many.slice(0, 60), 0.05, 'tukey')));
  });

  it('decides a clear 10% change early', () => {
    const r = run(makePairs({ n: 200, change: 0.1, noise: 0.02, seed: 2 }), { ...opts, precision: 0.001 });
    expect(r.reason).toBe('decided');
    expect(r.decision).toBe('change');
    expect(r.n).toBeLessThanOrEqual(15);
  });

  it('decides "unchanged" when the change is confidently within ±threshold', () => {
    const r = run(makePairs({ n: 200, change: 0, noise: 0.02, seed: 4 }), { ...opts, precision: 0.001 });
    expect(r.reason).toBe('decided');
    expect(r.decision).toBe('unchanged');
  });

  it('a noisy change near the threshold is not decided quickly', () => {
    const r = run(makePairs({ n: 40, change: 0.02, noise: 0.05, seed: 8 }), { ...opts, precision: 0.001 });
    expect(r.reason).toBeNull();
  });

  it('A/A is not decided as a change, checked after every pair (anytime validity)', () => {
    // threshold 0 makes "change" mean "not zero": the hardest case for the error rate.
    // With alpha = 0.05 at most about 5% of A/A runs may ever be called a change, under drift too.
    const rand = prng(17);
    const z = gaussian(rand);
    const trials = 300;
    let changed = 0;
    for (let t = 0; t < trials; t++) {
      const d: number[] = [];
      let drift = 0;
      for (let i = 0; i < 200; i++) {
        drift += 0.002 * z();
        // a coin decides the sign of each pair's difference: exact symmetry under "no change"
        const noise = Math.abs(0.01 * z() + 0.3 * drift * z() * (rand() < 0.05 ? 10 : 1));
        d.push(rand() < 0.5 ? noise : -noise);
      }
      for (let n = 10; n <= 200; n++) {
        const ev = bettingEvidence(d.slice(0, n), 0);
        if (ev.above >= 2 / 0.05 || ev.below >= 2 / 0.05) {
          changed++;
          break;
        }
      }
    }
    expect(changed / trials).toBeLessThanOrEqual(0.05 + 2 * Math.sqrt((0.05 * 0.95) / trials));
  });

  it('an A/A run with the default threshold is never decided as a change', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = run(makePairs({ n: 200, change: 0, noise: 0.03, seed }), { ...opts, precision: 0.001 });
      expect(r.decision).not.toBe('change');
    }
  });
});

describe('stopCheck: a change decided at the level of the correction across the family', () => {
  it('among 80 rows, a +10% change is not decided before the Bonferroni level says so, and when it is, Holm calls it a regression', async () => {
    const { judge } = await import('../../src/stats/index.ts');
    const pairs = makePairs({ n: 200, change: 0.1, noise: 0.05, seed: 21 });
    const alone = run(pairs, { ...opts, precision: 0 });
    const among80 = run(pairs, { ...opts, precision: 0, family: 80 });
    expect(alone).toMatchObject({ reason: 'decided', decision: 'change' });
    expect(among80).toMatchObject({ reason: 'decided', decision: 'change' });
    expect(among80.n).toBeGreaterThan(alone.n);
    // judged at its stop among 79 quiet benchmarks, it is a regression (not left inconclusive)
    const quiet = Array.from({ length: 79 }, (_, i) => ({ name: `q${i}`, direction: 'lower-is-better' as const, pairs: makePairs({ n: 40, change: 0, noise: 0.002, seed: 100 + i }) }));
    const j = judge([{ name: 'x', direction: 'lower-is-better', pairs: pairs.slice(0, among80.n), stoppedEarly: true }, ...quiet], { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });
    expect(j.benchmarks[0]!.verdict).toBe('regression');
  });
});

describe('stopCheck with pairs of head == base', () => {
  it('a count that differs by one in a few pairs stops on precision, with the interval pinned near 0', () => {
    const rand = prng(5);
    const pairs: Pair[] = Array.from({ length: 200 }, (_, i) => {
      const base = 8192 + Math.floor(3 * rand());
      const head = rand() < 0.13 ? base + (rand() < 0.5 ? 1 : -1) : base;
      return { base, head, order: i % 2 ? 'base-first' : 'head-first' };
    });
    const r = run(pairs, { ...opts, threshold: 0 });
    expect(r.reason).toBe('precision');
    // zeros count in the interval (as in judging): the interval reaches its confidence early
    expect(r.n).toBeLessThanOrEqual(60);
    const c = stopCheck(pairs.slice(0, r.n), { ...opts, threshold: 0 });
    expect(c.halfWidth).toBeLessThan(0.0002);
  });
});

describe('stopCheck: enough pairs kept for the level of the judgement', () => {
  // A clear +15% change in 13 pairs, 4 of them far off, which the Tukey screen excludes: decided,
  // but with 9 pairs kept, fewer than the 10 that a 99.69% interval needs (8 benchmarks under Holm
  // after an early stop: 1 - 0.05/16). Seen in the Go example: +15%, judged `inconclusive`.
  const ratios = [1.15, 1.8, 1.151, 1.149, 1.152, 1.148, 1.05, 1.15, 1.151, 1.149, 1.9, 1.15, 1.06];
  const pairs: Pair[] = ratios.map((r, i) => ({ base: 100, head: 100 * r, order: i % 2 ? 'base-first' : 'head-first' }));

  it('without minKept it stops decided with 9 pairs kept', () => {
    expect(stopCheck(pairs, opts)).toMatchObject({ stop: true, reason: 'decided' });
  });

  it('with minKept 10 it goes on until the screen keeps 10', () => {
    expect(stopCheck(pairs, { ...opts, minKept: 10 })).toMatchObject({ stop: false, reason: null });
    const more = [...pairs, { base: 100, head: 115.1, order: 'head-first' as const }, { base: 100, head: 114.9, order: 'base-first' as const }];
    expect(stopCheck(more, { ...opts, minKept: 10 })).toMatchObject({ stop: true, reason: 'decided' });
  });
});

describe('stopCheck: a benchmark stops `decided` only when its verdict agrees', () => {
  /** The verdict `judge` gives these pairs after an early stop, one benchmark alone. */
  const verdictAtStop = (pairs: Pair[]): string =>
    judge([{ name: 'x', direction: 'lower-is-better', pairs, stoppedEarly: true }], { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }).benchmarks[0]!.verdict;
  /** the stopping rules told how `judge` judges that benchmark (its seed and draws), as the scheduler tells them */
  const judged: StopOptions = { ...opts, judging: { seed: signFlipSeed(0, 'x'), draws: drawsFor(1, 0.05), intervalDraws: intervalDrawsFor(1) } };

  it('a Go benchmark whose wild pilot pairs keep the equivalence interval wide is not stopped by the betting test alone (measured pairs)', () => {
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/stats/go-pilot-then-steady.json', import.meta.url), 'utf8')) as { pairs: Pair[] };
    const pairs = fixture.pairs;
    const o: StopOptions = { ...judged, precision: 0.005 };
    // the betting test reads these 25 pairs as settled within ±2%...
    const ev = bettingEvidence(logRatios(pairs), 0.02);
    expect(Math.min(ev.underUpper, ev.overLower)).toBeGreaterThanOrEqual(1 / 0.05);
    // ...but the verdict from them is not `unchanged`: stopping here ended the measuring before the verdict could follow
    expect(verdictAtStop(pairs)).toBe('inconclusive');
    const c = stopCheck(pairs, o);
    expect(c.stop).toBe(false);
    // every earlier prefix either goes on or stops with a verdict that backs it
    for (let n = 1; n < pairs.length; n++) {
      const r = stopCheck(pairs.slice(0, n), o);
      if (r.reason === 'decided') expect(verdictAtStop(pairs.slice(0, n))).toBe('unchanged');
    }
  });

  it('whenever the betting test stops a benchmark, its verdict is the one decided (pilot-like wild pairs, then steady ones)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(0, 0.005, 0.01, 0.03, -0.05, 0.1),
        fc.constantFrom(0.02, 0.05, 0.1),
        fc.constantFrom(0.002, 0.005, 0.01),
        (seed, change, wild, steady) => {
          const first = makePairs({ n: 10, change, noise: wild, seed });
          const rest = makePairs({ n: 50, change, noise: steady, seed: seed + 1 });
          const pairs = [...first, ...rest];
          const r = run(pairs, { ...judged, precision: 0 });
          if (r.reason !== 'decided') return;
          const v = verdictAtStop(pairs.slice(0, r.n));
          expect(r.decision === 'unchanged' ? v === 'unchanged' : v === 'regression' || v === 'improvement').toBe(true);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
