/**
 * The two commits the event names, resolved in the workspace's repository before anything is
 * built, in the event's own words: a commit a shallow clone lacks is fetched from origin (a
 * merge group's base in a depth-1 checkout), one that cannot be had is one line naming the event,
 * and an event whose base resolves to its head is refused, never compared with itself.
 */
import { EventError, type Target } from '../github/events.ts';
import { Git } from '../revisions/git.ts';
import type { ActionSettings } from './inputs.ts';

export interface ResolvedRevisions {
  base: string;
  head: string;
}

/** The base and head commits of a compare run; null when the workspace is not a git repository (the engine says so). */
export async function resolveRevisions(settings: ActionSettings, target: Target, log: (line: string) => void): Promise<ResolvedRevisions | null> {
  const git = new Git(settings.spec?.cwd ?? settings.workspace);
  if (!(await git.isRepository())) return null;
  const commit = async (side: 'base' | 'head', rev: string): Promise<string> => {
    let sha = await git.resolve(rev);
    if (!sha) {
      log(`The ${side} commit ${rev} is not in this clone (a shallow checkout): fetching it from origin.`);
      if (await git.fetchCommit(rev)) sha = (await git.resolve(rev)) ?? (await git.resolve('FETCH_HEAD'));
    }
    if (sha) return sha;
    const fromInput = side === 'base' ? settings.baseRef !== null : settings.headRef !== null;
    if (fromInput) throw new EventError(`input ${side}-ref: got ${JSON.stringify(rev)}, which is neither in this clone nor on origin; expected a branch, a tag or a commit SHA of this repository`);
    throw new EventError(`The ${target.event} event's ${side} commit ${rev.slice(0, 12)} is neither in this clone nor on origin: is the checkout of this repository, and was the commit deleted by a forced push?`);
  };
  const head = await commit('head', target.head);
  let base: string;
  if (target.base !== null) base = await commit('base', target.base);
  else {
    const branch = await git.defaultBranch();
    const mb = branch ? await git.mergeBase(branch, head) : null;
    if (!mb) throw new EventError(`The ${target.event} event names no base commit, and no default branch was found to take the merge-base with ${head.slice(0, 7)}: set input base-ref.`);
    base = mb;
  }
  if (base === head) {
    throw new EventError(`The ${target.event} event resolves its base to its head (${head.slice(0, 7)}): there is nothing to compare. Set input base-ref to the revision to compare with, or run on pull_request, merge_group or push.`);
  }
  return { base, head };
}
