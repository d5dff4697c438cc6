/**
 * From the event that started the workflow to what is compared and where the report goes.
 *
 * | event                 | base                                  | head                  | pull request                          |
 * |-----------------------|---------------------------------------|-----------------------|---------------------------------------|
 * | `pull_request`        | the PR's base SHA                     | the PR's head SHA (never the merge commit) | the event's               |
 * | `pull_request_target` | same, but a fork's head is never built (S1)                                                      |
 * | `merge_group`         | the group's `base_sha`                | the group's `head_sha` | none: the check run and the job summary |
 * | `push`                | `before`; for a new branch or a forced push the parent of `after`, from the API | `after` | none |
 * | `workflow_dispatch`   | `pr-number` → the PR's base SHA (API), else `base-ref` or the merge-base | the PR's head SHA, else `head-ref` or `GITHUB_SHA` | `pr-number` |
 * | `workflow_run`        | from the results file (report mode)   | the run's head SHA    | found through the API from the run's head SHA and head repository, never from the artifact (S2) |
 * | `schedule`, `release` | refused unless `base-ref` is given: nothing in the event names a change |                  |
 *
 * Explicit `base-ref` / `head-ref` inputs take precedence on any event. SHAs from payloads are
 * checked as hex before use; refs from inputs are checked as git revisions (S3).
 *
 * S1, the one rule for untrusted code: a fork's head is built only under `pull_request` (read-only
 * token, no secrets), and under `workflow_dispatch` (which only someone with write access can
 * start) when `allow-fork-code-on-dispatch: true`; whatever the mode that builds (compare, noise)
 * and however the pull request is named (the event, `pr-number`, a `refs/pull/N/head` head-ref, a
 * `workflow_run`'s head repository). Every other event refuses in one line. `mode: report` builds
 * nothing, so it is never refused.
 */
import { z } from 'zod';
import { UsageError, show } from '../config/errors.ts';
import { checkRevision } from '../revisions/git.ts';
import { describeApiError } from './api-errors.ts';
import type { GitHubApi } from './octokit.ts';

export type Mode = 'compare' | 'report' | 'noise';

export interface EventInputs {
  mode: Mode;
  prNumber: number | null;
  baseRef: string | null;
  headRef: string | null;
  /** `allow-fork-code-on-dispatch`: under workflow_dispatch, a fork's head named by pr-number may be built */
  allowForkOnDispatch: boolean;
}

export interface RepoId {
  owner: string;
  repo: string;
}

export interface EventContext {
  eventName: string;
  payload: unknown;
  repo: RepoId;
  /** GITHUB_SHA */
  sha: string | null;
  inputs: EventInputs;
  /** null when there is no token: only events that need no API can be resolved */
  api: GitHubApi | null;
}

interface PullRef {
  number: number;
  /** `owner/name` of the head repository; null when the fork was deleted */
  headRepo: string | null;
  fork: boolean;
  headSha: string;
  baseSha: string;
}

export interface Target {
  event: string;
  /** a commit SHA, a ref the user gave, or null: the merge-base of head with the default branch */
  base: string | null;
  /** a commit SHA or a ref the user gave */
  head: string;
  /** where the comment goes; null: no PR (push), or none found */
  pull: PullRef | null;
  /** the commit the check run is attached to (the PR head, or the pushed commit) */
  checkSha: string | null;
  /** things the user should know (logged as warnings) */
  warnings: string[];
  /** set when there is nothing to do (a deleted branch): the reason */
  skip: string | null;
  /** what is compared, in one line of the event's own words (logged before measuring); null: the generic line */
  compares: string | null;
}

/** Raised when the event cannot or must not be handled; the action fails the step with its message. */
export class EventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventError';
  }
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const ZERO_SHA = /^0+$/;
const Sha = z.string().regex(SHA, 'a full hexadecimal commit SHA');

