/** `--pair-runs at-once` (config/at-once.ts): each side on a CPU of its own where the machine allows, else in turn, and why. */
import { describe, expect, it } from 'vitest';
import { chooseAtOnce } from '../../src/config/at-once.ts';

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
