/**
 * The base build cache on the command line (--build-cache with --build-cache-dir, a local folder),
 * its key, its save policy in the action, and its bad inputs. Real git repositories, the real CLI.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionSavePolicy, buildCacheKey } from '../../src/revisions/build-cache.ts';
import { pairbench, readResults } from '../support/cli.ts';
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
    const results = readResults(join(out, 'r2.json')) as { settings: Record<string, unknown>; benchmarks: { pairs: unknown[] }[] };
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
      [['--build', 'sh build.sh', '--build-cache', 'build/ pairbench-cache.json', '--build-cache-dir', tempDir()], /^pairbench: --build-cache: got "pairbench-cache\.json"; expected a path other than pairbench-cache\.json, the name of the cache entry's manifest/],
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

/** The files of the one entry in a local cache folder, by their path inside the entry. */
function entryOf(cacheDir: string): string {
  const keys = readdirSync(cacheDir).filter((d) => !d.startsWith('.'));
  expect(keys).toHaveLength(1);
  return join(cacheDir, keys[0]!);
}

function cacheRun(repo: { dir: string }, base: string, head: string, cacheDir: string, out: string, n: number, build = 'sh build.sh') {
  return pairbench(['compare', '--repo', repo.dir, '--base', base, '--head', head, '--build', build, '--build-cache', 'build/', '--build-cache-dir', cacheDir, '--run', 'sh bench.sh', '--format', 'json', '--max-pairs', '10', '--out', join(out, `r${n}.json`)]);
}

