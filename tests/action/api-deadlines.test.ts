/**
 * S9: the action against a GitHub API that accepts and never answers, or drips its answers a byte
 * at a time. The job summary, the results file, the HTML report, the outputs and the step's status
 * are written before any call that only publishes (the accept label, the comment, the check run),
 * and those calls have deadlines and a budget in all, so the step ends, with warnings, and its
 * status is the comparison's.
 *
 * The action runs as the runner runs it (`node src/action.ts` with `INPUT_*`, the event file and
 * `GITHUB_API_URL` pointing at the local fake API), on a real git repository whose head does twice
 * more work than its base. The deadline is lowered through `PAIRBENCH_GITHUB_TIMEOUT` and
 * `PAIRBENCH_GITHUB_BUDGET`, so the tests wait fractions of a second where a runner waits minutes;
 * nothing asserts on a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION, readResults } from '../support/cli.ts';
import { parseOutputs } from '../support/action-outputs.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

const TOKEN = 'ghs_deadline_test_token_0123456789';
let repoDir: string;
let baseSha: string;
let headSha: string;

/** A benchmark: a shell loop; head does twice the iterations (a change no load hides in its CPU time). */
const benchScript = (iterations: number) => `#!/bin/sh\ni=0\nwhile [ $i -lt ${iterations} ]; do i=$((i+1)); done\n`;

beforeAll(() => {
  const repo = tempRepo();
  repoDir = repo.dir;
  baseSha = repo.commit({ 'bench.sh': benchScript(60_000) }, 'base');
  headSha = repo.commit({ 'bench.sh': benchScript(120_000) }, 'head: twice the work');
});

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function fakeGitHub(): Promise<FakeGitHub> {
  const gh = await FakeGitHub.start('octo', 'repo');
  servers.push(gh);
  gh.addPull({ number: 7, baseSha, headSha });
  return gh;
}

/** A pull_request event whose payload does not list the labels: the accept label is looked up through the API first. */
function pullRequestPayload(extra: Record<string, unknown> = {}) {
  return {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      base: { sha: baseSha, ref: 'main', repo: { full_name: 'octo/repo', fork: false } },
      head: { sha: headSha, ref: 'feature-7', repo: { full_name: 'octo/repo', fork: false } },
    },
    repository: { full_name: 'octo/repo' },
    ...extra,
  };
}

const measuring = { run: 'sh bench.sh', name: 'loop', metric: 'cpu', 'min-pairs': '10', 'max-pairs': '30', warmup: '1', seed: '7', 'comment-id': 'perf', 'check-name': 'perf' };

interface Started {
  child: ChildProcess;
  dir: string;
  exited: Promise<number | null>;
  stdout: () => string;
  summary: () => string;
  outputs: () => string;
}

function startAction(gh: FakeGitHub, payload: unknown, inputs: Record<string, string>, env: Record<string, string>): Started {
  const dir = mkdtempSync(join(tempDir(), 'run-'));
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(payload));
  const summaryPath = join(dir, 'summary.md');
  const outputPath = join(dir, 'output.txt');
  writeFileSync(summaryPath, '');
  writeFileSync(outputPath, '');
  const full: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
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
    RUNNER_TEMP: dir,
    ...env,
  };
  for (const [k, v] of Object.entries({ 'github-token': TOKEN, comment: 'always', mode: 'compare', 'allow-fork-code-on-dispatch': 'false', ...inputs })) full[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [ACTION], { cwd: repoDir, env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stdout += d.toString()));
  // a step that never ends fails the test instead of holding it: killed after 3 minutes
  const guard = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  void exited.then(() => clearTimeout(guard));
  return { child, dir, exited, stdout: () => stdout, summary: () => readFileSync(summaryPath, 'utf8'), outputs: () => readFileSync(outputPath, 'utf8') };
}

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!cond()) throw new Error(`gave up waiting for ${what}`);
}

