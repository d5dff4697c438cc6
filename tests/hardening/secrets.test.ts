/**
 * S4: the token and the secrets of the environment, against code under test that looks for them.
 *
 * The action runs as the runner runs it (`node src/action.ts` with `INPUT_*`, the event file, the
 * summary and output files, a fake GitHub API) on a real git repository. The runner's environment
 * holds the token under every name it has in a real job.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../support/cli.ts';
import { FakeGitHub } from '../support/fake-github.ts';
import { tempDir, tempRepo, type TempRepo } from '../support/repo.ts';

const TOKEN = 'ghs_s4TokenValue0123456789abcdefABCDEF01';
const RUNTIME_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJydW50aW1lIn0.c2lnbmF0dXJlLXM0LXRlc3Q';
const NPM_TOKEN = 'npm-secret-s4-0123456789';
const DB_PASSWORD = 'hunter2-but-longer-s4';
/** Token shapes printed literally by the build: not in any environment, caught by their shape. */
const SHAPED = ['ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8', 'github_pat_' + '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV'];
const SECRETS = [TOKEN, RUNTIME_TOKEN, NPM_TOKEN, DB_PASSWORD, ...SHAPED];

let gh: FakeGitHub;

beforeAll(async () => {
  gh = await FakeGitHub.start('octo', 'repo');
});

afterAll(async () => {
  await gh?.close();
});

interface ActionRun {
  code: number | null;
  log: string;
  files: Record<string, string>;
  dumps: string;
  /** the values masked with `::add-mask::` */
  masked: string[];
}

/** Every file under dir, with its text. */
function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    try {
      out[name] = readFileSync(path, 'utf8');
    } catch {
      // a folder
    }
  }
  return out;
}

