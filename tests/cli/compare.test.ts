/**
 * `pairbench compare` end to end: real git repositories, real processes, the real CLI.
 * Verdict tests use benchmarks that print their value (--format json) with seeded noise, so no
 * assertion depends on how fast this machine is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir, tempRepo, type TempRepo } from '../support/repo.ts';
import { gone } from '../support/spawn.ts';

/** A script printing one json result whose value is `value` times (1 ± 1% noise). */
function benchScript(value: number): string {
  return `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" -v v=${value} 'BEGIN{srand(s); printf "[{\\"name\\":\\"parse\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", v*(1+(rand()-0.5)*0.02)}'\n`;
}

describe('compare on git revisions', () => {
  let repo: TempRepo;
  let out: string;
  beforeAll(() => {
    repo = tempRepo();
    repo.commit({ 'bench.sh': benchScript(100) }, 'base');
    repo.commit({ 'bench.sh': benchScript(110) }, 'head: 10% slower');
    repo.commit({ 'README': 'docs only\n' }, 'docs');
    out = tempDir();
  });
  afterAll(() => repo.remove());

  it('finds a 10% regression: exit 1, estimate near +10%, every pair with its order', () => {
    const file = join(out, 'regression.json');
    const res = pairbench(['compare', '--repo', repo.dir, '--base', 'HEAD~2', '--head', 'HEAD~1', '--run', 'sh bench.sh', '--format', 'json', '--seed', '42', '--out', file, '--quiet']);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status).toBe(1);
    const results = readResults(file);
    expect(results.schemaVersion).toBe(1);
    expect(results.status).toBe('complete');
    expect(results.verdict).toBe('regression');
    expect(results.base.sha).toBe(repo.git('rev-parse', 'HEAD~2'));
    expect(results.head.sha).toBe(repo.git('rev-parse', 'HEAD~1'));
    expect(results.settings?.['seed']).toBe(42);
    const b = results.benchmarks[0]!;
    expect(b.name).toBe('parse');
    expect(b.verdict).toBe('regression');
    expect(b.change!.estimate).toBeGreaterThan(0.09);
    expect(b.change!.estimate).toBeLessThan(0.11);
    expect(b.change!.ci[0]).toBeLessThanOrEqual(b.change!.estimate);
    expect(b.change!.ci[1]).toBeGreaterThanOrEqual(b.change!.estimate);
    expect(b.pairs.length).toBeGreaterThanOrEqual(10);
    for (const p of b.pairs) expect(['base-first', 'head-first']).toContain(p.order);
    expect(b.stoppedBecause).toMatch(/^(precision|decided|max-pairs)$/);
    expect(res.stdout).toContain('regression');
  });

  it('finds nothing between a commit and a docs-only change of it: exit 0, unchanged', () => {
    const file = join(out, 'aa.json');
    const res = pairbench(['compare', '--repo', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--out', file, '--quiet']);
    expect(res.status).toBe(0);
    const results = readResults(file);
    expect(results.verdict).toBe('unchanged');
  });

  it('replays the same pair order with the same --seed', () => {
    const orders = [1, 2].map((k) => {
      const file = join(out, `seed-${k}.json`);
      pairbench(['compare', '--repo', repo.dir, '--base', 'HEAD~2', '--head', 'HEAD~1', '--run', 'sh bench.sh', '--format', 'json', '--seed', '7', '--min-pairs', '16', '--max-pairs', '16', '--out', file, '--quiet']);
      return readResults(file).benchmarks[0]!.pairs.map((p) => p.order);
    });
    expect(orders[0]).toHaveLength(16);
    expect(orders[0]).toEqual(orders[1]);
    // a fair coin, not an alternation: both orders occur and the sequence is not ABAB
    expect(new Set(orders[0])).toEqual(new Set(['base-first', 'head-first']));
  });

  it('defaults --base to the merge-base with the default branch', () => {
    const file = join(out, 'mb.json');
    repo.git('checkout', '--quiet', '-b', 'feature');
    repo.commit({ 'bench.sh': benchScript(130) }, 'feature: slower');
    const res = pairbench(['compare', '--run', 'sh bench.sh', '--format', 'json', '--out', file, '--quiet', '--max-pairs', '12'], { cwd: repo.dir });
    repo.git('checkout', '--quiet', 'main');
    expect(res.status).toBe(1);
    const results = readResults(file);
    expect(results.base.sha).toBe(repo.git('rev-parse', 'main'));
  });

  it('exits 3 naming head when head\'s command fails, and keeps the results file', () => {
    const bad = tempRepo();
    bad.commit({ 'bench.sh': benchScript(100) }, 'base');
    bad.commit({ 'bench.sh': '#!/bin/sh\necho "head is broken" >&2\nexit 4\n' }, 'head broken');
    const file = join(out, 'fail.json');
    const res = pairbench(['compare', '--repo', bad.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--out', file, '--quiet']);
    bad.remove();
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/head/);
    expect(res.stderr).toMatch(/exit code 4/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const results = readResults(file);
    expect(results.status).toBe('failed');
    expect(results.failures?.[0]?.side).toBe('head');
    expect(results.failures?.[0]?.stderrTail).toContain('head is broken');
  });

  it('exits 3 naming the revision whose build failed, with the tail of its output', () => {
    const file = join(out, 'build.json');
    const res = pairbench(['compare', '--repo', repo.dir, '--base', 'HEAD~2', '--head', 'HEAD~1', '--build', 'test -f nothing-here || { echo "compiler says no" >&2; exit 2; }', '--run', 'sh bench.sh', '--format', 'json', '--out', file, '--quiet']);
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/build of base failed \(exit code 2\)/);
    expect(res.stderr).toContain('compiler says no');
    expect(readResults(file).status).toBe('failed');
  });

  it('refuses a revision that does not exist, with exit 2', () => {
    const res = pairbench(['compare', '--repo', repo.dir, '--base', 'no-such-branch', '--run', 'true', '--out', join(out, 'x.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--base: got "no-such-branch"; expected a revision that exists/);
  });
});

describe('compare on two directories', () => {
  it('times a command in pairs (--format time) and records wall time for every pair', () => {
    const dir = tempDir();
    for (const side of ['a', 'b']) {
      execFileSync('mkdir', ['-p', join(dir, side)]);
      writeFileSync(join(dir, side, 'work.sh'), 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done\n');
    }
    const file = join(dir, 'r.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'a'), '--head-dir', join(dir, 'b'), '--run', 'sh work.sh', '--max-pairs', '12', '--out', file, '--quiet']);
    expect([0, 1]).toContain(res.status);
    const b = readResults(file).benchmarks[0]!;
    expect(b.name).toBe('sh work.sh');
    expect(b.unit).toBe('ms');
    expect(b.metric).toBe('wall');
    expect(b.pairs.length).toBeGreaterThanOrEqual(10);
    expect(b.pairs.length).toBeLessThanOrEqual(12);
    for (const p of b.pairs) {
      expect(p.base).toBeGreaterThan(0);
      expect(p.head).toBeGreaterThan(0);
    }
  });

  it('S10: --timeout kills the whole process tree of sh -c "sleep & sleep"', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const marker = `100.${process.pid}`;
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', `sleep ${marker} & sleep ${marker}`, '--timeout', '1s', '--warmup', '0', '--out', file, '--quiet']);
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/timed out/);
    await gone(`sleep ${marker}`, 'the timed-out run\'s processes to be killed');
    expect(existsSync(file)).toBe(true);
  });
});
