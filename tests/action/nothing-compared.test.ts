/**
 * A comparison that compared nothing never passes in silence: the action's every surface (the
 * results table in the step log, the job summary, the sticky comment, the check run's title and
 * conclusion, the failing step's message) opens with "Nothing compared", and the gate fails; the
 * pull request that adds the first benchmarks passes with `allow-nothing-compared: true`, and its
 * headline still says that nothing was compared.
 *
 * The action runs as the runner runs it (`node src/action.ts` in `mode: report`) against a local
 * fake GitHub API, on a results file written here, so nothing is measured.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/fake-github.ts';
import { BASE, HEAD, reportMode as runReportMode, type ReportModeRun } from '../support/report-mode.ts';

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** The pull request that adds two benchmarks: the base has none of them, so not one pair could run. */
function firstBenchmarks(baseSha = BASE): unknown {
  const added = (name: string) => ({ name, unit: 'ns', direction: 'lower-is-better', presence: 'added', pairs: [] });
  return {
    schemaVersion: 1,
    tool: { name: 'pairbench', version: '0.0.0-test' },
    base: { ref: 'main', sha: baseSha },
    head: { ref: 'feature', sha: HEAD },
    status: 'complete',
    settings: { seed: 1, alpha: 0.05, threshold: 0.02 },
    benchmarks: [added('go/BenchmarkParse'), added('go/BenchmarkEncode')],
  };
}

/** `mode: report` of an artifact holding `results`, for pull request #7 whose head is HEAD. */
const reportMode = (results: unknown, extra: Record<string, string> = {}): Promise<ReportModeRun> => runReportMode(results, extra, servers);

describe('the action: a comparison of nothing', () => {
  it('every benchmark added: the gate fails, and the log, summary, comment, check run and step message open with it', async () => {
    const r = await reportMode(firstBenchmarks());
    expect(r.code, r.log).toBe(1);
    const why = 'Nothing compared: every benchmark is on one side only (2 added) (the gate fails)';
    // the step log's table is the command line's, which names no gate: the exit status is its
    expect(r.log).toContain('INCONCLUSIVE: Nothing compared: every benchmark is on one side only (2 added); 2 added');
    const heading = `### ⛔ ${why}: 🆕 2 added · pairbench`;
    expect(r.summary).toContain(heading);
    expect(r.comment).toContain(heading);
    expect(r.check).toEqual({ title: `${why}; 2 added`, conclusion: 'failure' });
    expect(r.log).toContain(`::error::pairbench: ${why}. Check the base and the benchmarks; for the pull request that adds the first benchmarks, set allow-nothing-compared: true.`);
    // the benchmarks on one side stay listed
    expect(r.comment).toContain('go/BenchmarkParse');
    expect(r.comment).toContain('go/BenchmarkEncode');
  }, 120_000);

  it('allow-nothing-compared: true lets the first pull request pass, and the headline still says nothing was compared', async () => {
    const r = await reportMode(firstBenchmarks(), { 'allow-nothing-compared': 'true' });
    expect(r.code, r.log).toBe(0);
    const why = 'Nothing compared: every benchmark is on one side only (2 added) (the gate allows it)';
    expect(r.log).toContain('INCONCLUSIVE: Nothing compared: every benchmark is on one side only (2 added); 2 added');
    expect(r.summary).toContain(`### ⛔ ${why}`);
    expect(r.comment).toContain(`### ⛔ ${why}`);
    expect(r.check).toEqual({ title: `${why}; 2 added`, conclusion: 'neutral' });
    expect(r.log).not.toContain('::error::');
  }, 120_000);

  it('a results file of no benchmark fails the gate and says so', async () => {
    const r = await reportMode({ ...(firstBenchmarks() as object), benchmarks: [] });
    expect(r.code, r.log).toBe(1);
    expect(r.comment).toContain('### ⛔ Nothing compared: no benchmark results (the gate fails)');
    expect(r.check.conclusion).toBe('failure');
  }, 120_000);
});
