/**
 * Accepting an intended regression with a label, against the fake GitHub API: the label counts only
 * when the person who added it can write to the repository.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptance } from '../../src/github/labels.ts';
import { createClient } from '../../src/github/octokit.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { bench, results } from '../report/markdown-fixtures.ts';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await FakeGitHub.start('octo', 'repo');
  gh.addPull({ number: 7, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) });
  gh.permissions.set('maintainer-mia', 'write');
  gh.permissions.set('outsider-oz', 'read');
});
afterEach(async () => {
  await gh.close();
});

const api = () => createClient('ghs_faketoken', { baseUrl: gh.url, retryBaseMs: 1, rateLimitBaseMs: 10, writeSpacingMs: 0 });
const HEAD = 'b'.repeat(40);
/** By default the run of the PR's opened event, whose labels were set with its first head: the label is tied to HEAD. */
const lookup = (payload: unknown = { action: 'opened', pull_request: { head: { sha: HEAD } } }, event = 'pull_request') => ({ owner: 'octo', repo: 'repo', pull: 7, label: 'performance-accepted', payload, event, headSha: HEAD });
const regression = results([bench('parse', 'regression', 0.1)]);

describe('accept-label', () => {
  it('a label added by a writer accepts the regression, and the comment says who', async () => {
    gh.label(7, 'performance-accepted', 'maintainer-mia');
    const a = await acceptance(api(), lookup());
    expect(a).toEqual({ label: 'performance-accepted', by: 'maintainer-mia', accepted: true });
    expect(gh.calls('GET', /\/collaborators\/maintainer-mia\/permission$/)).toHaveLength(1);
    const md = renderMarkdown(regression, { acceptance: a });
    expect(md).toContain('> ✅ **Regression accepted**: @\u200dmaintainer-mia added the label `performance-accepted`, so the gate passes.');
  });

  it('a label added by someone without write access is ignored, with a note', async () => {
    gh.label(7, 'performance-accepted', 'outsider-oz');
    const a = await acceptance(api(), lookup());
    expect(a).toMatchObject({ by: 'outsider-oz', accepted: false, reason: '@outsider-oz added it and has read access, not write access' });
    const md = renderMarkdown(regression, { acceptance: a });
    expect(md).toContain('> ⚠️ The label `performance-accepted` was ignored: @\u200doutsider-oz added it and has read access, not write access. Only a label added by someone with write access accepts a regression.');
  });

  it('who added it last counts: a writer re-adding an outsider\'s label', async () => {
    gh.label(7, 'performance-accepted', 'outsider-oz');
    gh.label(7, 'performance-accepted', 'outsider-oz', 'unlabeled');
    gh.label(7, 'performance-accepted', 'maintainer-mia');
    expect(await acceptance(api(), lookup())).toMatchObject({ by: 'maintainer-mia', accepted: true });
  });

  it('on its own labeled event, the sender is who added it; the labels come from the event', async () => {
    const payload = { action: 'labeled', label: { name: 'performance-accepted' }, sender: { login: 'maintainer-mia' }, pull_request: { labels: [{ name: 'performance-accepted' }], head: { sha: HEAD } } };
    expect(await acceptance(api(), lookup(payload))).toMatchObject({ by: 'maintainer-mia', accepted: true });
    expect(gh.calls('GET', /\/issues\/7\/events$/)).toHaveLength(0);
  });

  it('S27: the label counts only for the head it was added on: a push after it (synchronize) is not accepted, and the note says to add it again', async () => {
    gh.label(7, 'performance-accepted', 'maintainer-mia');
    const pushed = { action: 'synchronize', pull_request: { labels: [{ name: 'performance-accepted' }], head: { sha: HEAD } } };
    const a = await acceptance(api(), lookup(pushed));
    expect(a).toMatchObject({ by: 'maintainer-mia', accepted: false, reason: 'it was added before the head bbbbbbb was pushed, and a label accepts only the commit it was added on: remove it and add it again to accept bbbbbbb' });
    expect(renderMarkdown(regression, { acceptance: a, failOn: 'regression' })).toContain('The label `performance-accepted` was ignored: it was added before the head bbbbbbb was pushed');
    // its own labeled event, for another head than the one judged
    const stale = { action: 'labeled', label: { name: 'performance-accepted' }, sender: { login: 'maintainer-mia' }, pull_request: { labels: [{ name: 'performance-accepted' }], head: { sha: 'c'.repeat(40) } } };
    expect(await acceptance(api(), lookup(stale))).toMatchObject({ accepted: false, reason: 'it was added on ccccccc, not on the head bbbbbbb' });
  });

  it.each(['workflow_dispatch', 'workflow_run', 'issue_comment'])('S27: under %s the commit it was added on is not known: ignored, saying why', async (event) => {
    gh.label(7, 'performance-accepted', 'maintainer-mia');
    const a = await acceptance(api(), lookup({}, event));
    expect(a).toMatchObject({ accepted: false, reason: 'a label accepts only the commit it was added on, and only its own labeled event says which commit that was: remove it and add it again to accept the head bbbbbbb' });
  });

  it('no label, no acceptance; a failed look-up ignores the label and says why', async () => {
    expect(await acceptance(api(), lookup())).toBeNull();
    gh.label(7, 'performance-accepted', 'maintainer-mia');
    gh.script('GET', /\/permission$/, { status: 403, body: { message: 'Resource not accessible by integration' } });
    const a = await acceptance(api(), lookup());
    expect(a).toMatchObject({ accepted: false, by: 'maintainer-mia' });
    expect(a?.reason).toMatch(/could not be checked .*403/);
  });

  it('an accepted regression beside an undecided benchmark under fail-on: regression,inconclusive: the note does not say the gate passes', () => {
    const a = { label: 'performance-accepted', by: 'maintainer-mia', accepted: true };
    const mixed = results([bench('parse', 'regression', 0.1), bench('render', 'inconclusive', 0.01, { n: 4 })]);
    const strict = renderMarkdown(mixed, { acceptance: a, failOn: 'regression,inconclusive' });
    expect(strict).toContain('so the regression does not fail the gate; the inconclusive benchmarks still do (`fail-on` names inconclusive).');
    expect(strict).not.toContain('so the gate passes');
    expect(strict).toContain('> 🟡 1 benchmark inconclusive, and `fail-on` names inconclusive: the job fails on it (the check run is neutral).');
    const lenient = renderMarkdown(mixed, { acceptance: a, failOn: 'regression' });
    expect(lenient).toContain('so the gate passes');
    expect(lenient).toContain('> 🟡 1 benchmark inconclusive: the check run is neutral and the job passes on it. To block on undecided benchmarks, set `fail-on: regression,inconclusive`.');
    // without a gate (the command line's --markdown) nothing is said of one
    expect(renderMarkdown(mixed, { acceptance: a })).not.toContain('check run is neutral');
  });
});
