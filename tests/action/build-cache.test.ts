/**
 * The base build cache in the action: the real @actions/cache against a local fake of GitHub's
 * cache service (tests/support/fake-cache.ts), the action run as the runner runs it (`node
 * src/action.ts` with INPUT_*, the event file, ACTIONS_CACHE_URL and ACTIONS_RUNTIME_TOKEN).
 *
 * The build writes `build/value`, which the benchmark reads, and notes every build it runs in a
 * log outside the repository: a run that skipped the base's build and still measured it had
 * its outputs restored. The benchmark prints its value (--format json): nothing depends on speed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION } from '../support/cli.ts';
import { FakeCache } from '../support/fake-cache.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { tempDir, tempRepo, type TempRepo } from '../support/repo.ts';

const BUILD = '#!/bin/sh\nmkdir -p build && echo VALUE > build/value && git rev-parse HEAD >> "$BUILD_LOG" && echo "${ACTIONS_RUNTIME_TOKEN:-none} ${ACTIONS_CACHE_URL:-none}" >> "$BUILD_LOG.env"\n';
const BENCH = `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" -v v="$(cat build/value)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"parse\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", v*(1+(rand()-0.5)*0.01)}'\n`;

const closers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
});

interface World {
  repo: TempRepo;
  /** main's commits: c0, then c1 */
  c0: string;
  c1: string;
  /** a pull request on c1 */
  pr: string;
  cache: FakeCache;
  gh: FakeGitHub;
  buildLog: string;
}

async function world(): Promise<World> {
  const repo = tempRepo();
  const c0 = repo.commit({ 'build.sh': BUILD.replace('VALUE', '100'), 'bench.sh': BENCH }, 'c0');
  const c1 = repo.commit({ 'note.txt': 'c1\n' }, 'c1');
  repo.git('checkout', '--quiet', '-b', 'feature');
  const pr = repo.commit({ 'build.sh': BUILD.replace('VALUE', '100').replace('mkdir -p build', 'mkdir -p build other') }, 'pr: a build step more');
  repo.git('checkout', '--quiet', 'main');
  const cache = await FakeCache.start();
  const gh = await FakeGitHub.start('octo', 'repo');
  closers.push(cache, gh);
  gh.addPull({ number: 7, baseSha: c1, headSha: pr });
  return { repo, c0, c1, pr, cache, gh, buildLog: join(tempDir(), 'builds.log') };
}

/** The builds run so far, as the SHAs built. */
function builds(w: World): string[] {
  return existsSync(w.buildLog) ? readFileSync(w.buildLog, 'utf8').trim().split('\n').filter(Boolean) : [];
}

const MAIN = { write: 'refs/heads/main', read: [] };
const PR7 = { write: 'refs/pull/7/merge', read: ['refs/heads/main'] };

async function runAction(w: World, event: 'push' | 'pull_request', token: string, inputs: Record<string, string> = {}): Promise<{ status: number | null; log: string; summary: string }> {
  const dir = tempDir();
  const payload =
    event === 'push'
      ? { ref: 'refs/heads/main', before: w.c0, after: w.c1, repository: { full_name: 'octo/repo' } }
      : {
          action: 'synchronize',
          number: 7,
          pull_request: { number: 7, labels: [], base: { sha: w.c1, ref: 'main', repo: { full_name: 'octo/repo', fork: false } }, head: { sha: w.pr, ref: 'feature', repo: { full_name: 'octo/repo', fork: false } } },
          repository: { full_name: 'octo/repo' },
        };
  writeFileSync(join(dir, 'event.json'), JSON.stringify(payload));
  writeFileSync(join(dir, 'summary.md'), '');
  writeFileSync(join(dir, 'output.txt'), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: event === 'push' ? w.c1 : w.pr,
    GITHUB_WORKSPACE: w.repo.dir,
    GITHUB_API_URL: w.gh.url,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    RUNNER_TEMP: dir,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    ImageOS: 'ubuntu24',
    ImageVersion: '20261120.1',
    ACTIONS_CACHE_URL: w.cache.url,
    ACTIONS_RUNTIME_TOKEN: token,
    BUILD_LOG: w.buildLog,
  };
  const all = { 'github-token': 'ghs_cache_test_token_0123456789', comment: 'always', mode: 'compare', build: 'sh build.sh', 'build-cache': 'build/', 'build-cache-key': 'sh-1', run: 'sh bench.sh', name: 'parse', format: 'json', 'min-pairs': '8', 'max-pairs': '12', ...inputs };
  for (const [k, v] of Object.entries(all)) env[`INPUT_${k.toUpperCase()}`] = v;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ACTION], { cwd: w.repo.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('close', (status) => resolve({ status, log, summary: readFileSync(join(dir, 'summary.md'), 'utf8') }));
  });
}

