/**
 * The action against real git repositories and the local fake GitHub API, run as the runner runs
 * it: S26, the judging settings come from the base commit's config, never the pull request's own;
 * merge_group compares the group's base_sha with its head_sha (fetched in a depth-1 clone),
 * publishes the check run and the summary and gates; an event whose base is its head is refused.
 * The benchmarks print their value (--format json): head prints three times the base's, so the
 * regression holds whatever the machine does.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { withBaseJudging } from '../../src/action/trusted-judging.ts';
import { parseOutputs } from '../support/action-outputs.ts';
import { ACTION, readResults } from '../support/cli.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { tempDir, tempRepo } from '../support/repo.ts';
import { regression50 } from '../support/results-files.ts';

interface Step {
  uses?: string;
  with?: Record<string, string | number | boolean>;
  if?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}
const examples = resolve(import.meta.dirname, '../../examples/workflows');
const example = (file: string) => parse(readFileSync(join(examples, file), 'utf8')) as Workflow;
const stepOf = (w: Workflow, job: string, uses: string) => w.jobs[job]!.steps.find((s) => s.uses?.startsWith(uses))!;
/** The `with:` of an example's pairbench step, as the runner passes inputs: strings. */
const inputsOf = (step: Step) => Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));

/** A benchmark printing `value` ms with 0.5% noise. */
const bench = (value: number) => `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"parse\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", ${value}*(1+(rand()-0.5)*0.01)}'\n`;
const config = (top: string, bench = '') => `${top}benchmarks:\n  - name: parse\n    run: sh bench.sh\n    format: json\n${bench}`;

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface Run {
  code: number | null;
  log: string;
  outputs: Record<string, string>;
  summary: string;
  comment: string;
  gh: FakeGitHub;
}

async function runAction(opts: { workspace: string; event: string; payload: unknown; sha: string; inputs: Record<string, string>; gh?: FakeGitHub }): Promise<Run> {
  const gh = opts.gh ?? (await FakeGitHub.start('octo', 'repo'));
  servers.push(gh);
  const dir = tempDir();
  writeFileSync(join(dir, 'event.json'), JSON.stringify(opts.payload));
  writeFileSync(join(dir, 'summary.md'), '');
  writeFileSync(join(dir, 'output.txt'), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    NO_COLOR: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: opts.event,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: opts.sha,
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_API_URL: gh.url,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    RUNNER_TEMP: dir,
  };
  const inputs = { 'github-token': 'ghs_trusted_events_token_0123456789', comment: 'always', mode: 'compare', 'min-pairs': '10', 'max-pairs': '10', 'check-name': 'perf', ...opts.inputs };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [ACTION], { cwd: opts.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const code = await new Promise<number | null>((res) => child.on('close', res));
  return { code, log, outputs: parseOutputs(readFileSync(join(dir, 'output.txt'), 'utf8')), summary: readFileSync(join(dir, 'summary.md'), 'utf8'), comment: (gh.comments.get(7) ?? []).map((c) => c.body ?? '').join('\n'), gh };
}

/** A pull request #7 whose head changes bench.sh and pairbench.yml as given. */
async function pullRequest(baseConfig: string | null, headConfig: string, headValue = 300) {
  const repo = tempRepo();
  const base = repo.commit({ 'bench.sh': bench(100), ...(baseConfig === null ? { 'other.txt': '1\n' } : { 'pairbench.yml': baseConfig }) }, 'base');
  const head = repo.commit({ 'bench.sh': bench(headValue), 'pairbench.yml': headConfig }, 'pull request');
  const gh = await FakeGitHub.start('octo', 'repo');
  gh.addPull({ number: 7, baseSha: base, headSha: head });
  const payload = { action: 'synchronize', number: 7, pull_request: { number: 7, labels: [], base: { sha: base, ref: 'main', repo: { full_name: 'octo/repo' } }, head: { sha: head, ref: 'feature', repo: { full_name: 'octo/repo' } } } };
  return runAction({ workspace: repo.dir, event: 'pull_request', payload, sha: head, inputs: { config: 'pairbench.yml' }, gh });
}

describe('S26: the judging settings come from the base commit\'s config and the inputs', () => {
  it('a pull request whose config raises the threshold to 1000% and sets fail-on none still fails on its +200%, and the comment, summary and log say so in one line', async () => {
    const r = await pullRequest(config('threshold: 5%\n'), config('threshold: 1000%\nfail-on: none\n'));
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.code, r.log).toBe(1);
    const line = "**Judged with the base commit's settings:** this revision's `pairbench.yml` changes threshold, fail-on, which are not used to judge it; they come from the base commit's `pairbench.yml` and the inputs.";
    expect(r.comment).toContain(line);
    expect(r.summary).toContain(line);
    expect(r.gh.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(r.log).toContain('::warning::The config file pairbench.yml changes threshold, fail-on in this revision: not used to judge it');
    const judged = readResults(r.outputs['results-path']!) as { settings: Record<string, unknown> };
    expect(judged.settings).toMatchObject({ threshold: 0.05, failOn: 'regression' });
  }, 120_000);

  it("a benchmark's own threshold, and paths-ignore with changed-only, are the base's too", async () => {
    const r = await pullRequest(config(''), config('changed-only: true\npaths-ignore: "**"\n', '    threshold: 900%\n'));
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.code, r.log).toBe(1);
    expect(r.comment).toContain("changes changed-only, paths-ignore, benchmarks' threshold, which are not used");
  }, 120_000);

  it('the first pull request adding the config: its judging keys give way to the inputs and the defaults', async () => {
    const r = await pullRequest(null, config('threshold: 1000%\n'));
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.comment).toContain('changes threshold, which are not used');
  }, 120_000);

  it('a config that changes no judging key: no note', async () => {
    const r = await pullRequest(config('threshold: 5%\n'), config('threshold: 5%\nmetric: wall\n'), 100);
    expect(r.code, r.log).toBe(0);
    expect(r.comment).not.toContain('Judged with the base');
  }, 120_000);
});

