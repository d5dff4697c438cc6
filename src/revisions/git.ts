/**
 * The one git wrapper: every git command runs as an argument array (never a shell string), so a
 * ref or branch name can never run anything. User-given revisions are checked before use.
 */
import { execa } from 'execa';
import { PairbenchError, UsageError, show } from '../config/errors.ts';

/**
 * A git command that failed where it should not (a worktree that cannot be added, a broken
 * repository): the comparison could not be completed, exit 3. What a user typed wrong (a revision
 * that does not exist, a folder that is no repository) is a UsageError instead.
 */
class GitError extends PairbenchError {
  constructor(message: string) {
    super(message, 3);
    this.name = 'GitError';
  }
}

/** A full or abbreviated commit SHA. */
export const SHA_PATTERN = /^[0-9a-f]{7,64}$/i;

/**
 * A revision as a user may type it: a SHA, a branch, a tag, `HEAD~2`, `origin/main`. No leading
 * dash (it would be read as an option), only the characters of ordinary ref names, no `..`
 * ranges (a comparison takes two single revisions) and no reflog syntax.
 */
export function checkRevision(input: string, rev: string): string {
  const bad = rev.length > 256 || !/^[A-Za-z0-9_./@+][A-Za-z0-9_./@+~^-]*$/.test(rev) || rev.includes('..') || rev.includes('@{') || rev.endsWith('.lock') || rev.endsWith('/');
  if (bad) {
    throw UsageError.invalid(input, rev, 'a git revision such as a branch, a tag or a commit SHA');
  }
  return rev;
}

export class Git {
  readonly cwd: string;
  constructor(cwd: string) {
    this.cwd = cwd;
  }

  async run(args: string[], opts: { cwd?: string; allowFail?: boolean } = {}): Promise<{ stdout: string; exitCode: number }> {
    const res = await execa('git', args, {
      cwd: opts.cwd ?? this.cwd,
      reject: false,
      stdin: 'ignore',
      env: { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
    const exitCode = res.exitCode ?? 1;
    if (exitCode !== 0 && !opts.allowFail) {
      const detail = String(res.stderr || res.stdout || res.message).trim().split('\n').slice(-3).join(' ');
      throw new GitError(`git ${args[0]} failed: ${detail}`);
    }
    return { stdout: String(res.stdout).trim(), exitCode };
  }

  async isRepository(): Promise<boolean> {
    const res = await this.run(['rev-parse', '--is-inside-work-tree'], { allowFail: true });
    return res.exitCode === 0 && res.stdout === 'true';
  }

  /** The commit SHA a revision names, or null when it names none here. */
  async resolve(rev: string): Promise<string | null> {
    const res = await this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { allowFail: true });
    return res.exitCode === 0 && SHA_PATTERN.test(res.stdout) ? res.stdout : null;
  }

  /** Fetches one commit from origin, for shallow clones that lack the base (fetch-depth: 1). */
  async fetchCommit(rev: string): Promise<boolean> {
    const remote = await this.run(['remote'], { allowFail: true });
    if (!remote.stdout.split('\n').includes('origin')) return false;
    const res = await this.run(['fetch', '--no-tags', '--depth=1', 'origin', '--end-of-options', rev], { allowFail: true });
    return res.exitCode === 0;
  }

  /** The default branch: origin's HEAD when known, else main or master if they exist. */
  async defaultBranch(): Promise<string | null> {
    const head = await this.run(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], { allowFail: true });
    if (head.exitCode === 0 && head.stdout) return head.stdout.replace(/^refs\/remotes\//, '');
    for (const name of ['main', 'master', 'origin/main', 'origin/master']) {
      if (await this.resolve(name)) return name;
    }
    return null;
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const res = await this.run(['merge-base', a, b], { allowFail: true });
    return res.exitCode === 0 && SHA_PATTERN.test(res.stdout) ? res.stdout : null;
  }

  async addWorktree(dir: string, sha: string): Promise<void> {
    if (!SHA_PATTERN.test(sha)) throw new GitError(`refusing to check out ${show(sha)}: not a commit SHA`);
    await this.run(['worktree', 'add', '--detach', '--force', dir, sha]);
  }

  async removeWorktree(dir: string): Promise<void> {
    await this.run(['worktree', 'remove', '--force', dir], { allowFail: true });
  }

  /** Forgets worktrees whose folders are gone (a killed run's temp folders). */
  async pruneWorktrees(): Promise<void> {
    await this.run(['worktree', 'prune'], { allowFail: true });
  }

  async listWorktrees(): Promise<string[]> {
    const res = await this.run(['worktree', 'list', '--porcelain'], { allowFail: true });
    return res.stdout
      .split('\n')
      .filter((l) => l.startsWith('worktree '))
      .map((l) => l.slice('worktree '.length));
  }
}
