/**
 * The sticky comment, at the HTTP level against a fake GitHub API: S7 (only our own comment is
 * edited, found over every page), S5 (a read-only token warns and throws nothing), S9 (5xx and
 * secondary rate limits are retried, other 4xx are not, waiting is capped), S8 (422 too long).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertComment, whoAmI, type UpsertOptions } from '../../src/github/post-comment.ts';
import { FORK_ADVICE } from '../../src/github/api-errors.ts';
import { createClient, type ClientOptions } from '../../src/github/octokit.ts';
import { markerFor } from '../../src/report/escape.ts';
import { ACTIONS_BOT_USER, ANSWERS, FakeGitHub, simpleUser } from '../support/fake-github.ts';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await FakeGitHub.start('octo', 'repo');
});
afterEach(async () => {
  await gh.close();
});

/** Fast delays: the tests wait milliseconds where GitHub would make us wait seconds. */
function client(opts: ClientOptions = {}) {
  return createClient('ghs_faketoken', { baseUrl: gh.url, retryBaseMs: 1, rateLimitBaseMs: 10, writeSpacingMs: 0, ...opts });
}

const marker = markerFor('perf');
function options(extra: Partial<UpsertOptions> = {}): UpsertOptions {
  return { owner: 'octo', repo: 'repo', issueNumber: 7, marker, mode: 'always', changed: true, render: () => `${marker}\nreport body`, ...extra };
}
const attacker = simpleUser('mallory', 666);
const human = simpleUser('alice', 42);

describe('S7: sticky comment', () => {
  it('with 150 comments on two pages, edits only ours (page 2), never the attacker\'s marker comment (page 1)', async () => {
    for (let i = 0; i < 150; i++) {
      if (i === 10) gh.addComment(7, attacker, `${marker}\nI am not pairbench`);
      else if (i === 120) gh.addComment(7, ACTIONS_BOT_USER, `${marker}\nold report`);
      else if (i === 30) gh.addComment(7, ACTIONS_BOT_USER, 'a bot comment of another tool');
      else gh.addComment(7, human, `comment ${i} mentioning ${marker} in the middle`);
    }
    const comments = gh.comments.get(7)!;
    const ours = comments[120]!;
    const theirs = comments[10]!;

    const out = await upsertComment(client(), options({ render: () => `${marker}\nnew report` }));

    expect(out.action).toBe('updated');
    expect(out.id).toBe(ours.id);
    expect(out.url).toBe(ours.html_url);
    expect(ours.body).toBe(`${marker}\nnew report`);
    expect(theirs.body).toBe(`${marker}\nI am not pairbench`);
    const lists = gh.calls('GET', /\/issues\/7\/comments$/);
    expect(lists.map((r) => [r.query.get('per_page'), r.query.get('page') ?? '1'])).toEqual([
      ['100', '1'],
      ['100', '2'],
    ]);
    expect(gh.calls('PATCH', /./).map((r) => r.path)).toEqual([`/repos/octo/repo/issues/comments/${ours.id}`]);
    expect(gh.calls('POST', /./)).toHaveLength(0);
  });

  it('when only an attacker carries our marker, creates our own comment and leaves theirs', async () => {
    gh.addComment(7, attacker, `${marker}\nfake`);
    const lines: string[] = [];
    const out = await upsertComment(client(), options({ log: (l) => lines.push(l) }));
    expect(out.action).toBe('created');
    expect(gh.comments.get(7)!.map((c) => c.user?.login)).toEqual(['mallory', 'github-actions[bot]']);
    expect(gh.comments.get(7)![0]!.body).toBe(`${marker}\nfake`);
    expect(lines.join('\n')).toContain("carry pairbench's marker but were not written by github-actions[bot]");
  });

  it('creates once, then updates the same comment on the next run: no duplicate', async () => {
    const first = await upsertComment(client(), options({ render: () => `${marker}\nrun 1` }));
    const second = await upsertComment(client(), options({ render: () => `${marker}\nrun 2` }));
    const third = await upsertComment(client(), options({ render: () => `${marker}\nrun 2` }));
    expect([first.action, second.action, third.action]).toEqual(['created', 'updated', 'unchanged']);
    expect(second.id).toBe(first.id);
    expect(gh.comments.get(7)).toHaveLength(1);
    expect(gh.comments.get(7)![0]!.body).toBe(`${marker}\nrun 2`);
  });

  it('keeps comments of other comment-ids apart', async () => {
    const other = markerFor('other-job');
    gh.addComment(7, ACTIONS_BOT_USER, `${other}\nthe other job's report`);
    const out = await upsertComment(client(), options());
    expect(out.action).toBe('created');
    expect(gh.comments.get(7)![0]!.body).toBe(`${other}\nthe other job's report`);
  });

  it('with a personal access token, the author is GET /user, and a github-actions[bot] marker comment is not ours', async () => {
    gh.identity = { kind: 'user', login: 'perf-bot', id: 99 };
    gh.addComment(7, ACTIONS_BOT_USER, `${marker}\nwritten by GITHUB_TOKEN earlier`);
    gh.addComment(7, simpleUser('perf-bot', 99), `${marker}\nours`);
    const api = client();
    expect(await whoAmI(api)).toBe('perf-bot');
    const out = await upsertComment(api, options({ render: () => `${marker}\nnew` }));
    expect(out.action).toBe('updated');
    expect(gh.comments.get(7)!.map((c) => c.body)).toEqual([`${marker}\nwritten by GITHUB_TOKEN earlier`, `${marker}\nnew`]);
  });

  it('with GITHUB_TOKEN, GET /user is refused and the author is github-actions[bot]', async () => {
    expect(await whoAmI(client())).toBe('github-actions[bot]');
    expect(gh.calls('GET', /^\/user$/)).toHaveLength(1);
  });
});