describe('withBaseJudging', () => {
  it('takes every judging key from the base by benchmark name, keeps the commands, names only the keys', () => {
    const base = 'threshold: 3%\nbenchmarks:\n  - name: a\n    run: old-a\n    threshold: 4%\n    paths: src/**\n';
    const pr = 'threshold: 50%\nmax-pairs: 2\nbenchmarks:\n  - name: a\n    run: new-a\n    direction: higher-is-better\n    paths: nothing/**\n  - name: b\n    run: new-b\n    paths: b/**\n    threshold: 90%\n';
    const { text, ignored } = withBaseJudging(pr, base);
    expect(ignored).toEqual(['threshold', 'max-pairs', "benchmarks' threshold", "benchmarks' direction", "benchmarks' paths"]);
    expect(text).toBe('threshold: 3%\nbenchmarks:\n  - name: a\n    run: new-a\n    paths: src/**\n    threshold: 4%\n  - name: b\n    run: new-b\n    paths: b/**\n');
    expect(withBaseJudging(base, base)).toEqual({ text: base, ignored: [] });
  });
});

describe('S28: merge_group: examples/workflows/merge-queue.yml', () => {
  const workflow = example('merge-queue.yml');
  const step = stepOf(workflow, 'perf-gate', 'pairbench/pairbench');

  it('one job on pull_request and merge_group, never skipped, with a check run', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['merge_group', 'pull_request']);
    expect(Object.keys(workflow.jobs)).toEqual(['perf-gate']);
    expect(workflow.jobs['perf-gate']!.if).toBeUndefined();
    expect(workflow.jobs['perf-gate']!.steps.every((s) => s.if === undefined)).toBe(true);
    expect(step.with).toMatchObject({ 'check-name': 'perf (pairbench)', 'fail-on': 'regression' });
  });

  it("compares the group's base_sha with its head_sha in a depth-1 clone, publishes the check run and the summary, says there is no pull request to comment on, and gates", async () => {
    const origin = tempRepo();
    const base = origin.commit({ 'bench.sh': bench(100) }, 'main');
    const head = origin.commit({ 'bench.sh': bench(300) }, 'merge group of #7');
    const clone = tempDir('pairbench-depth1-');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${origin.dir}`, clone]);
    expect(() => execFileSync('git', ['cat-file', '-e', `${base}^{commit}`], { cwd: clone, stdio: 'ignore' })).toThrow();
    const payload = { action: 'checks_requested', merge_group: { head_sha: head, head_ref: `refs/heads/gh-readonly-queue/main/pr-7-${base}`, base_sha: base, base_ref: 'refs/heads/main' } };
    // the example's inputs, with this test's benchmark in place of its build and run
    const { build: _build, run: _run, ...given } = inputsOf(step);
    const r = await runAction({ workspace: clone, event: 'merge_group', payload, sha: head, inputs: { ...given, run: 'sh bench.sh', format: 'json', name: 'parse' } });
    expect(r.log).toContain(`merge_group: comparing the merge group's head ${head.slice(0, 7)} with its base ${base.slice(0, 7)} into main.`);
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.code, r.log).toBe(1);
    expect(r.summary).toContain('🔴 1 regression');
    expect(r.gh.checkRuns).toHaveLength(1);
    expect(r.gh.checkRuns[0]).toMatchObject({ name: 'perf (pairbench)', head_sha: head, conclusion: 'failure' });
    expect(r.log).toContain('merge_group: there is no single pull request to comment on; the report is in the check run and the job summary.');
    expect(r.gh.calls('POST', /comments$/)).toHaveLength(0);
    const results = readResults(r.outputs['results-path']!) as { base: { sha: string }; head: { sha: string } };
    expect([results.base.sha, results.head.sha]).toEqual([base, head]);
  }, 120_000);

  it('workflow_dispatch on the default branch with nothing else named: refused in one line naming the event, never compared with itself', async () => {
    const repo = tempRepo();
    const sha = repo.commit({ 'bench.sh': bench(100) }, 'main');
    const r = await runAction({ workspace: repo.dir, event: 'workflow_dispatch', payload: {}, sha, inputs: { run: 'sh bench.sh', format: 'json' } });
    expect(r.code, r.log).toBe(1);
    expect(r.log).toContain(`::error::The workflow_dispatch event resolves its base to its head (${sha.slice(0, 7)}): there is nothing to compare. Set input base-ref`);
    expect(r.log).not.toMatch(/--base|--head/);
  }, 120_000);
});