describe('S25: the local build cache verifies what it restores', () => {
  it('an emptied or altered cached file is a miss with one warning, and the base is rebuilt: never an A/A that reads a broken base', () => {
    const { repo, base, head, builds } = repoWithBuild();
    const cacheDir = tempDir();
    const out = tempDir();
    expect(cacheRun(repo, base, head, cacheDir, out, 1).status).toBe(0);
    const value = join(entryOf(cacheDir), 'build', 'value');
    expect(readFileSync(value, 'utf8')).toBe('100\n');
    writeFileSync(value, '');
    const emptied = cacheRun(repo, base, head, cacheDir, out, 2);
    expect(emptied.stderr).not.toMatch(/\n\s+at /);
    expect(emptied.status).toBe(0);
    const warnings = emptied.stderr.split('\n').filter((l) => l.startsWith('warning: base: the build cache'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/build\/value: 0 bytes, expected 4.*building the base/);
    expect(builds()).toEqual([base, head, base, head]);
    expect(readResults(join(out, 'r2.json')).settings?.['buildCacheHit']).toBe(false);
    // the same size, other bytes: the hash tells
    writeFileSync(value, '900\n');
    const altered = cacheRun(repo, base, head, cacheDir, out, 3);
    expect(altered.status).toBe(0);
    expect(altered.stderr).toMatch(/warning: base: the build cache's entry .*build\/value: its SHA-256 is not the one saved/);
    expect(builds()).toEqual([base, head, base, head, base, head]);
  });

  it('a cache folder or entry another user owns, or that others can write, is not used: one line, and the base is built', () => {
    const { repo, base, head, builds } = repoWithBuild();
    const cacheDir = tempDir();
    const out = tempDir();
    expect(cacheRun(repo, base, head, cacheDir, out, 1).status).toBe(0);
    const entry = entryOf(cacheDir);
    // a file of the entry writable by others
    chmodSync(join(entry, 'build', 'value'), 0o666);
    const loose = cacheRun(repo, base, head, cacheDir, out, 2);
    expect(loose.status).toBe(0);
    expect(loose.stderr).toMatch(/warning: base: the build cache's entry .*build\/value is writable by other users \(mode 666\).*building the base/);
    expect(builds()).toEqual([base, head, base, head]);
    chmodSync(join(entry, 'build', 'value'), 0o644);
    // the cache folder itself writable by others, without the sticky bit: neither read nor written
    chmodSync(cacheDir, 0o777);
    const shared = cacheRun(repo, base, head, cacheDir, out, 3);
    expect(shared.status).toBe(0);
    expect(shared.stderr).toMatch(/warning: base: the build cache cannot be used: .* is writable by other users \(mode 777\) without the sticky bit/);
    expect(shared.stderr).toMatch(/base: build outputs not saved: .* is writable by other users/);
    expect(builds()).toEqual([base, head, base, head, base, head]);
    chmodSync(cacheDir, 0o755);
    expect(cacheRun(repo, base, head, cacheDir, out, 4).stderr).toContain('base: build outputs restored from the build cache');
  });

  it.skipIf(process.getuid?.() !== 0)('an entry planted by another user is never restored (run as root: the entry is given to nobody)', () => {
    const { repo, base, head, builds } = repoWithBuild();
    const cacheDir = tempDir();
    const out = tempDir();
    expect(cacheRun(repo, base, head, cacheDir, out, 1).status).toBe(0);
    const entry = entryOf(cacheDir);
    spawnSync('chown', ['-R', '65534:65534', entry]);
    const planted = cacheRun(repo, base, head, cacheDir, out, 2);
    expect(planted.status).toBe(0);
    expect(planted.stderr).toMatch(/warning: base: the build cache's entry .* belongs to another user \(uid 65534\)/);
    expect(builds()).toEqual([base, head, base, head]);
  });

  it('a symbolic link among the outputs is saved as the file it points to, so a later hit runs; a link to nothing is not saved', () => {
    const { repo } = repoWithBuild();
    const linked = repo.commit({ 'build.sh': '#!/bin/sh\nmkdir -p build real && echo 100 > real/value && ln -sf ../real/value build/value\n' }, 'value through a link');
    const head = repo.commit({ 'note.txt': 'y\n' }, 'head');
    const cacheDir = tempDir();
    const out = tempDir();
    const cold = cacheRun(repo, linked, head, cacheDir, out, 1);
    expect(cold.status).toBe(0);
    expect(cold.stderr).toMatch(/base: build outputs saved/);
    const value = join(entryOf(cacheDir), 'build', 'value');
    expect(lstatSync(value).isFile()).toBe(true);
    const warm = cacheRun(repo, linked, head, cacheDir, out, 2);
    expect(warm.stderr).not.toMatch(/\n\s+at /);
    expect(warm.status).toBe(0);
    expect(warm.stderr).toContain('base: build outputs restored from the build cache');
    expect(readResults(join(out, 'r2.json')).settings?.['buildCacheHit']).toBe(true);
    const bad = repo.commit({ 'build.sh': '#!/bin/sh\nmkdir -p build && echo 100 > build/value && ln -sf missing build/nothing\n' }, 'a link to nothing');
    const other = tempDir();
    const res = cacheRun(repo, bad, head, other, out, 3);
    expect(res.status).toBe(0);
    expect(res.stderr).toMatch(/base: build outputs not saved: build\/nothing is a symbolic link to nothing/);
    expect(readdirSync(other).filter((d) => !d.startsWith('.'))).toEqual([]);
  });

  it('saves nothing through a link that leads outside the revision, and restores nothing through a link in its checkout: the link is replaced, never written through', () => {
    const repo = tempRepo();
    const outside = tempDir();
    const plain = repo.commit({ 'build.sh': '#!/bin/sh\nmkdir -p build && echo 100 > build/value\n', 'bench.sh': BENCH }, 'scripts');
    // a base whose checkout holds `build` as a link to a folder outside it; the head's does not
    symlinkSync(outside, join(repo.dir, 'build'));
    const linked = repo.commit({}, 'build is a link');
    repo.git('rm', '--quiet', 'build');
    const head = repo.commit({ 'note.txt': 'z\n' }, 'head without the link');
    const cacheDir = tempDir();
    const out = tempDir();
    expect(cacheRun(repo, plain, head, cacheDir, out, 1).status).toBe(0);
    const plainEntry = entryOf(cacheDir);
    // the build writes through its own link (the user's build, not pairbench's doing); the cache does not follow it out
    const refused = cacheRun(repo, linked, head, cacheDir, out, 2);
    expect(refused.status).toBe(0);
    expect(refused.stderr).toMatch(/base: build outputs not saved: build leads through a symbolic link to \S+, outside the revision's folder/);
    // an entry for the linked base all the same (as another checkout could have saved it): restored beside the link, not through it
    const key = /base: not in the build cache \(key (\S+)\)/.exec(refused.stderr)![1]!;
    const manifest = JSON.parse(readFileSync(join(plainEntry, 'pairbench-cache.json'), 'utf8')) as { key: string };
    writeFileSync(join(plainEntry, 'pairbench-cache.json'), JSON.stringify({ ...manifest, key }));
    renameSync(plainEntry, join(cacheDir, key));
    writeFileSync(join(outside, 'value'), 'untouched\n');
    const warm = cacheRun(repo, linked, head, cacheDir, out, 3);
    expect(warm.stderr).not.toMatch(/\n\s+at /);
    expect(warm.status).toBe(0);
    expect(warm.stderr).toContain('base: build outputs restored from the build cache');
    expect(readFileSync(join(outside, 'value'), 'utf8')).toBe('untouched\n');
  });
});
