/**
 * S16: reports are written whole or not at all (a temp file in the same folder, then a rename), and
 * a report that cannot be written (a full disk) is one warning: the comparison finished, its results
 * file is whole, and the exit status is the comparison's, not 3.
 *
 * A full disk is played by a file-size limit (`ulimit -f`, in 512-byte blocks), as in the S19 tests:
 * the shell ignores SIGXFSZ, so a write past the limit fails with EFBIG as it fails with ENOSPC.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** The CLI with a file-size limit of `blocks` × 512 bytes. */
function limited(blocks: number, args: string[], cwd: string) {
  const script = `trap '' XFSZ; ulimit -f ${blocks}; exec "$0" "$@"`;
  return spawnSync('sh', ['-c', script, process.execPath, CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, killSignal: 'SIGKILL' });
}

describe('S16: a report that cannot be written leaves the comparison as it was', () => {
  it('S16: compare --html on a full disk: one warning, the old report kept whole, no temp file, the results file whole, the exit status the comparison\'s', () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const results = join(dir, 'r.json');
    // the folder of the report holds only the report, so a temp file left behind would show
    mkdirSync(out);
    const html = join(out, 'report.html');
    writeFileSync(html, 'the report of an earlier run\n');
    // 16 blocks (8 KiB): the results file of 10 pairs (about 4 KB) fits, the HTML report (about 14 KB) does not
    const res = limited(16, ['compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--min-pairs', '10', '--max-pairs', '10', '--out', results, '--html', html, '--fail-on', 'none', '--quiet'], dir);
    const warnings = res.stderr.split('\n').filter((l) => l.startsWith('warning: could not write'));
    expect(warnings).toEqual([`warning: could not write the HTML report ${html}: the file is larger than allowed (EFBIG); the exit status is the comparison's, and its results are in ${results}`]);
    expect(res.stderr).not.toMatch(/^pairbench:/m);
    expect(res.status).toBe(0);
    expect(readFileSync(html, 'utf8')).toBe('the report of an earlier run\n');
    expect(readdirSync(out)).toEqual(['report.html']);
    const kept = readResults(results);
    expect(kept.status).toBe('complete');
    expect(kept.benchmarks[0]!.pairs).toHaveLength(10);
    // the terminal report is still printed
    expect(res.stdout).toMatch(/^benchmark\s+base/);
  });

  it('S16: report --markdown and --html on a full disk: a warning each, the exit status the judged one (a regression is still exit 1)', () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    // 40 benchmarks, every one 10% slower on head: a regression whose reports are far above 4 KiB
    const benchmarks = Array.from({ length: 40 }, (_, i) => ({
      name: `bench-${i}`,
      unit: 'ms',
      direction: 'lower-is-better',
      pairs: Array.from({ length: 14 }, (_, k) => ({ base: 10 + k * 0.1, head: (10 + k * 0.1) * (1.1 + (k % 3) * 0.001), order: k % 2 ? 'base-first' : 'head-first' })),
    }));
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks }));
    const md = join(dir, 'report.md');
    const html = join(dir, 'report.html');
    const res = limited(8, ['report', file, '--markdown', md, '--html', html], dir);
    expect(res.stderr.trim().split('\n')).toEqual([
      `warning: could not write the Markdown report ${md}: the file is larger than allowed (EFBIG); the exit status is the comparison's`,
      `warning: could not write the HTML report ${html}: the file is larger than allowed (EFBIG); the exit status is the comparison's`,
    ]);
    expect(res.status).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['r.json']);
  });

  it('S16: a report path that is a pipe (/dev/stdout) or a symbolic link is written through, never replaced by a rename', () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, benchmarks: [{ name: 'one', unit: 'ms', direction: 'lower-is-better', pairs: [{ base: 1, head: 1, order: 'base-first' }] }] }));
    const piped = spawnSync('sh', ['-c', '"$0" "$@" | cat', process.execPath, CLI, 'report', file, '--markdown', '/dev/stdout', '--json'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(piped.stderr).toBe('');
    expect(piped.status).toBe(0);
    expect(piped.stdout).toContain('| verdict | benchmark |');
    mkdirSync(join(dir, 'elsewhere'));
    const real = join(dir, 'elsewhere', 'real.html');
    writeFileSync(real, 'old');
    symlinkSync(real, join(dir, 'link.html'));
    const linked = spawnSync(process.execPath, [CLI, 'report', file, '--html', join(dir, 'link.html')], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(linked.status).toBe(0);
    expect(lstatSync(join(dir, 'link.html')).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toMatch(/^<!doctype html>/);
  });
});
