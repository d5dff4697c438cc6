/**
 * bench/lib/run-all.ts (`npm run bench`): every bench part in turn, but the ones that only read
 * another run's results file, which would stop it at their missing `--results`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/machine.ts';

describe('npm run bench -- --dry-run', () => {
  it('lists every part that measures, and names the ceilings, which read another run, as not run', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/lib/run-all.ts'), '--dry-run'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const [parts, skipped] = r.stderr.trim().split('\n');
    const run = parts!.replace(/^bench: /, '').split(', ');
    expect(run).toContain('bench:go-designs');
    expect(run).toContain('bench:go-pilot-replay');
    expect(run).not.toContain('bench:ceiling');
    expect(run).not.toContain('bench:detection-ceiling');
    expect(skipped).toBe("bench: not run, they read another run's results file (--results): bench:ceiling, bench:detection-ceiling");
  });
});
