/**
 * S14: pairbench removes only what it provably created. A worktree whose path merely looks like
 * one of pairbench's (`pairbench-wt-<pid>-` with a pid that is gone) is the user's, and so is the
 * folder around it: both are left alone, with a note.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

/** A process id that no process has now: the pid of a worktree's "owner" that is gone. */
function deadPid(): number {
  for (let pid = 99999; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

const bench = '#!/bin/sh\nprintf \'[{"name":"x","value":1,"unit":"ms"}]\'\n';

describe('S14: only what pairbench made is removed', () => {
  it("S14: a user's worktree named pairbench-wt-<dead pid>-feature, its uncommitted file and its parent folder survive a compare", () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': bench }, 'one');
    repo.git('tag', 'v1');
    repo.commit({ 'bench.sh': bench, 'two.txt': '2' }, 'two');
    const projects = join(tempDir(), 'projects');
    mkdirSync(projects);
    const worktree = join(projects, `pairbench-wt-${deadPid()}-feature`);
    repo.git('worktree', 'add', '--quiet', '--detach', worktree, 'v1');
    writeFileSync(join(worktree, 'uncommitted.txt'), 'work in progress');
    writeFileSync(join(projects, 'notes.txt'), 'my notes');

    const res = pairbench(['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--max-pairs', '10', '--out', join(repo.dir, 'r.json'), '--fail-on', 'none'], { cwd: repo.dir });

    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(join(worktree, 'uncommitted.txt'), 'utf8')).toBe('work in progress');
    expect(readFileSync(join(projects, 'notes.txt'), 'utf8')).toBe('my notes');
    expect(repo.git('worktree', 'list', '--porcelain')).toContain(`worktree ${realpathSync(worktree)}`);
    expect(res.stderr).toContain(`Leaving the worktree ${realpathSync(worktree)} alone`);
  });

  it('S14: a worktree in the temp folder with our name pattern but without the marker pairbench writes is left alone', () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': bench }, 'one');
    repo.commit({ 'bench.sh': bench, 'two.txt': '2' }, 'two');
    // named exactly as pairbench names its temp roots (six letters or digits after the pid)
    const lookalike = join(tmpdir(), `pairbench-wt-${deadPid()}-${Math.random().toString(36).slice(2, 8).padEnd(6, '0')}`);
    mkdirSync(lookalike);
    writeFileSync(join(lookalike, 'keep.txt'), 'keep');
    const worktree = join(lookalike, 'base');
    repo.git('worktree', 'add', '--quiet', '--detach', worktree, 'HEAD~1');
    writeFileSync(join(worktree, 'uncommitted.txt'), 'mine');
    try {
      const res = pairbench(['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh', '--format', 'json', '--max-pairs', '10', '--out', join(repo.dir, 'r.json'), '--fail-on', 'none'], { cwd: repo.dir });
      expect(res.status, res.stderr).toBe(0);
      expect(existsSync(join(worktree, 'uncommitted.txt'))).toBe(true);
      expect(existsSync(join(lookalike, 'keep.txt'))).toBe(true);
      expect(res.stderr).toMatch(/Leaving the worktree .* alone: .*not made by pairbench/);
    } finally {
      rmSync(lookalike, { recursive: true, force: true });
      repo.git('worktree', 'prune');
    }
  });
});
