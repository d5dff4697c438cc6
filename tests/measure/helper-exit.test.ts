/**
 * A run helper that dies: what it said before it died is heard before its runs are failed. The
 * helper here is a stand-in program speaking the helper's frames, so that the order of events is
 * fixed: it starts a run's process group, exits, and its last frame (the run's pid) reaches
 * pairbench only after its exit. pairbench must still learn the pid and kill that group.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServed } from '../../src/measure/run-served.ts';
import { tempDir } from '../support/repo.ts';

function alive(pattern: string): string {
  return execFileSync('sh', ['-c', `pgrep -f "[${pattern[0]}]${pattern.slice(1)}" || true`], { encoding: 'utf8' }).trim();
}

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

describe('a run helper that exits before its last frames are read', () => {
  it("learns the run's pid from the frames read after the helper's exit, and kills that run's group", async () => {
    const marker = `500.${process.pid}71`;
    const [res] = await runServed(lateHelper(marker), [{ req: { command: 'true', cwd: '/tmp', env: {}, timeoutMs: 20_000, captureStdout: false }, argv: ['true'] }]);
    expect(res!.outcome).toBe('spawn');
    expect(res!.outputTail).toMatch(/run helper exited/);
    expect(alive(`sleep ${marker}`)).toBe('');
  });
});
