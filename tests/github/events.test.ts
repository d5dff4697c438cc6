/**
 * Event payload -> what is compared and where the report goes, for every event type; S1: a fork's
 * head is never built under pull_request_target unless explicitly allowed; S2: under workflow_run
 * the PR is found through the API from the run's head SHA and head repository.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventError, parsePrNumber, resolveEvent, type EventContext, type EventInputs } from '../../src/github/events.ts';
import { createClient } from '../../src/github/octokit.ts';
import { FakeGitHub } from '../support/fake-github.ts';

const BASE = '1'.repeat(40);
const HEAD = '2'.repeat(40);
const MERGE = '3'.repeat(40);
const OTHER = '4'.repeat(40);

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await FakeGitHub.start('octo', 'repo');
});
afterEach(async () => {
  await gh.close();
});

const inputs = (extra: Partial<EventInputs> = {}): EventInputs => ({ mode: 'compare', prNumber: null, baseRef: null, headRef: null, allowForkOnDispatch: false, ...extra });

function ctx(eventName: string, payload: unknown, extra: Partial<EventContext> = {}): EventContext {
  return {
    eventName,
    payload,
    repo: { owner: 'octo', repo: 'repo' },
    sha: MERGE,
    inputs: inputs(),
    api: createClient('ghs_x', { baseUrl: gh.url, retryBaseMs: 1, rateLimitBaseMs: 1, writeSpacingMs: 0 }),
    ...extra,
  };
}

/** A pull_request payload as GitHub sends it (the parts that matter, plus some noise). */
function prPayload(headRepo: string | null, number = 7) {
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      title: 'Make it faster',
      merge_commit_sha: MERGE,
      base: { sha: BASE, ref: 'main', label: 'octo:main', repo: { full_name: 'octo/repo', fork: false } },
      head: { sha: HEAD, ref: 'feature', label: 'x:feature', repo: headRepo === null ? null : { full_name: headRepo, fork: headRepo !== 'octo/repo' } },
    },
    repository: { full_name: 'octo/repo' },
  };
}

describe('pull_request', () => {
  it('base = PR base SHA, head = PR head SHA, never the merge commit', async () => {
    const t = await resolveEvent(ctx('pull_request', prPayload('octo/repo')));
    expect(t.base).toBe(BASE);
    expect(t.head).toBe(HEAD);
    expect(t.head).not.toBe(MERGE);
    expect(t.pull).toMatchObject({ number: 7, fork: false });
    expect(t.checkSha).toBe(HEAD);
    expect(gh.requests).toHaveLength(0);
  });

  it('a fork PR is measured under pull_request (read-only token, no secrets)', async () => {
    const t = await resolveEvent(ctx('pull_request', prPayload('mallory/repo')));
    expect(t.pull).toMatchObject({ number: 7, fork: true, headRepo: 'mallory/repo' });
  });

  it('S3: refuses a payload whose SHAs are not hex', async () => {
    const bad = prPayload('octo/repo');
    bad.pull_request.head.sha = '$(touch pwned)';
    await expect(resolveEvent(ctx('pull_request', bad))).rejects.toThrow(/pull_request event payload is not as expected \(pull_request\.head\.sha: a full hexadecimal commit SHA\)/);
  });

  it('S3: explicit base-ref / head-ref win, and are checked as revisions', async () => {
    const t = await resolveEvent(ctx('pull_request', prPayload('octo/repo'), { inputs: inputs({ baseRef: 'v1.2.0' }) }));
    expect(t.base).toBe('v1.2.0');
    await expect(resolveEvent(ctx('pull_request', prPayload('octo/repo'), { inputs: inputs({ headRef: '--upload-pack=touch pwned' }) }))).rejects.toThrow(/input head-ref: got "--upload-pack=touch pwned"; expected a git revision/);
    await expect(resolveEvent(ctx('pull_request', prPayload('octo/repo'), { inputs: inputs({ baseRef: '$(touch pwned)' }) }))).rejects.toThrow(/input base-ref/);
  });
});

