/**
 * The base build cache on the command line (--build-cache with --build-cache-dir, a local folder),
 * its key, its save policy in the action, and its bad inputs. Real git repositories, the real CLI.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionSavePolicy, buildCacheKey } from '../../src/revisions/build-cache.ts';
import { pairbench } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

const BENCH = `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" -v v="$(cat build/value)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"parse\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", v*(1+(rand()-0.5)*0.01)}'\n`;

function repoWithBuild() {
  const repo = tempRepo();
  const log = join(tempDir(), 'builds.log');
  const build = `#!/bin/sh\nmkdir -p build && echo 100 > build/value && git rev-parse HEAD >> "${log}"\n`;
  const base = repo.commit({ 'build.sh': build, 'bench.sh': BENCH }, 'base');
  const head = repo.commit({ 'note.txt': 'x\n' }, 'head');
  const builds = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  return { repo, base, head, builds };
}

describe('build cache on the command line', () => {
  it('saves the base build on a miss and restores it on the next run, skipping the build; head is always built', () => {
    const { repo, base, head, builds } = repoWithBuild();
    const cacheDir = tempDir();
    const out = tempDir();
    const args = (n: number) => ['compare', '--repo', repo.dir, '--base', base, '--head', head, '--build', 'sh build.sh', '--build-cache', 'build/', '--build-cache-dir', cacheDir, '--run', 'sh bench.sh', '--format', 'json', '--max-pairs', '10', '--out', join(out, `r${n}.json`)];
    const cold = pairbench(args(1));
    expect(cold.stderr).not.toMatch(/\n\s+at /);
    expect(cold.status).toBe(0);
    expect(cold.stderr).toMatch(/base: not in the build cache \(key pairbench-build-[^)]+\): building it/);
    expect(cold.stderr).toMatch(/base: build outputs saved/);
    expect(builds()).toEqual([base, head]);
    expect(readdirSync(cacheDir).filter((d) => !d.startsWith('.'))).toHaveLength(1);
    const warm = pairbench(args(2));
    expect(warm.status).toBe(0);
    expect(warm.stderr).toContain("base: build outputs restored from the build cache");
    expect(builds()).toEqual([base, head, head]);
    const results = JSON.parse(readFileSync(join(out, 'r2.json'), 'utf8')) as { settings: Record<string, unknown>; benchmarks: { pairs: unknown[] }[] };
    expect(results.settings['buildCacheHit']).toBe(true);
    expect(results.settings['buildCacheKey']).toMatch(new RegExp(`-${base}-`));
    // measured in this run all the same: the cache holds build outputs only
    expect(results.benchmarks[0]!.pairs.length).toBeGreaterThanOrEqual(10);
    // every report says where the base's build came from, as the action's comment does
    const key = String(results.settings['buildCacheKey']);
    expect(warm.stdout).toContain(`Base build: restored from the build cache (${key}), not rebuilt; head was built.`);
    expect(cold.stdout).toContain(`Base build: not in the build cache (${key}): built in this run.`);
    const md = join(out, 'r2.md');
    const html = join(out, 'r2.html');
    expect(pairbench(['report', join(out, 'r2.json'), '--markdown', md, '--html', html]).status).toBe(0);
    expect(readFileSync(md, 'utf8')).toContain(`**Base build:** restored from the build cache (\`${key}\`), not rebuilt`);
    expect(readFileSync(html, 'utf8')).toContain(`<strong>Base build:</strong> restored from the build cache (<code>${key}</code>), not rebuilt`);
  });

  it('refuses bad cache inputs with one line and exit 2', () => {
    const { repo } = repoWithBuild();
    const common = ['compare', '--repo', repo.dir, '--run', 'sh bench.sh', '--base', 'HEAD~1'];
    const cases: [string[], RegExp][] = [
      [['--build', 'sh build.sh', '--build-cache', 'build/'], /^pairbench: --build-cache needs --build-cache-dir <dir> on the command line/],
      [['--build', 'sh build.sh', '--build-cache', '../outside', '--build-cache-dir', tempDir()], /^pairbench: --build-cache: got "\.\.\/outside"; expected a path inside the revision's folder/],
      [['--build', 'sh build.sh', '--build-cache', '/abs/build', '--build-cache-dir', tempDir()], /^pairbench: --build-cache: got "\/abs\/build"; expected a path inside/],
      [['--build-cache', 'build/', '--build-cache-dir', tempDir()], /^pairbench: --build-cache: got "build\/" but no --build; expected a build command/],
      [['--build', 'sh build.sh', '--build-cache-key', 'go1.24'], /^pairbench: --build-cache-key is set but --build-cache is not/],
    ];
    for (const [extra, message] of cases) {
      const res = pairbench([...common, ...extra]);
      expect(res.status, extra.join(' ')).toBe(2);
      expect(res.stderr.trim()).toMatch(message);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('build cache key and save policy', () => {
  const env = { RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64', ImageOS: 'ubuntu24', ImageVersion: '20261120.1' };
  const cache = { paths: ['build'], toolchain: 'go1.24', env };
  const sha = 'a'.repeat(40);

  it('S24: differs with each part that makes outputs unsafe to share, and is never a prefix of another', () => {
    const key = buildCacheKey(sha, 'make', cache);
    const others = [
      buildCacheKey('b'.repeat(40), 'make', cache),
      buildCacheKey(sha, 'make -O3', cache),
      buildCacheKey(sha, 'make', { ...cache, paths: ['build', 'lib'] }),
      buildCacheKey(sha, 'make', { ...cache, toolchain: 'go1.25' }),
      buildCacheKey(sha, 'make', { ...cache, env: { ...env, RUNNER_ARCH: 'ARM64' } }),
      buildCacheKey(sha, 'make', { ...cache, env: { ...env, ImageVersion: '20261201.1' } }),
      buildCacheKey(sha, 'make', { ...cache, env: { ...env, RUNNER_OS: 'macOS' } }),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
    for (const o of others) expect(o.startsWith(key) || key.startsWith(o)).toBe(false);
    expect(buildCacheKey(sha, 'make', cache)).toBe(key);
  });

  it('S24: writes only on the base branch own runs, never on a pull request or when refs are named', () => {
    const none = { baseRef: false, headRef: false, prNumber: false };
    expect(actionSavePolicy('push', none).saves).toBe('base-and-head');
    expect(actionSavePolicy('workflow_dispatch', none).saves).toBe('base-and-head');
    for (const event of ['pull_request', 'pull_request_target', 'workflow_run', 'schedule', '']) expect(actionSavePolicy(event, none).saves, event).toBe('none');
    expect(actionSavePolicy('workflow_dispatch', { ...none, prNumber: true }).saves).toBe('none');
    expect(actionSavePolicy('push', { ...none, headRef: true }).saves).toBe('none');
    expect(actionSavePolicy('push', { ...none, baseRef: true }).saves).toBe('none');
  });
});
