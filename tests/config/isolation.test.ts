/** `--cpus auto` (config/isolation.ts): bound to every CPU but the lowest where the machine allows, else unbound, and why. */
import { describe, expect, it } from 'vitest';
import { chooseIsolation, formatsGainFromBinding } from '../../src/config/isolation.ts';

const linux = { platform: 'linux' as const, taskset: true };

describe('chooseIsolation', () => {
  it('binds the runs to every allowed CPU but the lowest, which is left to pairbench', () => {
    expect(chooseIsolation({ ...linux, allowed: [0, 1] })).toEqual({
      asked: 'auto',
      cpus: '1',
      reason: "bound to CPU 1, every CPU this process may use but CPU 0, which is left to pairbench's own process and its run helper",
    });
    // the CPUs as given to this process, in any order, however they are numbered
    expect(chooseIsolation({ ...linux, allowed: [7, 2, 3, 4] })).toMatchObject({ cpus: '3-4,7', reason: expect.stringMatching(/^bound to CPUs 3-4,7, every CPU this process may use but CPU 2, /) as unknown });
    // a list of many CPUs is written whole: taskset reads it
    expect(chooseIsolation({ ...linux, allowed: Array.from({ length: 40 }, (_, i) => 2 * i) }).cpus!.split(',')).toHaveLength(39);
  });

  it('leaves the runs unbound where the machine cannot bind them, saying why', () => {
    expect(chooseIsolation({ ...linux, allowed: [3] })).toEqual({ asked: 'auto', cpus: null, reason: "not bound: this process may use only CPU 3, none to leave to pairbench's own process" });
    expect(chooseIsolation({ platform: 'linux', allowed: [0, 1], taskset: false })).toEqual({ asked: 'auto', cpus: null, reason: "not bound: taskset is missing (util-linux's taskset binds the runs)" });
    expect(chooseIsolation({ platform: 'darwin', allowed: null, taskset: false })).toEqual({ asked: 'auto', cpus: null, reason: 'not bound: binding runs to CPUs needs Linux (taskset), and this system is darwin' });
    expect(chooseIsolation({ ...linux, allowed: null })).toEqual({ asked: 'auto', cpus: null, reason: 'not bound: the CPUs this process may use could not be read (/proc/self/status)' });
  });

  it('binds only where every format compared was measured to gain: Go, pytest-benchmark and pyperf, not a config that mixes in another', () => {
    expect(formatsGainFromBinding(['go'])).toBe(true);
    expect(formatsGainFromBinding(['go', 'pytest-benchmark'])).toBe(true);
    expect(formatsGainFromBinding(['pyperf'])).toBe(true);
    // measured to lose: Criterion's analysis threads share the CPU (docs/measuring.md, "Bound to CPUs")
    expect(formatsGainFromBinding(['bencher'])).toBe(false);
    expect(formatsGainFromBinding(['criterion'])).toBe(false);
    expect(formatsGainFromBinding(['time'])).toBe(false);
    expect(formatsGainFromBinding(['vitest'])).toBe(false);
    expect(formatsGainFromBinding(['go', 'time'])).toBe(false);
  });
});
