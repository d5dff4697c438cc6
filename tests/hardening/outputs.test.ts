/**
 * S16: every output path is checked before anything is built or run: a missing, read-only or
 * unreachable folder, or a path that is a folder, is exit 2 naming the path, never a hang and never
 * an hour of measuring lost at the end.
 * S19: a results file that cannot be written mid-run (a full disk) keeps its last complete version,
 * leaves no temp file beside it, and the message names the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareOutputFolder } from '../../src/results/writer.ts';
import { UsageError } from '../../src/config/errors.ts';
import { ACTION, CLI, pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** A comparison of one folder with itself whose build leaves a mark: the mark says something ran. */
function setup(): { dir: string; built: string; args: string[] } {
  const dir = tempDir();
  const built = join(dir, 'built');
  return { dir, built, args: ['compare', '--base-dir', dir, '--head-dir', dir, '--build', `touch ${built}`, '--run', 'true', '--max-pairs', '10', '--quiet'] };
}

describe('S16: output paths are checked before anything runs', () => {
  it('S16: --out /proc/nope/x.json is refused at once (no hang), naming the path', () => {
    const { args, built, dir } = setup();
    const res = pairbench([...args, '--out', '/proc/nope/x.json'], { cwd: dir, timeoutMs: 30_000 });
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/^pairbench: --out: got "\/proc\/nope\/x\.json"; the folder \/proc\/nope does not exist/);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(built)).toBe(false);
  });

  it.each([
    ['--out', 'missing/r.json', /^pairbench: --out: got "missing\/r\.json"; the folder .*\/missing does not exist; create it first/],
    ['--markdown', 'missing/r.md', /^pairbench: --markdown: got "missing\/r\.md"; the folder .*\/missing does not exist; create it first/],
    ['--out', '/sys/pairbench-results.json', /^pairbench: --out: got "\/sys\/pairbench-results\.json"; cannot create a file in \/sys \(/],
    ['--markdown', '/sys/pairbench-report.md', /^pairbench: --markdown: got "\/sys\/pairbench-report\.md"; cannot create a file in \/sys \(/],
    ['--out', 'afolder', /^pairbench: --out: got "afolder"; .*\/afolder is a folder; expected a file path/],
    ['--markdown', 'afolder', /^pairbench: --markdown: got "afolder"; .*\/afolder is a folder; expected a file path/],
  ])('S16: %s %s is refused before the build, exit 2', (flag, path, message) => {
    const { args, built, dir } = setup();
    mkdirSync(join(dir, 'afolder'));
    const res = pairbench([...args, '--out', join(dir, 'r.json'), flag, path], { cwd: dir, timeoutMs: 60_000 });
    expect(res.stderr).toMatch(message);
    expect(res.status).toBe(2);
    expect(existsSync(built)).toBe(false);
    expect(res.stdout).toBe('');
  });

  it('S16: --out naming a pipe (or a device) is refused: the results file is replaced on every pair, and a pipe or device never is', () => {
    const { args, built, dir } = setup();
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const res = pairbench([...args, '--out', pipe], { cwd: dir, timeoutMs: 60_000 });
    expect(res.stderr).toMatch(/^pairbench: --out: got ".*\/pipe"; it is not a regular file; expected a path for the results file/);
    expect(res.status).toBe(2);
    expect(lstatSync(pipe).isFIFO()).toBe(true);
    expect(existsSync(built)).toBe(false);
  });

  it('S16: report --out and --markdown in a missing folder are refused before anything is printed', () => {
    const dir = tempDir();
    const results = join(dir, 'r.json');
    writeFileSync(results, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks: [] }));
    for (const flag of ['--out', '--markdown']) {
      const res = pairbench(['report', results, flag, join(dir, 'no', 'x')], { cwd: dir, timeoutMs: 60_000 });
      expect(res.stderr).toMatch(new RegExp(`^pairbench: ${flag}: got ".*/no/x"; the folder .*/no does not exist`));
      expect(res.status).toBe(2);
      expect(res.stdout).toBe('');
    }
  });

  it('S16: a folder that cannot be made is refused at once, never retried in a loop', () => {
    expect(() => prepareOutputFolder('input results-path', '/proc/nope/deeper/x.json')).toThrow(UsageError);
    expect(() => prepareOutputFolder('input results-path', '/proc/nope/deeper/x.json')).toThrow(/input results-path: got "\/proc\/nope\/deeper\/x\.json"; cannot make the folder \/proc\/nope/);
    const dir = tempDir();
    const target = join(dir, 'a', 'b', 'r.json');
    expect(prepareOutputFolder('input results-path', target)).toBe(target);
    expect(existsSync(join(dir, 'a', 'b'))).toBe(true);
  });
});