/** Every file the step writes, and its outputs, as they are: the comparison's, whatever the API does. */
function expectEverythingWritten(run: Started): void {
  expect(run.summary()).toContain('### 🔴 1 regression');
  const outputs = parseOutputs(run.outputs());
  expect(outputs).toMatchObject({ verdict: 'regression', regressions: '1', improvements: '0', inconclusive: '0' });
  const results = readResults(outputs['results-path']!) as { status: string; head: { sha: string } };
  expect(results).toMatchObject({ status: 'complete', head: { sha: headSha } });
  expect(readFileSync(outputs['report-path']!, 'utf8')).toContain('### 🔴 1 regression');
  expect(readFileSync(outputs['results-path']!.replace(/\.json$/, '.html'), 'utf8')).toContain('<svg class="plot forest"');
}

describe('S9: the action ends, with everything written, whatever the GitHub API does', () => {
  for (const [what, stall] of [
    ['accepts and never answers', 'hang'],
    ['drips one byte every 2 s', { dripMs: 2000 }],
  ] as const) {
    it(`S9: an API that ${what}: the step ends with the comparison's status, the summary, results, HTML report and outputs written, and warnings`, async () => {
      const gh = await fakeGitHub();
      gh.stall = stall;
      const run = startAction(gh, pullRequestPayload(), measuring, { PAIRBENCH_GITHUB_TIMEOUT: '300ms', PAIRBENCH_GITHUB_BUDGET: '2s' });
      const code = await run.exited;
      const log = run.stdout();
      // the regression fails the step, as it would with a working API
      expect(code, log).toBe(1);
      expect(log).toMatch(/::error::pairbench: 1 regression beyond the threshold: loop \[cpu\]/);
      expectEverythingWritten(run);
      // the label, the comment and the check run were tried, gave up at their deadlines or the budget, and said so
      expect(gh.requests.length).toBeGreaterThan(0);
      expect(log).toMatch(/::warning::The label "performance-accepted" is ignored: the label could not be checked \(GET \/repos\/\{owner\}\/\{repo\}\/pulls\/\{pull_number\}: no complete answer within 0\.3 s\)/);
      expect(log).toMatch(/::warning::Could not write the pull request comment: .*(no complete answer within|allowed for the GitHub API in all are spent)/);
      expect(log).toMatch(/::warning::Could not create the check run: .*(no complete answer within|allowed for the GitHub API in all are spent)/);
      expect(parseOutputs(run.outputs())).toMatchObject({ 'comment-url': '', 'check-url': '' });
    }, 200_000);
  }

  it('S9: the summary, results, HTML report and outputs are written before the first call to the API', async () => {
    const gh = await fakeGitHub();
    gh.stall = 'hang';
    // a deadline far longer than the test: it looks while the step waits on its first call
    const run = startAction(gh, pullRequestPayload(), measuring, { PAIRBENCH_GITHUB_TIMEOUT: '10m', PAIRBENCH_GITHUB_BUDGET: '10m' });
    try {
      await waitFor(() => gh.requests.length > 0 || run.child.exitCode !== null, 'the first request to the API');
      expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/octo/repo/pulls/7']);
      expectEverythingWritten(run);
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  }, 200_000);

  it('S9: an accept label that counts, looked up after everything else: the summary is written again saying so, once, and the step passes', async () => {
    const gh = await fakeGitHub();
    gh.permissions.set('maintainer-mia', 'write');
    const payload = pullRequestPayload({ action: 'labeled', label: { name: 'performance-accepted' }, sender: { login: 'maintainer-mia' } });
    (payload.pull_request as Record<string, unknown>)['labels'] = [{ name: 'performance-accepted' }];
    const run = startAction(gh, payload, measuring, {});
    const code = await run.exited;
    expect(code, run.stdout()).toBe(0);
    const summary = run.summary();
    expect(summary.match(/### 🔴 1 regression/g)).toHaveLength(1);
    expect(summary).toContain('**Regression accepted**');
    expect(readFileSync(parseOutputs(run.outputs())['report-path']!, 'utf8')).toContain('**Regression accepted**');
  }, 200_000);
});
