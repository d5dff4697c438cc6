/**
 * The action's `mode: report` under `workflow_run` (the fork-PR pattern): the artifact is untrusted
 * data (S2), and nothing recorded in it decides how it is judged, nor the step's status (S23).
 *
 * The action runs as the runner runs it (`node src/action.ts` with `INPUT_*`, the event file, the
 * summary and output files) against a local fake GitHub API; the artifact is a results file
 * written by hand, so nothing is measured.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readResults } from '../support/cli.ts';
import type { FakeGitHub } from '../support/fake-github.ts';
import { HEAD, reportModeOf, type ReportModeRun } from '../support/report-mode.ts';
import { regression50, type HandResults } from '../support/results-files.ts';

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * `mode: report` of an artifact holding `files` (results written as JSON; a function makes the file
 * itself), for pull request #7 whose head is HEAD, with these inputs.
 */
function reportMode(files: Record<string, HandResults | ((path: string) => void)>, inputs: Record<string, string> = {}): Promise<ReportModeRun> {
  return reportModeOf(files, inputs, servers);
}

/** A results file of pull request #7's head: head 50% slower than base in each of 30 pairs. */
const measured = () => regression50({ headSha: HEAD });

describe('S2: a forged artifact never decides the verdict of mode: report', () => {
  it.each([[1e300], [-1], [0], [5]])('S2: a threshold of its own (%s) on the regressed benchmark is not used: verdict regression, the step fails, the comment and the summary say so', async (value) => {
    const forged = measured();
    forged.benchmarks[0]!['threshold'] = value;
    const r = await reportMode({ 'pairbench-results.json': forged }, { threshold: '2%' });
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.outputs['regressions']).toBe('1');
    expect(r.code, r.log).toBe(1);
    expect(r.log).toMatch(/::error::pairbench: 1 regression beyond the threshold: parse \+50\./);
    expect(r.comment).toContain('🔴 1 regression');
    expect(r.summary).toContain('🔴 1 regression');
    expect(r.log).toContain('The results file records a threshold of its own for 1 benchmark, which is not used: an untrusted results file never sets how it is judged');
  });
});

describe('S23: nothing recorded in an artifact steers mode: report', () => {
  it('S23: recorded settings (threshold 1000%, alpha 0.001, fail-on none, outliers, correction) are not used: the inputs and their defaults judge', async () => {
    const forged = measured();
    forged.settings = { ...forged.settings, threshold: 10, alpha: 0.001, failOn: 'none', outliers: 'none', correction: 'bh' };
    const r = await reportMode({ 'pairbench-results.json': forged });
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.code, r.log).toBe(1);
    expect(r.log).toContain('The results file records alpha 0.001, threshold 1000%, outliers none, correction bh, fail-on "none", which are not used');
    expect(r.log).toContain('so every setting is this judging\'s own (threshold 2%, alpha 0.05, outliers tukey, correction holm, fail-on regression)');
    const judged = readResults(r.outputs['results-path']!) as { settings: Record<string, unknown> };
    expect(judged.settings).toMatchObject({ threshold: 0.02, alpha: 0.05, outliers: 'tukey', correction: 'holm', failOn: 'regression' });
    expect(r.gh.checkRuns.at(-1)!.conclusion).toBe('failure');
  });

  it('S23: a results file of a failed run fails the step as could-not-complete, with any fail-on; the check run says failure', async () => {
    const failed = { ...regression50({ headSha: HEAD, change: 0 }), status: 'failed' };
    const r = await reportMode({ 'pairbench-results.json': failed }, { 'fail-on': 'none' });
    expect(r.code, r.log).toBe(3);
    expect(r.log).toContain('::error::pairbench could not complete the comparison (a build or a benchmark command failed)');
    expect(r.gh.checkRuns.at(-1)!.conclusion).toBe('failure');
  });

  it('S23: a benchmark marked as failed in a file that says complete fails the step as a failed run, never passes it', async () => {
    const forged = measured();
    forged.benchmarks[0]!['failure'] = { side: 'head', kind: 'exit', exitCode: 1, message: "head's command failed" };
    const r = await reportMode({ 'pairbench-results.json': forged });
    expect(r.code, r.log).toBe(3);
    expect(r.log).toContain('::warning::the results record a failure but the status complete; judging them as a failed run');
    expect(r.log).toContain('::error::pairbench could not complete the comparison');
    expect(r.gh.checkRuns.at(-1)!.conclusion).toBe('failure');
  });

  it('S23: a benchmark recorded as removed but holding pairs is judged from them: the regression fails the step', async () => {
    const forged = measured();
    forged.benchmarks[0]!['presence'] = 'removed';
    const r = await reportMode({ 'pairbench-results.json': forged });
    expect(r.outputs['verdict'], r.log).toBe('regression');
    expect(r.code, r.log).toBe(1);
  });
});

describe('S15: an artifact that is not a regular file', () => {
  it('S15: a FIFO among the results fails the step with one message naming it, without waiting for a writer', async () => {
    const r = await reportMode({ 'pairbench-results.json': (path) => execFileSync('mkfifo', [path]) });
    expect(r.code, r.log).toBe(1);
    expect(r.log).toMatch(/::error::.*artifact\/pairbench-results\.json: is a pipe \(FIFO\), not a regular file; expected a pairbench results file/);
    expect(r.gh.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

describe('S20: as many results files as pairbench report merges', () => {
  it('S20: more files than shards of one comparison (1000) are refused in one line before any is read', async () => {
    const files: Record<string, (path: string) => void> = {};
    for (let i = 0; i < 1001; i++) files[`r${String(i).padStart(4, '0')}.json`] = (path) => writeFileSync(path, '');
    const r = await reportMode(files);
    expect(r.code, r.log).toBe(1);
    expect(r.log).toMatch(/::error::.*input results: more than 1000 files match "artifact\/\*\.json" \(one per shard at most\)/);
  });

  it('S20: 300 files are read (pairbench report merges up to 1000): the first bad one is named, not their number', async () => {
    const files: Record<string, (path: string) => void> = {};
    for (let i = 0; i < 300; i++) files[`r${String(i).padStart(4, '0')}.json`] = (path) => writeFileSync(path, '');
    const r = await reportMode(files);
    expect(r.code, r.log).toBe(1);
    expect(r.log).not.toMatch(/more than \d+ files match/);
    expect(r.log).toMatch(/::error::.*artifact\/r0000\.json: /);
  });
});
