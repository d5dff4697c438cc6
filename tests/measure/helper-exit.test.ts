/**
 * A run helper that dies: what it said before it died is heard before its runs are failed. The
 * helper here is a stand-in program speaking the helper's frames, so that the order of events is
 * fixed: it starts a run's process group, exits, and its last frame (the run's pid) reaches
 * pairbench only after its exit. pairbench must still learn the pid and kill that group.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServed } from '../../src/measure/run-served.ts';
import { tempDir } from '../support/repo.ts';
import { gone, processesWith } from '../support/spawn.ts';

/**
 * A helper that starts `sleep <marker>` in a group of its own, then exits at once; a process it
 * leaves behind writes the 'P' frame (type, 4-byte little-endian length, pid) 300 ms later.
 */
function lateHelper(marker: string): string {
  const path = join(tempDir(), 'late-helper');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `setsid sleep ${marker} </dev/null >/dev/null 2>&1 3>&- &`,
      'pid=$!',
      `( sleep 0.3; printf "P\\\\$(printf %03o \${#pid})\\\\000\\\\000\\\\000%s" "$pid" >&3 ) &`,
      'exit 0',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return path;
}

/**
 * A helper that starts `sleep <marker>` in a group of its own, says its pid, and exits, leaving
 * behind a process that holds its frame pipe open for 300 s (`sleep <holder>`).
 */
function heldHelper(marker: string, holder: string): string {
  const path = join(tempDir(), 'held-helper');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `setsid sleep ${marker} </dev/null >/dev/null 2>&1 3>&- &`,
      'pid=$!',
      `printf "P\\\\$(printf %03o \${#pid})\\\\000\\\\000\\\\000%s" "$pid" >&3`,
      `sleep ${holder} </dev/null >/dev/null 2>&1 &`,
      'exit 0',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return path;
}

describe('a run helper that exits before its last frames are read', () => {
  it("learns the run's pid from the frames read after the helper's exit, and kills that run's group", async () => {
    const marker = `500.${process.pid}71`;
    const [res] = await runServed(lateHelper(marker), [{ req: { command: 'true', cwd: '/tmp', env: {}, timeoutMs: 20_000, captureStdout: false }, argv: ['true'] }]);
    expect(res!.outcome).toBe('spawn');
    expect(res!.outputTail).toMatch(/run helper exited/);
    await gone(`sleep ${marker}`, "the run's group to be killed");
  });

  it("a process left holding the helper's pipes open does not hold the run: it fails soon after the helper's exit, its group killed", async () => {
    const marker = `500.${process.pid}72`;
    const holder = `300.${process.pid}73`;
    try {
      const [res] = await runServed(heldHelper(marker, holder), [{ req: { command: 'true', cwd: '/tmp', env: {}, timeoutMs: 20_000, captureStdout: false }, argv: ['true'] }]);
      expect(res!.outcome).toBe('spawn');
      expect(res!.outputTail).toMatch(/run helper exited/);
      await gone(`sleep ${marker}`, "the run's group to be killed");
    } finally {
      for (const pid of processesWith(`sleep ${holder}`).split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
    }
  }, 15_000);
});