const RepoSchema = z.object({ full_name: z.string().max(300), fork: z.boolean().optional() });
const PullPayload = z.object({
  number: z.number().int().positive(),
  base: z.object({ sha: Sha, ref: z.string().max(1024), repo: RepoSchema }),
  head: z.object({ sha: Sha, ref: z.string().max(1024), repo: RepoSchema.nullable() }),
});
const PullRequestEvent = z.object({ pull_request: PullPayload });
const PushEvent = z.object({
  before: z.string().max(64),
  after: z.string().max(64),
  ref: z.string().max(1024).optional(),
  deleted: z.boolean().optional(),
  forced: z.boolean().optional(),
});
const MergeGroupEvent = z.object({
  merge_group: z.object({ base_sha: Sha, head_sha: Sha, head_ref: z.string().max(1024).optional(), base_ref: z.string().max(1024).optional() }),
});
const WorkflowRunEvent = z.object({
  workflow_run: z.object({
    id: z.number().optional(),
    event: z.string().max(64).optional(),
    head_sha: Sha,
    head_branch: z.string().max(1024).nullable().optional(),
    head_repository: z.object({ full_name: z.string().max(300), owner: z.object({ login: z.string().max(100) }).optional() }).nullable().optional(),
  }),
});

function parsePayload<T>(schema: z.ZodType<T>, payload: unknown, eventName: string): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join('.') : 'payload';
    throw new EventError(`The ${eventName} event payload is not as expected (${where}: ${issue?.message ?? 'invalid'}); is GITHUB_EVENT_PATH the event file of this run?`);
  }
  return parsed.data;
}

function fullName(repo: RepoId): string {
  return `${repo.owner}/${repo.repo}`;
}

function toPullRef(pr: z.infer<typeof PullPayload>): PullRef {
  const headRepo = pr.head.repo?.full_name ?? null;
  return {
    number: pr.number,
    headRepo,
    // a deleted fork has no head repository: treat it as a fork
    fork: headRepo === null || headRepo.toLowerCase() !== pr.base.repo.full_name.toLowerCase(),
    headSha: pr.head.sha,
    baseSha: pr.base.sha,
  };
}

function needApi(ctx: EventContext, why: string): GitHubApi {
  if (!ctx.api) throw new EventError(`${why} needs the GitHub API, but there is no token: set input github-token.`);
  return ctx.api;
}

/** GET /repos/{owner}/{repo}/pulls/{number}, checked to belong to this repository. */
async function getPull(api: GitHubApi, repo: RepoId, number: number, input: string): Promise<PullRef> {
  let data: unknown;
  try {
    ({ data } = await api.rest.pulls.get({ owner: repo.owner, repo: repo.repo, pull_number: number }));
  } catch (err) {
    throw new EventError(`${input}: cannot read pull request #${number} of ${fullName(repo)} (${describeApiError(err)})`);
  }
  const pr = parsePayload(PullPayload, data, 'pull request');
  if (pr.base.repo.full_name.toLowerCase() !== fullName(repo).toLowerCase()) {
    throw new EventError(`${input}: pull request #${number} belongs to ${pr.base.repo.full_name}, not ${fullName(repo)}`);
  }
  return toPullRef(pr);
}

/**
 * The open pull request of this repository whose head is `headSha` in `headRepo` (S2: from the
 * run's own head, never from a number in an artifact). Tries the commit's pull requests first,
 * then the repository's open pulls of that head branch, which also finds PRs from forks.
 */
