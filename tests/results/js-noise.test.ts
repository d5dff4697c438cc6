/**
 * The JavaScript levers beside a noise warning (src/harness/js-harnesses.ts, asked by src/results/advice.ts): said for a noisy
 * benchmark of a JavaScript harness whose runs were not bound to one CPU or not several to a
 * process, naming only the lever not yet used, in the terminal (one line for many) and again by
 * `pairbench report`; never for another format, a quiet benchmark, or one already bound and batched.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { reportModel } from '../../src/report/model.ts';
import { terminalReport } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

const OPTIONS = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' } as const;
const RUN = 'npx vitest bench --run {file} -t {filter} --outputJson build/bench.json >&2 && cat build/bench.json';

/** A benchmark's time row, unchanged, spread by `noise` a run. */
function row(name: string, noise: number, seed: number): BenchmarkResult {
  const rng = mulberry32(seed);
  return {
    name,
    unit: 'ns',
    direction: 'lower-is-better',
    pairs: Array.from({ length: 30 }, () => ({ base: 1e6 * (1 + noise * (rng() - 0.5)), head: 1e6 * (1 + noise * (rng() - 0.5)), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) })),
  };
}

function results(rows: BenchmarkResult[], recorded: Record<string, unknown> = {}, cpus?: string): Results {
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { benchmarks: [{ name: RUN, run: RUN, format: 'vitest', ...recorded }], ...(cpus !== undefined ? { cpus } : {}) },
    // each benchmark paired on its own: a round names the benchmarks it ran
    rounds: [rows.map((r) => r.name)],
    benchmarks: rows,
  };
}

const codes = (b: BenchmarkResult | undefined): string[] => (b?.diagnostics ?? []).map((d) => d.code);
const note = (r: Results) => judgeResults(r, OPTIONS).benchmarks[0]!.diagnostics!.find((d) => d.code === 'js-noise');

describe('the JavaScript levers beside a noise warning', () => {
  it('a noisy vitest benchmark run one to a process, unbound: both levers, in CLI flags and in action inputs', () => {
    const judged = judgeResults(results([row('xml.bench.ts > parse > feed', 0.4, 3)]), OPTIONS);
    const b = judged.benchmarks[0]!;
    expect(codes(b)).toEqual(expect.arrayContaining(['high-noise', 'js-noise']));
    const n = b.diagnostics!.find((d) => d.code === 'js-noise')!;
    expect(n.figures).toEqual({ bound: false, batched: false });
    const cli = wordDiagnostic(n, 'cli');
    expect(cli).toContain('bind the runs to one CPU (--cpus 1)');
    expect(cli).toContain('run several benchmarks in each process (--batch n)');
    const action = wordDiagnostic(n, 'action');
    expect(action).toContain('bind the runs to one CPU (the input cpus: 1)');
    expect(action).toContain('(the input batch: n)');
  });

  it('names only the lever not yet used, and nothing once both are', () => {
    const batched = note(results([row('a > b', 0.4, 5)], { batch: 5 }))!;
    expect(batched.figures).toEqual({ bound: false, batched: true });
    expect(wordDiagnostic(batched, 'cli')).not.toContain('--batch');
    expect(wordDiagnostic(batched, 'cli')).toContain('--cpus 1');
    // binding helped one real vitest suite and not two others: the advice says both, and asks for
    // a measurement; the batching figure goes with the batching lever only
    expect(wordDiagnostic(batched, 'cli')).toContain('two others decided no more: measure it on your runner (pairbench noise) before you keep it');
    expect(wordDiagnostic(batched, 'cli')).not.toContain('benchmarks to a process');
    // whole runs of the suite share a process already: asked for, or where the command gave the
    // selection no place (a round then names the job itself)
    expect(note(results([row('a > b', 0.4, 5)], { interleave: 'suite' }))!.figures).toEqual({ bound: false, batched: true });
    const whole = results([row('a > b', 0.4, 5)]);
    whole.rounds = [[RUN]];
    expect(note(whole)!.figures).toEqual({ bound: false, batched: true });
    const bound = note(results([row('a > b', 0.4, 5)], {}, '1'))!;
    expect(bound.figures).toEqual({ bound: true, batched: false });
    expect(wordDiagnostic(bound, 'cli')).not.toContain('--cpus');
    expect(wordDiagnostic(bound, 'cli')).toContain('--batch n');
    expect(wordDiagnostic(bound, 'cli')).toContain("five benchmarks to a process, that first suite's pairs spread ±6.1%");
    expect(wordDiagnostic(bound, 'cli')).not.toContain('two others');
    // two CPUs are no binding to one
    expect(note(results([row('a > b', 0.4, 5)], { batch: 5 }, '0-1'))!.figures).toEqual({ bound: false, batched: true });
    // pairs run at once (--pair-runs auto, the default where the machine allows): every run had one CPU
    const atOnce = results([row('a > b', 0.4, 5)]);
    atOnce.settings = { ...atOnce.settings, pairRuns: 'auto', atOnce: "at once: both sides of every pair started together, one on CPU 0 and one on CPU 1, the pair's coin choosing which" };
    expect(note(atOnce)!.figures).toEqual({ bound: true, batched: false });
    expect(wordDiagnostic(note(atOnce)!, 'cli')).not.toContain('--cpus');
    // where they ran in turn all the same, the runs were not bound by it
    const inTurn = results([row('a > b', 0.4, 5)]);
    inTurn.settings = { ...inTurn.settings, pairRuns: 'auto', atOnce: "in turn: taskset is missing (util-linux's taskset binds each side to its CPU)" };
    expect(note(inTurn)!.figures).toEqual({ bound: false, batched: false });
    const both = judgeResults(results([row('a > b', 0.4, 5)], { batch: 5 }, '1'), OPTIONS).benchmarks[0]!;
    expect(codes(both)).toContain('high-noise');
    expect(codes(both)).not.toContain('js-noise');
  });

  it('never for a quiet benchmark, nor for another format', () => {
    expect(codes(judgeResults(results([row('a > b', 0.002, 7)]), OPTIONS).benchmarks[0])).not.toContain('js-noise');
    for (const format of ['go', 'pytest-benchmark', 'criterion']) {
      const r = results([row('a > b', 0.4, 7)]);
      r.settings = { benchmarks: [{ name: RUN, run: RUN, format }] };
      const b = judgeResults(r, OPTIONS).benchmarks[0]!;
      expect(codes(b), format).toContain('high-noise');
      expect(codes(b), format).not.toContain('js-noise');
    }
    for (const format of ['mitata', 'benchmarkjs']) {
      const r = results([row('a > b', 0.4, 7)]);
      r.settings = { benchmarks: [{ name: RUN, run: RUN, format }] };
      expect(codes(judgeResults(r, OPTIONS).benchmarks[0]), format).toContain('js-noise');
    }
  });

  it('many: one line in the terminal for all of them, not one per benchmark', () => {
    const rows = ['feed small', 'feed large', 'attributes', 'text'].map((n, i) => row(`xml.bench.ts > parse-xml > ${n}`, 0.4, 11 + i));
    const text = terminalReport(reportModel(judgeResults(results(rows), OPTIONS), { failOn: 'regression' }), { color: false });
    expect(text).toContain('4 of the noisy benchmarks are JavaScript benchmarks whose runs can cut their noise');
    expect(text.match(/--batch n/g)).toHaveLength(1);
    expect(text.match(/--cpus 1/g)).toHaveLength(1);
  });
});
