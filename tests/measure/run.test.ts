/**
 * One run: real processes, figures, failures and cleanup of the whole process tree, on both timing
 * paths: the run helper, and Node's own timing (`PAIRBENCH_NO_HELPER=1`, what runs without a C
 * compiler). What only the helper does is marked so.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addCalibration, calibrationRequest, type Calibration } from '../../src/measure/overhead.ts';
import { runCommand, runCommands } from '../../src/measure/one-run.ts';
import { addSecret } from '../../src/measure/secrets.ts';
import { gone } from '../support/spawn.ts';

const env = { ...process.env };
const base = { cwd: '/tmp', env, timeoutMs: 20_000 };

describe.each([
  { timer: 'the run helper', helper: true },
  { timer: 'Node (PAIRBENCH_NO_HELPER=1)', helper: false },
])('runCommand with $timer', ({ helper }) => {
  const before = process.env.PAIRBENCH_NO_HELPER;
  beforeEach(() => {
    if (helper) delete process.env.PAIRBENCH_NO_HELPER;
    else process.env.PAIRBENCH_NO_HELPER = '1';
  });
  afterEach(() => {
    if (before === undefined) delete process.env.PAIRBENCH_NO_HELPER;
    else process.env.PAIRBENCH_NO_HELPER = before;
  });
  // What only one timer does (the helper's CPU time and peak memory, Node's wall time alone) is
  // declared for that timer only: not a skip, since the other timer has no such test to run.
  const withHelper = helper ? it : (() => undefined) as unknown as typeof it;
  const withNode = helper ? ((() => undefined) as unknown as typeof it) : it;

  withHelper('runs through a shell and reports wall time, CPU time and peak memory', async () => {
    const res = await runCommand({ ...base, command: 'echo hello; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done', captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('hello\n');
    expect(res.wallMs).toBeGreaterThan(0);
    expect(res.cpuMs).not.toBeNull();
    expect(res.cpuMs!).toBeGreaterThan(0);
    expect(res.maxRssBytes!).toBeGreaterThan(100_000);
  });

  withNode('runs through a shell and reports wall time only', async () => {
    const res = await runCommand({ ...base, command: 'echo hello', captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('hello\n');
    expect(res.wallMs).toBeGreaterThan(0);
    expect(res.cpuMs).toBeNull();
    expect(res.maxRssBytes).toBeNull();
  });

  withHelper('counts CPU time of grandchildren, not only of the shell', async () => {
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
    const marker = `200.${process.pid}1${helper ? 1 : 2}`;
    const res = await runCommand({ ...base, timeoutMs: 500, command: `sleep ${marker} & sleep ${marker}`, captureStdout: false });
    expect(res.outcome).toBe('timeout');
    await gone(`sleep ${marker}`, 'the run\'s processes to be killed');
  });

  withHelper('S10: what left the run\'s session (setsid) is killed at the end of the run', async () => {
    const marker = `700.${process.pid}7`;
    const ready = `/tmp/pairbench-setsid-${process.pid}`;
    // the run ends once the daemon has left the session (it writes its pid after setsid)
    const res = await runCommand({ ...base, command: `rm -f ${ready}; setsid sh -c "echo \\$\\$ > ${ready}; exec sleep ${marker}" & while [ ! -s ${ready} ]; do :; done; rm -f ${ready}; echo started`, captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('started\n');
    await gone(`sleep ${marker}`, 'the run\'s processes to be killed');
  });

  withHelper('S4: the run helper starts with an empty environment: the parent of a run holds no variable of pairbench', async () => {
    const res = await runCommand({ ...base, command: 'tr "\\0" "\\n" < /proc/$PPID/environ; echo end', captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('end\n');
  });

  it('S4: what a run prints is redacted: the secrets of pairbench, and token shapes', async () => {
    const secret = `s4-run-secret-${process.pid}`;
    const shaped = `ghp_${'x1Y2'.repeat(9)}`;
    addSecret(secret);
    const res = await runCommand({ ...base, env: { PATH: process.env.PATH }, command: `echo "out ${secret}"; echo "err ${shaped}" >&2; exit 1`, captureStdout: true });
    expect(res.outcome).toBe('exit');
    expect(res.stdout).toBe('out ***\n');
    expect(res.outputTail).toBe('err ***\n');
  });

  it('S4: a secret cut by the end of the kept output tail is still redacted whole', async () => {
    const secret = `s4-tail-secret-${process.pid}-abcdefghijklmnop`;
    addSecret(secret);
    // the secret ends 4090 bytes before the end: the 4096-byte tail would start inside it
    const res = await runCommand({ ...base, env: { PATH: process.env.PATH }, command: `printf '%s' "${secret}" >&2; head -c 4090 /dev/zero | tr '\\0' x >&2; exit 1`, captureStdout: false });
    expect(res.outcome).toBe('exit');
    expect(res.outputTail).not.toContain(secret.slice(-6));
    expect(res.outputTail.endsWith('x'.repeat(4090))).toBe(true);
  });

  it('kills what a finished run left running in the background', async () => {
    const marker = `300.${process.pid}2${helper ? 1 : 2}`;
    const res = await runCommand({ ...base, command: `sleep ${marker} & echo started`, captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('started\n');
    await gone(`sleep ${marker}`, 'the run\'s processes to be killed');
  });

  it('an abort signal kills the tree and says cancelled', async () => {
    const marker = `400.${process.pid}3${helper ? 1 : 2}`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const res = await runCommand({ ...base, command: `sleep ${marker}`, captureStdout: false, signal: controller.signal });
    expect(res.outcome).toBe('cancelled');
    await gone(`sleep ${marker}`, 'the run\'s processes to be killed');
  });

  it('does not hand its report pipe to the measured command', async () => {
    const res = await runCommand({ ...base, command: '[ -e /proc/$$/fd/3 ] && echo open || echo closed', captureStdout: true });
    expect(res.stdout.trim()).toBe('closed');
  });

  withHelper('serves run after run from one helper process, each in a process group of its own', async () => {
    const cmd = 'echo "$PPID $(ps -o pgid= -p $$ | tr -d " ") $$"';
    const a = await runCommand({ ...base, command: cmd, captureStdout: true });
    const b = await runCommand({ ...base, command: cmd, captureStdout: true });
    const [parentA, groupA, shellA] = a.stdout.trim().split(' ');
    const [parentB, groupB, shellB] = b.stdout.trim().split(' ');
    expect(parentA).toBe(parentB); // the same helper forked both shells
    expect(parentA).not.toBe(String(process.pid));
    expect(groupA).toBe(shellA); // the shell leads its own group
    expect(groupB).toBe(shellB);
  });

  it('runs two commands at the same time (two builds) without mixing their output', async () => {
    const [a, b] = await Promise.all([
      runCommand({ ...base, command: 'for i in 1 2 3; do echo a$i; sleep 0.05; done', captureStdout: true }),
      runCommand({ ...base, command: 'for i in 1 2 3; do echo b$i; sleep 0.05; done', captureStdout: true }),
    ]);
    expect(a.stdout).toBe('a1\na2\na3\n');
    expect(b.stdout).toBe('b1\nb2\nb3\n');
  });

  it('a directory that does not exist fails the run with a message naming it', async () => {
    const res = await runCommand({ ...base, cwd: '/nonexistent/pairbench-dir', command: 'true', captureStdout: false });
    expect(res.outcome).toBe('exit');
    expect(res.exitCode).toBe(127);
    expect(res.outputTail).toContain('/nonexistent/pairbench-dir');
  });

  it('passes the environment it is given, and only that', async () => {
    const res = await runCommand({ ...base, env: { PATH: process.env.PATH, PAIRBENCH_PROBE: 'x y=z' }, command: 'echo "$PAIRBENCH_PROBE|${HOME:-unset}"', captureStdout: true });
    expect(res.stdout).toBe('x y=z|unset\n');
  });

  it('separates stdout from stderr and keeps a megabyte of stdout whole', async () => {
    const res = await runCommand({ ...base, command: 'head -c 1000000 /dev/zero | tr "\\0" a; echo err >&2', captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout.length).toBe(1_000_000);
    expect(res.stdout).toMatch(/^a+$/);
    expect(res.outputTail).toContain('err');
  });

  withHelper('a run helper that dies mid-run fails that run with a message, kills its tree, and the next run works', async () => {
    const marker = `500.${process.pid}5${helper ? 1 : 2}`;
    const res = await runCommand({ ...base, command: `sleep ${marker} & kill -9 $PPID; wait`, captureStdout: false });
    expect(res.outcome).toBe('spawn');
    expect(res.outputTail).toMatch(/run helper exited/);
    await gone(`sleep ${marker}`, 'the run\'s processes to be killed');
    const next = await runCommand({ ...base, command: 'echo again', captureStdout: true });
    expect(next.outcome).toBe('ok');
    expect(next.stdout).toBe('again\n');
  });

  it('--shell none: the words of the command are executed directly, quotes removed, nothing expanded', async () => {
    const res = await runCommand({ ...base, command: `printf '%s|%s|%s' 'a b' "c d" e\\ f`, shell: 'none', captureStdout: true });
    expect(res.outcome).toBe('ok');
    expect(res.stdout).toBe('a b|c d|e f');
  });

  it('--shell none: no shell reads the command (a variable assignment is a program name, not an assignment)', async () => {
    const viaShell = await runCommand({ ...base, command: 'PB_WORD=set printenv PB_WORD', captureStdout: true });
    expect(viaShell.outcome).toBe('ok');
    expect(viaShell.stdout).toBe('set\n');
    const direct = await runCommand({ ...base, command: 'PB_WORD=set printenv PB_WORD', shell: 'none', captureStdout: true });
    expect(direct.outcome).not.toBe('ok');
    expect(direct.stdout).toBe('');
    expect(direct.outputTail).toContain('PB_WORD=set');
  });

  it('the calibration run (the empty shell command) runs as the runs it calibrates: ok, timed, in their directory', async () => {
    const run = { ...base, command: 'true', captureStdout: false, stopOnFailure: true };
    const rs = await runCommands([run, calibrationRequest(run)]);
    expect(rs.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    const into: Calibration = { wall: [], cpu: [] };
    addCalibration(into, rs[1]!);
    expect(into.wall).toHaveLength(1);
    expect(into.wall[0]).toBeGreaterThan(0);
    expect(into.cpu).toHaveLength(helper ? 1 : 0);
    // a failed or skipped calibration run is left out
    addCalibration(into, (await runCommands([{ ...run, command: 'exit 1' }, calibrationRequest(run)]))[1]!);
    expect(into.wall).toHaveLength(1);
  });

  it('runCommands: runs one after the other in order, and skips the rest after a failure that stops', async () => {
    const file = `/tmp/pairbench-order-${process.pid}`;
    const rs = await runCommands([
      { ...base, command: `echo 1 > ${file}`, captureStdout: false, stopOnFailure: true },
      { ...base, command: `echo 2 >> ${file}; cat ${file}`, captureStdout: true, stopOnFailure: true },
      { ...base, command: 'exit 3', captureStdout: false, stopOnFailure: true },
      { ...base, command: `echo never >> ${file}`, captureStdout: false },
    ]);
    expect(rs.map((r) => r.outcome)).toEqual(['ok', 'ok', 'exit', 'skipped']);
    expect(rs[1]!.stdout).toBe('1\n2\n');
    expect(rs[2]!.exitCode).toBe(3);
    expect(execFileSync('cat', [file], { encoding: 'utf8' })).toBe('1\n2\n');
    execFileSync('rm', ['-f', file]);
  });

  it('runCommands: an abort kills the run in flight and cancels the runs not started', async () => {
    const marker = `600.${process.pid}6${helper ? 1 : 2}`;
    const started = `/tmp/pairbench-abort-${process.pid}-${helper ? 1 : 2}`;
    rmSync(started, { force: true });
    const controller = new AbortController();
    // abort once the second run is in flight, however long the first took (after the poll phase
    // of this turn of the event loop, which reads the first run's report already sent)
    const poll = setInterval(() => {
      if (existsSync(started)) {
        clearInterval(poll);
        setImmediate(() => controller.abort());
      }
    }, 10);
    const rs = await runCommands([
      { ...base, command: 'true', captureStdout: false, signal: controller.signal },
      { ...base, command: `touch ${started}; sleep ${marker}`, captureStdout: false, signal: controller.signal },
      { ...base, command: 'echo late', captureStdout: true, signal: controller.signal },
    ]);
    clearInterval(poll);
    rmSync(started, { force: true });
    expect(rs.map((r) => r.outcome)).toEqual(['ok', 'cancelled', 'cancelled']);
    expect(rs[2]!.stdout).toBe('');
    await gone(`sleep ${marker}`, 'the run\'s processes to be killed');
    expect((await runCommand({ ...base, command: 'echo next', captureStdout: true })).stdout).toBe('next\n');
  });
});