describe('comment modes', () => {
  it('never: no request at all', async () => {
    const out = await upsertComment(client(), options({ mode: 'never' }));
    expect(out.action).toBe('skipped');
    expect(gh.requests).toHaveLength(0);
  });

  it('on-change: no new comment when all is unchanged', async () => {
    const out = await upsertComment(client(), options({ mode: 'on-change', changed: false }));
    expect(out.action).toBe('skipped');
    expect(gh.calls('POST', /./)).toHaveLength(0);
  });

  it('on-change: an existing comment is still brought up to date, so a fixed regression does not linger', async () => {
    gh.addComment(7, ACTIONS_BOT_USER, `${marker}\n🔴 1 regression`);
    const out = await upsertComment(client(), options({ mode: 'on-change', changed: false, render: () => `${marker}\n⚪ 1 unchanged` }));
    expect(out.action).toBe('updated');
    expect(gh.comments.get(7)![0]!.body).toBe(`${marker}\n⚪ 1 unchanged`);
  });
});

describe('faults (S5, S8, S9)', () => {
  it('502, 502, then 200: the comment is posted', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, ANSWERS.badGateway, ANSWERS.badGateway);
    const out = await upsertComment(client(), options());
    expect(out.action).toBe('created');
    expect(gh.calls('POST', /\/issues\/7\/comments$/)).toHaveLength(3);
    expect(gh.comments.get(7)).toHaveLength(1);
  });

  it('502 on listing, then a secondary rate limit with retry-after on posting: both retried, retry-after honoured', async () => {
    gh.script('GET', /\/issues\/7\/comments$/, ANSWERS.badGateway);
    gh.script('POST', /\/issues\/7\/comments$/, ANSWERS.secondaryRateLimit(3));
    const logs: string[] = [];
    const t0 = Date.now();
    const out = await upsertComment(client({ rateLimitBaseMs: 50, log: (l) => logs.push(l) }), options());
    const elapsed = Date.now() - t0;
    expect(out.action).toBe('created');
    expect(elapsed).toBeGreaterThanOrEqual(150); // retry-after 3 × 50 ms
    expect(logs.join('\n')).toContain('secondary rate limit');
    expect(gh.calls('POST', /\/issues\/7\/comments$/)).toHaveLength(2);
  });

  it('S9: 502, then 403 secondary rate limit with retry-after, then 200 on the same request: posted once', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, ANSWERS.badGateway, ANSWERS.secondaryRateLimit(2));
    const t0 = Date.now();
    const out = await upsertComment(client({ rateLimitBaseMs: 40 }), options());
    expect(out.action).toBe('created');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(80);
    expect(gh.calls('POST', /\/issues\/7\/comments$/)).toHaveLength(3);
    expect(gh.comments.get(7)).toHaveLength(1);
  });

  it('403 "Resource not accessible by integration": a warning with the two-workflow advice, nothing thrown, no retry', async () => {
    gh.readOnly = true;
    const out = await upsertComment(client(), options());
    expect(out.action).toBe('forbidden');
    expect(out.detail).toBe(FORK_ADVICE);
    expect(out.detail).toContain('workflow_run');
    expect(out.detail).toContain('mode: report');
    expect(gh.calls('POST', /./)).toHaveLength(1);
  });

  it('other 4xx are not retried, and the outcome says the verdict is not affected', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, { status: 404, body: { message: 'Not Found' } });
    const out = await upsertComment(client(), options());
    expect(out.action).toBe('failed');
    expect(out.detail).toContain('HTTP 404');
    expect(out.detail).toContain('verdict are not affected');
    expect(gh.calls('POST', /./)).toHaveLength(1);
  });

  it('5xx forever: gives up after the retries, never throws', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, ...Array.from({ length: 10 }, () => ANSWERS.badGateway));
    const out = await upsertComment(client({ retries: 2 }), options());
    expect(out.action).toBe('failed');
    expect(out.detail).toContain('HTTP 502');
    expect(gh.calls('POST', /./)).toHaveLength(3);
  });

  it('total waiting for rate limits is capped', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, ...Array.from({ length: 10 }, () => ANSWERS.secondaryRateLimit(60)));
    const out = await upsertComment(client({ rateLimitBaseMs: 10, maxWaitMs: 1500 }), options());
    expect(out.action).toBe('failed');
    // 60 s × 10 ms = 600 ms per wait: two waits fit under 1.5 s, the third would not. The count of
    // requests says the cap held (uncapped, a third wait and a fourth request follow); the time it
    // took is not asserted, as a busy machine only adds to it.
    expect(gh.calls('POST', /./)).toHaveLength(3);
  });

  it('422 too long: retried once with a report cut to half the size', async () => {
    gh.maxCommentLength = 40_000;
    const sizes: number[] = [];
    const out = await upsertComment(
      client(),
      options({
        render: (max) => {
          sizes.push(max);
          return `${marker}\n${'x'.repeat(max - 100)}`;
        },
      }),
    );
    expect(out.action).toBe('created');
    expect(sizes).toEqual([65_000, 32_500]);
    expect(gh.calls('POST', /./)).toHaveLength(2);
  });

  it('422 too long twice: gives up after the half-size retry, nothing thrown', async () => {
    gh.script('POST', /\/issues\/7\/comments$/, ANSWERS.tooLong, ANSWERS.tooLong, ANSWERS.tooLong);
    const logs: string[] = [];
    const out = await upsertComment(client({ log: (l) => logs.push(l) }), options({ log: (l) => logs.push(l) }));
    expect(out.action).toBe('failed');
    expect(gh.calls('POST', /\/issues\/7\/comments$/)).toHaveLength(2);
    expect(logs.filter((l) => l.startsWith('GitHub refused the comment'))).toEqual([expect.stringMatching(/retrying with a report cut to 32500 bytes\.$/)]);
  });
});
