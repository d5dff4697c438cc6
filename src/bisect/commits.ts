/**
 * The commits a bisect searches: the first-parent history from the base (excluded) to the head
 * (included), oldest first. First parent, as `git bisect --first-parent` does: a merge of the
 * default branch into a pull request is one step of the PR, never a walk through the default
 * branch's own commits, which the base already judges.
 */
import { UsageError, show } from '../config/errors.ts';
import { cliNaming, type InputNaming } from '../config/spec.ts';
import type { RangeCommit } from '../results/bisect-summary.ts';
import { Git, SHA_PATTERN, checkRevision } from '../revisions/git.ts';

export interface CommitRange {
  baseSha: string;
  headSha: string;
  /** oldest first; the last is the head */
  commits: RangeCommit[];
}

async function resolveRevision(git: Git, input: string, rev: string): Promise<string> {
  checkRevision(input, rev);
  const sha = await git.resolve(rev);
  if (!sha) throw UsageError.invalid(input, rev, 'a revision that exists in this repository (a branch, a tag or a commit SHA); in a shallow clone, fetch the history (actions/checkout with fetch-depth: 0)');
  return sha;
}

/** `naming` words the inputs in messages: the command line's flags, or the action's own words. */
export async function commitRange(cwd: string, base: string, head: string, naming: InputNaming = cliNaming): Promise<CommitRange> {
  const git = new Git(cwd);
  if (!(await git.isRepository())) throw UsageError.invalid(naming('repo'), cwd, 'a git repository');
  const baseSha = await resolveRevision(git, naming('base'), base);
  const headSha = await resolveRevision(git, naming('head'), head);
  const ancestor = await git.run(['merge-base', '--is-ancestor', baseSha, headSha], { allowFail: true });
  if (ancestor.exitCode !== 0) {
    throw new UsageError(naming('base'), `${naming('base')}: got ${show(base)}, which is not an ancestor of ${naming('head')} ${show(head)}; expected the commit the head's history starts from (a pull request's merge-base)`);
  }
  const log = await git.run(['log', '--first-parent', '--reverse', '--format=%H%x09%s', `${baseSha}..${headSha}`]);
  const commits = log.stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const tab = l.indexOf('\t');
      return { sha: tab < 0 ? l : l.slice(0, tab), subject: tab < 0 ? '' : l.slice(tab + 1) };
    })
    .filter((c) => SHA_PATTERN.test(c.sha));
  if (commits.length === 0) throw new UsageError(naming('head'), `${naming('head')}: got ${show(head)}, which has no commit after ${naming('base')} ${show(base)}; expected a later revision`);
  return { baseSha, headSha, commits };
}