describe('S1: one rule for untrusted code: a fork\'s head is built only under pull_request', () => {
  const TWO_WORKFLOW = /pairbench builds a fork's head only under pull_request: measure pull requests under `pull_request` .*upload the results file as an artifact, then post the comment from a `workflow_run` job with `mode: report`, which checks out and builds nothing \(the two-workflow pattern\)/;

  it('pull_request_target: refuses a fork head in one line, in actions/checkout\'s words, with the safe pattern', async () => {
    const err = await resolveEvent(ctx('pull_request_target', prPayload('mallory/repo'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventError);
    const msg = (err as Error).message;
    expect(msg).toContain("Refusing to build fork pull request #7 (mallory/repo) from a 'pull_request_target' workflow: it runs with the base repository's GITHUB_TOKEN, secrets, default-branch cache scope and runner access");
    expect(msg).toMatch(TWO_WORKFLOW);
    expect(msg).not.toContain('\n');
    // no input lets a fork's code build here any more
    expect(msg).not.toContain('allow-');
  });

  it('refuses a PR whose fork was deleted', async () => {
    await expect(resolveEvent(ctx('pull_request_target', prPayload(null)))).rejects.toThrow(/fork pull request #7 \(a deleted fork\)/);
  });

  it('a same-repository PR is not a fork', async () => {
    const t = await resolveEvent(ctx('pull_request_target', prPayload('octo/repo')));
    expect(t.head).toBe(HEAD);
  });

  it('report mode builds nothing, so it is allowed', async () => {
    const t = await resolveEvent(ctx('pull_request_target', prPayload('mallory/repo'), { inputs: inputs({ mode: 'report' }) }));
    expect(t.pull?.number).toBe(7);
  });

  it.each(['issue_comment', 'workflow_dispatch', 'pull_request_target', 'repository_dispatch', 'pull_request_review'])('%s with a pr-number naming a fork\'s PR: refused, in compare and noise mode', async (event) => {
    gh.addPull({ number: 9, baseSha: BASE, headSha: HEAD, headRepo: 'mallory/repo' });
    for (const mode of ['compare', 'noise'] as const) {
      const err = (await resolveEvent(ctx(event, {}, { inputs: inputs({ prNumber: 9, mode }) })).catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(EventError);
      expect(err.message).toContain(`Refusing to build fork pull request #9 (mallory/repo) from a '${event}' workflow`);
      expect(err.message).toMatch(TWO_WORKFLOW);
      // never the old claim that the token is out of the code's reach
      expect(err.message).not.toMatch(/out of (its|the code's) reach/);
    }
  });

  it('a head-ref naming a fork PR\'s ref (refs/pull/9/head) under issue_comment is refused the same way', async () => {
    gh.addPull({ number: 9, baseSha: BASE, headSha: HEAD, headRepo: 'mallory/repo' });
    await expect(resolveEvent(ctx('issue_comment', {}, { inputs: inputs({ headRef: 'refs/pull/9/head', baseRef: 'main' }) }))).rejects.toThrow(/Refusing to build fork pull request #9 \(mallory\/repo\) from a 'issue_comment' workflow/);
    gh.addPull({ number: 10, baseSha: BASE, headSha: HEAD });
    const t = await resolveEvent(ctx('issue_comment', {}, { inputs: inputs({ headRef: 'refs/pull/10/head', baseRef: 'main' }) }));
    expect(t.head).toBe('refs/pull/10/head');
  });

  it('workflow_dispatch: a fork PR builds only with allow-fork-code-on-dispatch: true, with a warning that does not claim the token is out of reach', async () => {
    gh.addPull({ number: 13, baseSha: BASE, headSha: HEAD, headRepo: 'mallory/repo' });
    await expect(resolveEvent(ctx('workflow_dispatch', {}, { inputs: inputs({ prNumber: 13 }) }))).rejects.toThrow(/set input allow-fork-code-on-dispatch: true/);
    const t = await resolveEvent(ctx('workflow_dispatch', {}, { inputs: inputs({ prNumber: 13, allowForkOnDispatch: true }) }));
    expect(t.head).toBe(HEAD);
    expect(t.warnings.join('\n')).toContain('its code is built and run here, where it can reach this job\'s token and runner');
    // the input opens workflow_dispatch only
    await expect(resolveEvent(ctx('issue_comment', {}, { inputs: inputs({ prNumber: 13, allowForkOnDispatch: true }) }))).rejects.toThrow(/Refusing to build fork pull request #13/);
  });

  it('workflow_run in compare mode: a fork\'s head is refused; report mode and a same-repository head are not', async () => {
    const payload = (headRepo: string) => ({ workflow_run: { id: 5, head_sha: HEAD, head_branch: 'feature', head_repository: { full_name: headRepo } } });
    await expect(resolveEvent(ctx('workflow_run', payload('mallory/repo')))).rejects.toThrow(/Refusing to build fork pull request code \(mallory\/repo\) from a 'workflow_run' workflow: it runs with the base repository's GITHUB_TOKEN/);
    expect((await resolveEvent(ctx('workflow_run', payload('mallory/repo'), { inputs: inputs({ mode: 'report' }) }))).head).toBe(HEAD);
    expect((await resolveEvent(ctx('workflow_run', payload('octo/repo')))).head).toBe(HEAD);
  });

  it("under another pull request's pull_request run, a fork PR named by pr-number or head-ref is refused; its own is not", async () => {
    gh.addPull({ number: 9, baseSha: BASE, headSha: HEAD, headRepo: 'mallory/repo' });
    const own = prPayload('octo/repo', 3);
    await expect(resolveEvent(ctx('pull_request', own, { inputs: inputs({ prNumber: 9 }) }))).rejects.toThrow(/^Refusing to build fork pull request #9 \(mallory\/repo\) from the pull_request run of pull request #3: a fork's code is built only in its own pull_request run/);
    await expect(resolveEvent(ctx('pull_request', own, { inputs: inputs({ headRef: 'pull/9/head' }) }))).rejects.toThrow(/fork pull request #9/);
    const t = await resolveEvent(ctx('pull_request', prPayload('mallory/repo', 9), { inputs: inputs({ prNumber: 9 }) }));
    expect(t.head).toBe(HEAD);
  });

  it('a same-repository PR named by pr-number builds under any event', async () => {
    gh.addPull({ number: 14, baseSha: BASE, headSha: HEAD });
    const t = await resolveEvent(ctx('issue_comment', {}, { inputs: inputs({ prNumber: 14 }) }));
    expect([t.base, t.head]).toEqual([BASE, HEAD]);
  });
});

describe('S28: merge_group', () => {
  const group = { action: 'checks_requested', merge_group: { head_sha: HEAD, head_ref: 'refs/heads/gh-readonly-queue/main/pr-7-' + BASE, base_sha: BASE, base_ref: 'refs/heads/main', head_commit: { id: HEAD } } };

  it("compares the group's base_sha with its head_sha, never GITHUB_SHA with itself; the check run goes on the group's head", async () => {
    const t = await resolveEvent(ctx('merge_group', group, { sha: HEAD }));
    expect([t.base, t.head, t.pull, t.checkSha]).toEqual([BASE, HEAD, null, HEAD]);
    expect(t.compares).toBe(`merge_group: comparing the merge group's head ${HEAD.slice(0, 7)} with its base ${BASE.slice(0, 7)} into main.`);
    expect(gh.requests).toHaveLength(0);
  });

  it('a payload without the SHAs: one line naming the event', async () => {
    await expect(resolveEvent(ctx('merge_group', { merge_group: { head_sha: HEAD } }))).rejects.toThrow(/^The merge_group event payload is not as expected \(merge_group\.base_sha/);
  });
});

describe('S28: schedule and release name no change', () => {
  it.each(['schedule', 'release'])('%s without base-ref: refused in one line naming the event', async (event) => {
    await expect(resolveEvent(ctx(event, {}))).rejects.toThrow(new RegExp(`^The ${event} event names no change to compare \\(its base would be its own head\\): set input base-ref`));
    const t = await resolveEvent(ctx(event, {}, { inputs: inputs({ baseRef: 'v1.0.0' }) }));
    expect([t.base, t.head]).toEqual(['v1.0.0', MERGE]);
  });
});

describe('S28: push', () => {
  it('base = before, head = after, and says so', async () => {
    const t = await resolveEvent(ctx('push', { ref: 'refs/heads/main', before: BASE, after: HEAD }));
    expect([t.base, t.head, t.pull, t.checkSha]).toEqual([BASE, HEAD, null, HEAD]);
    expect(t.compares).toBe(`push to main: comparing the pushed commit ${HEAD.slice(0, 7)} with the commit before the push, ${BASE.slice(0, 7)}.`);
  });

  it('a forced push: before is not in the new history, so the parent of after, said in one line', async () => {
    gh.commits.set(HEAD, [OTHER]);
    const t = await resolveEvent(ctx('push', { ref: 'refs/heads/main', before: BASE, after: HEAD, forced: true }));
    expect(t.base).toBe(OTHER);
    expect(t.compares).toBe(`push to main: the push to main was forced, so the commit before it (${BASE.slice(0, 7)}) is not in its history; comparing the pushed commit ${HEAD.slice(0, 7)} with its parent ${OTHER.slice(0, 7)}.`);
    expect(t.compares).not.toContain('--');
  });

  it('a new branch (before all zeros): base = the parent of after, from the API', async () => {
    gh.commits.set(HEAD, [OTHER]);
    const t = await resolveEvent(ctx('push', { ref: 'refs/heads/new', before: '0'.repeat(40), after: HEAD, created: true }));
    expect(t.base).toBe(OTHER);
    expect(t.compares).toContain('the push created new, so there is no commit before it; comparing the pushed commit');
    expect(gh.calls('GET', new RegExp(`/commits/${HEAD}$`))).toHaveLength(1);
  });

  it('a new branch whose parent cannot be looked up: the merge-base, with a warning', async () => {
    const t = await resolveEvent(ctx('push', { ref: 'refs/heads/new', before: '0'.repeat(40), after: HEAD }));
    expect(t.base).toBeNull();
    expect(t.warnings.join('\n')).toContain('merge-base with the default branch');
  });

  it('the first commit of a repository: nothing to compare with', async () => {
    gh.commits.set(HEAD, []);
    await expect(resolveEvent(ctx('push', { ref: 'refs/heads/main', before: '0'.repeat(40), after: HEAD }))).rejects.toThrow(/first commit.*Set input base-ref/);
  });

  it('a deleted branch: nothing to do', async () => {
    const t = await resolveEvent(ctx('push', { ref: 'refs/heads/gone', before: BASE, after: '0'.repeat(40), deleted: true }));
    expect(t.skip).toContain('deleted refs/heads/gone');
  });
});

describe('workflow_dispatch', () => {
  it('with pr-number: base and head through the API', async () => {
    gh.addPull({ number: 12, baseSha: BASE, headSha: HEAD });
    const t = await resolveEvent(ctx('workflow_dispatch', { inputs: { 'pr-number': '12' } }, { inputs: inputs({ prNumber: 12 }) }));
    expect([t.base, t.head, t.pull?.number, t.checkSha]).toEqual([BASE, HEAD, 12, HEAD]);
    expect(gh.calls('GET', /\/pulls\/12$/)).toHaveLength(1);
  });

  it('with a pr-number that does not exist: one clear error', async () => {
    await expect(resolveEvent(ctx('workflow_dispatch', {}, { inputs: inputs({ prNumber: 404 }) }))).rejects.toThrow(/input pr-number: cannot read pull request #404 of octo\/repo \(HTTP 404/);
  });

  it('with base-ref / head-ref', async () => {
    const t = await resolveEvent(ctx('workflow_dispatch', {}, { inputs: inputs({ baseRef: 'v1.0.0', headRef: 'release/2.0' }) }));
    expect([t.base, t.head, t.pull]).toEqual(['v1.0.0', 'release/2.0', null]);
  });

  it('with nothing: head = GITHUB_SHA, base = merge-base (null)', async () => {
    const t = await resolveEvent(ctx('workflow_dispatch', {}));
    expect([t.base, t.head]).toEqual([null, MERGE]);
  });
});

describe('S2: workflow_run', () => {
  const runPayload = (headRepo: string, branch = 'feature') => ({
    action: 'completed',
    workflow_run: { id: 5, event: 'pull_request', head_sha: HEAD, head_branch: branch, head_repository: { full_name: headRepo, owner: { login: headRepo.split('/')[0] } }, pull_requests: [{ number: 999 }] },
  });

  it('a same-repository PR is found from the head SHA (commits/{sha}/pulls)', async () => {
    gh.addPull({ number: 21, baseSha: BASE, headSha: HEAD, headRef: 'feature' });
    const t = await resolveEvent(ctx('workflow_run', runPayload('octo/repo'), { inputs: inputs({ mode: 'report' }) }));
    expect(t.pull?.number).toBe(21);
    expect(t.checkSha).toBe(HEAD);
    expect(gh.calls('GET', new RegExp(`/commits/${HEAD}/pulls$`))).toHaveLength(1);
  });

  it('a fork PR is found through pulls?head=owner:branch, matched on SHA and head repository', async () => {
    gh.addPull({ number: 22, baseSha: BASE, headSha: OTHER, headRepo: 'mallory/repo', headRef: 'feature' }); // same branch, other SHA
    gh.addPull({ number: 23, baseSha: BASE, headSha: HEAD, headRepo: 'mallory/repo', headRef: 'feature' });
    const t = await resolveEvent(ctx('workflow_run', runPayload('mallory/repo'), { inputs: inputs({ mode: 'report' }) }));
    expect(t.pull).toMatchObject({ number: 23, fork: true, headRepo: 'mallory/repo' });
    const list = gh.calls('GET', /^\/repos\/octo\/repo\/pulls$/)[0]!;
    expect(list.query.get('head')).toBe('mallory:feature');
  });

  it('never takes the PR number from elsewhere: not the payload\'s pull_requests, not pr-number', async () => {
    gh.addPull({ number: 999, baseSha: BASE, headSha: OTHER });
    const t = await resolveEvent(ctx('workflow_run', runPayload('mallory/repo'), { inputs: inputs({ mode: 'report', prNumber: 999 }) }));
    expect(t.pull).toBeNull();
    expect(t.warnings.join('\n')).toContain('input pr-number is ignored under workflow_run');
    expect(t.warnings.join('\n')).toContain('the report goes to the job summary only');
  });

  it('a PR from another fork with the same branch name is not taken', async () => {
    gh.addPull({ number: 24, baseSha: BASE, headSha: HEAD, headRepo: 'eve/repo', headRef: 'feature' });
    const t = await resolveEvent(ctx('workflow_run', runPayload('mallory/repo'), { inputs: inputs({ mode: 'report' }) }));
    expect(t.pull).toBeNull();
  });
});

describe('parsePrNumber', () => {
  it('accepts 12 and #12, refuses the rest with a message naming the input', () => {
    expect(parsePrNumber('12')).toBe(12);
    expect(parsePrNumber('#12')).toBe(12);
    expect(parsePrNumber('')).toBeNull();
    expect(() => parsePrNumber('12; rm -rf /')).toThrow('input pr-number: got "12; rm -rf /"; expected a pull request number such as 123');
    expect(() => parsePrNumber('0')).toThrow(/input pr-number/);
  });
});
