/**
 * bench/suites.ts reads benchstat's verdicts from its CSV (a real benchstat output in
 * tests/fixtures/bench, with the command that made it beside it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocation, merge, parseBenchstatCsv, parsePytestCompare, render } from '../../bench/suites.ts';

const csv = readFileSync(join(import.meta.dirname, '../fixtures/bench/benchstat.csv'), 'utf8');

describe('benchstat CSV', () => {
  it("reads the sec/op table only, with Go's names as pairbench has them, and flags a significant change beyond 2%", () => {
    expect(parseBenchstatCsv(csv)).toEqual([
      { name: 'BenchmarkParse/small', flagged: 'regression', verdict: 'significant +10.45%', estimate: 0.1045 },
      { name: 'BenchmarkSort', flagged: null, verdict: 'not significant', estimate: null },
    ]);
  });
});

describe('pytest-benchmark --benchmark-compare-fail', () => {
  it("flags the benchmarks named in its failure lines, by their full pytest ids", () => {
    const dir = join(import.meta.dirname, '../fixtures/bench');
    const output = readFileSync(join(dir, 'pytest-benchmark-compare-fail.txt'), 'utf8');
    const head = readFileSync(join(dir, 'pytest-benchmark-compare-head.json'), 'utf8');
    expect(parsePytestCompare(output, head)).toEqual([
      { name: 'test_kernels.py::test_checksum', flagged: 'regression', verdict: 'median failed', estimate: null },
      { name: 'test_kernels.py::test_sort[1000]', flagged: null, verdict: 'passed', estimate: null },
      { name: 'test_kernels.py::test_sort[10000]', flagged: null, verdict: 'passed', estimate: null },
    ]);
  });
});

describe('runs merged into one report', () => {
  const machine = { date: '2026-11-23T20:25:00.000Z', host: 'ci', os: 'Linux', cpu: 'AMD EPYC', cores: 2, memoryGiB: 23.5, freeMemoryGiB: 20, node: 'v24', hyperfine: null, cc: null, commit: 'abc1234', loadAverage: [0.5, 0.4, 0.3], governor: null };
  const settings = { suites: ['go' as const], conditions: ['quiet' as const], arms: ['benchmark' as const], aaArms: ['benchmark' as const], budgetMs: 600_000, calibrationPairs: 20, seed: 1, quick: false, spin: 8, pySpin: 2, threshold: 0.02, alpha: 0.05 };
  const outcome = (name: string, flagged: 'regression' | null) => ({ name, flagged, verdict: flagged ?? 'unchanged', estimate: flagged ? 0.1 : 0 });
  const run = (condition: 'quiet' | 'noisy', against: 'head' | 'aa') => ({ suite: 'go', condition, arm: 'benchmark' as const, against, wallMs: 1000, lastVerdictMs: 1000, command: 'x', outcomes: [outcome('BenchmarkA', against === 'head' ? 'regression' : null), outcome('BenchmarkB', null)] });
  const counted = [{ name: 'BenchmarkA', calibration: 3, truth: 0.1, kind: 'affected' as const }, { name: 'BenchmarkB', calibration: 0, truth: 0, kind: 'unaffected' as const }];
  const timed = counted.map((t) => ({ ...t, measured: { estimate: t.truth, ci: [t.truth - 0.01, t.truth + 0.01] as [number, number], pairs: 20 } }));

  it('keeps every arm run, prefers the timed truth, and names each run with its command and load', () => {
    const a = { date: '2026-11-23T20:25:00.000Z', command: 'npm run bench:suites -- --conditions quiet', machine, settings, truths: { go: counted }, runs: [run('quiet', 'head')], errors: [] };
    const b = { date: '2026-11-23T22:00:00.000Z', command: 'npm run bench:suites -- --conditions noisy', machine: { ...machine, loadAverage: [1.5, 1, 1] }, settings: { ...settings, conditions: ['noisy' as const] }, truths: { go: timed }, runs: [run('noisy', 'head'), run('noisy', 'aa')], errors: [] };
    const m = merge([a, b], 'npm run bench:suites -- --merge a.json --merge b.json');
    expect(m.runs).toHaveLength(3);
    expect(m.truths.go![0]!.measured).toBeDefined();
    expect(m.settings.conditions).toEqual(['quiet', 'noisy']);
    const md = render(m);
    expect(md).toContain('Measured in 2 runs, merged with `npm run bench:suites -- --merge a.json --merge b.json`');
    expect(md).toContain('- 2026-11-23 22:00 UTC, `npm run bench:suites -- --conditions noisy`: budget 10m 00s per arm, load average at start 1.5 / 1 / 1');
    expect(md).toMatch(/\| noisy \| pairbench, benchmark-level \(runs designed per benchmark, --design auto\) \| head \| 1 of 1 \| 0 of 1 \|/);
    expect(md).toMatch(/\| noisy \| pairbench, benchmark-level \(runs designed per benchmark, --design auto\) \| A\/A \| \| \| 0 of 2 \|/);
  });

  it('keeps the count truth of the instructions arm, and scores its instruction rows by the counted calls', () => {
    const row = (name: string, verdict: string) => ({ name, verdict, estimate: verdict === 'regression' ? 0.015 : 0, pairs: 6, spread: 0.0002, unsteady: false, base: 10_000 });
    const counts = { ...run('quiet', 'head'), arm: 'instructions' as const, countVerdictMs: 500, counts: [row('BenchmarkA', 'regression'), row('BenchmarkB', 'unchanged')] };
    const a = { date: '2026-11-23T20:25:00.000Z', command: 'a', machine, settings, truths: { go: counted }, countBasis: { go: { spinInstructions: 50 } }, runs: [counts], errors: [] };
    const b = { date: '2026-11-23T22:00:00.000Z', command: 'b', machine, settings, truths: { go: timed }, runs: [{ ...run('quiet', 'aa'), arm: 'instructions' as const, countVerdictMs: 500, counts: [row('BenchmarkA', 'unchanged'), row('BenchmarkB', 'unchanged')] }], errors: [] };
    const m = merge([a, b], 'merged');
    expect(m.countBasis).toEqual({ go: { spinInstructions: 50 } });
    const md = render(m);
    // A: 3 calls x 50 instructions over 10,000 = +1.5%, affected and detected; B never calls it
    expect(md).toContain('| go | quiet | head | | | 1 of 1 | 0 of 1 | 1 of 1 / 0 of 1 | 6, 6 | 0.02% | 0 of 2 |');
    expect(md).toContain('| go | quiet | A/A | 2 of 2 | 0 of 2 | | | — / 0 of 2 |');
    expect(md).toContain('| go | BenchmarkA | affected | 1.50% | 1.50% | regression | 6 | 0.02% |');
  });
});

describe('invocation', () => {
  it('writes the command so that a shell gives back the same arguments', () => {
    const argv = ['--suites', 'js', '--pairbench-flags=--batch 5', "--out=/tmp/it's here", '--aa-arms', 'benchmark'];
    const line = invocation(argv);
    expect(line).toBe(`npm run bench:suites -- --suites js '--pairbench-flags=--batch 5' '--out=/tmp/it'\\''s here' --aa-arms benchmark`);
    const args = line.slice('npm run bench:suites -- '.length);
    const back = execFileSync('sh', ['-c', `for a in ${args}; do printf '%s\\0' "$a"; done`], { encoding: 'utf8' });
    expect(back.split('\0').slice(0, -1)).toEqual(argv);
  });
});