async function findPullForHead(api: GitHubApi, repo: RepoId, headSha: string, headRepo: string | null, headBranch: string | null): Promise<{ pull: PullRef | null; warnings: string[] }> {
  const warnings: string[] = [];
  const matches = (raw: unknown): PullRef | null => {
    const parsed = PullPayload.safeParse(raw);
    if (!parsed.success) return null;
    const pr = parsed.data;
    const sameBase = pr.base.repo.full_name.toLowerCase() === fullName(repo).toLowerCase();
    const sameHead = pr.head.sha === headSha && (headRepo === null || pr.head.repo?.full_name.toLowerCase() === headRepo.toLowerCase());
    return sameBase && sameHead ? toPullRef(pr) : null;
  };
  const found: PullRef[] = [];
  try {
    const { data } = await api.rest.repos.listPullRequestsAssociatedWithCommit({ owner: repo.owner, repo: repo.repo, commit_sha: headSha, per_page: 100 });
    for (const raw of data) {
      const m = (raw as { state?: string }).state === 'open' ? matches(raw) : null;
      if (m) found.push(m);
    }
  } catch (err) {
    warnings.push(`Could not list the pull requests of commit ${headSha.slice(0, 7)} (${describeApiError(err)}); trying the open pull requests of its branch.`);
  }
  if (found.length === 0 && headBranch && headRepo) {
    const owner = headRepo.split('/')[0] ?? '';
    try {
      const data = await api.paginate(api.rest.pulls.list, { owner: repo.owner, repo: repo.repo, state: 'open', head: `${owner}:${headBranch}`, per_page: 100 });
      for (const raw of data) {
        const m = matches(raw);
        if (m) found.push(m);
      }
    } catch (err) {
      warnings.push(`Could not list the open pull requests of ${owner}:${headBranch} (${describeApiError(err)}).`);
    }
  }
  const unique = [...new Map(found.map((p) => [p.number, p])).values()].sort((a, b) => a.number - b.number);
  if (unique.length > 1) warnings.push(`Commit ${headSha.slice(0, 7)} is the head of several open pull requests (${unique.map((p) => `#${p.number}`).join(', ')}); reporting on #${unique[0]!.number}.`);
  return { pull: unique[0] ?? null, warnings };
}

/** How fork pull requests are measured safely, said at the end of every refusal (S1). */
const TWO_WORKFLOW_PATTERN =
  'measure pull requests under `pull_request` (read-only token, no secrets) and upload the results file as an artifact, then post the comment from a `workflow_run` job with `mode: report`, which checks out and builds nothing (the two-workflow pattern)';

/** Why an event other than pull_request must not build a fork's code: what that code would be handed. */
function trustedContext(eventName: string): string {
  if (eventName === 'pull_request_target' || eventName === 'workflow_run') return "it runs with the base repository's GITHUB_TOKEN, secrets, default-branch cache scope and runner access";
  return "it runs with this workflow's token, which can write to the repository, and with the secrets the workflow passes";
}

/**
 * S1, the one rule: a fork's head is built only under `pull_request`, or under `workflow_dispatch`
 * with `allow-fork-code-on-dispatch: true`. `headRepo` null: a deleted fork, treated as a fork.
 */
function guardForkCode(eventName: string, inputs: EventInputs, what: { number: number | null; headRepo: string | null }, ownPull: number | null = what.number): void {
  if (inputs.mode === 'report') return;
  if (eventName === 'pull_request') {
    // the read-only token is the fork's own run's: a run of another pull request may hold a write token
    if (ownPull === what.number) return;
    throw new EventError(
      `Refusing to build fork pull request #${what.number} (${what.headRepo ?? 'a deleted fork'}) from the pull_request run of pull request #${ownPull ?? '?'}: a fork's code is built only in its own pull_request run, whose token is read-only; measure each pull request in its own run.`,
    );
  }
  if (eventName === 'workflow_dispatch' && inputs.allowForkOnDispatch) return;
  const pr = what.number === null ? 'fork pull request code' : `fork pull request #${what.number}`;
  const from = what.headRepo ?? 'a deleted fork';
  const dispatch = eventName === 'workflow_dispatch' ? '; or, having read its changes, set input allow-fork-code-on-dispatch: true to build it in this run started by hand' : '';
  throw new EventError(
    `Refusing to build ${pr} (${from}) from a '${eventName}' workflow: ${trustedContext(eventName)}, and building a fork's code there is a "pwn request". ` +
      `pairbench builds a fork's head only under pull_request: ${TWO_WORKFLOW_PATTERN}${dispatch}.`,
  );
}

/** A head-ref that names a pull request's head or merge ref (`refs/pull/7/head`): its number, else null. */
function pullOfRef(ref: string | null): number | null {
  const m = ref === null ? null : /^(?:refs\/)?pull\/(\d{1,9})\/(?:head|merge)$/.exec(ref);
  return m ? Number(m[1]) : null;
}

function explicitRef(name: 'base-ref' | 'head-ref', value: string | null): string | null {
  return value === null ? null : checkRevision(`input ${name}`, value);
}

/** Resolves the event into what to compare and where to report. */
export async function resolveEvent(ctx: EventContext): Promise<Target> {
  const { eventName, inputs, repo } = ctx;
  const warnings: string[] = [];
  const baseInput = explicitRef('base-ref', inputs.baseRef);
  const headInput = explicitRef('head-ref', inputs.headRef);
  const runSha = ctx.sha && SHA.test(ctx.sha) ? ctx.sha : null;
  const done = (t: Omit<Target, 'event' | 'warnings' | 'skip' | 'compares'> & { skip?: string; compares?: string }): Target => ({
    event: eventName,
    warnings,
    ...t,
    skip: t.skip ?? null,
    compares: baseInput === null && headInput === null ? (t.compares ?? null) : null,
    base: baseInput ?? t.base,
    head: headInput ?? t.head,
  });

  // S1: a head-ref naming a pull request's ref is that pull request's code, under the same rule.
  const ownPull = eventName === 'pull_request' ? (PullRequestEvent.safeParse(ctx.payload).data?.pull_request.number ?? null) : null;
  const refPull = pullOfRef(headInput);
  if (refPull !== null && refPull !== ownPull && inputs.mode !== 'report') {
    const pull = await getPull(needApi(ctx, `input head-ref ${headInput}`), repo, refPull, 'input head-ref');
    if (pull.fork) guardForkCode(eventName, inputs, { number: pull.number, headRepo: pull.headRepo }, ownPull);
  }

  // An explicit pr-number (reruns) wins over the event, except under workflow_run (S2).
  if (inputs.prNumber !== null && eventName !== 'workflow_run') {
    const pull = await getPull(needApi(ctx, 'input pr-number'), repo, inputs.prNumber, 'input pr-number');
    if (pull.fork) {
      guardForkCode(eventName, inputs, { number: pull.number, headRepo: pull.headRepo }, ownPull);
      if (inputs.mode !== 'report' && eventName !== 'pull_request') {
        warnings.push(`Pull request #${pull.number} comes from ${pull.headRepo ?? 'a deleted fork'}, and allow-fork-code-on-dispatch is true: its code is built and run here, where it can reach this job's token and runner.`);
      }
    }
    return done({ base: pull.baseSha, head: pull.headSha, pull, checkSha: pull.headSha });
  }

  switch (eventName) {
    case 'pull_request':
    case 'pull_request_target': {
      const pull = toPullRef(parsePayload(PullRequestEvent, ctx.payload, eventName).pull_request);
      if (pull.fork) guardForkCode(eventName, inputs, { number: pull.number, headRepo: pull.headRepo });
      return done({ base: pull.baseSha, head: pull.headSha, pull, checkSha: pull.headSha });
    }
    case 'merge_group': {
      const group = parsePayload(MergeGroupEvent, ctx.payload, eventName).merge_group;
      const into = group.base_ref ? ` into ${group.base_ref.replace(/^refs\/heads\//, '')}` : '';
      return done({
        base: group.base_sha,
        head: group.head_sha,
        pull: null,
        checkSha: group.head_sha,
        compares: `merge_group: comparing the merge group's head ${group.head_sha.slice(0, 7)} with its base ${group.base_sha.slice(0, 7)}${into}.`,
      });
    }
    case 'push': {
      const push = parsePayload(PushEvent, ctx.payload, eventName);
      if (push.deleted || ZERO_SHA.test(push.after)) {
        return done({ base: null, head: runSha ?? 'HEAD', pull: null, checkSha: null, skip: `the push deleted ${push.ref ?? 'a branch'}: nothing to measure` });
      }
      if (!SHA.test(push.after)) throw new EventError(`The push event's after is ${show(push.after)}; expected a commit SHA`);
      const ref = push.ref ? push.ref.replace(/^refs\/heads\//, '') : 'the branch';
      const after = push.after.slice(0, 7);
      if (SHA.test(push.before) && !ZERO_SHA.test(push.before) && !push.forced) {
        return done({ base: push.before, head: push.after, pull: null, checkSha: push.after, compares: `push to ${ref}: comparing the pushed commit ${after} with the commit before the push, ${push.before.slice(0, 7)}.` });
      }
      if (baseInput !== null) return done({ base: null, head: push.after, pull: null, checkSha: push.after });
      // A new branch (before is all zeros) or a forced push (before is not in the new history): the parent of the pushed commit.
      const why = push.forced ? `the push to ${ref} was forced, so the commit before it (${push.before.slice(0, 7)}) is not in its history` : `the push created ${ref}, so there is no commit before it`;
      const base = await parentOf(ctx, push.after, warnings, why);
      return done({ base, head: push.after, pull: null, checkSha: push.after, compares: `push to ${ref}: ${why}; comparing the pushed commit ${after} with its parent${base ? ` ${base.slice(0, 7)}` : ''}.` });
    }
    case 'workflow_run': {
      const run = parsePayload(WorkflowRunEvent, ctx.payload, eventName).workflow_run;
      if (inputs.prNumber !== null) warnings.push('input pr-number is ignored under workflow_run: the pull request is found from the run\'s head commit and repository.');
      const headRepo = run.head_repository?.full_name ?? null;
      // S1: building the run's head under workflow_run is refused when that head is a fork's
      if (headRepo === null || headRepo.toLowerCase() !== fullName(repo).toLowerCase()) guardForkCode(eventName, inputs, { number: null, headRepo });
      const api = needApi(ctx, 'The workflow_run event');
      const found = await findPullForHead(api, repo, run.head_sha, headRepo, run.head_branch ?? null);
      for (const w of found.warnings) warnings.push(w);
      if (!found.pull) warnings.push(`No open pull request of ${fullName(repo)} has head ${run.head_sha.slice(0, 7)}${headRepo ? ` from ${headRepo}` : ''}: the report goes to the job summary only.`);
      if (inputs.mode !== 'report') {
        warnings.push('Under workflow_run pairbench is meant to run with mode: report (it reports the results of the pull_request workflow); measuring here builds the run\'s head.');
      }
      return done({ base: found.pull?.baseSha ?? null, head: run.head_sha, pull: found.pull, checkSha: run.head_sha });
    }
    case 'schedule':
    case 'release': {
      if (baseInput === null && inputs.mode === 'compare') {
        throw new EventError(`The ${eventName} event names no change to compare (its base would be its own head): set input base-ref (and head-ref) to say what to compare, or run pairbench on pull_request, merge_group or push.`);
      }
      return done({ base: null, head: runSha ?? 'HEAD', pull: null, checkSha: headInput === null ? runSha : null });
    }
    case 'workflow_dispatch':
    default: {
      const head = runSha ?? 'HEAD';
      return done({ base: null, head, pull: null, checkSha: headInput === null ? runSha : null });
    }
  }
}

/** The first parent of a commit, through the API (shallow clones lack it); null when unknown. */
async function parentOf(ctx: EventContext, sha: string, warnings: string[], why: string): Promise<string | null> {
  if (!ctx.api) {
    warnings.push(`${why[0]!.toUpperCase()}${why.slice(1)}, and there is no token to look up the parent of ${sha.slice(0, 7)}: comparing against the merge-base with the default branch.`);
    return null;
  }
  try {
    const { data } = await ctx.api.rest.repos.getCommit({ owner: ctx.repo.owner, repo: ctx.repo.repo, ref: sha });
    const parent = data.parents[0]?.sha;
    if (!parent) throw new EventError(`Commit ${sha.slice(0, 7)} has no parent: it is the first commit, and there is nothing to compare it with. Set input base-ref.`);
    if (!SHA.test(parent)) throw new EventError(`The API gave ${show(parent)} as the parent of ${sha.slice(0, 7)}; expected a commit SHA`);
    return parent;
  } catch (err) {
    if (err instanceof EventError) throw err;
    warnings.push(`Could not look up the parent of ${sha.slice(0, 7)} (${describeApiError(err)}): comparing against the merge-base with the default branch.`);
    return null;
  }
}

/** Validates `pr-number` as typed in a workflow. */
export function parsePrNumber(value: string): number | null {
  if (value.trim() === '') return null;
  if (!/^\s*#?\d{1,9}\s*$/.test(value) || Number(value.replace('#', '')) < 1) {
    throw UsageError.invalid('input pr-number', value, 'a pull request number such as 123');
  }
  return Number(value.replace('#', '').trim());
}
