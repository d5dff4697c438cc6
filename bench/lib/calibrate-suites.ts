/**
 * Calibration of whole suites through the real schedule: allocation of the budget, futility,
 * stopping, and judging, with a simulated machine behind the schedule's Runner seam
 * (src/schedule/runner.ts) and a simulated clock.
 *
 * A trial is one comparison of a suite of SUITE_SIZE benchmarks, each paired on its own (`--format
 * json` with a `{benchmark}` placeholder, as a user's script would be selected), or several a
 * process (`batch`: a start per run and a share per benchmark, the process's noise shared by its
 * benchmarks, as in a vitest or pytest process). Each benchmark has
 * its own per-run noise, drawn log-uniformly from NOISE_RANGE (some quiet, some hopeless within the
 * budget), on top of a machine shared by all (drift and spikes, as the headline model of
 * calibration.ts); every run takes RUN_MS of the simulated clock. The budget is tight: BUDGET_PAIRS
 * pairs per benchmark on average. A trial is judged as `pairbench compare` judges it (Holm, Tukey,
 * the raised levels after an early stop).
 *
 * What is measured, with the allocation on (the default) and off (every undecided benchmark a pair
 * in every round, none futile): in A/A suites, the family-wise false-alarm rate (a trial with any
 * benchmark called a regression or improvement) and the share of benchmarks significant at any
 * size; in suites where every benchmark is changed by exactly the threshold, the share called
 * unchanged (the equivalence test's error, at most alpha per benchmark); how many benchmarks end
 * unchanged, and how many were stopped as futile.
 */
import { buildSpec, cliNaming } from '../../src/config/spec.ts';
import type { RunRequest, RunResult } from '../../src/measure/one-run.ts';
import { runSchedule, type LoopState } from '../../src/schedule/loop.ts';
import { judge } from '../../src/stats/index.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { BenchmarkInput, Verdict } from '../../src/stats/types.ts';

export const SUITE_SIZE = 16;
export const NOISE_RANGE: readonly [number, number] = [0.005, 0.15];
export const RUN_MS = 50;
export const BUDGET_PAIRS = 60;
/** the sd of a batched process's own shift, on ln of every benchmark's time in it */
export const BATCH_NOISE = 0.02;
const THRESHOLD = 0.02;

export interface SuiteJob {
  kind: 'suite';
  /** the change of the changed benchmarks (`changed`, default all): 0 (A/A), the threshold, or a slowdown in a noisy suite */
  change: number;
  allocation: boolean;
  /** each benchmark's own per-run noise, drawn log-uniformly from this range; default NOISE_RANGE */
  noise?: readonly [number, number];
  /** how many of the benchmarks have the change (the first ones); default all */
  changed?: number;
  alpha: number;
  trials: number;
  seed: number;
  /**
   * benchmarks a process (`--batch`): each run of a batch pays a start (RUN_MS) and a quarter of
   * RUN_MS a benchmark it runs, and its benchmarks share the process's own noise (BATCH_NOISE), as
   * in a vitest or pytest process; default 1, each benchmark paired on its own, no shared noise
   */
  batch?: number;
}

export interface SuiteTrial {
  verdicts: Verdict[];
  significant: number;
  futile: number;
  /** benchmarks with the change called a regression, and those without it called a regression or improvement */
  detected: number;
  falseCalls: number;
  pairs: number;
}

export interface SuiteJobResult extends SuiteJob {
  results: SuiteTrial[];
}

