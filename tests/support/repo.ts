/** Real git repositories in temp folders, for tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempRepo {
  dir: string;
  git(...args: string[]): string;
  commit(files: Record<string, string>, message: string): string;
  remove(): void;
}

const made: string[] = [];

/**
 * Removes the temp folders made so far; PAIRBENCH_KEEP_TEMP=1 keeps them to look at. Called after
 * each test file (tests/support/cleanup.ts, a setup file: vitest reuses its workers, so their exit
 * alone came too late, or never, and a run left a thousand folders behind), and at a worker's exit.
 */
export function removeTempDirs(): void {
  if (process.env.PAIRBENCH_KEEP_TEMP === '1') return;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', removeTempDirs);

export function tempDir(prefix = 'pairbench-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function tempRepo(): TempRepo {
  const dir = tempDir('pairbench-repo-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.email', 'test@pairbench.invalid');
  git('config', 'user.name', 'pairbench test');
  git('config', 'commit.gpgsign', 'false');
  return {
    dir,
    git,
    commit(files, message) {
      for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content, { mode: 0o755 });
      git('add', '-A');
      git('commit', '--quiet', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
