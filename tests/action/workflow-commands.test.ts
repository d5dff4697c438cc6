/**
 * S21: the action prints the output of the PR's build and benchmarks (and benchmark names) in the
 * step log, and the runner executes workflow commands from that log. A build that prints
 * `::error::`, `::set-output` or `##[error]` lines must not get them executed: untrusted text is
 * printed between `::stop-commands::<token>` and `::<token>::`, with a fresh random token.
 *
 * The action runs as the runner runs it (`node src/action.ts`, INPUT_* variables, a real git
 * repository); its stdout is read by {@link executedCommands}, which follows actions/runner
 * (`ActionCommandManager.TryProcessCommand`, `ActionCommand.TryParseV2` and `TryParse`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

interface Command {
  name: string;
  data: string;
}

/** The commands a runner executes from a step's output, with `stop-commands` honoured. */
function executedCommands(stdout: string): Command[] {
  const executed: Command[] = [];
  let stopToken: string | null = null;
  for (const line of stdout.split(/\r?\n/)) {
    let name: string | null = null;
    let data = '';
    const trimmed = line.trimStart();
    const v2 = /^::([^:\s]+)(?: [^:]*)?::(.*)$/.exec(trimmed);
    const v1 = /##\[([^\]\s]+)[^\]]*\](.*)$/.exec(line);
    if (v2) [name, data] = [v2[1]!, v2[2]!];
    else if (v1) [name, data] = [v1[1]!, v1[2]!];
    if (name === null) continue;
    if (stopToken !== null) {
      if (name.toLowerCase() === stopToken.toLowerCase()) stopToken = null;
      continue;
    }
    if (name === 'stop-commands') {
      stopToken = data;
      continue;
    }
    executed.push({ name, data });
  }
  return executed;
}

describe('the action log', () => {
  it('S21: a build that prints workflow commands gets none of them executed; the step still fails with its own error', () => {
    const repo = tempRepo();
    repo.commit({ 'bench.sh': 'true\n' }, 'base');
    const base = repo.git('rev-parse', 'HEAD');
    repo.commit({ 'bench.sh': 'true\n', 'build.sh': "printf 'compiling\\n::error title=forged::forged\\n  ::set-output name=verdict::forged\\n##[error]forged\\nsome ##[warning]forged\\n'; exit 1\n" }, 'head');
    const head = repo.git('rev-parse', 'HEAD');
    const dir = tempDir();
    const eventPath = join(dir, 'event.json');
    writeFileSync(eventPath, '{}');
    mkdirSync(join(dir, 'tmp'));
    const inputs: Record<string, string> = {
      run: 'sh bench.sh',
      build: 'if [ -f build.sh ]; then sh build.sh; fi',
      'base-ref': base,
      'head-ref': head,
      comment: 'never',
      mode: 'compare',
      'github-token': '',
      'allow-fork-code-on-dispatch': 'false',
      'max-pairs': '3',
      'min-pairs': '3',
    };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      TMPDIR: join(dir, 'tmp'),
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'octo/repo',
      GITHUB_SHA: head,
      GITHUB_WORKSPACE: repo.dir,
      RUNNER_TEMP: dir,
      GITHUB_OUTPUT: join(dir, 'output.txt'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    };
    writeFileSync(env['GITHUB_OUTPUT']!, '');
    writeFileSync(env['GITHUB_STEP_SUMMARY']!, '');
    for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
    const res = spawnSync(process.execPath, [ACTION], { cwd: repo.dir, env, encoding: 'utf8', timeout: 120_000 });
    const output = res.stdout + res.stderr;
    // the build's output is in the log, where a user reads it ...
    expect(output).toContain('::error title=forged::forged');
    expect(output).toContain('##[error]forged');
    // ... but the runner executes only pairbench's own commands
    const executed = executedCommands(output);
    expect(executed.filter((c) => /forged/.test(c.data) || c.name === 'set-output')).toEqual([]);
    expect(executed.some((c) => c.name === 'error' && /could not complete the comparison/.test(c.data))).toBe(true);
    expect(res.status).toBe(3);
  });
});
