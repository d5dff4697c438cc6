/**
 * Accepting an intended regression with a pull request label (`accept-label`, default
 * `performance-accepted`): the gate passes, and the comment says who accepted it.
 *
 * Anyone who can open a pull request can be given a label by a bot or a workflow, and on some
 * repositories triagers can label, so the label alone proves nothing: it counts only when the
 * person who added it last has write access to the repository, as the API says
 * (`GET /repos/{owner}/{repo}/collaborators/{username}/permission`: `admin` or `write`; `maintain`
 * reads as `write` there). Who added it comes from the event when it is the `labeled` event of
 * that label, otherwise from the pull request's issue events (the latest `labeled` of that label).
 * Every look-up that fails leaves the gate as it was, with a note that says why.
 *
 * S27: a label accepts only the head commit it was added on: otherwise a regression pushed after a
 * writer accepted an earlier one would pass too. GitHub records when a label was added but not when
 * a commit was pushed (commit dates are the author's to write), so the commit a label was added on
 * is known only from the run its own `labeled` event starts, whose payload carries the head of that
 * moment, and from the `opened` event, whose labels were set with its first head. Under every
 * other event (a push's `synchronize` above all, a rerun by hand, `workflow_run`) the label is
 * ignored with a note saying to add it again: adding it starts the run that accepts that head.
 */
import { z } from 'zod';
import type { Acceptance } from '../config/fail-on.ts';
import type { GitHubApi } from './octokit.ts';
import { describeApiError } from './api-errors.ts';

export const DEFAULT_ACCEPT_LABEL = 'performance-accepted';

const LabelsPayload = z.object({
  action: z.string().optional(),
  label: z.object({ name: z.string() }).optional(),
  sender: z.object({ login: z.string() }).optional(),
  pull_request: z.object({ labels: z.array(z.object({ name: z.string() })).optional(), head: z.object({ sha: z.string() }).optional() }).optional(),
});

export interface AcceptLookup {
  owner: string;
  repo: string;
  pull: number;
  label: string;
  /** the event's payload (GITHUB_EVENT_PATH) */
  payload: unknown;
  /** the event's name (GITHUB_EVENT_NAME) */
  event: string;
  /** the head commit being judged: the label counts only when it was added on this one */
  headSha: string;
}

/** Why the label cannot be tied to the head judged, or null when it was added on it (see the module's comment). */
function addedOnOtherHead(q: AcceptLookup): string | null {
  const p = LabelsPayload.safeParse(q.payload);
  const action = p.success ? p.data.action : undefined;
  const head = p.success ? p.data.pull_request?.head?.sha : undefined;
  const short = q.headSha.slice(0, 7);
  if (q.event === 'pull_request' || q.event === 'pull_request_target') {
    if (action === 'labeled' && p.success && p.data.label?.name === q.label) {
      return head === q.headSha ? null : `it was added on ${head ? head.slice(0, 7) : 'another commit'}, not on the head ${short}`;
    }
    if (action === 'opened' && head === q.headSha) return null;
    if (action === 'synchronize') return `it was added before the head ${short} was pushed, and a label accepts only the commit it was added on: remove it and add it again to accept ${short}`;
  }
  return `a label accepts only the commit it was added on, and only its own labeled event says which commit that was: remove it and add it again to accept the head ${short}`;
}

/** The labels of the pull request: from the event when it carries them, else from the API. */
async function labelsOf(api: GitHubApi, q: AcceptLookup): Promise<string[]> {
  const p = LabelsPayload.safeParse(q.payload);
  const fromEvent = p.success ? p.data.pull_request?.labels : undefined;
  if (fromEvent) return fromEvent.map((l) => l.name);
  const { data } = await api.rest.pulls.get({ owner: q.owner, repo: q.repo, pull_number: q.pull });
  return (data.labels ?? []).map((l) => l.name);
}

/** Who added the label last: the event's sender for its own `labeled` event, else the issue events. */
async function labelledBy(api: GitHubApi, q: AcceptLookup): Promise<string | null> {
  const p = LabelsPayload.safeParse(q.payload);
  if (p.success && p.data.action === 'labeled' && p.data.label?.name === q.label && p.data.sender) return p.data.sender.login;
  const events = await api.paginate(api.rest.issues.listEvents, { owner: q.owner, repo: q.repo, issue_number: q.pull, per_page: 100 });
  let who: string | null = null;
  for (const e of events) {
    const label = (e as { label?: { name?: string } }).label?.name;
    if (e.event === 'labeled' && label === q.label) who = e.actor?.login ?? null;
  }
  return who;
}

/**
 * Whether the accept label counts on this pull request; null when the label is not on it.
 * Never throws: a failed look-up is an ignored label, with the reason.
 */
export async function acceptance(api: GitHubApi | null, q: AcceptLookup): Promise<Acceptance | null> {
  if (q.label === '') return null;
  if (!api) return null;
  let by: string | null = null;
  try {
    const labels = await labelsOf(api, q);
    if (!labels.includes(q.label)) return null;
    by = await labelledBy(api, q);
    if (!by) return { label: q.label, by: null, accepted: false, reason: 'who added it could not be found in the pull request events' };
    const { data } = await api.rest.repos.getCollaboratorPermissionLevel({ owner: q.owner, repo: q.repo, username: by });
    const level = data.permission;
    if (level === 'admin' || level === 'write' || level === 'maintain') {
      const other = addedOnOtherHead(q);
      return other === null ? { label: q.label, by, accepted: true } : { label: q.label, by, accepted: false, reason: other };
    }
    return { label: q.label, by, accepted: false, reason: `@${by} added it and has ${level} access, not write access` };
  } catch (err) {
    return { label: q.label, by, accepted: false, reason: `the label could not be checked (${describeApiError(err)})` };
  }
}
