/**
 * The run helper's cache and its fallbacks, through the real CLI in a process of its own (the
 * helper is located once per process): a per-user cache that nobody else can plant a program in
 * (S17), a cache folder that cannot run programs (S18), and metrics that need the helper on a
 * machine that cannot build it (S15).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HELPER_SOURCE } from '../../src/measure/helper-source.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const NOBODY = 65534;
const helperDirName = `helper-${createHash('sha256').update(HELPER_SOURCE).digest('hex').slice(0, 12)}`;

/** A comparison of two empty directories; returns the CLI's result and the results file's path. */
function compare(args: string[], env: Record<string, string>): { status: number | null; stderr: string; file: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  const file = join(dir, 'r.json');
  const res = pairbench(['compare', '--base-dir', join(dir, 'a'), '--head-dir', join(dir, 'b'), '--min-pairs', '3', '--max-pairs', '3', '--warmup', '0', '--fail-on', 'none', '--quiet', '--out', file, ...(args.includes('--run') ? [] : ['--run', 'true']), ...args], { env });
  return { status: res.status, stderr: res.stderr, file };
}

/** A program that records that it was run, where a helper would be. */
function plant(path: string, ran: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\ntouch ${ran}\nexit 0\n`, { mode: 0o755 });
}

const isRoot = process.getuid?.() === 0;

describe('S17: the run helper cache', () => {
  it('S17: the helper is compiled into a per-user cache folder of mode 0700, not a shared temp path', () => {
    const home = tempDir();
    const tmp = tempDir();
    const res = compare(['--metric', 'cpu'], { XDG_CACHE_HOME: join(home, 'cache'), TMPDIR: tmp, PAIRBENCH_CACHE_DIR: '' });
    expect(res.status, res.stderr).toBe(0);
    expect(readResults(res.file).settings?.['timer']).toBe('helper');
    const cache = join(home, 'cache', 'pairbench');
    const st = statSync(cache);
    expect(st.mode & 0o777).toBe(0o700);
    expect(st.uid).toBe(process.getuid!());
    expect(readdirSync(cache)).toContain(helperDirName);
    expect(statSync(join(cache, helperDirName)).mode & 0o777).toBe(0o700);
    expect(existsSync(join(tmp, 'pairbench-cache'))).toBe(false);
  });

  it.skipIf(!isRoot)('S17: a helper planted in a cache folder of another user is never run', () => {
    const cache = tempDir();
    chmodSync(cache, 0o777);
    chownSync(cache, NOBODY, NOBODY);
    const ran = join(tempDir(), 'planted-helper-ran');
    const exe = join(cache, helperDirName, 'pairbench-run');
    plant(exe, ran);
    chownSync(join(cache, helperDirName), NOBODY, NOBODY);
    chownSync(exe, NOBODY, NOBODY);
    const res = compare(['--metric', 'cpu'], { PAIRBENCH_CACHE_DIR: cache });
    expect(existsSync(ran)).toBe(false);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/PAIRBENCH_CACHE_DIR/);
    expect(readResults(res.file).benchmarks[0]!.pairs.every((p) => p.base > 0)).toBe(true);
  });

  it.skipIf(!isRoot)('S17: a file of another user in our own cache folder is not run, but replaced', () => {
    const cache = tempDir();
    const ran = join(tempDir(), 'planted-helper-ran');
    const exe = join(cache, helperDirName, 'pairbench-run');
    plant(exe, ran);
    chmodSync(join(cache, helperDirName), 0o700);
    chownSync(exe, NOBODY, NOBODY);
    const res = compare(['--metric', 'cpu'], { PAIRBENCH_CACHE_DIR: cache });
    expect(existsSync(ran)).toBe(false);
    expect(res.status, res.stderr).toBe(0);
    expect(statSync(exe).uid).toBe(process.getuid!());
  });

  it('S17: a damaged cached helper is not trusted: it is built again', () => {
    const cache = tempDir();
    const exe = join(cache, helperDirName, 'pairbench-run');
    mkdirSync(join(cache, helperDirName), { mode: 0o700 });
    writeFileSync(exe, '#!/bin/sh\nexit 0\n', { mode: 0o700 });
    const res = compare(['--metric', 'cpu'], { PAIRBENCH_CACHE_DIR: cache });
    expect(res.status, res.stderr).toBe(0);
    expect(readResults(res.file).settings?.['timer']).toBe('helper');
  });
});

/** A tmpfs mounted noexec, as hardened runners mount /tmp. Root only; under CI=true that must work. */
function noexecFolder(): string | null {
  const dir = tempDir();
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', 'noexec,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
  if (res.status !== 0) {
    if (process.env.CI === 'true') throw new Error(`cannot mount a noexec tmpfs for this test: ${res.stderr}`);
    return null;
  }
  mounted.push(dir);
  return dir;
}

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir]);
});

describe('S18: a cache folder that cannot run programs', () => {
  it('S18: on a noexec folder the comparison is timed in Node, with a one-line notice, and the timer is recorded', (ctx) => {
    const dir = noexecFolder();
    if (!dir) return ctx.skip();
    const res = compare(['--run', 'true'], { PAIRBENCH_CACHE_DIR: dir });
    expect(res.status, res.stderr).toBe(0);
    const notices = res.stderr.split('\n').filter((l) => /run helper/.test(l));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/cannot run programs|noexec/);
    expect(notices[0]).toContain('PAIRBENCH_CACHE_DIR');
    const results = readResults(res.file);
    expect(results.settings?.['timer']).toBe('node');
    expect(results.benchmarks[0]!.pairs).toHaveLength(3);
  });

  it('S18: --metric cpu on a noexec folder stops before building, exit 2, saying why', (ctx) => {
    const dir = noexecFolder();
    if (!dir) return ctx.skip();
    const built = join(tempDir(), 'built');
    const res = compare(['--metric', 'cpu', '--build', `echo x >> ${built}`], { PAIRBENCH_CACHE_DIR: dir });
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/--metric cpu/);
    expect(res.stderr).toContain('PAIRBENCH_CACHE_DIR');
    expect(existsSync(built)).toBe(false);
  });
});

describe('S15: metrics that need the run helper, without a C compiler', () => {
  it.each(['cpu', 'rss'])('S15: --metric %s without a C compiler exits 2 before building, saying what to install', (metric) => {
    const built = join(tempDir(), 'built');
    const noCompiler = tempDir();
    const res = compare(['--metric', metric, '--build', `echo x >> ${built}`], { PATH: noCompiler, CC: '', PAIRBENCH_CACHE_DIR: tempDir() });
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(new RegExp(`--metric ${metric}`));
    expect(res.stderr).toMatch(/C compiler/);
    expect(res.stderr).toMatch(/gcc|clang/);
    expect(existsSync(built)).toBe(false);
  });

  it('without a C compiler, wall time is measured in Node, with a one-line notice saying what to install', () => {
    const res = compare(['--run', 'true'], { PATH: tempDir(), CC: '', PAIRBENCH_CACHE_DIR: tempDir() });
    expect(res.status, res.stderr).toBe(0);
    const notices = res.stderr.split('\n').filter((l) => /run helper/.test(l));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^warning: no C compiler .*timed in Node.*gcc/);
    expect(readResults(res.file).settings?.['timer']).toBe('node');
  });

  it('S15: --metric cpu with PAIRBENCH_NO_HELPER=1 exits 2 naming it', () => {
    const res = compare(['--metric', 'cpu'], { PAIRBENCH_NO_HELPER: '1' });
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toContain('PAIRBENCH_NO_HELPER');
  });
});
