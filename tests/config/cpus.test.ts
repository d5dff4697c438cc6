/** `--cpus`: the list, and what it needs of the machine (config/cpus.ts), each refusal one message naming the input and value. */
import { describe, expect, it } from 'vitest';
import { parseCpuList, parseCpus, type CpuHost } from '../../src/config/cpus.ts';
import { UsageError } from '../../src/config/errors.ts';

const linux: CpuHost = { platform: 'linux', allowed: [0, 1, 2, 3], taskset: true };

function refusal(value: string, host: CpuHost): string {
  try {
    parseCpus('--cpus', value, host);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error(`${value} was accepted`);
}

describe('--cpus', () => {
  it('reads a cpuset list as Linux writes one', () => {
    expect(parseCpuList('1')).toEqual([1]);
    expect(parseCpuList('0,2')).toEqual([0, 2]);
    expect(parseCpuList('2-3,6')).toEqual([2, 3, 6]);
    for (const bad of ['', 'one', '1-', '-1', '3-1', '1,,2', '1 2', '0-99999']) expect(parseCpuList(bad), bad).toBeNull();
  });

  it('bounds a list from anywhere: CPU numbers below 8192, each once, so no text expands past 8192 entries', () => {
    expect(parseCpuList('0-8191')).toHaveLength(8192);
    // 2^53 + 1 reads as 2^53, which c++ never passes: unbounded, this loop pushed until memory ran out
    for (const bad of ['9007199254740993', '9007199254740992-9007199254740993', '8192', '0-8192', '1,1', '0-3,2', '0-8191,0-8191']) expect(parseCpuList(bad), bad).toBeNull();
    expect(parseCpuList(Array.from({ length: 20_000 }, () => '0-8191').join(','))).toBeNull();
  });

  it('keeps a refusal short however many CPUs the list names: the CPUs outside as ranges', () => {
    const message = refusal('0-4096', linux);
    expect(message).toBe('--cpus: got "0-4096", but this process may use only CPUs 0-3 (CPU 4-4096 are not among them); expected CPUs among those');
    const scattered = refusal(Array.from({ length: 2000 }, (_, i) => 2 * i).join(','), linux);
    expect(scattered.length).toBeLessThan(300);
  });

  it('accepts CPUs this process may use, on Linux with taskset', () => {
    expect(parseCpus('--cpus', '1', linux)).toBe('1');
    expect(parseCpus('cpus', '2-3', linux)).toBe('2-3');
  });

  it('refuses what cannot be bound, saying what is expected', () => {
    expect(refusal('x', linux)).toBe('--cpus: got "x"; expected a list of CPUs as Linux writes one, each once and below 8192, such as 1, 0,2 or 2-3');
    expect(refusal('1,7', linux)).toBe('--cpus: got "1,7", but this process may use only CPUs 0-3 (CPU 7 is not among them); expected CPUs among those');
    expect(refusal('1', { ...linux, platform: 'darwin', allowed: null })).toMatch(/^--cpus: got "1", but binding runs to CPUs needs Linux \(taskset\); this system is darwin/);
    expect(refusal('1', { ...linux, taskset: false })).toMatch(/^--cpus: got "1", but taskset is missing; expected util-linux's taskset/);
  });
});
