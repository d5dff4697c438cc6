/**
 * `bisect: true`: the action, run as the runner runs it (`node src/action.ts` with `INPUT_*`, the
 * event file and the local fake GitHub API), on a pull request of four commits whose third slows
 * the benchmark by 10%. The comment and the job summary name that commit; the verdict is the
 * comparison's. The benchmark prints its value (--format json), so nothing depends on the machine's speed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION } from '../support/cli.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

function benchScript(value: number): string {
  return `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" -v v=${value} 'BEGIN{srand(s); printf "[{\\"name\\":\\"parse\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", v*(1+(rand()-0.5)*0.01)}'\n`;
}

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Runs the action on pull request #7 from `base` to `head` as the runner would; returns its status, its output, the summary and the comments. */
async function runAction(repoDir: string, base: string, head: string) {
  const gh = await FakeGitHub.start('octo', 'repo');
  servers.push(gh);
  gh.addPull({ number: 7, baseSha: base, headSha: head });
  const dir = tempDir();
  const eventPath = join(dir, 'event.json');
  writeFileSync(
    eventPath,
    JSON.stringify({
      action: 'synchronize',
      number: 7,
      pull_request: { number: 7, labels: [], base: { sha: base, ref: 'main', repo: { full_name: 'octo/repo', fork: false } }, head: { sha: head, ref: 'feature', repo: { full_name: 'octo/repo', fork: false } } },
      repository: { full_name: 'octo/repo' },
    }),
  );
  const summaryPath = join(dir, 'summary.md');
  writeFileSync(summaryPath, '');
  writeFileSync(join(dir, 'output.txt'), '');
  const inputs: Record<string, string> = { 'github-token': 'ghs_bisect_test_token_0123456789', comment: 'always', mode: 'compare', run: 'sh bench.sh', name: 'parse', format: 'json', 'min-pairs': '10', 'max-pairs': '20', seed: '5', bisect: 'true', 'bisect-max-time': '5m' };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: head,
    GITHUB_WORKSPACE: repoDir,
    GITHUB_API_URL: gh.url,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    RUNNER_TEMP: dir,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  // spawned asynchronously: the fake API answers in this process
  const child = await new Promise<{ status: number | null; out: string }>((resolve) => {
    const c = spawn(process.execPath, [ACTION], { cwd: repoDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', (status) => resolve({ status, out }));
  });
  return { ...child, dir, summary: readFileSync(summaryPath, 'utf8'), comments: gh.comments.get(7) ?? [] };
}

describe('action: bisect', () => {
  it('names the commit of the pull request that regressed, in the comment and the job summary', async () => {
    const repo = tempRepo();
    const base = repo.commit({ 'bench.sh': benchScript(100), 'note.txt': '1\n' }, 'base');
    const shas = [repo.commit({ 'note.txt': '2\n' }, 'docs'), repo.commit({ 'bench.sh': benchScript(110) }, 'slower parser'), repo.commit({ 'note.txt': '4\n' }, 'more docs')];
    const head = shas[2]!;
    const { status, out, dir, summary, comments } = await runAction(repo.dir, base, head);
    expect(out).not.toMatch(/\n\s+at /);
    // the step fails on the regression, as without bisect
    expect(status).toBe(1);
    const sentence = `First regressing commit: \`${shas[1]!.slice(0, 12)}\` (2/3 slower parser)`;
    expect(summary).toContain(sentence);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(sentence);
    expect(comments[0]!.body).toContain('### Bisect of parse');
    // the head is not measured again: step 1 is the comparison's own regression, and the budget
    // goes to the halvings (two of three commits), each at alpha / 2
    const bisect = JSON.parse(readFileSync(join(dir, 'pairbench', 'pairbench-results.bisect-1.json'), 'utf8'));
    expect(bisect.headFromComparison).toBe(true);
    expect(bisect.steps[0]).toMatchObject({ index: 3, outcome: 'regressed', fromComparison: true, resultsFile: join(dir, 'pairbench', 'pairbench-results.json') });
    expect(bisect.steps.slice(1).map((s: { index: number }) => s.index).sort()).toEqual([1, 2]);
    expect(bisect.maxTests).toBe(2);
    expect(bisect.alphaPerTest).toBeCloseTo(0.025, 12);
    const files = readdirSync(join(dir, 'pairbench')).filter((f) => f.includes('.step-'));
    expect(files.some((f) => f.includes(head.slice(0, 12)))).toBe(false);
    expect(comments[0]!.body).toContain("| 1 | `" + head.slice(0, 12) + "` 3/3 more docs | regression (the comparison's)");
    expect(spawnSync('git', ['-C', repo.dir, 'worktree', 'list'], { encoding: 'utf8' }).stdout.trim().split('\n')).toHaveLength(1);
  });

  it('searches from the merge-base when the base branch moved on since the pull request branched', async () => {
    const repo = tempRepo();
    const forkPoint = repo.commit({ 'bench.sh': benchScript(100), 'note.txt': '1\n' }, 'base');
    repo.git('checkout', '--quiet', '-b', 'feature');
    const shas = [repo.commit({ 'note.txt': '2\n' }, 'docs'), repo.commit({ 'bench.sh': benchScript(110) }, 'slower parser'), repo.commit({ 'note.txt': '4\n' }, 'more docs')];
    repo.git('checkout', '--quiet', 'main');
    const moved = repo.commit({ 'other.txt': 'main moved on\n' }, 'main: unrelated change');
    repo.git('checkout', '--quiet', 'feature');
    const { status, out, dir, summary, comments } = await runAction(repo.dir, moved, shas[2]!);
    expect(out).not.toMatch(/\n\s+at /);
    expect(out).not.toMatch(/not an ancestor|--base|--head/);
    expect(status).toBe(1);
    const sentence = `First regressing commit: \`${shas[1]!.slice(0, 12)}\` (2/3 slower parser)`;
    expect(summary).toContain(sentence);
    expect(comments[0]!.body).toContain(sentence);
    // the search's base is where the branch started; the comparison's head was against another
    // base, so the search measures the head again before it halves
    const bisect = JSON.parse(readFileSync(join(dir, 'pairbench', 'pairbench-results.bisect-1.json'), 'utf8'));
    expect(bisect.base.sha).toBe(forkPoint);
    expect(bisect.headFromComparison).toBeUndefined();
    expect(bisect.steps[0]).toMatchObject({ index: 3, outcome: 'regressed' });
    expect(bisect.maxTests).toBe(3);
  });

  it('warns in its own words, naming no flag, when a shallow checkout holds no merge-base', async () => {
    const origin = tempRepo();
    const base = origin.commit({ 'bench.sh': benchScript(100), 'note.txt': '1\n' }, 'base');
    origin.git('checkout', '--quiet', '-b', 'feature');
    origin.commit({ 'note.txt': '2\n' }, 'docs');
    const head = origin.commit({ 'bench.sh': benchScript(110) }, 'slower parser');
    origin.git('config', 'uploadpack.allowAnySHA1InWant', 'true');
    // as actions/checkout leaves it: the head alone
    const clone = tempDir();
    spawnSync('git', ['clone', '--quiet', '--depth', '1', '--branch', 'feature', `file://${origin.dir}`, clone], { encoding: 'utf8' });
    const { status, out, comments } = await runAction(clone, base, head);
    expect(out).not.toMatch(/\n\s+at /);
    // the comparison stands: the step fails on its regression
    expect(status).toBe(1);
    expect(out).toContain(`Bisect could not run: the base ${base.slice(0, 12)} and the head ${head.slice(0, 12)} share no commit in this checkout`);
    expect(out).toContain('fetch-depth: 0');
    expect(out).not.toMatch(/--base|--head|not an ancestor/);
    expect(comments[0]!.body).not.toContain('### Bisect of');
  });
});
