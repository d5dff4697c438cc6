/** `--pair-runs auto` and `at-once` (config/at-once.ts): each side on a CPU of its own where the machine allows, else in turn, and why. */
import { describe, expect, it } from 'vitest';
import { AT_ONCE_BUSY_LIMIT, chooseAtOnce, keepAtOnce } from '../../src/config/at-once.ts';
import type { CpuHost } from '../../src/config/cpus.ts';
import { buildSpec, cliNaming } from '../../src/config/spec.ts';

const linux = { platform: 'linux' as const, taskset: true };

describe('chooseAtOnce', () => {
  it('binds the two sides to the two highest CPUs this process may use, or to the first two of a --cpus list', () => {
    expect(chooseAtOnce({ ...linux, allowed: [0, 1] }, null)).toEqual({
      cpus: ['0', '1'],
      reason: "at once: both sides of every pair started together, one on CPU 0 and one on CPU 1, the pair's coin choosing which",
    });
    // the lower CPUs are left to pairbench's own process and the system, in any order given
    expect(chooseAtOnce({ ...linux, allowed: [7, 2, 3, 4] }, null).cpus).toEqual(['4', '7']);
    // a list as the user wrote it: its first two, in its order
    expect(chooseAtOnce({ ...linux, allowed: [0, 1, 2, 3] }, [3, 1, 2]).cpus).toEqual(['3', '1']);
  });

  it('runs the pairs in turn where the machine cannot bind two CPUs, saying why', () => {
    expect(chooseAtOnce({ ...linux, allowed: [3] }, null)).toEqual({ cpus: null, reason: 'in turn: this process may use only CPU 3, and both sides at once need two' });
    expect(chooseAtOnce({ platform: 'linux', allowed: [0, 1], taskset: false }, null)).toEqual({ cpus: null, reason: "in turn: taskset is missing (util-linux's taskset binds each side to its CPU)" });
    expect(chooseAtOnce({ platform: 'darwin', allowed: null, taskset: false }, null)).toEqual({ cpus: null, reason: 'in turn: running both sides at once binds each to a CPU of its own, which needs Linux (taskset), and this system is darwin' });
    expect(chooseAtOnce({ ...linux, allowed: null }, null)).toEqual({ cpus: null, reason: 'in turn: the CPUs this process may use could not be read (/proc/self/status)' });
  });
});

describe('--pair-runs auto, the default, chosen from the machine (buildSpec)', () => {
  const spec = (flags: Record<string, string>, host: CpuHost) => buildSpec({ 'base-dir': '.', 'head-dir': '.', run: './bench', ...flags }, { cwd: '/', naming: cliNaming, host });
  const two: CpuHost = { ...linux, allowed: [0, 1, 2, 3] };

  it('runs the pairs at once on the two highest CPUs where the machine gives each side one', () => {
    const s = spec({}, two);
    expect(s.pairRuns).toBe('auto');
    expect(s.atOnce?.cpus).toEqual(['2', '3']);
    // the sides' CPUs are the pair's, not a --cpus binding of every run
    expect(s.cpus).toBeUndefined();
    expect(s.isolation).toBeUndefined();
  });

  it('runs them in turn where it cannot, bound as --cpus auto binds in turn, the reason recorded', () => {
    const noTaskset = spec({ format: 'go', run: 'go test -bench=.' }, { platform: 'linux', allowed: [0, 1], taskset: false });
    expect(noTaskset.atOnce).toEqual({ cpus: null, reason: "in turn: taskset is missing (util-linux's taskset binds each side to its CPU)" });
    expect(noTaskset.isolation?.cpus).toBeNull();
    const one = spec({ format: 'go', run: 'go test -bench=.' }, { ...linux, allowed: [5] });
    expect(one.atOnce?.cpus).toBeNull();
    expect(one.atOnce?.reason).toBe('in turn: this process may use only CPU 5, and both sides at once need two');
  });

  it('leaves where every run goes to --cpus none or a list, in turn, with nothing recorded of pair runs', () => {
    const none = spec({ cpus: 'none' }, two);
    expect(none.atOnce).toBeUndefined();
    expect(none.isolation?.cpus).toBeNull();
    const listed = spec({ cpus: '0-3' }, two);
    expect(listed.atOnce).toBeUndefined();
    expect(listed.cpus).toBe('0-3');
    // asked at once, a list of two or more gives the sides its first two
    expect(spec({ cpus: '3,1', 'pair-runs': 'at-once' }, two).atOnce?.cpus).toEqual(['3', '1']);
  });

  it('in-turn keeps every run where --cpus auto puts it in turn: a Go suite on every CPU but the lowest', () => {
    const s = spec({ format: 'go', run: 'go test -bench=.', 'pair-runs': 'in-turn' }, two);
    expect(s.atOnce).toBeUndefined();
    expect(s.cpus).toBe('1-3');
  });
});

describe('keepAtOnce: at once only while the two CPUs are free of other work', () => {
  const atOnce = chooseAtOnce({ ...linux, allowed: [0, 1, 2, 3] }, null);

  it('keeps the pairs at once where other work leaves both CPUs free, or the machine cannot say', () => {
    expect(keepAtOnce(atOnce, new Map([['2', 0.05], ['3', AT_ONCE_BUSY_LIMIT]]))).toBe(atOnce);
    expect(keepAtOnce(atOnce, null)).toBe(atOnce);
    // other CPUs do not count: only the two the sides run on
    expect(keepAtOnce(atOnce, new Map([['0', 1], ['2', 0], ['3', 0]]))).toBe(atOnce);
  });

  it('runs them in turn where other work keeps either of the two busy beyond the limit, naming the busier', () => {
    expect(keepAtOnce(atOnce, new Map([['2', 0.3], ['3', 0.71]]))).toEqual({
      cpus: null,
      reason: 'in turn: other work kept CPU 3 busy 71% of the time just before measuring, and at once what runs on one CPU slows one side of each pair alone',
    });
    // a choice already in turn stays as it is
    const inTurn = chooseAtOnce({ ...linux, allowed: [0] }, null);
    expect(keepAtOnce(inTurn, new Map([['0', 1]]))).toBe(inTurn);
  });
});