describe('S2: fork pull requests, the two-workflow recipe of examples/workflows under actions/checkout v7', () => {
  const measuring = example('pr-comment.yml');
  const reporting = example('fork-report.yml');

  it('the report job checks out nothing, runs only for fork PRs, and reads the artifact the measuring job uploads', () => {
    const upload = stepOf(measuring, 'bench', 'actions/upload-artifact');
    const download = stepOf(reporting, 'report', 'actions/download-artifact');
    expect(Object.keys(measuring.on)).toEqual(['pull_request']);
    expect(Object.keys(reporting.on)).toEqual(['workflow_run']);
    expect(download.with).toMatchObject({ name: upload.with!['name'], 'run-id': '${{ github.event.workflow_run.id }}' });
    expect(reporting.jobs['report']!.steps.some((s) => s.uses?.startsWith('actions/checkout'))).toBe(false);
    expect(reporting.jobs['report']!.if).toContain('github.event.workflow_run.head_repository.full_name != github.repository');
    expect(stepOf(reporting, 'report', 'pairbench/pairbench').with).toMatchObject({ mode: 'report' });
    // checkout v7's opt-in to a fork's code under pull_request_target or workflow_run is never set
    for (const f of readdirSync(examples)) expect(readFileSync(join(examples, f), 'utf8'), f).not.toMatch(/^\s*allow-unsafe-pr-checkout:/m);
  });

  it("under workflow_run, fork-report.yml's step comments on the fork's pull request found from the run's head, not on another with the same branch", async () => {
    const headSha = 'f'.repeat(40);
    const gh = await FakeGitHub.start('octo', 'repo');
    gh.addPull({ number: 6, baseSha: 'a'.repeat(40), headSha: 'e'.repeat(40), headRepo: 'mallory/repo', headRef: 'feature' });
    gh.addPull({ number: 7, baseSha: 'a'.repeat(40), headSha, headRepo: 'mallory/repo', headRef: 'feature' });
    gh.addPull({ number: 8, baseSha: 'a'.repeat(40), headSha, headRepo: 'eve/repo', headRef: 'feature' });
    const step = stepOf(reporting, 'report', 'pairbench/pairbench');
    const download = stepOf(reporting, 'report', 'actions/download-artifact');
    // what download-artifact leaves in the workspace: the measuring job's results file
    const workspace = tempDir('pairbench-fork-report-');
    mkdirSync(join(workspace, String(download.with!['path'])));
    writeFileSync(join(workspace, String(download.with!['path']), 'pairbench-results.json'), JSON.stringify(regression50({ headSha })));
    const payload = { action: 'completed', workflow_run: { id: 41, event: 'pull_request', conclusion: 'success', head_sha: headSha, head_branch: 'feature', head_repository: { full_name: 'mallory/repo', owner: { login: 'mallory' } }, pull_requests: [] } };
    const r = await runAction({ workspace, event: 'workflow_run', payload, sha: 'c'.repeat(40), inputs: { ...inputsOf(step), 'check-name': '' }, gh });
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.code, r.log).toBe(1);
    expect(gh.calls('POST', /\/issues\/\d+\/comments$/).map((c) => c.path)).toEqual(['/repos/octo/repo/issues/7/comments']);
    expect(r.comment).toContain(`<!-- pairbench:${String(step.with!['comment-id'])} -->`);
    expect(r.comment).toContain('🔴 1 regression');
  }, 120_000);
});
