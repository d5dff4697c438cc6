/**
 * The Go levers beside a noise warning (src/harness/go-advice.ts, asked by src/results/advice.ts): said for a noisy Go benchmark
 * that allocates in its loop or runs on more than one thread, with this benchmark's figures, in
 * the terminal (one line for many) and again by `pairbench report`; never for another format, a
 * quiet benchmark, or one whose command already runs on one thread and which does not allocate.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { reportModel } from '../../src/report/model.ts';
import { terminalReport } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

const OPTIONS = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' } as const;

/** A Go benchmark's time row (unchanged, spread by `noise` a run) and, when `allocs`, its allocs/op row. */
function goRows(name: string, noise: number, allocs: number | null, seed: number): BenchmarkResult[] {
  const rng = mulberry32(seed);
  const time: BenchmarkResult = {
    name,
    unit: 'ns',
    direction: 'lower-is-better',
    pairs: Array.from({ length: 30 }, () => ({ base: 1000 * (1 + noise * (rng() - 0.5)), head: 1000 * (1 + noise * (rng() - 0.5)), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) })),
  };
  if (allocs === null) return [time];
  return [time, { name: `${name} (allocs/op)`, unit: 'allocs/op', direction: 'lower-is-better', pairs: time.pairs.map((p) => ({ ...p, base: allocs, head: allocs })) }];
}

function results(rows: BenchmarkResult[], run: string, format = 'go'): Results {
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { benchmarks: [{ name: run, run, format }] },
    benchmarks: rows,
  };
}

const RUN = './build/bench.test -test.run "^$" -test.bench {filter} -test.benchtime 100ms';
const codes = (b: BenchmarkResult | undefined): string[] => (b?.diagnostics ?? []).map((d) => d.code);

describe('the Go levers beside a noise warning', () => {
  it('a noisy Go benchmark that allocates, on more than one thread: both levers, with its allocs/op', () => {
    const judged = judgeResults(results(goRows('BenchmarkSort/n=100', 0.4, 1, 3), RUN), OPTIONS);
    const sort = judged.benchmarks.find((b) => b.name === 'BenchmarkSort/n=100')!;
    expect(codes(sort)).toEqual(expect.arrayContaining(['high-noise', 'go-noise']));
    const note = sort.diagnostics!.find((d) => d.code === 'go-noise')!;
    expect(note.figures).toEqual({ allocsPerOp: 1, oneThread: false });
    const cli = wordDiagnostic(note, 'cli');
    expect(cli).toContain('it allocates in its loop (1 allocs/op in head)');
    expect(cli).toContain('bind the runs to one CPU (--cpus 1) or add -test.cpu 1 to --run');
    expect(wordDiagnostic(note, 'action')).toContain('bind the runs to one CPU (the input cpus: 1) or add -test.cpu 1 to the run input');
    // the allocs/op row itself is not noisy and gets no lever
    expect(codes(judged.benchmarks.find((b) => b.name === 'BenchmarkSort/n=100 (allocs/op)'))).not.toContain('go-noise');
  });

  it('already on one thread (-test.cpu 1, GOMAXPROCS=1 or --cpus of one CPU): only the allocation; and nothing when it does not allocate either', () => {
    for (const run of [`${RUN} -test.cpu 1`, `${RUN} -test.cpu=1`, `GOMAXPROCS=1 ${RUN}`]) {
      const allocating = judgeResults(results(goRows('BenchmarkA', 0.4, 3, 5), run), OPTIONS).benchmarks[0]!;
      expect(allocating.diagnostics!.find((d) => d.code === 'go-noise')!.figures, run).toEqual({ allocsPerOp: 3, oneThread: true });
      expect(wordDiagnostic(allocating.diagnostics!.find((d) => d.code === 'go-noise')!, 'cli')).not.toContain('-test.cpu');
      const quietCode = judgeResults(results(goRows('BenchmarkA', 0.4, null, 5), run), OPTIONS).benchmarks[0]!;
      expect(codes(quietCode), run).toContain('high-noise');
      expect(codes(quietCode), run).not.toContain('go-noise');
    }
    // bound to one CPU by --cpus (recorded as settings.cpus), Go sizes GOMAXPROCS to 1 itself
    for (const cpus of ['1', '3-3']) {
      const bound = results(goRows('BenchmarkA', 0.4, 3, 5), RUN);
      bound.settings = { ...bound.settings, cpus };
      const note = judgeResults(bound, OPTIONS).benchmarks[0]!.diagnostics!.find((d) => d.code === 'go-noise')!;
      expect(note.figures, cpus).toEqual({ allocsPerOp: 3, oneThread: true });
      expect(wordDiagnostic(note, 'cli')).not.toContain('--cpus');
    }
    // at once (--pair-runs auto, the default where the machine allows), each run had one CPU: one thread
    const atOnce = results(goRows('BenchmarkA', 0.4, 3, 5), RUN);
    atOnce.settings = { ...atOnce.settings, pairRuns: 'auto', atOnce: "at once: both sides of every pair started together, one on CPU 0 and one on CPU 1, the pair's coin choosing which" };
    expect(judgeResults(atOnce, OPTIONS).benchmarks[0]!.diagnostics!.find((d) => d.code === 'go-noise')!.figures).toEqual({ allocsPerOp: 3, oneThread: true });
    // bound to two CPUs, Go still runs two threads: the lever stays
    const twoCpus = results(goRows('BenchmarkA', 0.4, null, 5), RUN);
    twoCpus.settings = { ...twoCpus.settings, cpus: '0-1' };
    expect(judgeResults(twoCpus, OPTIONS).benchmarks[0]!.diagnostics!.find((d) => d.code === 'go-noise')!.figures).toEqual({ allocsPerOp: null, oneThread: false });
    // -test.cpu 1,2 runs on two threads too: the lever stays
    const two = judgeResults(results(goRows('BenchmarkA', 0.4, null, 5), `${RUN} -test.cpu 1,2`), OPTIONS).benchmarks[0]!;
    expect(two.diagnostics!.find((d) => d.code === 'go-noise')!.figures).toEqual({ allocsPerOp: null, oneThread: false });
  });

  it('never for a quiet Go benchmark, nor for another format', () => {
    expect(codes(judgeResults(results(goRows('BenchmarkA', 0.002, 1, 7), RUN), OPTIONS).benchmarks[0])).not.toContain('go-noise');
    const criterion = judgeResults(results(goRows('BenchmarkA', 0.4, 1, 7), 'cargo bench', 'criterion'), OPTIONS).benchmarks[0]!;
    expect(codes(criterion)).toContain('high-noise');
    expect(codes(criterion)).not.toContain('go-noise');
  });

  it('many: one line in the terminal for all of them, not one per benchmark', () => {
    const rows = ['BenchmarkA', 'BenchmarkB', 'BenchmarkC', 'BenchmarkD'].flatMap((n, i) => goRows(n, 0.4, i < 2 ? 2 : null, 11 + i));
    const text = terminalReport(reportModel(judgeResults(results(rows, RUN), OPTIONS), { failOn: 'regression' }), { color: false });
    expect(text).toContain('4 of the noisy benchmarks are Go benchmarks whose own code or command can cut their noise');
    expect(text).toContain('2 allocate in their loop (BenchmarkA, BenchmarkB)');
    expect(text.match(/add -test\.cpu 1 to --run/g)).toHaveLength(1);
  });
});
