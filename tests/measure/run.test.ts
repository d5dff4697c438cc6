/** One run: real processes, figures, failures and cleanup of the whole process tree. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/measure/run.ts';

const env = { ...process.env };
const base = { cwd: '/tmp', env, timeoutMs: 20_000 };

function alive(pattern: string): string {
  return execFileSync('sh', ['-c', `pgrep -f "[${pattern[0]}]${pattern.slice(1)}" || true`], { encoding: 'utf8' }).trim();
}

describe('runCommand', () => {
  it('runs through a shell and reports wall time, CPU time and peak memory', async () => {
    const res = await runCommand({ ...base, command: 'echo hello; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done', captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('hello\n');
    expect(res.wallMs).toBeGreaterThan(0);
    expect(res.cpuMs).not.toBeNull();
    expect(res.cpuMs!).toBeGreaterThan(0);
    expect(res.maxRssBytes!).toBeGreaterThan(100_000);
  });

  it('counts CPU time of grandchildren, not only of the shell', async () => {
    const res = await runCommand({ ...base, command: "sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'", captureStdout: false });
    expect(res.outcome).toBe('ok');
    // the loop runs in a grandchild; its CPU time must show up (well above a bare shell's)
    expect(res.cpuMs!).toBeGreaterThan(20);
  });

  it('reports a non-zero exit with its code and the tail of stderr', async () => {
    const res = await runCommand({ ...base, command: 'echo "out of cheese" >&2; exit 7', captureStdout: false });
    expect(res.outcome).toBe('exit');
    expect(res.exitCode).toBe(7);
    expect(res.outputTail).toContain('out of cheese');
  });

  it('keeps only the tail of a flood of output', async () => {
    const res = await runCommand({ ...base, command: 'yes pairbench | head -c 1000000 >&2; exit 1', captureStdout: false });
    expect(res.outcome).toBe('exit');
    expect(res.outputTail.length).toBeLessThanOrEqual(4096 + 100);
  });

  it('S10: a timeout kills the whole process tree', async () => {
    const marker = `200.${process.pid}1`;
    const res = await runCommand({ ...base, timeoutMs: 500, command: `sleep ${marker} & sleep ${marker}`, captureStdout: false });
    expect(res.outcome).toBe('timeout');
    expect(alive(`sleep ${marker}`)).toBe('');
  });

  it('kills what a finished run left running in the background', async () => {
    const marker = `300.${process.pid}2`;
    const res = await runCommand({ ...base, command: `sleep ${marker} & echo started`, captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('started\n');
    expect(alive(`sleep ${marker}`)).toBe('');
  });

  it('an abort signal kills the tree and says cancelled', async () => {
    const marker = `400.${process.pid}3`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const res = await runCommand({ ...base, command: `sleep ${marker}`, captureStdout: false, signal: controller.signal });
    expect(res.outcome).toBe('cancelled');
    expect(alive(`sleep ${marker}`)).toBe('');
  });

  it('does not hand its report pipe to the measured command', async () => {
    const res = await runCommand({ ...base, command: '[ -e /proc/$$/fd/3 ] && echo open || echo closed', captureStdout: true });
    expect(res.stdout.trim()).toBe('closed');
  });
});
