/**
 * The reports label the interval with the level it is computed at: with several benchmarks the
 * level of the correction (change.ciLevel), not 1 - alpha, so a reader never sees an interval
 * that excludes 0 next to a verdict that is not significant.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { Results } from '../../src/results/schema.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

/** 10 benchmarks, 30 pairs each; the first two 6% slower, the rest unchanged. */
function suite(stoppedEarly = false, budgetEnded = false): Results {
  const rng = mulberry32(11);
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { alpha: 0.05, threshold: 0.02 },
    benchmarks: Array.from({ length: 10 }, (_, i) => ({
      name: `b${i}`,
      unit: 'ms',
      direction: 'lower-is-better' as const,
      ...(stoppedEarly && i === 9 ? { stoppedBecause: 'precision' } : budgetEnded ? { stoppedBecause: 'max-pairs' } : {}),
      pairs: Array.from({ length: 30 }, () => {
        const base = 10 * (1 + rng() * 0.2);
        return { base, head: base * (i < 2 ? 1.06 : 1) * (1 + (rng() - 0.5) * 0.02), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
      }),
    })),
  };
}

const opts = { alpha: 0.05, threshold: 0.02, outliers: 'none' as const, correction: 'holm' as const };

describe('the interval is labelled with its level', () => {
  it("counts the correction's family in its note: not a throughput read from its time, nor a row whose every pair is equal", () => {
    const base = suite();
    const mbps = base.benchmarks.map((b) => ({ ...b, name: `${b.name} (MB/s)`, unit: 'B/s', direction: 'higher-is-better' as const, reciprocalOf: b.name, pairs: b.pairs.map((p) => ({ ...p, base: 1e9 / p.base, head: 1e9 / p.head })) }));
    const equal = { ...base.benchmarks[0]!, name: 'b0 (allocs/op)', unit: 'allocs/op', pairs: base.benchmarks[0]!.pairs.map((p) => ({ ...p, base: 3, head: 3 })) };
    const r = judgeResults({ ...base, benchmarks: [...base.benchmarks, ...mbps, equal] }, opts);
    expect(r.benchmarks.filter((b) => b.change?.readFrom !== undefined)).toHaveLength(10);
    expect(renderTerminal(r, { color: false })).toContain("the level of Holm's correction over 10 benchmarks (95% for them together)");
  });

  it('10 benchmarks, 2 rejected by Holm: intervals at 1 - 0.05/8 = 99.375%, in the file and both reports', () => {
    const r = judgeResults(suite(), opts);
    expect(r.benchmarks.map((b) => b.verdict)).toEqual(['regression', 'regression', ...Array(8).fill('unchanged')]);
    // the test's intervals at Holm's level; the unchanged rows show their equivalence interval (90%)
    for (const b of r.benchmarks) expect(b.change!.tested?.level ?? b.change!.ciLevel).toBeCloseTo(0.99375, 12);
    for (const b of r.benchmarks.slice(2)) {
      expect(b.change!.basis).toBe('equivalence');
      expect(b.change!.ciLevel).toBeCloseTo(0.9, 12);
    }
    const terminal = renderTerminal(r, { color: false });
    expect(terminal).toContain('change [90–99.375% CI]');
    expect(terminal).toContain("Unchanged rows show their equivalence interval, at 90% (two one-sided tests at 5% each), which lies within ±threshold; the others are at 99.375%: the level of Holm's correction over 10 benchmarks (95% for them together)");
    const md = renderMarkdown(r, { commentId: 'x' });
    expect(md).toContain('change [90–99.375% interval]');
    expect(md).toContain("<sub>Unchanged rows show their equivalence interval, at 90% (two one-sided tests at 5% each), which lies within ±threshold; the others are at 99.375%: the level of Holm's correction over 10 benchmarks (95% for them together); a change is significant when its interval excludes 0</sub>");
  });

  it('an early stop raises its interval again: the label shows the range', () => {
    const r = judgeResults(suite(true), opts);
    expect(r.benchmarks[9]!.change!.tested!.level).toBeCloseTo(1 - 0.05 / 16, 12);
    // its equivalence interval is raised too: 95% instead of 90%
    expect(r.benchmarks[9]!.change!.ciLevel).toBeCloseTo(0.95, 12);
    expect(renderTerminal(r, { color: false })).toContain('change [90–99.375% CI]');
    expect(renderTerminal(r, { color: false })).toContain("Unchanged rows show their equivalence interval, at 90–95% (two one-sided tests at 2.5–5% each, higher where pairbench's stopping rules watched the pairs)");
  });

  it('pairs the stopping rules watched but the budget ended: the equivalence interval at 95% too, the test\'s interval at its plain level', () => {
    const r = judgeResults(suite(false, true), opts);
    expect(r.benchmarks.map((b) => b.verdict)).toEqual(['regression', 'regression', ...Array(8).fill('unchanged')]);
    for (const b of r.benchmarks) expect(b.change!.tested?.level ?? b.change!.ciLevel).toBeCloseTo(0.99375, 12);
    for (const b of r.benchmarks.slice(2)) expect(b.change!.ciLevel).toBeCloseTo(0.95, 12);
    expect(renderTerminal(r, { color: false })).toContain('Unchanged rows show their equivalence interval, at 95% (two one-sided tests at 2.5% each), which lies within ±threshold');
  });

  it('one benchmark: 95% as before, and no note', () => {
    const one = suite();
    const r = judgeResults({ ...one, benchmarks: one.benchmarks.slice(0, 1) }, opts);
    const terminal = renderTerminal(r, { color: false });
    expect(terminal).toContain('change [95% CI]');
    expect(terminal).not.toContain('Intervals at');
  });
});