describe('S16: the action checks its output paths first', () => {
  it('S16: results-path /proc/nope/x.json fails the step at once with one message naming the input', () => {
    const workspace = tempDir();
    const res = spawnSync(process.execPath, [ACTION], {
      cwd: workspace,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: workspace, GITHUB_REPOSITORY: 'octo/repo', GITHUB_EVENT_NAME: 'push', 'INPUT_RUN': 'true', 'INPUT_RESULTS-PATH': '/proc/nope/x.json' },
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    expect(res.stdout.trim()).toBe('::error::input results-path: got "/proc/nope/x.json"; cannot make the folder /proc/nope: no such file or folder (ENOENT)');
    expect(res.status).toBe(1);
  });
});

describe('S19: a results file that cannot be written mid-run', () => {
  it('S19: a file-size limit reached mid-run (as a full disk) keeps the last complete file, leaves no temp file, and names the file', () => {
    const dir = tempDir();
    const out = join(dir, 'results');
    mkdirSync(out);
    const file = join(out, 'r.json');
    // 24 blocks of 512 bytes: the first writes fit, a later one does not. The shell ignores SIGXFSZ,
    // so the write fails with EFBIG, as it fails with ENOSPC on a full disk.
    const script = `trap '' XFSZ; ulimit -f 24; exec "$0" "$@"`;
    const res = spawnSync('sh', ['-c', script, process.execPath, CLI, 'compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--min-pairs', '400', '--max-pairs', '400', '--out', file, '--quiet'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 120_000,
    });
    expect(res.stderr).toContain(`could not write the results file ${file}`);
    expect(res.stderr).toMatch(/\(EFBIG\)/);
    expect(res.stderr).toMatch(/the last complete version is kept/);
    expect(res.status).toBe(3);
    expect(readdirSync(out)).toEqual(['r.json']);
    const kept = readResults(file);
    expect(kept.benchmarks[0]!.pairs.length).toBeGreaterThan(0);
    expect(kept.benchmarks[0]!.pairs.length).toBeLessThan(400);
  });

  // A report that cannot be written (--markdown, --html) is a warning instead: tests/hardening/report-writes.test.ts (S16).
  it('S19: report --out that cannot be written names the file, exit 3', () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const benchmarks = Array.from({ length: 300 }, (_, i) => ({
      name: `bench-${i}`,
      unit: 'ms',
      direction: 'lower-is-better',
      pairs: Array.from({ length: 6 }, (_, k) => ({ base: 10 + k * 0.1, head: 10 + k * 0.1, order: k % 2 ? 'base-first' : 'head-first' })),
    }));
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks }));
    const target = join(dir, 'judged.json');
    const script = `trap '' XFSZ; ulimit -f 8; exec "$0" "$@"`;
    const res = spawnSync('sh', ['-c', script, process.execPath, CLI, 'report', file, '--out', target], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000, killSignal: 'SIGKILL' });
    expect(res.stderr).toBe(`pairbench: could not write ${target}: the file is larger than allowed (EFBIG)\n`);
    expect(res.status).toBe(3);
  });
});
