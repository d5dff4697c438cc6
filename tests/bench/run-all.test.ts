/**
 * bench/lib/run-all.ts (`npm run bench`): every `bench:*` script of package.json in turn, the
 * cheapest first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/machine.ts';

describe('npm run bench -- --dry-run', () => {
  it('lists every bench:* script of package.json once, the ordered ones first', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/lib/run-all.ts'), '--dry-run'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const run = lines[0]!.replace(/^bench: /, '').split(', ');
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    expect([...run].sort()).toEqual(scripts.filter((s) => s.startsWith('bench:')).sort());
    expect(run.slice(0, 5)).toEqual(['bench:stats-speed', 'bench:overhead', 'bench:calibration', 'bench:sensitivity', 'bench:sensitivity-adaptive']);
  });
});
