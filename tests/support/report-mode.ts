/**
 * The action as the runner runs it (`node` on the bundled action, `mode: report`) on a results file
 * written here, for pull request #7 of octo/repo against a local fake GitHub API: nothing is
 * measured. What each surface of the run shows is returned: the exit status, the log, the job
 * summary, the sticky comment, the check run and the step's outputs.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOutputs } from './action-outputs.ts';
import { ACTION } from './cli.ts';
import { FakeGitHub } from './fake-github.ts';
import { tempDir } from './repo.ts';

/** The pull request's base and head: a results file of another head is refused (S2). */
export const BASE = 'a'.repeat(40);
export const HEAD = 'b'.repeat(40);

export interface ReportModeRun {
  /** the fake API, for what a test reads of it beyond the comment and the check run */
  gh: FakeGitHub;
  code: number | null;
  log: string;
  summary: string;
  comment: string;
  check: { title: string | null; conclusion: string | null };
  outputs: Record<string, string>;
}

/** `mode: report` of an artifact holding `results`, with `extra` inputs; `servers` collects the fake APIs to close. */
export function reportMode(results: unknown, extra: Record<string, string>, servers: FakeGitHub[]): Promise<ReportModeRun> {
  return reportModeOf({ 'pairbench-results.json': results }, extra, servers);
}

/**
 * `mode: report` of an artifact of several files: each written as JSON, or by a function given
 * its path (a file that is not JSON, a special file).
 */
export async function reportModeOf(files: Record<string, unknown>, extra: Record<string, string>, servers: FakeGitHub[]): Promise<ReportModeRun> {
  const gh = await FakeGitHub.start('octo', 'repo');
  servers.push(gh);
  gh.addPull({ number: 7, baseSha: BASE, headSha: HEAD });
  const workspace = tempDir('pairbench-report-mode-');
  mkdirSync(join(workspace, 'artifact'));
  for (const [name, content] of Object.entries(files)) {
    const path = join(workspace, 'artifact', name);
    if (typeof content === 'function') (content as (path: string) => void)(path);
    else writeFileSync(path, JSON.stringify(content));
  }
  const dir = tempDir('pairbench-report-mode-run-');
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify({ action: 'completed', workflow_run: { id: 9, event: 'pull_request', head_sha: HEAD, head_branch: 'feature', head_repository: { full_name: 'octo/repo', owner: { login: 'octo' } }, pull_requests: [] } }));
  writeFileSync(join(dir, 'summary.md'), '');
  writeFileSync(join(dir, 'output.txt'), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    NO_COLOR: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'workflow_run',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: 'c'.repeat(40),
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '88',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: gh.url,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    RUNNER_TEMP: dir,
  };
  const inputs = { 'github-token': 'ghs_report_mode_token_0123456789abcdef', comment: 'always', 'comment-id': 'perf', 'check-name': 'pairbench', mode: 'report', results: 'artifact/*.json', ...extra };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [ACTION], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  // a step that hangs (reading a pipe that never ends) is killed rather than left behind
  const hung = setTimeout(() => child.kill('SIGKILL'), 100_000);
  const code = await new Promise<number | null>((res) => child.on('close', res));
  clearTimeout(hung);
  const comment = (gh.comments.get(7) ?? []).map((c) => c.body ?? '').join('\n');
  const run = gh.checkRuns[0];
  return {
    gh,
    code,
    log,
    summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
    comment,
    check: { title: run?.output.title ?? null, conclusion: run?.conclusion ?? null },
    outputs: parseOutputs(readFileSync(join(dir, 'output.txt'), 'utf8')),
  };
}
