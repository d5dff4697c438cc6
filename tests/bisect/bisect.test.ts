/**
 * `pairbench bisect` end to end: real git repositories, real builds, the real CLI. The benchmark
 * prints its value (--format json) with seeded noise of ±0.5%, so the 10% slowdown is decided the
 * same way on a busy machine: no assertion depends on how fast it runs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BisectResult } from '../../src/bisect/find-commit.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir, tempRepo, type TempRepo } from '../support/repo.ts';

/** A script printing one json result named `parse` whose value is `value` times (1 ± 0.5% noise). */
function benchScript(value: number): string {
  return `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" -v v=${value} 'BEGIN{srand(s); printf "[{\\"name\\":\\"parse\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", v*(1+(rand()-0.5)*0.01)}'\n`;
}

const BUILDS = '#!/bin/sh\nexit 0\n';
const FAILS = '#!/bin/sh\necho "syntax error in parser.c" >&2\nexit 1\n';

/**
 * A repository of `count` commits: commit 1 (the base) has the benchmark at 100 ms, commit 5 makes
 * it 10% slower, every other commit changes only a note; `broken` names a commit whose build fails
 * (the next one repairs it). Returns the SHAs, commit 1 first.
 */
function history(count: number, broken: number | null): { repo: TempRepo; shas: string[] } {
  const repo = tempRepo();
  const shas: string[] = [];
  for (let c = 1; c <= count; c++) {
    const files: Record<string, string> = { 'note.txt': `commit ${c}\n` };
    if (c === 1) Object.assign(files, { 'bench.sh': benchScript(100), 'build.sh': BUILDS });
    if (c === 5) files['bench.sh'] = benchScript(110);
    if (c === broken) files['build.sh'] = FAILS;
    if (broken !== null && c === broken + 1) files['build.sh'] = BUILDS;
    shas.push(repo.commit(files, c === 5 ? 'commit 5: slower parser' : `commit ${c}`));
  }
  return { repo, shas };
}

function runBisect(repo: TempRepo, base: string, out: string, markdown: string) {
  return pairbench(['bisect', '--repo', repo.dir, '--base', base, '--head', 'HEAD', '--benchmark', 'parse', '--build', 'sh build.sh', '--run', 'sh bench.sh', '--format', 'json', '--min-pairs', '10', '--max-pairs', '20', '--seed', '11', '--out', out, '--markdown', markdown, '--quiet']);
}

