/**
 * The check run: conclusion from the verdict, the report as summary under 65,535 bytes (S8),
 * a read-only token warns instead of failing (S5); and the client's base URL (GITHUB_API_URL).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishCheckRun, type CheckOptions } from '../../src/github/check.ts';
import { FORK_ADVICE } from '../../src/github/api-errors.ts';
import { createClient } from '../../src/github/octokit.ts';
import { REPORT_LIMITS, renderMarkdown } from '../../src/report/markdown.ts';
import { decideGate } from '../../src/results/gate.ts';
import type { Results } from '../../src/results/schema.ts';
import { bench, results } from '../report/markdown-fixtures.ts';
import { ANSWERS, FakeGitHub } from '../support/fake-github.ts';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await FakeGitHub.start('octo', 'repo');
});
afterEach(async () => {
  await gh.close();
});

const client = () => createClient('ghs_x', { baseUrl: gh.url, retryBaseMs: 1, rateLimitBaseMs: 1, writeSpacingMs: 0 });
const regressed = results([bench('parse', 'regression', 0.1), bench('emit', 'unchanged', 0)]);
const options = (extra: Partial<CheckOptions> = {}): CheckOptions => ({
  owner: 'octo',
  repo: 'repo',
  name: 'perf',
  headSha: 'b'.repeat(40),
  results: regressed,
  failOn: 'regression',
  render: (max) => renderMarkdown(regressed, { maxLength: max }),
  ...extra,
});

const conclusionOf = (r: Results, failOn: Parameters<typeof decideGate>[1]) => decideGate(r, failOn).conclusion;

describe('the conclusion', () => {
  it('follows the verdict and fail-on', () => {
    expect(conclusionOf(regressed, 'regression')).toBe('failure');
    expect(conclusionOf(regressed, 'none')).toBe('neutral');
    expect(conclusionOf(results([bench('a', 'improvement', -0.1)]), 'regression')).toBe('success');
    expect(conclusionOf(results([bench('a', 'unchanged', 0)]), 'regression')).toBe('success');
    expect(conclusionOf(results([bench('a', 'inconclusive', 0.03)]), 'regression')).toBe('neutral');
    expect(conclusionOf(results([bench('a', 'unchanged', 0)], { status: 'partial' }), 'regression')).toBe('neutral');
    expect(conclusionOf(results([bench('a', 'unchanged', 0)], { status: 'failed' }), 'none')).toBe('failure');
  });
});

describe('publishCheckRun', () => {
  it('creates a completed check run on the head SHA with the report as summary', async () => {
    const out = await publishCheckRun(client(), options({ detailsUrl: 'https://github.com/octo/repo/actions/runs/1' }));
    expect(out).toMatchObject({ action: 'created', conclusion: 'failure' });
    const run = gh.checkRuns[0]!;
    expect(run).toMatchObject({ name: 'perf', head_sha: 'b'.repeat(40), status: 'completed', conclusion: 'failure', details_url: 'https://github.com/octo/repo/actions/runs/1' });
    expect(run.output.title).toBe('1 regression, 1 unchanged');
    expect(run.output.summary).toContain('### 🔴 1 regression');
    // the page of the check run, for the action's check-url output
    expect(out.url).toBe(run.html_url);
    expect(out.url).toMatch(/^https:\/\/github\.com\/octo\/repo\/runs\/\d+$/);
  });

  it('keeps a 5,000-benchmark summary under 65,535 bytes', async () => {
    const many = results(Array.from({ length: 5000 }, (_, i) => bench(`bench-${'n'.repeat(200)}-${i}`, 'unchanged', 0)));
    const out = await publishCheckRun(client(), options({ results: many, render: (max) => renderMarkdown(many, { maxLength: max }) }));
    expect(out.action).toBe('created');
    expect(Buffer.byteLength(gh.checkRuns[0]!.output.summary ?? '', 'utf8')).toBeLessThan(65_535);
  });

  it('422: retried once with a summary cut to half', async () => {
    gh.script('POST', /\/check-runs$/, { status: 422, body: { message: 'Invalid request.\n\nOnly 65535 characters are allowed' } });
    const sizes: number[] = [];
    const out = await publishCheckRun(client(), options({ render: (max) => (sizes.push(max), renderMarkdown(regressed, { maxLength: max })) }));
    expect(out.action).toBe('created');
    expect(sizes).toEqual([REPORT_LIMITS.checkSummary, REPORT_LIMITS.checkSummary / 2]);
  });

  it('422 twice: gives up after the half-size retry, with the reason, nothing thrown', async () => {
    const tooLong = { status: 422, body: { message: 'Invalid request.\n\nOnly 65535 characters are allowed' } };
    gh.script('POST', /\/check-runs$/, tooLong, tooLong, tooLong);
    const logs: string[] = [];
    const out = await publishCheckRun(client(), options({ log: (l) => logs.push(l) }));
    expect(out.action).toBe('failed');
    expect(out.detail).toContain('HTTP 422');
    expect(gh.calls('POST', /\/check-runs$/)).toHaveLength(2);
    expect(logs).toEqual([expect.stringMatching(/^GitHub refused the check run \(.*\); retrying with a report cut to 32500 bytes\.$/)]);
  });

  it('403 read-only token: forbidden with the two-workflow advice, nothing thrown', async () => {
    gh.script('POST', /\/check-runs$/, ANSWERS.readOnly);
    const out = await publishCheckRun(client(), options());
    expect(out).toMatchObject({ action: 'forbidden', detail: FORK_ADVICE, conclusion: 'failure' });
  });
});

describe('createClient', () => {
  it('takes its base URL from GITHUB_API_URL', async () => {
    const saved = process.env['GITHUB_API_URL'];
    process.env['GITHUB_API_URL'] = gh.url;
    try {
      const api = createClient('ghs_secret_token', { writeSpacingMs: 0 });
      gh.addPull({ number: 1, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) });
      const { data } = await api.rest.pulls.get({ owner: 'octo', repo: 'repo', pull_number: 1 });
      expect(data.number).toBe(1);
      expect(gh.requests[0]!.headers.authorization).toBe('token ghs_secret_token');
    } finally {
      if (saved === undefined) delete process.env['GITHUB_API_URL'];
      else process.env['GITHUB_API_URL'] = saved;
    }
  });
});