describe('action: the base build cache', () => {
  it('S24: a pull request run with an empty cache builds its base, says so, and writes nothing', async () => {
    const w = await world();
    const run = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(run.log).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(0);
    expect(builds(w).sort()).toEqual([w.c1, w.pr].sort());
    expect(w.cache.lookups).toHaveLength(1);
    expect(w.cache.lookups[0]!.hit).toBe(false);
    expect(w.cache.reservations).toEqual([]);
    expect(run.log).toContain('The build cache is not written: a pull_request run reads the build cache and never writes it');
    expect(run.summary).toContain('**Base build:** not in the build cache');
  });

  it('S24: a push to the base branch saves its builds; a pull request on it then restores the base and skips its build', async () => {
    const w = await world();
    const push = await runAction(w, 'push', w.cache.token('main', MAIN));
    expect(push.log).not.toMatch(/\n\s+at /);
    expect(push.status).toBe(0);
    expect(builds(w).sort()).toEqual([w.c0, w.c1].sort());
    // both revisions of the branch are saved, each under its own SHA, in the branch's scope
    expect(w.cache.reservations).toHaveLength(2);
    expect(w.cache.reservations.every((r) => r.scope === 'refs/heads/main')).toBe(true);
    expect(w.cache.reservations.map((r) => r.key).some((k) => k.includes(w.c1))).toBe(true);
    const key = w.cache.reservations.find((r) => r.key.includes(w.c1))!.key;
    expect(key).toMatch(/^pairbench-build-linux-x64-ubuntu24-20261120\.1-[0-9a-f]{40}-[0-9a-f]{24}$/);

    const pr = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(pr.log).not.toMatch(/\n\s+at /);
    expect(pr.status).toBe(0);
    // the base (c1) was not built again: its build/value came from the cache, and the benchmark read it
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(1);
    expect(builds(w).filter((s) => s === w.pr)).toHaveLength(1);
    expect(pr.log).toContain(`base: build outputs restored from the build cache ("build" in GitHub's cache, key ${key}): the base's build is skipped`);
    expect(pr.summary).toContain(`**Base build:** restored from the build cache (\`${key}\`), not rebuilt; head was built.`);
    // the pull request wrote nothing
    expect(w.cache.reservations).toHaveLength(2);
  });

  it('S24: a pull request cannot poison the cache: its run never saves, so a later run still misses and builds the base', async () => {
    const w = await world();
    const first = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(first.status).toBe(0);
    const second = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(second.status).toBe(0);
    expect(w.cache.reservations).toEqual([]);
    expect(w.cache.entries).toEqual([]);
    expect(w.cache.lookups.map((l) => l.hit)).toEqual([false, false]);
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(2);
    // the user's build never sees the cache service's address or token (S4), so the PR's code cannot write the cache itself
    const seen = readFileSync(`${w.buildLog}.env`, 'utf8').trim().split('\n');
    expect(seen).toHaveLength(4);
    for (const line of seen) expect(line).toBe('none none');
  });

  it('a different toolchain, runner image or build command is another key: a miss', async () => {
    const w = await world();
    await runAction(w, 'push', w.cache.token('main', MAIN));
    const other = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7), { 'build-cache-key': 'sh-2' });
    expect(other.status).toBe(0);
    expect(w.cache.lookups.at(-1)!.hit).toBe(false);
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(2);
  });
});

/** A tar archive of `members` (paths as tar is given them, from `cwd`), compressed as `like` is (zstd or gzip). */
function craftedArchive(cwd: string, members: string[], like: Buffer): Buffer {
  const tar = spawnSync('tar', ['-P', '-cf', '-', ...members], { cwd, maxBuffer: 1 << 26 });
  expect(tar.status, tar.stderr.toString()).toBe(0);
  const zstd = like.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
  const packed = spawnSync(zstd ? 'zstd' : 'gzip', zstd ? ['-q', '-c'] : ['-c'], { input: tar.stdout, maxBuffer: 1 << 26 });
  expect(packed.status).toBe(0);
  return packed.stdout;
}