async function runAction(repo: TempRepo, number: number, inputs: Record<string, string>, event?: { name: string; payload: unknown }): Promise<ActionRun> {
  const [baseSha, headSha] = [repo.git('rev-parse', 'HEAD~1'), repo.git('rev-parse', 'HEAD')];
  if (!event) gh.addPull({ number, baseSha, headSha });
  const dir = tempDir('pairbench-s4-');
  const out = join(dir, 'out');
  const dumps = join(dir, 'dumps');
  mkdirSync(out);
  mkdirSync(dumps);
  const eventPath = join(dir, 'event.json');
  writeFileSync(
    eventPath,
    JSON.stringify(
      event?.payload ?? {
        action: 'synchronize',
        number,
        pull_request: { number, base: { sha: baseSha, ref: 'main', repo: { full_name: 'octo/repo', fork: false } }, head: { sha: headSha, ref: 'f', repo: { full_name: 'octo/repo', fork: false } } },
        repository: { full_name: 'octo/repo' },
      },
    ),
  );
  writeFileSync(join(out, 'summary.md'), '');
  writeFileSync(join(out, 'output.txt'), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    NO_COLOR: '1',
    DUMPS: dumps,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event?.name ?? 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'octo/repo',
    GITHUB_SHA: headSha,
    GITHUB_WORKSPACE: repo.dir,
    GITHUB_RUN_ID: '77',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: gh.url,
    GITHUB_STEP_SUMMARY: join(out, 'summary.md'),
    GITHUB_OUTPUT: join(out, 'output.txt'),
    RUNNER_TEMP: dir,
    // the token under every name it has in a real job
    GITHUB_TOKEN: TOKEN,
    GH_TOKEN: TOKEN,
    ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN,
    // secrets a workflow passes to its steps for its own builds
    NPM_TOKEN,
    DB_PASSWORD,
  };
  const all = { 'github-token': TOKEN, comment: 'always', mode: 'compare', 'results-path': join(out, 'results.json'), 'report-path': join(out, 'report.md'), ...inputs };
  for (const [k, v] of Object.entries(all)) env[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [ACTION], { cwd: repo.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const code = await new Promise<number | null>((res) => child.on('close', res));
  const masked = [...log.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]!);
  // the runner consumes `::add-mask::` commands: they are never shown
  log = log.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n');
  const comments = (gh.comments.get(number) ?? []).map((c) => c.body ?? '').join('\n');
  return { code, log, masked, files: { ...readTree(out), comments }, dumps: Object.values(readTree(dumps)).join('\n') };
}

/** Writes the environment of the process $1 (a pid) and of every ancestor up to pairbench's own to $DUMPS. */
const DUMP_ENV = [
  '#!/bin/sh',
  'dump() { tr "\\0" "\\n" < /proc/$1/environ > "$DUMPS/$2-$1.env" 2>/dev/null || true; }',
  'dump $$ self',
  'dump $PPID parent',
  // and what it starts, in the background too
  '(sh -c \'dump() { tr "\\0" "\\n" < /proc/$1/environ > "$DUMPS/$2-$1.env"; }; dump $$ grandchild\') &',
  'wait',
].join('\n');

describe('S4: secrets', () => {
  it('S4: a benchmark and a build that read /proc/$PPID/environ find no token, nor does anything they start', async () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': `${DUMP_ENV}\n`, 'build.sh': `${DUMP_ENV}\n` }, 'base');
    repo.commit({ 'bench.sh': `${DUMP_ENV}\n:\n` }, 'head');
    const r = await runAction(repo, 41, { run: '. ./bench.sh', build: '. ./build.sh', 'min-pairs': '3', 'max-pairs': '3', warmup: '0', 'fail-on': 'none' });
    expect(r.code, r.log).toBe(0);
    // the dumps were written: the parent (the run helper, or pairbench without it) and a grandchild
    expect(r.dumps).toContain('GITHUB_REPOSITORY=octo/repo');
    for (const secret of [TOKEN, RUNTIME_TOKEN]) expect(r.dumps).not.toContain(secret);
    expect(r.dumps).not.toMatch(/^(INPUT_|ACTIONS_RUNTIME_TOKEN|GITHUB_TOKEN|GH_TOKEN)/m);
  });

  it('S4: a build that prints every secret it can find and fails leaves none in the log, results, report, summary or comment', async () => {
    const repo = tempRepo();
    // Reads the environment of every ancestor (pairbench's own holds the token: the same user can read it),
    // prints its own environment, and token shapes written in the repository itself.
    const leak = [
      '#!/bin/sh',
      'p=$$',
      'while [ "$p" -gt 1 ]; do',
      '  tr "\\0" "\\n" < /proc/$p/environ 2>/dev/null | grep -a -E "TOKEN|PASSWORD|SECRET" >&2',
      '  p=$(sed "s/.*) //" /proc/$p/stat | cut -d" " -f2)',
      'done',
      'env | grep -a -E "TOKEN|PASSWORD" >&2',
      ...SHAPED.map((s) => `echo "found ${s} in the repository" >&2`),
      'exit 1',
    ].join('\n');
    repo.commit({ 'bench.sh': 'true\n', 'build.sh': '#!/bin/sh\nexit 0\n' }, 'base');
    repo.commit({ 'build.sh': `${leak}\n` }, 'head: the build leaks');
    const r = await runAction(repo, 42, { run: 'sh bench.sh', build: 'sh build.sh', 'min-pairs': '3', 'max-pairs': '3', warmup: '0' });
    expect(r.code, r.log).toBe(3);
    // the build failed and its output tail is reported where users look
    const results = r.files['results.json']!;
    expect(results).toContain('"kind": "build"');
    expect(results).toContain('found *** in the repository');
    expect(r.files['summary.md']).toContain('found *** in the repository');
    expect(r.files['comments']).toContain('found *** in the repository');
    expect(r.log).toContain('found *** in the repository');
    const shown = { log: r.log, ...r.files };
    for (const [where, text] of Object.entries(shown)) {
      for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
  });

  it('S4: a benchmark that prints secrets and fails leaves none in the results file or the report', async () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': 'true\n' }, 'base');
    repo.commit({ 'bench.sh': `#!/bin/sh\necho "npm: $NPM_TOKEN db: $DB_PASSWORD ${SHAPED[0]}"\nexit 5\n` }, 'head fails loudly');
    const r = await runAction(repo, 43, { run: 'sh bench.sh', 'min-pairs': '3', 'max-pairs': '3', warmup: '0' });
    expect(r.code, r.log).toBe(3);
    expect(r.files['results.json']).toContain('npm: *** db: *** ***');
    const shown = { log: r.log, ...r.files };
    for (const [where, text] of Object.entries(shown)) {
      for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
  });

  it('S4: the token is masked in the log', async () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': 'true\n' }, 'base');
    repo.commit({ 'bench.sh': 'true\n\n' }, 'head');
    const r = await runAction(repo, 44, { run: 'sh bench.sh', 'min-pairs': '3', 'max-pairs': '3', warmup: '0', comment: 'never', 'fail-on': 'none' });
    expect(r.code, r.log).toBe(0);
    expect(r.masked).toContain(TOKEN);
  });

  it('S4: mode report: a results file that carries secrets (written by an older version, or by hand) is shown redacted', async () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': 'true\n' }, 'base');
    const headSha = repo.commit({ 'bench.sh': '#!/bin/sh\necho broken >&2\nexit 5\n' }, 'head fails');
    const measured = await runAction(repo, 45, { run: 'sh bench.sh', 'min-pairs': '3', 'max-pairs': '3', warmup: '0', comment: 'never' });
    const results = JSON.parse(measured.files['results.json']!) as { measured: { failures: { stderrTail: string }[] } };
    for (const f of results.measured.failures) f.stderrTail = `token ${TOKEN} runtime ${RUNTIME_TOKEN} ${SHAPED[1]}\n`;
    mkdirSync(join(repo.dir, 'artifact'));
    writeFileSync(join(repo.dir, 'artifact', 'pairbench-results.json'), JSON.stringify(results));
    gh.addPull({ number: 45, baseSha: repo.git('rev-parse', 'HEAD~1'), headSha });
    const payload = { action: 'completed', workflow_run: { id: 9, event: 'pull_request', head_sha: headSha, head_branch: 'f', head_repository: { full_name: 'octo/repo', owner: { login: 'octo' } }, pull_requests: [] } };
    const r = await runAction(repo, 45, { mode: 'report', results: 'artifact/*.json', 'fail-on': 'none' }, { name: 'workflow_run', payload });
    // the head failed: a results file of a failed run fails the report step too (S23), after publishing
    expect(r.code, r.log).toBe(3);
    expect(r.log).toContain('::error::pairbench could not complete the comparison');
    expect(r.files['comments']).toContain('token *** runtime *** ***');
    expect(r.files['summary.md']).toContain('token *** runtime *** ***');
    const shown = { log: r.log, ...r.files };
    for (const [where, text] of Object.entries(shown)) {
      for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
  });
});
