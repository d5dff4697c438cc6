/**
 * S9: every GitHub request has a deadline, and the time spent on the API in all is capped. Against
 * the local fake API made to accept requests and never answer them, or to answer one byte at a
 * time: each attempt is abandoned at its deadline, retried as a 5xx is, then given up with an
 * error that says so; a request that writes is never sent twice; once the budget is spent,
 * requests fail at once without reaching the server.
 *
 * The deadlines here are a fraction of a second (the defaults are 20 s a request and 3 minutes in
 * all); no test asserts on how long anything took, only on what reached the server and what came back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertComment } from '../../src/github/post-comment.ts';
import { ApiDeadlineError, describeApiError } from '../../src/github/api-errors.ts';
import { createClient, deadlinesFromEnv, DEFAULT_BUDGET_MS, DEFAULT_REQUEST_TIMEOUT_MS, type ClientOptions } from '../../src/github/octokit.ts';
import { markerFor } from '../../src/report/escape.ts';
import { FakeGitHub } from '../support/fake-github.ts';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await FakeGitHub.start('octo', 'repo');
  gh.addPull({ number: 7, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) });
});
afterEach(async () => {
  await gh.close();
});

function client(opts: ClientOptions = {}) {
  return createClient('ghs_faketoken', { baseUrl: gh.url, retryBaseMs: 1, rateLimitBaseMs: 10, writeSpacingMs: 0, requestTimeoutMs: 300, retries: 2, ...opts });
}

/** The error a call ends with (it must end with one). */
async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('the call succeeded');
}

describe('S9: a deadline on every GitHub request', () => {
  it('S9: an API that accepts and never answers: each attempt is abandoned at its deadline, retried twice, then given up', async () => {
    gh.stall = 'hang';
    const err = await failure(client().rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 7 }));
    expect(err).toBeInstanceOf(ApiDeadlineError);
    expect(describeApiError(err)).toBe('GET /repos/{owner}/{repo}/pulls/{pull_number}: no complete answer within 0.3 s');
    expect(gh.calls('GET', /\/pulls\/7$/)).toHaveLength(3);
  });

  it('S9: an API that drips its answer a byte at a time: the body still arriving at the deadline is abandoned, never read as an empty answer', async () => {
    gh.stall = { dripMs: 2000 };
    const err = await failure(client().rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 7 }));
    expect(describeApiError(err)).toMatch(/pulls\/\{pull_number\}: no complete answer within 0\.3 s$/);
    expect(gh.calls('GET', /\/pulls\/7$/)).toHaveLength(3);
  });

  it('S9: a slow answer that drips in before its deadline is read whole', async () => {
    // 40 bytes, one every 5 ms: the whole body well within the deadline of 30 s
    gh.script('GET', /\/pulls\/7$/, { status: 200, body: { number: 7, title: 'a slow answer' }, stall: { dripMs: 5 } });
    const { data } = await client({ requestTimeoutMs: 30_000 }).rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 7 });
    expect(data).toEqual({ number: 7, title: 'a slow answer' });
    expect(gh.calls('GET', /\/pulls\/7$/)).toHaveLength(1);
  });

  it('S9: the API answers again after one hang: the retry gets the answer', async () => {
    gh.script('GET', /\/pulls\/7$/, { status: 200, body: {}, stall: 'hang' });
    const { data } = await client().rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 7 });
    expect(data.number).toBe(7);
    expect(gh.calls('GET', /\/pulls\/7$/)).toHaveLength(2);
  });

  it('S9: a request that writes (a comment) is not sent again after its deadline: GitHub may have acted on it', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, { status: 201, body: {}, stall: 'hang' });
    const marker = markerFor('perf');
    const lines: string[] = [];
    const out = await upsertComment(client(), { owner: 'octo', repo: 'repo', issueNumber: 7, marker, mode: 'always', changed: true, render: () => `${marker}\nreport`, log: (l) => lines.push(l) });
    expect(out.action).toBe('failed');
    expect(out.detail).toBe('Could not write the pull request comment: POST /repos/{owner}/{repo}/issues/{issue_number}/comments: no complete answer within 0.3 s. The results, the job summary and the verdict are not affected.');
    expect(gh.calls('POST', /\/issues\/7\/comments$/)).toHaveLength(1);
    expect(gh.comments.get(7) ?? []).toHaveLength(0);
  });
});

describe('S9: the time spent on the GitHub API in all is capped', () => {
  it('S9: once the budget is spent, every request fails at once, without reaching the server', async () => {
    gh.stall = 'hang';
    const api = client({ budgetMs: 1000, requestTimeoutMs: 300, retries: 3, retryBaseMs: 50 });
    const errors: string[] = [];
    // each hung attempt spends its deadline; within a few calls the second of budget is gone
    for (let i = 0; i < 20 && !errors.some((e) => e.includes('not sent')); i++) {
      errors.push(describeApiError(await failure(api.rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 7 }))));
    }
    const spent = errors.findIndex((e) => e.includes('not sent'));
    expect(spent).toBeGreaterThan(0);
    expect(errors[spent]).toBe('GET /repos/{owner}/{repo}/pulls/{pull_number}: not sent, the 1 s allowed for the GitHub API in all are spent');
    expect(errors.slice(0, spent).every((e) => /: no complete answer within \d+(\.\d)? s$/.test(e))).toBe(true);
    // the server stops hearing from the client: what came before the budget ran out, and nothing after
    const reached = gh.requests.length;
    gh.stall = null;
    const after = await failure(api.rest.issues.listComments({ owner: 'octo', repo: 'repo', issue_number: 7 }));
    expect(describeApiError(after)).toMatch(/^GET \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/comments: not sent, the 1 s allowed/);
    expect(gh.requests).toHaveLength(reached);
    // at most the attempts that fit in the budget: far fewer than 20 calls of 4 attempts each
    expect(reached).toBeLessThan(12);
  });

  it('S9: a rate limit whose retry-after outlasts the budget is not waited for', async () => {
    gh.script('GET', /\/pulls\/7$/, { status: 403, headers: { 'retry-after': '600', 'x-ratelimit-remaining': '4000' }, body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' } });
    const lines: string[] = [];
    const api = client({ budgetMs: 60_000, rateLimitBaseMs: 1000, log: (l) => lines.push(l) });
    const err = await failure(api.rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 7 }));
    expect(describeApiError(err)).toMatch(/^HTTP 403: You have exceeded a secondary rate limit/);
    expect(lines.join('\n')).toContain('giving up, since waiting 600 s would outlast the time allowed for the GitHub API (60 s in all)');
    expect(gh.calls('GET', /\/pulls\/7$/)).toHaveLength(1);
  });

  it('the deadline and the budget come from PAIRBENCH_GITHUB_TIMEOUT and PAIRBENCH_GITHUB_BUDGET; a bad value names the variable', () => {
    expect(deadlinesFromEnv({})).toEqual({});
    expect(deadlinesFromEnv({ PAIRBENCH_GITHUB_TIMEOUT: '5s', PAIRBENCH_GITHUB_BUDGET: '2m' })).toEqual({ requestTimeoutMs: 5000, budgetMs: 120_000 });
    expect(() => deadlinesFromEnv({ PAIRBENCH_GITHUB_TIMEOUT: 'soon' })).toThrow(/^PAIRBENCH_GITHUB_TIMEOUT: got "soon"; expected a duration greater than 0/);
    expect([DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_BUDGET_MS]).toEqual([20_000, 180_000]);
  });
});