describe('S25: the action restores only what its archive may hold', () => {
  it('an archive with absolute names or .. writes nothing outside the revision, and is a miss: the base is built', async () => {
    const w = await world();
    expect((await runAction(w, 'push', w.cache.token('main', MAIN))).status).toBe(0);
    const entry = w.cache.entries.find((e) => e.key.includes(w.c1))!;
    const outside = tempDir();
    const craft = tempDir();
    mkdirSync(join(craft, 'build'));
    writeFileSync(join(craft, 'build', 'value'), '100\n');
    writeFileSync(join(outside, 'absolute'), 'planted\n');
    writeFileSync(join(outside, 'dotdot'), 'planted\n');
    const up = '../'.repeat(40);
    entry.archive = craftedArchive(craft, ['build/value', join(outside, 'absolute'), `${up}${outside.slice(1)}/dotdot`], entry.archive!);
    rmSync(join(outside, 'absolute'));
    rmSync(join(outside, 'dotdot'));
    const pr = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(pr.log).not.toMatch(/\n\s+at /);
    expect(pr.status).toBe(0);
    expect(readdirSync(outside)).toEqual([]);
    // tar without -P refuses the member with .. and fails: a miss, said once, and the base built again
    expect(pr.log).toContain("Member name contains '..'");
    expect(pr.log.match(/::warning::Failed to restore: .*tar.* failed/g)).toHaveLength(1);
    expect(pr.log).toContain('base: not in the build cache (key');
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(2);
    expect(pr.summary).toContain('**Base build:** not in the build cache');
  });

  it('an archive whose file differs from its manifest is a miss, and a link in it is never restored', async () => {
    const w = await world();
    expect((await runAction(w, 'push', w.cache.token('main', MAIN))).status).toBe(0);
    const entry = w.cache.entries.find((e) => e.key.includes(w.c1))!;
    // the saved archive, unpacked: build/value and the manifest
    const craft = tempDir();
    const zstd = entry.archive!.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
    const raw = spawnSync(zstd ? 'zstd' : 'gzip', ['-d', '-c'], { input: entry.archive!, maxBuffer: 1 << 26 });
    expect(spawnSync('tar', ['-xf', '-'], { cwd: craft, input: raw.stdout }).status).toBe(0);
    expect(readFileSync(join(craft, 'build', 'value'), 'utf8')).toBe('100\n');
    writeFileSync(join(craft, 'build', 'value'), '900\n');
    entry.archive = craftedArchive(craft, ['build', 'pairbench-cache.json'], entry.archive!);
    const altered = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(altered.status).toBe(0);
    expect(altered.log).toMatch(/warning: base: the build cache's entry \S+ is not used \(build\/value: its SHA-256 is not the one saved\): building the base/);
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(2);
    // the bytes restored never reached the benchmark: it read the rebuilt 100, not 900
    expect(altered.log).not.toMatch(/"value":\s*9\d\d/);
    writeFileSync(join(craft, 'build', 'value'), '100\n');
    symlinkSync('/etc', join(craft, 'build', 'etc'));
    entry.archive = craftedArchive(craft, ['build', 'pairbench-cache.json'], entry.archive!);
    const linked = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(linked.status).toBe(0);
    expect(linked.log).toMatch(/warning: base: the build cache's entry \S+ is not used \(build\/etc is a symbolic link\)/);
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(3);
  });

  it('an archive whose manifest names a path not kept (the benchmark script) restores nothing', async () => {
    const w = await world();
    expect((await runAction(w, 'push', w.cache.token('main', MAIN))).status).toBe(0);
    const entry = w.cache.entries.find((e) => e.key.includes(w.c1))!;
    const craft = tempDir();
    const zstd = entry.archive!.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
    const raw = spawnSync(zstd ? 'zstd' : 'gzip', ['-d', '-c'], { input: entry.archive!, maxBuffer: 1 << 26 });
    expect(spawnSync('tar', ['-xf', '-'], { cwd: craft, input: raw.stdout }).status).toBe(0);
    const planted = '#!/bin/sh\necho \'[{"name":"parse","value":1,"unit":"ms"}]\'\n';
    writeFileSync(join(craft, 'bench.sh'), planted);
    const manifest = JSON.parse(readFileSync(join(craft, 'pairbench-cache.json'), 'utf8')) as { paths: string[]; files: object[] };
    manifest.paths.push('bench.sh');
    manifest.files.push({ path: 'bench.sh', size: Buffer.byteLength(planted), sha256: createHash('sha256').update(planted).digest('hex'), mode: 0o755 });
    writeFileSync(join(craft, 'pairbench-cache.json'), JSON.stringify(manifest));
    entry.archive = craftedArchive(craft, ['build', 'bench.sh', 'pairbench-cache.json'], entry.archive!);
    const pr = await runAction(w, 'pull_request', w.cache.token('pr-7', PR7));
    expect(pr.status).toBe(0);
    expect(pr.log).toMatch(/warning: base: the build cache's entry \S+ is not used \(its manifest names "bench\.sh", not a path kept\): building the base/);
    expect(builds(w).filter((s) => s === w.c1)).toHaveLength(2);
  });
});
