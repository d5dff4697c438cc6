/**
 * The order of the report's groups among the inconclusive: benchmarks whose own measure is
 * undecided first, by their own change; those left undecided by an extra metric alone after them
 * (report/rows.ts, `groupRows`).
 */
import { describe, expect, it } from 'vitest';
import { groupRows } from '../../src/report/rows.ts';
import type { BenchmarkResult } from '../../src/results/schema.ts';
import type { Verdict } from '../../src/stats/types.ts';

function row(name: string, verdict: Verdict, estimate: number, unit = 'ns'): BenchmarkResult {
  return { name, unit, direction: 'lower-is-better', pairs: [{ base: 1, head: 1, order: 'base-first' }], verdict, change: { estimate, ci: [estimate - 0.05, estimate + 0.05], pValue: 0.5 } };
}

describe('the order of the inconclusive benchmarks', () => {
  it("puts the benchmarks whose own time is undecided before one undecided only by a count, whatever the count's change", () => {
    const groups = groupRows([
      // time unchanged, allocs/op a pool filled in some runs only: +3264.8%
      row('BenchmarkPool', 'unchanged', 0.001),
      row('BenchmarkPool (allocs/op)', 'inconclusive', 32.648, 'allocs'),
      row('BenchmarkSmall', 'inconclusive', 0.015),
      row('BenchmarkLarge', 'inconclusive', 0.057),
      row('BenchmarkLarge (B/op)', 'inconclusive', 0.9, 'B'),
      row('BenchmarkQuiet', 'unchanged', 0),
    ]);
    expect(groups.map((g) => [g.primary.result.name, g.kind])).toEqual([
      ['BenchmarkLarge', 'inconclusive'],
      ['BenchmarkSmall', 'inconclusive'],
      ['BenchmarkPool', 'inconclusive'],
      ['BenchmarkQuiet', 'unchanged'],
    ]);
  });

  it('keeps regressions ordered by their worst row', () => {
    const groups = groupRows([row('BenchmarkA', 'regression', 0.05), row('BenchmarkB', 'unchanged', 0), row('BenchmarkB (B/op)', 'regression', 0.5, 'B')]);
    expect(groups.map((g) => g.primary.result.name)).toEqual(['BenchmarkB', 'BenchmarkA']);
  });
});
