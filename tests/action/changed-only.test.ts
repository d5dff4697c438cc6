/**
 * changed-only in the action: a pull request that changes no benchmark's paths builds and
 * measures nothing, passes, and its comment is short; one that changes a package's files runs that
 * package's benchmark and lists the other as not run. The action runs as the runner runs it, with
 * the local fake GitHub API; the benchmarks print their value (--format json).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION } from '../support/cli.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

const bench = (name: string) => `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"${name}\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", 100*(1+(rand()-0.5)*0.01)}'\n`;
const CONFIG = 'changed-only: true\npaths-ignore: docs/**\nbenchmarks:\n  - name: parser\n    run: sh packages/parser/bench.sh\n    format: json\n    paths: packages/parser/**\n  - name: render\n    run: sh packages/render/bench.sh\n    format: json\n    paths: packages/render/**\n';

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function pullRequest(files: Record<string, string>) {
  const repo = tempRepo();
  for (const p of ['packages/parser', 'packages/render', 'docs']) mkdirSync(join(repo.dir, p), { recursive: true });
  const base = repo.commit({ 'packages/parser/bench.sh': bench('parser'), 'packages/render/bench.sh': bench('render'), 'docs/guide.md': '1\n', 'pairbench.yml': CONFIG }, 'base');
  const head = repo.commit(files, 'pull request');
  const gh = await FakeGitHub.start('octo', 'repo');
  servers.push(gh);
  gh.addPull({ number: 7, baseSha: base, headSha: head });
  const dir = tempDir();
  writeFileSync(
    join(dir, 'event.json'),
    JSON.stringify({
      action: 'synchronize',
      number: 7,
      pull_request: { number: 7, labels: [], base: { sha: base, ref: 'main', repo: { full_name: 'octo/repo', fork: false } }, head: { sha: head, ref: 'feature', repo: { full_name: 'octo/repo', fork: false } } },
      repository: { full_name: 'octo/repo' },
    }),
  );
  writeFileSync(join(dir, 'summary.md'), '');
  writeFileSync(join(dir, 'output.txt'), '');
  const buildLog = join(dir, 'builds.log');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: head,
    GITHUB_WORKSPACE: repo.dir,
    GITHUB_API_URL: gh.url,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    RUNNER_TEMP: dir,
  };
  const inputs = { 'github-token': 'ghs_changed_only_token_0123456789', comment: 'always', mode: 'compare', config: 'pairbench.yml', build: `echo built >> ${buildLog}`, 'max-pairs': '10' };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const status = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [ACTION], { cwd: repo.dir, env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('close', (code) => resolve(code));
  });
  return { status, comment: (gh.comments.get(7) ?? [])[0]?.body ?? '', outputs: readFileSync(join(dir, 'output.txt'), 'utf8'), built: existsSync(buildLog) };
}

describe('action: changed-only', () => {
  it('a docs-only pull request builds and measures nothing, passes, and its comment is short', async () => {
    const run = await pullRequest({ 'docs/guide.md': '2\n' });
    expect(run.status).toBe(0);
    expect(run.built).toBe(false);
    expect(run.comment).toContain("### ⏭️ Nothing measured: no changed file is under a benchmark's paths");
    expect(run.comment).toContain('**Not run: nothing under its paths changed** (2): parser, render');
    expect(run.comment.trim().split('\n').length).toBeLessThanOrEqual(6);
    expect(run.outputs).toMatch(/verdict<<[^\n]+\nunchanged\n/);
  });

  it("a pull request touching one package runs that package's benchmark and lists the other as not run", async () => {
    const run = await pullRequest({ 'packages/parser/parse.c': '2\n' });
    expect(run.status).toBe(0);
    expect(run.built).toBe(true);
    expect(run.comment).toContain('⏭️ **Not run: nothing under its paths changed** (1): render');
  });
});
