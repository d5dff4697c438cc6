/**
 * The action's surfaces of one comparison agree: the results table in the step log, the job
 * summary, the sticky comment, the check run's title, the outputs and the failing step's message
 * count a Go benchmark and its `MB/s` row once, and say the suite's change alike.
 *
 * The action runs as the runner runs it (`node src/action.ts` in `mode: report`, with `INPUT_*`,
 * the event file, the summary and output files) against a local fake GitHub API; the artifact is a
 * results file of raw pairs written here, judged by the action itself, so nothing is measured.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { FakeGitHub } from '../support/fake-github.ts';
import { HEAD, reportModeOf, type ReportModeRun } from '../support/report-mode.ts';

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * A Go suite as `go test -bench . -benchmem` with `b.SetBytes` reports it (MB/s in B/s, higher is
 * better), 30 pairs each: BenchmarkChecksum 10% slower, so its MB/s 9.1% lower (both rows
 * regressions); BenchmarkNoisy unchanged but 20% noisy from run to run, with its MB/s (both rows
 * inconclusive); BenchmarkParse unchanged and quiet.
 */
function goSuite(): unknown {
  const rng = mulberry32(11);
  const order = (i: number) => (i % 2 === 0 ? 'base-first' : 'head-first');
  const pairs = (change: number, noise: number) =>
    Array.from({ length: 30 }, (_, i) => {
      const machine = 1 + rng() * 0.05;
      return { base: 1200 * machine * (1 + (rng() - 0.5) * noise), head: 1200 * (1 + change) * machine * (1 + (rng() - 0.5) * noise), order: order(i) };
    });
  const ns = (name: string, p: ReturnType<typeof pairs>) => ({ name: `go/${name}`, unit: 'ns', direction: 'lower-is-better', stoppedBecause: 'max-pairs', pairs: p });
  const mbs = (name: string, p: ReturnType<typeof pairs>) => ({ name: `go/${name} (MB/s)`, unit: 'B/s', direction: 'higher-is-better', stoppedBecause: 'max-pairs', pairs: p.map((x) => ({ base: 1e12 / x.base, head: 1e12 / x.head, order: x.order })) });
  const checksum = pairs(0.1, 0.004);
  const noisy = pairs(0, 0.4);
  return {
    schemaVersion: 1,
    tool: { name: 'pairbench', version: '0.0.0-test' },
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'feature', sha: HEAD },
    status: 'complete',
    settings: { seed: 1, alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', failOn: 'regression', maxPairs: 30 },
    benchmarks: [ns('BenchmarkChecksum', checksum), mbs('BenchmarkChecksum', checksum), ns('BenchmarkNoisy', noisy), mbs('BenchmarkNoisy', noisy), ns('BenchmarkParse', pairs(0, 0.004))],
  };
}

/** `mode: report` of an artifact holding the Go suite, for pull request #7 whose head is HEAD. */
function reportMode(): Promise<ReportModeRun> {
  return reportModeOf({ 'pairbench-results.json': goSuite() }, {}, servers);
}

describe('the action: every surface of one comparison counts and reads alike', () => {
  it('a Go benchmark and its MB/s row are one regression in the log table, the summary, the comment, the check run, the outputs and the step message', async () => {
    const r = await reportMode();
    expect(r.code, r.log).toBe(1);
    const words = '1 regression, 1 inconclusive, 1 unchanged';
    expect(r.check.title).toBe(words);
    expect(r.log).toContain(`REGRESSION: ${words}`);
    const heading = '### 🔴 1 regression, 🟡 1 inconclusive, ⚪ 1 unchanged · pairbench';
    expect(r.summary).toContain(heading);
    expect(r.comment).toContain(heading);
    expect(r.outputs).toMatchObject({ verdict: 'regression', regressions: '1', inconclusive: '1' });
    expect(r.log).toMatch(/::error::pairbench: 1 regression beyond the threshold: go\/BenchmarkChecksum \+\d+\.\d%25 \[\+\d+\.\d%25, \+\d+\.\d%25\]\. /);
    // the suite's change: the same line in the log table as under the summary's heading
    const suite = /^([+−]\d+\.\d% \[[+−±]\d+\.\d%, [+−±]\d+\.\d%\] geometric mean change of 3 benchmarks \(\+ is worse\), 95% interval) · head bbbbbbb against base aaaaaaa · threshold ±2%$/m.exec(r.log);
    expect(suite, r.log).not.toBeNull();
    const [estimate, rest] = [suite![1]!.split(' ')[0]!, suite![1]!.slice(suite![1]!.indexOf(' '))];
    expect(r.summary).toContain(`**${estimate}**${rest} · head \`bbbbbbb\` against base \`aaaaaaa\` · threshold ±2%`);
  }, 120_000);
});
