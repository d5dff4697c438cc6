/** S15: a reader that stops early (`pairbench report r.json | head`) ends nothing in a stack trace. */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

describe('S15: output into a closed pipe', () => {
  it('S15: report --json into a pipe closed after the first chunk exits with its own status, no stack trace', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const benchmarks = Array.from({ length: 2000 }, (_, i) => ({
      name: `bench-${i}`,
      unit: 'ms',
      direction: 'lower-is-better',
      pairs: Array.from({ length: 6 }, (_, k) => ({ base: 10 + k * 0.1, head: 10 + k * 0.1, order: k % 2 ? 'base-first' : 'head-first' })),
    }));
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks }));
    const child = spawn(process.execPath, [CLI, 'report', file, '--json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
