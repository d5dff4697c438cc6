/**
 * S10: no process outlives its run, including one that left the run's process group or session
 * (`setsid`, a double fork), in a build, a benchmark, or a run killed at its timeout. The real CLI
 * runs on two directories; what is left is looked for by a marker in the command line.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pairbench } from '../support/cli.ts';
import { gone, processesWith } from '../support/spawn.ts';
import { tempDir } from '../support/repo.ts';

/** A number of seconds unique to this test process and case, so pgrep finds only what this test started. */
let serial = 0;
function marker(): string {
  serial++;
  return `10${serial}${process.pid}.${serial}`;
}

const started: string[] = [];

afterEach(() => {
  // Whatever a failing case left behind is ended here, by the pids its marker finds.
  for (const m of started.splice(0)) {
    const pids = processesWith(`sleep ${m}`).split('\n').filter(Boolean);
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});

function compare(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const dir = tempDir();
  execFileSync('mkdir', ['-p', join(dir, 'a'), join(dir, 'b')]);
  return pairbench(['compare', '--base-dir', join(dir, 'a'), '--head-dir', join(dir, 'b'), '--min-pairs', '2', '--max-pairs', '2', '--warmup', '0', '--fail-on', 'none', '--quiet', '--out', join(dir, 'r.json'), ...args], { env });
}

describe('S10: no process outlives its run', () => {
  it('S10: a benchmark that daemonises (setsid sh -c "exec sleep …" &) leaves no process behind', async () => {
    const m = marker();
    started.push(m);
    const res = compare(['--run', `setsid sh -c "exec sleep ${m}" & echo started`]);
    expect(res.status, res.stderr).toBe(0);
    await gone(`sleep ${m}`, 'what the run started to be gone');
  });

  it('S10: a double fork out of the process group leaves no process behind', async () => {
    const m = marker();
    started.push(m);
    const res = compare(['--run', `(setsid sh -c "sleep ${m} & sleep ${m}" &) ; true`]);
    expect(res.status, res.stderr).toBe(0);
    await gone(`sleep ${m}`, 'what the run started to be gone');
  });

  it('S10: a build that starts a daemon leaves no process behind', async () => {
    const m = marker();
    started.push(m);
    const ready = join(tempDir(), 'daemon.pid');
    // the build returns once the daemon has left the session (it writes its pid after setsid)
    const res = compare(['--build', `rm -f ${ready}; setsid sh -c "echo \\$\\$ > ${ready}; exec sleep ${m}" & while [ ! -s ${ready} ]; do :; done`, '--run', 'true']);
    expect(res.status, res.stderr).toBe(0);
    await gone(`sleep ${m}`, 'what the run started to be gone');
  });

  it('S10: a run past --timeout is killed with what it moved out of its session', async () => {
    const m = marker();
    started.push(m);
    const res = compare(['--run', `setsid sh -c "exec sleep ${m}" & sleep ${m}`, '--timeout', '1s']);
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/timed out|timeout/);
    await gone(`sleep ${m}`, 'what the run started to be gone');
  });
});