function normal(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** One simulated comparison through runSchedule. */
export async function suiteTrial(job: SuiteJob, seed: number): Promise<SuiteTrial> {
  const rand = mulberry32(seed);
  const z = normal(rand);
  const names = Array.from({ length: SUITE_SIZE }, (_, i) => `b${String(i).padStart(2, '0')}`);
  const range = job.noise ?? NOISE_RANGE;
  const noise = new Map(names.map((n) => [n, Math.exp(Math.log(range[0]) + rand() * Math.log(range[1] / range[0]))]));
  const changed = new Set(names.slice(0, job.changed ?? names.length));
  // the shared machine: AR(1) state (sd 4%, autocorrelation 0.98 per run) and spikes (1.5% of runs, +10-40%)
  let state = 0.04 * z();
  const machine = (): number => {
    state = 0.98 * state + 0.04 * Math.sqrt(1 - 0.98 ** 2) * z();
    return state + (rand() < 0.015 ? Math.log(1.1 + 0.3 * rand()) : 0);
  };
  let clock = 0;
  const batch = job.batch ?? 1;
  const runner = async (requests: readonly RunRequest[]): Promise<RunResult[]> =>
    requests.map((req) => {
      const head = req.cwd === '/head';
      const picked = Object.keys(req.env).filter((k) => k.startsWith('PAIRBENCH_BENCHMARK_')).map((k) => req.env[k]!);
      const selected = picked.length === 0 ? names : picked;
      const ms = batch > 1 ? RUN_MS * (1 + selected.length / 4) : RUN_MS;
      clock += ms;
      const m = machine() + (batch > 1 ? BATCH_NOISE * z() : 0);
      const values = selected.map((name) => ({ name, value: 50 * Math.exp(m + (head && changed.has(name) ? Math.log1p(job.change) : 0) + noise.get(name)! * z()), unit: 'ms' }));
      return { outcome: 'ok', exitCode: 0, signal: null, stdout: JSON.stringify(values), outputTail: '', wallMs: ms, cpuMs: null, maxRssBytes: null };
    });
  // the budget: BUDGET_PAIRS pairs a benchmark on average, at what a pair of its whole batch costs
  const budgetMs = batch > 1 ? (SUITE_SIZE / batch) * BUDGET_PAIRS * 2 * RUN_MS * (1 + batch / 4) : SUITE_SIZE * BUDGET_PAIRS * 2 * RUN_MS;
  const spec = buildSpec(
    {
      format: 'json',
      run: 'simulated {benchmark}',
      seed: String(seed >>> 0),
      alpha: String(job.alpha),
      threshold: `${THRESHOLD * 100}%`,
      'max-time': `${budgetMs / 1000}s`,
      ...(batch > 1 ? { batch: String(batch) } : {}),
      'min-pairs': '10',
      'max-pairs': '200',
      warmup: '0',
      // this machine's model runs one run after another (an AR(1) state per run): the pairs in turn;
      // at once is its own model (bench/calibration.ts, at-once)
      'pair-runs': 'in-turn',
    },
    { cwd: '/', naming: cliNaming },
  );
  const loop: LoopState = await runSchedule({
    spec,
    base: { side: 'base', ref: null, sha: null, dir: '/base' },
    head: { side: 'head', ref: null, sha: null, dir: '/head' },
    env: {},
    counter: null,
    runner,
    clock: () => clock,
    log: () => {},
    onPair: () => {},
    allocation: job.allocation,
  });
  const rows = [...loop.rows.values()].filter((r) => r.pairs.length > 0);
  const inputs: BenchmarkInput[] = rows.map((r) => ({
    name: r.key,
    direction: r.direction,
    pairs: r.pairs,
    ...(r.stoppedBecause === 'precision' || r.stoppedBecause === 'decided' ? { stoppedEarly: true } : {}),
    // measured under the stopping rules, whatever ended it, as results/judge-file.ts judges it
    sequential: true,
  }));
  const j = judge(inputs, { alpha: job.alpha, threshold: THRESHOLD, outliers: 'tukey', correction: 'holm', seed: seed >>> 0 });
  return {
    verdicts: j.benchmarks.map((b) => b.verdict),
    significant: j.benchmarks.filter((b) => b.change !== null && b.change.pAdjusted < job.alpha).length,
    futile: loop.units.filter((u) => u.stoppedBecause === 'futile').length,
    detected: j.benchmarks.filter((b) => changed.has(b.name) && b.verdict === 'regression').length,
    falseCalls: j.benchmarks.filter((b) => !(changed.has(b.name) && job.change !== 0) && (b.verdict === 'regression' || b.verdict === 'improvement')).length,
    pairs: rows.reduce((s, r) => s + r.pairs.length, 0),
  };
}

export async function runSuiteJob(job: SuiteJob): Promise<SuiteJobResult> {
  const results: SuiteTrial[] = [];
  for (let t = 0; t < job.trials; t++) results.push(await suiteTrial(job, job.seed * 7919 + t));
  return { ...job, results };
}
