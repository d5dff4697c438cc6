/** S3, S13, S14: hostile refs, failing and flaky commands, shallow clones. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

const value = (v: number) => `#!/bin/sh\nprintf '[{"name":"x","value":%s,"unit":"ms"}]' ${v}\n`;

describe('S3: hostile refs', () => {
  it.each(['$(touch pwned)', 'zzz";echo${IFS}"hello";#', '`touch pwned`', '--output=pwned', 'a b', 'HEAD;touch pwned', '../../etc/passwd'])(
    'S3: a ref like %s is rejected without running anything',
    (ref) => {
      const repo = tempRepo();
      repo.commit({ 'bench.sh': value(1) }, 'one');
      for (const flag of ['--base', '--head']) {
        const res = pairbench(['compare', `${flag}=${ref}`, '--run', 'sh bench.sh', '--format', 'json', '--out', join(repo.dir, 'r.json')], { cwd: repo.dir });
        expect(res.status).toBe(2);
        expect(res.stderr).toMatch(new RegExp(`^pairbench: ${flag}: got .*; expected a git revision`));
      }
      expect(existsSync(join(repo.dir, 'pwned'))).toBe(false);
      expect(existsSync(join(repo.dir, '..', 'pwned'))).toBe(false);
      repo.remove();
    },
  );
});

describe('S13: failing commands', () => {
  it('S13: a head that fails one run in ten is retried; the comparison completes and reports the failed runs', () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': value(100) }, 'base');
    const flaky = `#!/bin/sh\nn=$(cat "$TMPDIR_COUNTER" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$TMPDIR_COUNTER"\nif [ $((n % 10)) -eq 0 ]; then echo "flaky failure $n" >&2; exit 1; fi\nprintf '[{"name":"x","value":%s,"unit":"ms"}]' 100\n`;
    repo.commit({ 'bench.sh': flaky }, 'head flaky');
    const file = join(repo.dir, 'r.json');
    const res = pairbench(['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--min-pairs', '30', '--max-pairs', '30', '--out', file], { cwd: repo.dir, env: { TMPDIR_COUNTER: join(tempDir(), 'counter') } });
    expect(res.status).toBe(0);
    expect(res.stderr).toMatch(/head's command failed \(exit code 1\); retrying/);
    const results = readResults(file);
    expect(results.status).toBe('complete');
    const b = results.benchmarks[0]!;
    expect(b.pairs).toHaveLength(30);
    expect(b.failedRuns?.head).toBeGreaterThanOrEqual(3);
    expect(b.failedRuns?.base).toBe(0);
    expect(res.stdout).toMatch(/some runs failed and were measured again \(head \d+\)/);
    repo.remove();
  });

  it('S13: a head whose build fails while the base builds is a failure of head, exit 3', () => {
    const repo = tempRepo();
    repo.commit({ 'build.sh': '#!/bin/sh\nexit 0\n', 'bench.sh': value(1) }, 'base');
    repo.commit({ 'build.sh': '#!/bin/sh\necho "syntax error in head" >&2\nexit 1\n' }, 'head breaks the build');
    const file = join(repo.dir, 'r.json');
    const res = pairbench(['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--build', 'sh build.sh', '--run', 'sh bench.sh', '--format', 'json', '--out', file], { cwd: repo.dir });
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/the build of head failed \(exit code 1\)/);
    expect(res.stderr).toContain('syntax error in head');
    const results = readResults(file);
    expect(results.failures?.[0]).toMatchObject({ side: 'head', kind: 'build', exitCode: 1 });
    repo.remove();
  });

  it('S13: a base that exits non-zero every time is named, with its exit code and stderr tail', () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': '#!/bin/sh\necho "base cannot run" >&2\nexit 9\n' }, 'base');
    repo.commit({ 'bench.sh': value(1) }, 'head');
    const file = join(repo.dir, 'r.json');
    const res = pairbench(['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--out', file, '--quiet'], { cwd: repo.dir });
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/base's command failed \(exit code 9\), 3 times in a row/);
    expect(readResults(file).failures?.[0]).toMatchObject({ side: 'base', kind: 'exit', exitCode: 9 });
    repo.remove();
  });
});

describe('S14: shallow clones', () => {
  it('S14: fetches a base commit that a depth-1 clone lacks', () => {
    const origin = tempRepo();
    const baseSha = origin.commit({ 'bench.sh': value(100) }, 'base');
    origin.commit({ 'bench.sh': value(120) }, 'head');
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${origin.dir}`, clone]);
    expect(() => execFileSync('git', ['cat-file', '-e', `${baseSha}^{commit}`], { cwd: clone, stdio: 'ignore' })).toThrow();
    const file = join(clone, 'r.json');
    const res = pairbench(['compare', '--base', baseSha, '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--out', file, '--quiet'], { cwd: clone });
    expect(res.stderr).toMatch(/not in this clone; fetching it from origin/);
    expect(res.status).toBe(1);
    expect(readResults(file).base.sha).toBe(baseSha);
    origin.remove();
  });
});
