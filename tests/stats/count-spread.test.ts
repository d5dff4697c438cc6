/** The spread of one side's instruction counts (src/stats/count-spread.ts), and what it does to a verdict (src/stats/judge.ts). */
import { describe, expect, it } from 'vitest';
import { COUNT_SPREAD_TOLERANCE, countSpread, spreadOf } from '../../src/stats/count-spread.ts';
import { judge } from '../../src/stats/judge.ts';
import type { Pair } from '../../src/stats/types.ts';

const pairs = (base: number[], head: number[]): Pair[] => base.map((b, i) => ({ base: b, head: head[i]!, order: i % 2 === 0 ? 'base-first' : 'head-first' }));

describe('spreadOf', () => {
  it('is the range over the median', () => {
    expect(spreadOf([100, 101, 102])).toBeCloseTo(2 / 101, 12);
    expect(spreadOf([100, 102, 101, 103])).toBeCloseTo(3 / 101.5, 12);
  });
  it('is 0 for fewer than two values or a median of 0', () => {
    expect(spreadOf([5])).toBe(0);
    expect(spreadOf([0, 0, 1])).toBe(0);
  });
});

describe('countSpread', () => {
  it('is unsteady when either side spreads beyond 0.25%', () => {
    expect(countSpread(pairs([1e6, 1e6 + 2000, 1e6 + 1000], [1e6, 1e6, 1e6])).unsteady).toBe(false);
    expect(countSpread(pairs([1e6, 1e6, 1e6], [1e6, 1e6 + 2600, 1e6 + 1000]))).toMatchObject({ base: 0, unsteady: true });
    expect(COUNT_SPREAD_TOLERANCE).toBe(0.0025);
  });
});

describe('judging instruction counts', () => {
  const opts = { alpha: 0.05, threshold: 0.005, outliers: 'tukey' as const, correction: 'holm' as const };
  // one side's counts within 0.1%, the other's alike: nothing between them
  const steadyBase = [200_000, 200_020, 200_010, 200_005, 200_015, 200_000, 200_010, 200_020, 200_005, 200_010];
  const steadyHead = [200_010, 200_000, 200_020, 200_005, 200_010, 200_015, 200_000, 200_005, 200_020, 200_010];

  it('steady counts with nothing between them are unchanged', () => {
    const [b] = judge([{ name: 'x (instructions)', direction: 'lower-is-better', counted: true, pairs: pairs(steadyBase, steadyHead) }], opts).benchmarks;
    expect(b!.verdict).toBe('unchanged');
    expect(b!.diagnostics.map((d) => d.code)).not.toContain('unsteady-counts');
  });

  it('counts that spread by 1% on one side are never unchanged, and the finding gives each side\'s spread', () => {
    const head = steadyHead.map((v, i) => v + (i % 3 === 0 ? 2_000 : 0));
    const [b] = judge([{ name: 'x (instructions)', direction: 'lower-is-better', counted: true, pairs: pairs(steadyBase, head) }], opts).benchmarks;
    expect(b!.verdict).toBe('inconclusive');
    // more pairs of such counts cannot settle it: no count of pairs is promised
    expect(b!.pairsToSettle).toBeNull();
    const note = b!.diagnostics.find((d) => d.code === 'unsteady-counts');
    expect(note).toMatchObject({ severity: 'warning', figures: { tolerance: 0.0025 } });
    expect((note!.figures as { head: number }).head).toBeCloseTo(spreadOf(head), 12);
    expect((note!.figures as { head: number }).head).toBeGreaterThan(0.009);
  });

  it('counts are not screened for outliers: near-constant counts with one far pair flag none', () => {
    const head = [...steadyHead];
    head[4] = 200_900;
    const counted = judge([{ name: 'x (instructions)', direction: 'lower-is-better', counted: true, pairs: pairs(steadyBase, head) }], opts).benchmarks[0]!;
    const timed = judge([{ name: 'x', direction: 'lower-is-better', pairs: pairs(steadyBase, head) }], opts).benchmarks[0]!;
    // the screen flags pair 5 of the times (kept: one flagged pair alone is kept, not excluded); of the counts, none
    const flagged = (b: typeof counted) => [...b.outliers, ...(b.outliersKept ?? [])];
    expect(flagged(counted)).toEqual([]);
    expect(flagged(timed)).toEqual([4]);
  });
});
