/**
 * Pairs with one side at 0 (`oneSidedPairs`), judged from a results file (stats/one-sided.ts):
 * left out in balanced pairs as the outlier screen leaves out balanced outliers; an excess on one
 * side kept as values beyond every other, so that `unchanged` needs the interval with them to fit
 * too, and a verdict the excess contradicts is held back. A row held back shows the test's interval,
 * never the equivalence interval that no longer decides.
 */
import { describe, expect, it } from 'vitest';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/comment.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { JudgeOptions, OutlierRule } from '../../src/stats/types.ts';

/** 40 pairs of a count whose head is `change` from base's, each pair ±0.2%. */
function pairs(change: number): BenchmarkResult['pairs'] {
  const rng = mulberry32(5);
  return Array.from({ length: 40 }, () => {
    const v = 1000 * (1 + rng() * 0.1);
    return { base: v * (1 + (rng() - 0.5) * 0.004), head: v * (1 + change) * (1 + (rng() - 0.5) * 0.004), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
  });
}

/** `base` pairs in which base printed 0 and head 16, `head` the other way round. */
function oneSided(zeros: { base: number; head: number }): BenchmarkResult['oneSidedPairs'] {
  return [...Array.from({ length: zeros.base }, () => ({ base: 0, head: 16, order: 'base-first' as const })), ...Array.from({ length: zeros.head }, () => ({ base: 16, head: 0, order: 'head-first' as const }))];
}

function judged(change: number, zeros: { base: number; head: number } | undefined, outliers: OutlierRule = 'tukey'): BenchmarkResult {
  const r: Results = {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    benchmarks: [{ name: 'BenchmarkPool (B/op)', unit: 'B', direction: 'lower-is-better', pairs: pairs(change), ...(zeros ? { oneSidedPairs: oneSided(zeros) } : {}) }],
  };
  const opts: JudgeOptions = { alpha: 0.05, threshold: 0.02, outliers, correction: 'holm' };
  return judgeResults(r, opts).benchmarks[0]!;
}

const finding = (b: BenchmarkResult) => b.diagnostics!.find((d) => d.code === 'one-sided-zeros');

describe('one-sided zeros', () => {
  it('without any, the pairs decide alone: unchanged on its equivalence interval', () => {
    const b = judged(0, undefined);
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.basis).toBe('equivalence');
    expect(finding(b)).toBeUndefined();
  });

  it('balanced, they are left out: unchanged stands on the same interval, and an info finding says why', () => {
    const plain = judged(0, undefined);
    const b = judged(0, { base: 2, head: 2 });
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.ci).toEqual(plain.change!.ci);
    expect(finding(b)).toMatchObject({ severity: 'info', figures: { baseZero: 2, headZero: 2, pairs: 40, held: null, balanceP: 1, screened: true } });
    expect(wordDiagnostic(finding(b)!, 'cli')).toBe(
      'In 2 pairs base printed 0 and head did not, in 2 pairs the other way round: a pair with one side at 0 forms no ratio, so they are not among the 40 pairs the change is read from. They fall on either side alike, so they are left out as balanced outliers are.',
    );
  });

  it('balanced but with the screen off, nothing is left out: not unchanged', () => {
    const b = judged(0, { base: 1, head: 1 }, 'none');
    expect(b.verdict).toBe('inconclusive');
    expect(finding(b)).toMatchObject({ severity: 'warning', figures: { held: 'unchanged', screened: false } });
    expect(wordDiagnostic(finding(b)!, 'action')).toContain('With the outlier screen off (outliers: none) none of them is left out, and a difference beyond any threshold keeps the benchmark from being called unchanged.');
  });

  it('a small excess is kept as values beyond every other: unchanged stands when the interval with them still fits, and shows that interval', () => {
    const plain = judged(0, undefined);
    const b = judged(0, { base: 3, head: 0 });
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.basis).toBe('equivalence');
    // the interval with the excess reaches further toward head's side, and still lies within ±2%
    expect(b.change!.ci[1]).toBeGreaterThan(plain.change!.ci[1]);
    expect(b.change!.ci[1]).toBeLessThanOrEqual(0.02);
    expect(finding(b)).toMatchObject({ severity: 'warning', figures: { baseZero: 3, headZero: 0, held: null, balanceP: expect.closeTo(0.25, 12) } });
    expect(wordDiagnostic(finding(b)!, 'cli')).toContain('They lean one way (binomial p = 0.25): 3 pairs more in which head counted above 0 and base 0, for head a change for the worse that no percentage can state. Kept as differences beyond any threshold, as the screen keeps an excess of outliers, they weigh in the verdict.');
  });

  it("an excess large enough holds unchanged back, and the interval shown is the test's", () => {
    const plain = judged(0, undefined);
    const b = judged(0, { base: 12, head: 1 });
    expect(b.verdict).toBe('inconclusive');
    expect(b.change!.basis).toBeUndefined();
    expect(b.change!.tested).toBeUndefined();
    expect(b.change!.ci).toEqual(plain.change!.tested!.ci);
    expect(b.change!.ciLevel).toBe(plain.change!.tested!.level);
    // the equivalence interval beside it is the one with the excess: beyond the threshold on head's side
    expect(b.change!.equivalence!.ci[1]).toBeGreaterThan(1);
    expect(finding(b)).toMatchObject({ severity: 'warning', figures: { baseZero: 12, headZero: 1, held: 'unchanged' } });
    expect(wordDiagnostic(finding(b)!, 'cli')).toContain('11 pairs more in which head counted above 0 and base 0, for head a change for the worse that no percentage can state. Kept as differences beyond any threshold, as the screen keeps an excess of outliers, they take the interval that would say unchanged beyond the threshold, so the benchmark is not called unchanged.');
  });

  it('among pairs all equal, a small excess leaves unchanged standing and a significant lean holds it back', () => {
    const judgedWith = (zeros: { base: number; head: number }) => {
      const r: Results = {
        schemaVersion: 1,
        base: { ref: 'main', sha: 'a'.repeat(40) },
        head: { ref: 'pr', sha: 'b'.repeat(40) },
        benchmarks: [{ name: 'BenchmarkParse (allocs/op)', unit: 'allocs/op', direction: 'lower-is-better', pairs: Array.from({ length: 96 }, (_, i) => ({ base: 0, head: 0, order: i % 2 ? ('base-first' as const) : ('head-first' as const) })), oneSidedPairs: oneSided(zeros) }],
      };
      return judgeResults(r, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }).benchmarks[0]!;
    };
    // one pair of excess among 96 equal: the closed interval of values tied at an end stays at [0, 0]
    // (hodges-lehmann.ts, Noether 1967); the range [min, max] used before reached out to the excess
    for (const zeros of [
      { base: 2, head: 1 },
      { base: 5, head: 0 },
    ]) {
      const b = judgedWith(zeros);
      expect(b.verdict).toBe('unchanged');
      expect(b.change!.equivalence!.ci).toEqual([0, 0]);
      expect(finding(b)).toMatchObject({ figures: { held: null, pairs: 96 } });
    }
    // six to none: the sign test alone rejects (p = 0.031), a difference the interval does not show
    const lean = judgedWith({ base: 6, head: 0 });
    expect(lean.verdict).toBe('inconclusive');
    expect(finding(lean)).toMatchObject({ figures: { held: 'unchanged', heldBy: 'lean', pairs: 96 } });
    expect(wordDiagnostic(finding(lean)!, 'cli')).toContain('That lean is significant at the level asked: a difference, even where it moves no interval, so the benchmark is not called unchanged.');
    // its 96 pairs of two zeros are all equal, but the metric varies: no "does not vary between runs"
    expect(lean.diagnostics!.map((d) => d.code)).not.toContain('all-equal');
    expect(judgedWith({ base: 0, head: 0 }).diagnostics!.map((d) => d.code)).toContain('all-equal');
  });

  it('a regression stands when the excess leans the same way, and is held back when it leans the other', () => {
    const worse = judged(0.1, { base: 4, head: 1 });
    expect(worse.verdict).toBe('regression');
    expect(finding(worse)).toMatchObject({ severity: 'warning', figures: { held: null } });
    const against = judged(0.1, { base: 0, head: 4 });
    expect(against.verdict).toBe('inconclusive');
    expect(finding(against)).toMatchObject({ figures: { held: 'regression' } });
    expect(wordDiagnostic(finding(against)!, 'cli')).toContain('4 pairs more in which base counted above 0 and head 0, for head a change for the better that no percentage can state. That is against the regression its other pairs show, so it is left inconclusive.');
    // for a throughput, head above 0 where base printed 0 is the better side
    const r: Results = {
      schemaVersion: 1,
      base: { ref: 'main', sha: 'a'.repeat(40) },
      head: { ref: 'pr', sha: 'b'.repeat(40) },
      benchmarks: [{ name: 'BenchmarkPool (items/s)', unit: 'items/s', direction: 'higher-is-better', pairs: pairs(0.1), oneSidedPairs: oneSided({ base: 4, head: 0 }) }],
    };
    const throughput = judgeResults(r, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }).benchmarks[0]!;
    expect(throughput.verdict).toBe('improvement');
  });

  it('a pair of two zeros is an equal pair: the change is read from it as no change', () => {
    const r: Results = {
      schemaVersion: 1,
      base: { ref: 'main', sha: 'a'.repeat(40) },
      head: { ref: 'pr', sha: 'b'.repeat(40) },
      benchmarks: [{ name: 'BenchmarkQuiet (allocs/op)', unit: 'allocs/op', direction: 'lower-is-better', pairs: Array.from({ length: 12 }, (_, i) => ({ base: 0, head: 0, order: i % 2 ? ('base-first' as const) : ('head-first' as const) })) }],
    };
    const b = judgeResults(r, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }).benchmarks[0]!;
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.estimate).toBe(0);
    expect(b.change!.ci).toEqual([0, 0]);
    expect(b.pairedCv).toBe(0);
    expect(b.base!.median).toBe(0);
  });

  it("leaves out, with a cold pilot's pairs, the one-sided pairs that pilot ran: an allocs/op its design amortizes to 0 is unchanged", () => {
    const design: NonNullable<BenchmarkResult['design']> = { repetitions: 3, warmup: 1, lengthMs: 40, iterations: 20, pilotPairs: 10, pilot: { repetitions: 2, warmup: 1, lengthsMs: [2, 6] }, chosen: true, coldStart: 'first' };
    // the pilot: 8 pairs that counted a pool's fill on both sides, 2 on one side only; then 30 pairs of 0 on both sides
    const pilot = Array.from({ length: 8 }, (_, i) => ({ base: 28610 * (1 + (i % 3)), head: 57169 / (1 + (i % 2)), order: 'base-first' as const }));
    const zeros = Array.from({ length: 30 }, (_, i) => ({ base: 0, head: 0, order: i % 2 ? ('base-first' as const) : ('head-first' as const) }));
    const inPilot = [
      { base: 0, head: 57169, order: 'head-first' as const, after: 3 },
      { base: 0, head: 28610, order: 'base-first' as const, after: 6 },
    ];
    const judge = (oneSidedPairs: NonNullable<BenchmarkResult['oneSidedPairs']>) =>
      judgeResults(
        { schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks: [{ name: 'BenchmarkParse (allocs/op)', unit: 'allocs/op', direction: 'lower-is-better', pairs: [...pilot, ...zeros], oneSidedPairs, design }] },
        { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' },
      ).benchmarks[0]!;
    const b = judge(inPilot);
    expect(b.verdict).toBe('unchanged');
    expect(b.change!.estimate).toBe(0);
    expect(finding(b)).toBeUndefined();
    // the cold pilot's note counts what it left out of `pairs`: 8 of its 10 pairs, the other 2 one-sided
    expect(b.diagnostics!.find((d) => d.code === 'cold-pilot')?.figures).toMatchObject({ pilotPairs: 8, judged: 30 });
    // those after the pilot are judged: six to none keep the benchmark from unchanged (the sign
    // test rejects), where the pilot's two, left out, did not count
    const after = judge([...inPilot, ...Array.from({ length: 6 }, (_, k) => ({ base: 0, head: 3, order: 'base-first' as const, after: 20 + k }))]);
    expect(after.verdict).toBe('inconclusive');
    expect(finding(after)).toMatchObject({ figures: { baseZero: 6, headZero: 0, pairs: 30, held: 'unchanged' } });
    const fiveAfter = judge([...inPilot, ...Array.from({ length: 5 }, (_, k) => ({ base: 0, head: 3, order: 'base-first' as const, after: 20 + k }))]);
    expect(fiveAfter.verdict).toBe('unchanged');
  });

  it('calls a count that goes from 0 a regression from its one-sided pairs, with no percentage, and a lean among equal pairs not', () => {
    const row = (pairs: BenchmarkResult['pairs'], zeros: { base: number; head: number }): BenchmarkResult => ({ name: 'BenchmarkPool (B/op)', unit: 'B', direction: 'lower-is-better', pairs, oneSidedPairs: oneSided(zeros) });
    const judgeAll = (rows: BenchmarkResult[]) =>
      judgeResults({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks: rows }, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }).benchmarks;
    const equal = (n: number) => Array.from({ length: n }, (_, i) => ({ base: 0, head: 0, order: i % 2 ? ('base-first' as const) : ('head-first' as const) }));
    const [fromZero, fewRatios, amongEqual, tooFew] = judgeAll([
      // every pair: base 0, head 16
      row([], { base: 12, head: 0 }),
      // most pairs one-sided, a few both above 0 (16 against 32)
      row(Array.from({ length: 4 }, () => ({ base: 16, head: 32, order: 'base-first' as const })), { base: 40, head: 0 }),
      // a lean among many equal pairs: significant, but a tail (13% of the pairs), not a shift: the interval with them stays at 0, and the lean holds unchanged back
      row(equal(80), { base: 12, head: 0 }),
      // too few to tell
      row([], { base: 3, head: 0 }),
    ]);
    expect(fromZero!.verdict).toBe('regression');
    expect(fromZero!.change).toBeNull();
    expect([fromZero!.base!.median, fromZero!.head!.median]).toEqual([0, 16]);
    expect(finding(fromZero!)).toMatchObject({ severity: 'warning', figures: { decided: 'regression', pairs: 0, baseZero: 12, headZero: 0 } });
    expect(wordDiagnostic(finding(fromZero!)!, 'cli')).toContain('it is called a regression, with no percentage, since none can state a change from 0');
    expect(fewRatios!.verdict).toBe('regression');
    expect(finding(fewRatios!)).toMatchObject({ figures: { decided: 'regression' } });
    // significant (p = 0.0005) but a tail: not called a change, and not unchanged either
    expect(amongEqual!.verdict).toBe('inconclusive');
    expect(amongEqual!.change!.ci).toEqual([0, 0]);
    expect(finding(amongEqual!)).toMatchObject({ severity: 'warning', figures: { held: 'unchanged', heldBy: 'lean', baseZero: 12 } });
    expect(finding(amongEqual!)!.figures).not.toHaveProperty('decided');
    expect(tooFew!.verdict).toBe('inconclusive');
    expect(wordDiagnostic(finding(tooFew!)!, 'cli')).toContain('Too few to call a change: the benchmark is left inconclusive.');
    // an allocation removed: improvement
    const [removed] = judgeAll([row([], { base: 0, head: 12 })]);
    expect(removed!.verdict).toBe('improvement');
  });

  it('every report shows a change from 0 as such: from 0, each side by its median, the pairs with a 0 counted', () => {
    const judgedFile = judgeResults(
      { schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks: [{ name: 'BenchmarkPool (B/op)', unit: 'B', direction: 'lower-is-better', pairs: [], oneSidedPairs: oneSided({ base: 12, head: 0 }) }] },
      { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' },
    );
    expect(judgedFile.verdict).toBe('regression');
    const md = renderMarkdown(judgedFile);
    expect(md).toMatch(/\| 🔴 regression \| \*\*BenchmarkPool \(B\/op\)\*\* \| .* \| \*\*from 0\*\* \| 0 B → 16\.0 B \| 0 \+ 12 with a 0 \|/);
    expect(md).not.toContain('No usable pairs');
    const html = renderHtml(judgedFile);
    expect(html).toContain('change from 0');
    expect(html).toContain('12 more with one side at 0');
    expect(html).toContain('No pair formed a ratio: in each of the 12, one side printed 0 (base 0 B, head 16.0 B by the median)');
    expect(html).not.toContain('No pairs were measured.');
    const text = renderTerminal(judgedFile, { color: false });
    expect(text).toMatch(/BenchmarkPool \(B\/op\)\s+0 B ±0%\s+16\.0 B ±0%\s+—\s+from 0\s+—\s+0 \+12 with a 0\s+regression/);
  });
});
