/**
 * The instructions arm of bench:suites (bench/lib/count-arm.ts): its instruction rows read from a
 * results file, the count truth per benchmark, and its table. Pure: no benchmark is run.
 */
import { describe, expect, it } from 'vitest';
import { countKind, countRows, renderCounts, type CountRow } from '../../bench/lib/count-arm.ts';
import type { Results } from '../../src/results/schema.ts';

const pairs = (base: number[], head: number[]) => base.map((b, i) => ({ base: b, head: head[i]!, order: 'base-first' as const }));

describe('the instruction rows of a results file', () => {
  it('names them as their wall rows, with the larger side spread, the unsteady finding and base\'s median count', () => {
    const results = {
      benchmarks: [
        { name: 'BenchmarkA', unit: 'ns', direction: 'lower-is-better', verdict: 'unchanged', pairs: pairs([10, 11], [10, 12]) },
        { name: 'BenchmarkA (instructions)', unit: 'instructions', direction: 'lower-is-better', verdict: 'regression', change: { estimate: 0.011, ci: [0.01, 0.012] }, pairs: pairs([1000, 1001, 1002], [1010, 1011, 1016]) },
        { name: 'BenchmarkB (instructions)', unit: 'instructions', direction: 'lower-is-better', verdict: 'inconclusive', diagnostics: [{ code: 'unsteady-counts', severity: 'warning', figures: { base: 0.004, head: 0, tolerance: 0.0025 } }], pairs: pairs([500, 502], [500, 500]) },
      ],
    } as unknown as Results;
    const rows = countRows(results);
    expect(rows.map((r) => r.name)).toEqual(['BenchmarkA', 'BenchmarkB']);
    expect(rows[0]).toMatchObject({ verdict: 'regression', estimate: 0.011, pairs: 3, unsteady: false, base: 1001 });
    // head's (1016 - 1010) / 1011 is wider than base's 2 / 1001
    expect(rows[0]!.spread).toBeCloseTo(6 / 1011, 10);
    expect(rows[1]).toMatchObject({ verdict: 'inconclusive', estimate: null, unsteady: true, base: 500 });
    expect(rows[1]!.spread).toBeCloseTo(2 / 501, 10);
  });
});

describe('the count truth', () => {
  it('Go: no call is unaffected; calls x one spin over base\'s count at 0.5% or more is affected, less is marginal', () => {
    const basis = { spinInstructions: 50 };
    expect(countKind('x', basis, 0, 1e6)).toEqual({ kind: 'unaffected', truth: 0 });
    expect(countKind('x', basis, 10, 100_000)).toEqual({ kind: 'affected', truth: 0.005 });
    expect(countKind('x', basis, 10, 200_000)).toEqual({ kind: 'marginal', truth: 0.0025 });
    // no count of base yet: the size is unknown
    expect(countKind('x', basis, 10, null)).toEqual({ kind: 'marginal', truth: null });
  });

  it('the calibration copy: its change over the factor; unaffected when the copy moved less than the threshold', () => {
    const basis = { factor: 10, calibration: { big: 0.1, none: 0.002, small: 0.02 } };
    expect(countKind('big', basis, undefined, null)).toEqual({ kind: 'affected', truth: 0.01 });
    expect(countKind('none', basis, undefined, null)).toEqual({ kind: 'unaffected', truth: 0.0002 });
    expect(countKind('small', basis, undefined, null).kind).toBe('marginal');
    expect(countKind('missing', basis, undefined, null)).toEqual({ kind: 'marginal', truth: null });
  });
});

describe('the table', () => {
  const row = (name: string, verdict: string, base: number, unsteady = false): CountRow => ({ name, verdict, estimate: null, pairs: 4, spread: unsteady ? 0.004 : 0.0001, unsteady, base });
  const common = { arm: 'instructions', condition: 'quiet', wallMs: 600_000, lastVerdictMs: 300_000, countVerdictMs: 120_000 };
  const runs = [
    { ...common, suite: 'go', against: 'aa' as const, counts: [row('A', 'unchanged', 1e5), row('B', 'unchanged', 1e5), row('C', 'inconclusive', 1e5, true)], outcomes: [{ name: 'A', flagged: null, verdict: 'unchanged' }, { name: 'B', flagged: 'regression', verdict: 'regression' }, { name: 'C', flagged: null, verdict: 'unchanged' }] },
    { ...common, suite: 'go', against: 'head' as const, counts: [row('A', 'regression', 1e5), row('B', 'unchanged', 1e5), row('C', 'regression', 1e5)], outcomes: [{ name: 'A', flagged: 'regression', verdict: 'regression' }, { name: 'B', flagged: null, verdict: 'unchanged' }, { name: 'C', flagged: null, verdict: 'unchanged' }] },
    { ...common, suite: 'go', against: 'head' as const, arm: 'benchmark', lastVerdictMs: 200_000, outcomes: [] },
  ];
  const calls: Record<string, number> = { A: 10, B: 0, C: 1 };
  const md = renderCounts(runs, () => new Map([['A', 'affected'], ['B', 'unaffected'], ['C', 'marginal']]), (_s, name, base) => countKind(name, { spinInstructions: 50 }, calls[name], base));

  it('scores A/A on unchanged and flagged instruction rows, head on the affected and the unaffected, with the wall rows beside, and the cost beside the wall-time arm\'s of the same suite and side', () => {
    const lines = md.split('\n').filter((l) => l.startsWith('| go | quiet |'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('| go | quiet | A/A | 2 of 3 | 0 of 3 | | | — / 1 of 3 | 4, 4 | 0.01% | 1 of 3 | 2m 00s | 5m 00s | 10m 00s | — |');
    expect(lines[1]).toBe('| go | quiet | head | | | 1 of 1 | 0 of 1 | 1 of 1 / 0 of 1 | 4, 4 | 0.01% | 0 of 3 | 2m 00s | 5m 00s | 10m 00s | 3m 20s, 10m 00s |');
    expect(md).toContain('| go | C | marginal | 0.05% | — | regression | 4 | 0.01% |');
  });

  it('says why a run has no instruction row, as pairbench recorded it', () => {
    const refused = renderCounts([{ ...common, suite: 'snappy', against: 'aa', counts: [], countFailure: 'instruction counts per benchmark need Google Benchmark 1.8 or later', outcomes: [] }], () => new Map(), () => ({ kind: 'marginal', truth: null }));
    expect(refused).toContain('| snappy | quiet | aa | not counted: instruction counts per benchmark need Google Benchmark 1.8 or later |');
  });

  it('is empty when no run is of the arm', () => {
    expect(renderCounts(runs.slice(2), () => new Map(), () => ({ kind: 'marginal', truth: null }))).toBe('');
  });
});