describe('pairbench bisect', () => {
  it('names the 5th of 8 commits, which slows the benchmark by 10%', () => {
    const { repo, shas } = history(8, null);
    const dir = tempDir();
    const out = join(dir, 'bisect.json');
    const md = join(dir, 'bisect.md');
    const res = runBisect(repo, shas[0]!, out, md);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status).toBe(0);
    const result = JSON.parse(readFileSync(out, 'utf8')) as BisectResult;
    // commits 2..8 are the range: the 5th commit is the 4th of the range
    expect(result.commits.map((c) => c.sha)).toEqual(shas.slice(1));
    expect(result.conclusion).toEqual({ kind: 'found', first: 4 });
    expect(result.commits[3]!.sha).toBe(shas[4]);
    // 7 commits: the head confirmed, then ceil(log2 7) = 3 halvings, each at 0.05 / 4
    expect(result.maxTests).toBe(4);
    expect(result.alphaPerTest).toBeCloseTo(0.0125, 10);
    expect(result.steps.length).toBeLessThanOrEqual(4);
    const named = result.steps.findLast((s) => s.sha === shas[4])!;
    expect(named.outcome).toBe('regressed');
    // beyond the threshold, and near the 10% the commit added (each value varies by ±0.5%, so the
    // estimate of 10 pairs or more is within a point of it; whether the interval covers 10% exactly
    // is a matter of its level, left to the calibration)
    expect(named.change!.ci[0]).toBeGreaterThan(0.02);
    expect(Math.abs(named.change!.estimate - 0.1)).toBeLessThan(0.01);
    // the step files hold every pair measured
    for (const s of result.steps) expect(readResults(s.resultsFile).benchmarks[0]!.pairs.length).toBe(s.pairs);
    expect(res.stdout).toContain(`First regressing commit: ${shas[4]!.slice(0, 12)}`);
    const markdown = readFileSync(md, 'utf8');
    expect(markdown).toContain(`First regressing commit: \`${shas[4]!.slice(0, 12)}\` (4/7 commit 5: slower parser)`);
    expect(markdown).toMatch(/Bonferroni/);
  });

  it('skips a middle commit that cannot be built, says so, and still names the 5th of 9', () => {
    const { repo, shas } = history(9, 3);
    const dir = tempDir();
    const out = join(dir, 'bisect.json');
    const md = join(dir, 'bisect.md');
    const res = runBisect(repo, shas[0]!, out, md);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status).toBe(0);
    const result = JSON.parse(readFileSync(out, 'utf8')) as BisectResult;
    expect(result.conclusion).toEqual({ kind: 'found', first: 4 });
    expect(result.commits[3]!.sha).toBe(shas[4]);
    const skipped = result.steps.filter((s) => s.outcome === 'build-failed');
    expect(skipped.map((s) => s.sha)).toEqual([shas[2]]);
    expect(res.stderr).toContain(`Commit 2 ${shas[2]!.slice(0, 12)} could not be built: skipped`);
    expect(readFileSync(md, 'utf8')).toContain(`Skipped (could not be built): \`${shas[2]!.slice(0, 12)}\` (2/8)`);
  });

  it('builds the base once for the whole search, and each commit measured once', () => {
    const { repo, shas } = history(8, null);
    const dir = tempDir();
    const log = join(dir, 'builds.log');
    const res = pairbench(['bisect', '--repo', repo.dir, '--base', shas[0]!, '--head', 'HEAD', '--benchmark', 'parse', '--build', `sh build.sh && { basename "$PWD"; git rev-parse HEAD; } >> '${log}'`, '--run', 'sh bench.sh', '--format', 'json', '--min-pairs', '10', '--max-pairs', '20', '--seed', '11', '--out', join(dir, 'b.json'), '--quiet']);
    expect(res.status).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')) as BisectResult;
    expect(result.conclusion).toEqual({ kind: 'found', first: 4 });
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const builds = Array.from({ length: lines.length / 2 }, (_, i) => ({ side: lines[2 * i], sha: lines[2 * i + 1] }));
    expect(builds.filter((b) => b.side === 'base')).toEqual([{ side: 'base', sha: shas[0] }]);
    expect(builds.filter((b) => b.side === 'head').map((b) => b.sha)).toEqual(result.steps.map((s) => s.sha));
    // every step's results file names the same base
    for (const s of result.steps) expect(readResults(s.resultsFile).base.sha).toBe(shas[0]);
    expect(spawnSync('git', ['-C', repo.dir, 'worktree', 'list'], { encoding: 'utf8' }).stdout.trim().split('\n')).toHaveLength(1);
  });

  it('counts the builds in --max-time: a base build longer than the budget leaves no step, a slow head build ends the search after its step', () => {
    const { repo, shas } = history(8, null);
    const dir = tempDir();
    const search = (slowSide: string, seconds: number, maxTime: string) => {
      const out = join(dir, `${slowSide}.json`);
      const build = `sh build.sh && if [ "$(basename "$PWD")" = ${slowSide} ]; then sleep ${seconds}; fi`;
      const res = pairbench(['bisect', '--repo', repo.dir, '--base', shas[0]!, '--head', 'HEAD', '--benchmark', 'parse', '--build', build, '--run', 'sh bench.sh', '--format', 'json', '--min-pairs', '10', '--max-pairs', '20', '--seed', '11', '--max-time', maxTime, '--out', out]);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      return { res, result: JSON.parse(readFileSync(out, 'utf8')) as BisectResult };
    };
    // the base's build alone (at least 4 s) outlasts the 3 s budget: no commit is measured
    const slowBase = search('base', 4, '3s');
    expect(slowBase.res.status).toBe(0);
    expect(slowBase.result.steps).toEqual([]);
    expect(slowBase.result.conclusion).toEqual({ kind: 'head-undecided' });
    expect(slowBase.res.stderr).toContain("The search's budget of 3 s (builds included) is used up after 0 steps");
    // each head's build (at least 3 s) outlasts the 2 s budget: the search stops after its first step,
    // whatever that step found (a regression to halve, or no verdict)
    const slowHead = search('head', 3, '2s');
    expect(slowHead.result.steps).toHaveLength(1);
    if (slowHead.result.steps[0]!.outcome === 'regressed') {
      expect(slowHead.result.conclusion).toEqual({ kind: 'unseparated', candidates: [1, 2, 3, 4, 5, 6, 7], why: 'out-of-time' });
      expect(slowHead.res.stdout).toContain('the time budget, builds included, ran out (raise max-time)');
    }
  });

  it('stops with exit 3 when the base cannot be built, having built it once and compared nothing', () => {
    const { repo, shas } = history(4, 1);
    const dir = tempDir();
    const res = runBisect(repo, shas[0]!, join(dir, 'b.json'), join(dir, 'b.md'));
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status).toBe(3);
    const result = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')) as BisectResult;
    expect(result.stoppedBecause).toBe('base-build-failed');
    expect(result.steps).toEqual([]);
    expect(res.stderr).toContain('syntax error in parser.c');
    expect(res.stdout).toContain('The base could not be built: nothing was searched.');
  });

  it('finds nothing to search when the head does not regress', () => {
    const { repo, shas } = history(4, null);
    const dir = tempDir();
    const res = runBisect(repo, shas[0]!, join(dir, 'b.json'), join(dir, 'b.md'));
    expect(res.status).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')) as BisectResult;
    expect(result.conclusion).toEqual({ kind: 'no-regression' });
    expect(result.steps).toHaveLength(1);
    expect(res.stdout).toContain('nothing to search');
  });

  it('prints a hostile commit subject with its workflow commands escaped, in the log, the text and --json', () => {
    const repo = tempRepo();
    const base = repo.commit({ 'bench.sh': benchScript(100), 'build.sh': BUILDS }, 'base');
    repo.commit({ 'note.txt': '1\n' }, '::error::first ##[error]pwned');
    const dir = tempDir();
    const common = ['bisect', '--repo', repo.dir, '--base', base, '--head', 'HEAD', '--benchmark', 'parse', '--run', 'sh bench.sh', '--format', 'json', '--min-pairs', '10', '--max-pairs', '10', '--seed', '3'];
    const text = pairbench([...common, '--out', join(dir, 'a.json')]);
    const json = pairbench([...common, '--out', join(dir, 'b.json'), '--json']);
    for (const res of [text, json]) {
      expect(res.status).toBe(0);
      const lines = `${res.stdout}\n${res.stderr}`.split('\n');
      // the runner executes `##[command]` anywhere on a line and `::command::` at its start
      expect(lines.filter((l) => l.includes('##[') || /^\s*::/.test(l))).toEqual([]);
    }
    expect(text.stdout).toContain('##\\x5berror]pwned');
    expect(text.stderr).toContain('##\\x5berror]pwned');
    // --json stays JSON with the same subject: `[` escaped as \u005b
    const result = JSON.parse(json.stdout) as BisectResult;
    expect(result.commits[0]!.subject).toBe('::error::first ##[error]pwned');
  });

  it('refuses a missing --benchmark, an unknown benchmark and a base that is no ancestor, with one line and exit 2', () => {
    const { repo, shas } = history(2, null);
    const dir = tempDir();
    const common = ['--repo', repo.dir, '--run', 'sh bench.sh', '--format', 'time', '--out', join(dir, 'x.json')];
    const missing = pairbench(['bisect', ...common, '--base', shas[0]!]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe('pairbench: --benchmark is required: the name of the benchmark whose regression is searched for');
    const unknown = pairbench(['bisect', ...common, '--base', shas[0]!, '--benchmark', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim()).toMatch(/^pairbench: --benchmark: got "nope"; expected the name of a benchmark to search/);
    const reversed = pairbench(['bisect', ...common, '--base', shas[1]!, '--head', shas[0]!, '--benchmark', 'sh bench.sh']);
    expect(reversed.status).toBe(2);
    expect(reversed.stderr.trim()).toMatch(/^pairbench: --base: got "[0-9a-f]+", which is not an ancestor of --head/);
    for (const r of [missing, unknown, reversed]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
