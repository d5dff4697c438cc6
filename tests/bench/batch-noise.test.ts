/** bench/batch-noise.ts: whether the benchmarks of one batch move together, from a results file's pairs. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchesOf, batchNoise } from '../../bench/batch-noise.ts';

const ROOT = join(import.meta.dirname, '../..');

/** pairs whose ln(head/base) are the given changes, base 100, orders alternating */
function bench(name: string, changes: number[]): { name: string; pairs: Array<{ base: number; head: number; order: 'head-first' | 'base-first' }> } {
  return { name, pairs: changes.map((c, i) => ({ base: 100, head: 100 * Math.exp(c), order: i % 2 === 0 ? 'head-first' : 'base-first' })) };
}

describe('batch noise', () => {
  it('finds each batch in the rounds at its largest membership, leaving single benchmarks and unknown names out', () => {
    const names = new Set(['a', 'b', 'c', 'd', 'e']);
    const rounds = [['a, b, c', 'd'], ['d', 'a, b, c'], ['b, c'], ['e, x']];
    expect(batchesOf(rounds, names)).toEqual([['a', 'b', 'c']]);
    expect(batchesOf([['b, c'], ['a, b, c']], names)).toEqual([['a', 'b', 'c']]);
  });

  it('reads members that move together as correlated, and judges their shared shift as one benchmark', () => {
    // a shared per-pair component (the process) and a small one of each member's own
    const shared = [0.05, -0.04, 0.03, -0.06, 0.02, 0.04, -0.03, 0.01, -0.05, 0.06, -0.02, 0.03];
    const a = shared.map((s, i) => s + (i % 3 === 0 ? 0.004 : -0.002));
    const b = shared.map((s, i) => s + (i % 2 === 0 ? -0.003 : 0.003));
    const r = batchNoise([bench('a', a), bench('b', [...b, 0.5, 0.5])]);
    expect(r.shared).toBe(12);
    expect(r.members.map((m) => m.pairs)).toEqual([12, 14]);
    expect(r.ordersAgree).toBe(1);
    expect(r.correlation[0]![1]).toBeGreaterThan(0.95);
    expect(r.correlation[0]![0]).toBeCloseTo(1, 12);
    // centred on zero: the shared shift's interval holds 0 and the test finds nothing
    expect(r.shift.lower).toBeLessThan(0);
    expect(r.shift.upper).toBeGreaterThan(0);
    expect(r.shift.p).toBeGreaterThan(0.2);
    // the same, every pair 3% slower: a shift that the interval places and the test finds
    const up = batchNoise([bench('a', a.map((x) => x + 0.03)), bench('b', b.map((x) => x + 0.03))]);
    expect(up.shift.estimate).toBeGreaterThan(0.02);
    expect(up.shift.lower).toBeGreaterThan(0);
    expect(up.shift.p).toBeLessThan(0.05);
  });

  it('reads members that do not move together as uncorrelated, and says when pairs were not run together', () => {
    const a = [0.02, -0.02, 0.02, -0.02, 0.02, -0.02, 0.02, -0.02];
    const b = [0.02, 0.02, -0.02, -0.02, 0.02, 0.02, -0.02, -0.02];
    const other = bench('b', b);
    other.pairs[0]!.order = 'base-first';
    const r = batchNoise([bench('a', a), other]);
    expect(Math.abs(r.correlation[0]![1]!)).toBeLessThan(1e-12);
    expect(r.ordersAgree).toBe(7 / 8);
  });

  it('refuses to run without a file, in one line with exit status 2', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/batch-noise.ts')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/usage: node bench\/batch-noise\.ts <results\.json>/);
    const missing = spawnSync(process.execPath, [join(ROOT, 'bench/batch-noise.ts'), join(ROOT, 'no-such-results.json')], { encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/no-such-results\.json: no such file; expected a pairbench results file/);
  });
});
