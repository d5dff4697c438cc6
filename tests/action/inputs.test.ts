/**
 * The action's inputs: read in one place, each bad one refused with one message naming the input,
 * the value and what is expected (S15); the token never reaches the benchmark commands (S4).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandEnv, envInputReader, readSettings } from '../../src/action/inputs.ts';
import { tempDir } from '../support/repo.ts';

const workspace = tempDir('pairbench-inputs-');
const baseEnv = { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: '/runner/tmp', GITHUB_WORKFLOW: 'perf', GITHUB_JOB: 'bench' };

function settings(inputs: Record<string, string>, env: Record<string, string> = {}) {
  const all: NodeJS.ProcessEnv = { ...baseEnv, ...env };
  for (const [k, v] of Object.entries(inputs)) all[`INPUT_${k.toUpperCase()}`] = v;
  return readSettings(envInputReader(all), all);
}

describe('readSettings', () => {
  it('reads a minimal compare with the defaults of options.ts', () => {
    const s = settings({ run: 'node bench.js', 'github-token': 'ghs_abc' });
    expect(s.mode).toBe('compare');
    expect(s.comment).toBe('always');
    expect(s.commentId).toBe('perf / bench');
    expect(s.resultsPath).toBe('/runner/tmp/pairbench/pairbench-results.json');
    expect(s.reportPath).toBe('/runner/tmp/pairbench/pairbench-results.md');
    expect(s.htmlPath).toBe('/runner/tmp/pairbench/pairbench-results.html');
    expect(s.spec).toMatchObject({ maxPairs: 200, minPairs: 10, threshold: 0.02, alpha: 0.05, failOn: 'regression', cwd: workspace, out: s.resultsPath });
    expect(s.spec!.benchmarks[0]).toMatchObject({ name: 'node bench.js', run: 'node bench.js', format: 'time' });
  });

  it('reads every input of its own', () => {
    const s = settings({
      run: 'x',
      comment: 'on-change',
      'comment-id': 'linux',
      'check-name': 'perf',
      'pr-number': '#12',
      'base-ref': 'main',
      'head-ref': 'feature',
      'allow-fork-code-on-dispatch': 'true',
      'results-path': 'out/r.json',
      'max-pairs': '30',
      threshold: '5%',
      'fail-on': 'none',
    });
    expect(s).toMatchObject({ comment: 'on-change', commentId: 'linux', checkName: 'perf', prNumber: 12, baseRef: 'main', headRef: 'feature', allowForkOnDispatch: true, failOn: 'none' });
    expect(s.resultsPath).toBe(join(workspace, 'out/r.json'));
    expect(s.spec).toMatchObject({ maxPairs: 30, threshold: 0.05 });
  });

  it('reads a config file relative to the workspace; its keys are defaults the inputs override', () => {
    writeFileSync(join(workspace, 'pairbench.yml'), 'max-pairs: 40\nthreshold: 3%\nbenchmarks:\n  - name: a\n    run: echo a\n  - name: b\n    run: echo b\n');
    const s = settings({ config: 'pairbench.yml', threshold: '4%' });
    expect(s.spec!.benchmarks.map((b) => b.name)).toEqual(['a', 'b']);
    expect(s.spec).toMatchObject({ maxPairs: 40, threshold: 0.04 });
  });

  it('report mode needs results, and reads only the judging options', () => {
    const s = settings({ mode: 'report', results: 'artifacts/**/*.json', threshold: '3%', 'fail-on': 'none' });
    expect(s).toMatchObject({ mode: 'report', results: 'artifacts/**/*.json', spec: null, failOn: 'none' });
    expect(s.judge).toEqual({ alpha: 0.05, threshold: 0.03, outliers: 'tukey', correction: 'holm' });
  });

  it.each([
    [{ run: 'x', 'max-pairs': 'lots' }, 'input max-pairs: got "lots"; expected a whole number from 1 to 1000000'],
    [{ run: 'x', threshold: 'big' }, 'input threshold: got "big"; expected a percentage such as 2% or a fraction such as 0.02, greater than 0'],
    [{ run: 'x', 'max-time': 'forever' }, 'input max-time: got "forever"; expected a duration greater than 0 and at most 596h, such as 500ms, 90s, 10m or 1h'],
    [{ run: 'x', mode: 'fast' }, 'input mode: got "fast"; expected one of compare, report, noise'],
    [{ run: 'x', comment: 'sometimes' }, 'input comment: got "sometimes"; expected one of always, on-change, never'],
    [{ run: 'x', 'pr-number': 'abc' }, 'input pr-number: got "abc"; expected a pull request number such as 123'],
    [{ run: 'x', 'allow-fork-code-on-dispatch': 'yes' }, 'input allow-fork-code-on-dispatch: got "yes"; expected true or false'],
    [{ run: 'x', 'fail-on': 'always' }, 'input fail-on: got "always"; expected one of regression, inconclusive, none'],
    [{ run: 'x', shard: '3/2' }, 'input shard: got "3/2"; expected i/n with 1 ≤ i ≤ n ≤ 1000, such as 2/4'],
    [{}, 'input run is required (the command to measure), unless input config names the benchmarks'],
    [{ run: 'x', config: 'missing.yml' }, 'input config: cannot read "missing.yml"'],
    [{ mode: 'report' }, 'input results is required with mode: report'],
    [{ run: 'x', results: '*.json' }, 'input results is only read with mode: report'],
  ])('refuses %j with one clear message', (inputs, message) => {
    expect(() => settings(inputs as Record<string, string>)).toThrow(message);
  });
});

describe('S4: commandEnv', () => {
  it('removes the token wherever it is, the inputs, and the runtime credentials; keeps the rest', () => {
    const token = 'ghs_0123456789abcdef';
    const env = commandEnv(
      {
        PATH: '/usr/bin',
        HOME: '/home/runner',
        GITHUB_SHA: 'abc',
        GITHUB_TOKEN: token,
        'INPUT_GITHUB-TOKEN': token,
        INPUT_RUN: 'make bench',
        ACTIONS_RUNTIME_TOKEN: 'rt',
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
        ACTIONS_ID_TOKEN_REQUEST_URL: 'https://x',
        MY_COPY: `Bearer ${token}`,
        GH_TOKEN: 'other',
      },
      token,
    );
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/runner', GITHUB_SHA: 'abc' });
    expect(JSON.stringify(env)).not.toContain(token);
  });
});
