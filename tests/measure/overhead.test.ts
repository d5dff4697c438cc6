/**
 * pairbench's own per-run overhead, end to end with the real CLI and real processes: the empty
 * shell command is run between the pairs and its raw times are recorded in the results file
 * (subtracted when judged: tests/stats/overhead.test.ts); `--shell none` runs the command with
 * no shell, so there is nothing to calibrate, and refuses a command that needs a shell.
 * No assertion depends on how fast this machine is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { splitCommand } from '../../src/config/command.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

describe.each([
  { timer: 'the run helper', env: {} as Record<string, string> },
  { timer: 'Node (PAIRBENCH_NO_HELPER=1)', env: { PAIRBENCH_NO_HELPER: '1' } },
])('overhead calibration with $timer', ({ env }) => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
    for (const side of ['a', 'b']) {
      mkdirSync(join(dir, side));
      writeFileSync(join(dir, side, 'prog.sh'), '#!/bin/sh\n:\n', { mode: 0o755 });
    }
  });

  const compare = (extra: string[]) => {
    const out = join(dir, `r-${Math.random().toString(36).slice(2)}.json`);
    const res = pairbench(['compare', '--base-dir', join(dir, 'a'), '--head-dir', join(dir, 'b'), '--min-pairs', '4', '--max-pairs', '4', '--warmup', '0', '--fail-on', 'none', '--quiet', '--out', out, ...extra], { env });
    return { res, out };
  };

  it('records the raw times of one empty-shell run per pair, and their median, in the results file', () => {
    const { res, out } = compare(['--run', './prog.sh']);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status).toBe(0);
    const b = readResults(out).benchmarks[0]!;
    expect(b.pairs).toHaveLength(4);
    expect(b.overhead).toBeDefined();
    expect(b.overhead!.n).toBe(4);
    expect(b.overhead!.samples).toHaveLength(4);
    expect(b.overhead!.samples!.every((v) => v > 0)).toBe(true);
    const s = [...b.overhead!.samples!].sort((x, y) => x - y);
    expect(b.overhead!.ms).toBeCloseTo((s[1]! + s[2]!) / 2, 6);
    expect(b.overhead!.method).toMatch(/sh -c ''/);
  });

  it('--shell none: the command runs without a shell, and no overhead is calibrated or subtracted', () => {
    const { res, out } = compare(['--run', './prog.sh', '--shell', 'none']);
    expect(res.status).toBe(0);
    const results = readResults(out);
    expect(results.benchmarks[0]!.pairs).toHaveLength(4);
    expect(results.benchmarks[0]!.overhead).toBeUndefined();
    expect((results.settings!.benchmarks as { shell?: string }[])[0]!.shell).toBe('none');
  });
});

describe('--shell none refuses a command that needs a shell', () => {
  it('exit 2 with one line naming the input, the value and what is expected', () => {
    const dir = tempDir();
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', './prog | tee log', '--shell', 'none', '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stderr).toContain('--run: got "./prog | tee log", which cannot run with --shell none: it holds the shell operator |');
    expect(res.stderr).toContain('or --shell sh');
  });

  it('a {filter} placeholder, whose selection goes through the shell, is refused with --shell none', () => {
    const dir = tempDir();
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', './bench.test -test.bench {filter}', '--format', 'go', '--shell', 'none', '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stderr).toContain('--run: got "./bench.test -test.bench {filter}", whose {filter} / {benchmark} placeholder needs the shell; expected --shell sh');
  });

  it('a bad --shell value is refused with the choices', () => {
    const dir = tempDir();
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', './prog', '--shell', 'bash', '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--shell: got "bash"; expected .*sh.*none/);
  });

  it('a config file benchmark with shell: none is checked the same way', () => {
    const dir = tempDir();
    const config = join(dir, 'bench.yml');
    writeFileSync(config, 'benchmarks:\n  - name: piped\n    run: ./prog > out.txt\n    shell: none\n');
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--config', config, '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('which cannot run with --shell none: it holds the shell operator >');
  });
});

describe('splitCommand (the --shell none word rule)', () => {
  it('splits POSIX words: quotes and backslashes removed, nothing expanded', () => {
    expect(splitCommand(`./bench --name 'a b' "c d" e\\ f`)).toEqual({ argv: ['./bench', '--name', 'a b', 'c d', 'e f'] });
  });

  it.each([
    ['a && b', 'the shell operator &&'],
    ['a; b', 'the shell operator ;'],
    ['a > f', 'the shell operator >'],
    ['echo $HOME', 'the variable $HOME'],
    ['echo "$HOME"', 'the variable $HOME'],
    ['echo $(date)', 'a $ expansion'],
    ['echo `date`', 'command substitution'],
    ['ls *.txt', 'the pattern *.txt'],
    ['run # note', 'a comment'],
    ['', 'it is empty'],
  ])('refuses %j: %s', (command, why) => {
    const got = splitCommand(command);
    expect('error' in got && got.error).toContain(why);
  });

  it("keeps a single-quoted $ as it is (no expansion is asked for)", () => {
    expect(splitCommand("printf '$HOME'")).toEqual({ argv: ['printf', '$HOME'] });
  });
});
