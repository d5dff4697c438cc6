/**
 * The schedule: warmup, then rounds of randomized pairs until every benchmark is decided, precise
 * enough, or out of budget.
 *
 * A round measures one pair of every benchmark still running, in a freshly shuffled order (as
 * folly's adaptive mode does); within a pair, a seeded coin decides whether base or head runs
 * first, so that nothing the machine does in time (drift, a first-slot advantage) can favour one
 * side. Stopping rules are checked between rounds and never look at a p-value crossing alpha
 * (statistics.md, "When to stop").
 */
import type { BenchmarkSpec, Spec } from '../config/spec.ts';
import { HarnessParseError } from '../harness/types.ts';
import type { InstructionCounter } from '../measure/instructions.ts';
import { addCalibration, calibratedMetric, calibrates, calibrationRequest, type Calibration } from '../measure/overhead.ts';
import { runCommands, type RunRequest, type RunResult } from '../measure/run.ts';
import { samplesOf, type RowSample } from '../measure/samples.ts';
import type { Revision, Side } from '../revisions/prepare.ts';
import { show } from '../config/errors.ts';
import { LIMITS, type Failure } from '../results/schema.ts';
import { estimateFileBytes } from '../results/writer.ts';
import { stopCheck } from '../stats/index.ts';
import { overheadEstimate, subtractOverhead } from '../stats/overhead.ts';
import type { Direction, Pair, StopReason } from '../stats/types.ts';
import { baseFirst, rngFor, shuffle } from './random.ts';

/** One result row: one benchmark (and metric) that gets one pair per round of its job. */
export interface Row {
  key: string;
  job: string;
  unit: string;
  direction: Direction;
  metric?: string;
  threshold?: number;
  pairs: Pair[];
  /** the raw samples of the calibration runs (`sh -c ''`) in this row's metric, subtracted when judged */
  overhead?: number[];
  seenBase: number;
  seenHead: number;
  stoppedBecause?: StopReason;
  /** last stopping check, for progress lines */
  estimate: number | null;
  halfWidth: number | null;
}

/** One command measured in pairs: a `--run`, or one benchmark of a config file. */
export interface Job {
  bench: BenchmarkSpec;
  pairs: number;
  running: boolean;
  stoppedBecause?: StopReason;
  failedRuns: { base: number; head: number };
  consecutiveFailures: { base: number; head: number };
  pairMsTotal: number;
  /** the shell's calibration runs, one after each pair (measure/overhead.ts); null when not calibrated */
  calibration: Calibration | null;
  failure?: Failure & { benchmark: string };
}

export interface Progress {
  round: number;
  pairsDone: number;
  jobsRunning: number;
  jobsTotal: number;
  elapsedMs: number;
  /** a rough time left: the smaller of the budget and the pairs still allowed at the current pace */
  remainingMs: number;
  rows: Row[];
}

export interface LoopContext {
  spec: Spec;
  base: Revision;
  head: Revision;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** the instruction counter, when some benchmark measures `instructions` */
  counter: InstructionCounter | null;
  log(line: string): void;
  /** called after every pair, to persist what was measured */
  onPair(state: LoopState): void;
  progress?(p: Progress): void;
}

export interface LoopState {
  jobs: Job[];
  rows: Map<string, Row>;
  rounds: string[][];
  stoppedBecause: StopReason | null;
  /** the budget ran out or an interrupt came in the middle of a round */
  midRound: boolean;
  failed: boolean;
}

/** A side that fails this many runs in a row fails its benchmark (a flaky 1-in-10 failure is retried). */
export const MAX_CONSECUTIVE_FAILURES = 3;

class RunFailure extends Error {
  readonly side: Side;
  readonly run: RunResult | null;
  readonly kind: Failure['kind'];
  readonly retriable: boolean;
  constructor(side: Side, kind: Failure['kind'], message: string, run: RunResult | null, retriable: boolean) {
    super(message);
    this.side = side;
    this.kind = kind;
    this.run = run;
    this.retriable = retriable;
  }
}

export async function runSchedule(ctx: LoopContext): Promise<LoopState> {
  const { spec } = ctx;
  const prefix = spec.benchmarks.length > 1;
  const state: LoopState = {
    jobs: spec.benchmarks.map((bench) => ({
      bench,
      pairs: 0,
      running: true,
      failedRuns: { base: 0, head: 0 },
      consecutiveFailures: { base: 0, head: 0 },
      pairMsTotal: 0,
      calibration: calibrates(bench) ? { wall: [], cpu: [] } : null,
    })),
    rows: new Map(),
    rounds: [],
    stoppedBecause: null,
    midRound: false,
    failed: false,
  };
  const started = Date.now();
  const aborted = () => ctx.signal?.aborted === true;
  // what the results file will hold, so that it never outgrows what `pairbench report` reads (S2)
  let pairsRecorded = 0;
  let nameChars = 0;
  const rowsOfJob = new Map<string, number>();

  const revision = (side: Side) => (side === 'base' ? ctx.base : ctx.head);

  /** The requests of one side's run: its `--prepare` (stopping the rest if it fails), then the run. */
  const sideRequests = (job: Job, side: Side): { prepare: RunRequest | null; run: RunRequest } => {
    const bench = job.bench;
    const common = { cwd: revision(side).dir, env: ctx.env, timeoutMs: spec.timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) };
    return {
      prepare: bench.prepare ? { ...common, command: bench.prepare, captureStdout: false, stopOnFailure: true } : null,
      run: { ...common, command: bench.run, ...(bench.shell ? { shell: bench.shell } : {}), captureStdout: bench.format !== 'time', stopOnFailure: true },
    };
  };

  /** One side's samples from its results, or the RunFailure that says what went wrong. */
  const interpret = (job: Job, side: Side, prep: RunResult | null, run: RunResult): RowSample[] => {
    const bench = job.bench;
    if (prep) {
      if (prep.outcome === 'cancelled') throw new RunFailure(side, 'signal', 'interrupted', prep, false);
      if (prep.outcome !== 'ok') throw new RunFailure(side, prep.outcome === 'timeout' ? 'timeout' : 'exit', `--prepare failed in ${side} (${describe(prep)})`, prep, prep.outcome !== 'timeout');
    }
    if (run.outcome === 'cancelled') throw new RunFailure(side, 'signal', 'interrupted', run, false);
    if (run.outcome === 'timeout') throw new RunFailure(side, 'timeout', `${side} timed out after ${spec.timeoutMs} ms (--timeout); its process tree was killed`, run, false);
    if (run.outcome !== 'ok') throw new RunFailure(side, run.outcome === 'spawn' ? 'spawn' : run.outcome === 'signal' ? 'signal' : 'exit', `${side}'s command failed (${describe(run)})`, run, true);
    try {
      return samplesOf(bench, run, { prefix });
    } catch (err) {
      if (err instanceof HarnessParseError) throw new RunFailure(side, 'parse', `${side}'s output could not be read as --format ${bench.format}: ${err.message}`, run, false);
      throw err; // MetricUnavailable: the engine reports it
    }
  };

  const counts = (job: Job): boolean => !!(job.bench.metrics.includes('instructions') && ctx.counter);

  const runSide = async (job: Job, side: Side): Promise<RowSample[]> => {
    const { prepare, run: request } = sideRequests(job, side);
    const prep = prepare ? (await runCommands([prepare]))[0]! : null;
    if (prep && prep.outcome !== 'ok') return interpret(job, side, prep, prep);
    // valgrind slows a run tens of times: wall, cpu and rss then come from a run of their own.
    const separate = counts(job) && ctx.counter === 'valgrind' && job.bench.metrics.some((m) => m !== 'instructions');
    let run = (await runCommands([counts(job) && !separate ? { ...request, countInstructions: ctx.counter! } : request]))[0]!;
    if (separate && run.outcome === 'ok') {
      const counted = (await runCommands([{ ...request, countInstructions: ctx.counter! }]))[0]!;
      run = counted.outcome === 'ok' ? { ...run, instructions: counted.instructions ?? null } : counted;
    }
    return interpret(job, side, prep, run);
  };

  /**
   * Both sides of a pair in one request to the run helper (each after its --prepare), so the two
   * runs follow each other with no round trip through Node. A failed run is counted; then null
   * when it may be retried (the pair is measured again side by side, each side with its retries),
   * 'stop' when the job stopped on it or the comparison was interrupted.
   */
  const pairBatch = async (job: Job, sides: readonly Side[]): Promise<Partial<Record<Side, RowSample[]>> | 'stop' | null> => {
    const plan = sides.map((side) => ({ side, ...sideRequests(job, side) }));
    const reqs = plan.flatMap((p) => (p.prepare ? [p.prepare, p.run] : [p.run]));
    // The shell's calibration run goes last in the same request, sharing the machine's moment with the pair.
    const calibration = job.calibration && plan.length > 0 ? calibrationRequest(plan[plan.length - 1]!.run) : null;
    const results = await runCommands(calibration ? [...reqs, calibration] : reqs);
    if (calibration) addCalibration(job.calibration!, results.pop()!);
    const got: Partial<Record<Side, RowSample[]>> = {};
    let k = 0;
    for (const p of plan) {
      const prep = p.prepare ? results[k++]! : null;
      const run = results[k++]!;
      // skipped: an earlier run of this request failed, and that failure was handled there
      if (prep?.outcome === 'skipped' || (run.outcome === 'skipped' && (!prep || prep.outcome === 'ok'))) return null;
      try {
        got[p.side] = interpret(job, p.side, prep, run);
        job.consecutiveFailures[p.side] = 0;
      } catch (err) {
        if (!(err instanceof RunFailure)) throw err;
        if (aborted()) return 'stop';
        return failed(job, p.side, err) ? null : 'stop';
      }
    }
    return got;
  };

  /**
   * Counts a failed run of one side; true when it may be measured again (a retriable failure, fewer
   * than MAX_CONSECUTIVE_FAILURES in a row), else the job stops with the failure recorded.
   */
  const failed = (job: Job, side: Side, err: RunFailure): boolean => {
    job.failedRuns[side]++;
    job.consecutiveFailures[side]++;
    if (err.retriable && job.consecutiveFailures[side] < MAX_CONSECUTIVE_FAILURES) {
      ctx.log(`warning: ${job.bench.name}: ${err.message}; retrying (${job.consecutiveFailures[side]}/${MAX_CONSECUTIVE_FAILURES - 1})`);
      return true;
    }
    job.running = false;
    job.stoppedBecause = 'error';
    job.failure = {
      benchmark: job.bench.name,
      side,
      kind: err.kind,
      exitCode: err.run?.exitCode ?? null,
      signal: err.run?.signal ?? null,
      stderrTail: err.run?.outputTail.slice(-4000) ?? '',
      message: err.retriable ? `${err.message}, ${MAX_CONSECUTIVE_FAILURES} times in a row` : err.message,
    };
    state.failed = true;
    ctx.log(`error: ${job.bench.name}: ${job.failure.message}`);
    return false;
  };

  /** Runs one side, retrying a failed run (up to MAX_CONSECUTIVE_FAILURES in a row) so a flaky command does not end the comparison. */
  const attempt = async (job: Job, side: Side): Promise<RowSample[] | null> => {
    for (;;) {
      try {
        const samples = await runSide(job, side);
        job.consecutiveFailures[side] = 0;
        return samples;
      } catch (err) {
        if (!(err instanceof RunFailure)) throw err;
        if (aborted()) return null;
        if (!failed(job, side, err)) return null;
      }
    }
  };


  const record = (job: Job, base: RowSample[], head: RowSample[], order: Pair['order']) => {
    const headByKey = new Map(head.map((s) => [s.key, s]));
    const baseKeys = new Set<string>();
    for (const b of base) {
      baseKeys.add(b.key);
      const row = rowFor(job, b);
      row.seenBase++;
      const h = headByKey.get(b.key);
      if (h) {
        row.seenHead++;
        if (b.value > 0 && h.value > 0) {
          row.pairs.push({ base: b.value, head: h.value, order });
          pairsRecorded++;
        }
      }
    }
    for (const h of head) {
      if (!baseKeys.has(h.key)) rowFor(job, h).seenHead++;
    }
  };

  const rowFor = (job: Job, s: RowSample): Row => {
    let row = state.rows.get(s.key);
    if (!row) {
      const threshold = (s.metric ? job.bench.thresholds?.[s.metric] : undefined) ?? job.bench.threshold;
      row = {
        key: s.key,
        job: job.bench.name,
        unit: s.unit,
        direction: s.direction,
        ...(s.metric ? { metric: s.metric } : {}),
        ...(threshold !== undefined ? { threshold } : {}),
        pairs: [],
        ...(job.calibration && calibratedMetric(s.metric) ? { overhead: job.calibration[s.metric] } : {}),
        seenBase: 0,
        seenHead: 0,
        estimate: null,
        halfWidth: null,
      };
      state.rows.set(s.key, row);
      nameChars += s.key.length;
      rowsOfJob.set(job.bench.name, (rowsOfJob.get(job.bench.name) ?? 0) + 1);
    }
    return row;
  };

  /**
   * What a results file cannot hold (S2: `pairbench report` reads every file `compare` writes): a
   * name longer than LIMITS.nameLength, more than LIMITS.benchmarks benchmarks. Checked on the first
   * pair that shows it, with a message that says what to do.
   */
  const beyondLimits = (job: Job, got: Record<Side, RowSample[]>): RunFailure | null => {
    for (const side of ['base', 'head'] as const) {
      const long = got[side].find((s) => s.key.length > LIMITS.nameLength);
      if (long) {
        return new RunFailure(side, 'parse', `${side}'s output names a benchmark of ${long.key.length} characters (${show(long.key)}); a results file holds names of at most ${LIMITS.nameLength} characters, as many as pairbench report reads: shorten the name, or leave the benchmark out with filter`, null, false);
      }
    }
    const fresh = new Set<string>();
    for (const side of ['base', 'head'] as const) for (const s of got[side]) if (!state.rows.has(s.key)) fresh.add(s.key);
    if (state.rows.size + fresh.size > LIMITS.benchmarks) {
      const side = got.head.length >= got.base.length ? 'head' : 'base';
      return new RunFailure(side, 'parse', `${side}'s output holds ${got[side].length} benchmarks, ${state.rows.size + fresh.size} in the comparison; a results file holds at most ${LIMITS.benchmarks}, as many as pairbench report reads: measure parts of the suite as config benchmarks with filter, and spread them over jobs with shard`, null, false);
    }
    return null;
  };

  /** True when one more pair of `job` could make the results file larger than LIMITS.fileBytes. */
  const noRoomFor = (job: Job): boolean => {
    const rows = rowsOfJob.get(job.bench.name) ?? 0;
    return rows > 0 && estimateFileBytes(state.rows.size, pairsRecorded + rows, nameChars) > LIMITS.fileBytes;
  };

  const pairOnce = async (job: Job): Promise<boolean> => {
    const order: Pair['order'] = baseFirst(spec.seed, job.bench.name, job.pairs) ? 'base-first' : 'head-first';
    const sides: Side[] = order === 'base-first' ? ['base', 'head'] : ['head', 'base'];
    const t0 = Date.now();
    let got: Partial<Record<Side, RowSample[]>> | null = null;
    if (!counts(job)) {
      const batch = await pairBatch(job, sides);
      if (batch === 'stop') return false;
      got = batch;
    }
    if (!got) {
      got = {};
      for (const side of sides) {
        const samples = await attempt(job, side);
        if (!samples) return false;
        got[side] = samples;
      }
    }
    job.pairMsTotal += Date.now() - t0;
    const beyond = beyondLimits(job, got as Record<Side, RowSample[]>);
    if (beyond) {
      failed(job, beyond.side, beyond);
      return false;
    }
    record(job, got.base!, got.head!, order);
    job.pairs++;
    ctx.onPair(state);
    return true;
  };

  // Warmup: unmeasured runs of each side, alternating, before the first pair.
  for (const job of state.jobs) {
    for (let i = 0; i < spec.warmup && job.running && !aborted(); i++) {
      for (const side of ['base', 'head'] as const) {
        if (job.running && !aborted()) await attempt(job, side);
      }
    }
  }

  const budgetLeft = () => spec.maxTimeMs - (Date.now() - started);
  let lastProgress = 0;
  const emitProgress = (round: number, force = false) => {
    if (!ctx.progress) return;
    const now = Date.now();
    if (!force && now - lastProgress < 250) return;
    lastProgress = now;
    const running = state.jobs.filter((j) => j.running);
    const paceLeft = running.reduce((sum, j) => sum + (j.pairs > 0 ? (j.pairMsTotal / j.pairs) * (spec.maxPairs - j.pairs) : 0), 0);
    ctx.progress({
      round,
      pairsDone: state.jobs.reduce((s, j) => s + j.pairs, 0),
      jobsRunning: running.length,
      jobsTotal: state.jobs.length,
      elapsedMs: now - started,
      remainingMs: Math.max(0, Math.min(budgetLeft(), paceLeft)),
      rows: [...state.rows.values()],
    });
  };

  let round = 0;
  outer: while (state.jobs.some((j) => j.running)) {
    if (aborted()) {
      state.stoppedBecause = 'interrupted';
      break;
    }
    const running = state.jobs.filter((j) => j.running);
    const order = shuffle(running, rngFor(spec.seed, 'round', round));
    state.rounds.push(order.map((j) => j.bench.name));
    for (let k = 0; k < order.length; k++) {
      const job = order[k]!;
      const pace = job.pairs > 0 ? job.pairMsTotal / job.pairs : 0;
      if (budgetLeft() <= 0 || (job.pairs >= spec.minPairs && pace > budgetLeft())) {
        // Out of time: a pair that cannot finish within the budget is not started.
        state.stoppedBecause = 'max-time';
        state.midRound = k > 0;
        for (const j of state.jobs) if (j.running) stop(j, 'max-time');
        break outer;
      }
      if (!job.running) continue;
      if (noRoomFor(job)) {
        // Out of room: the results file must stay within what `pairbench report` reads.
        state.stoppedBecause = 'max-size';
        state.midRound = k > 0;
        ctx.log(`warning: stopped measuring after ${job.pairs} pairs: another pair would make the results file (${state.rows.size} benchmarks, ${pairsRecorded} pairs) larger than the ${LIMITS.fileBytes / 2 ** 20} MiB that pairbench report reads; to measure more pairs, measure fewer benchmarks per comparison (filter, shard)`);
        for (const j of state.jobs) if (j.running) stop(j, 'max-size');
        break outer;
      }
      const ok = await pairOnce(job);
      if (aborted()) {
        state.stoppedBecause = 'interrupted';
        state.midRound = true;
        break outer;
      }
      if (!ok) continue;
      emitProgress(round);
    }
    for (const job of state.jobs) {
      if (!job.running) continue;
      if (job.pairs >= spec.maxPairs) {
        stop(job, 'max-pairs');
        continue;
      }
      const rows = [...state.rows.values()].filter((r) => r.job === job.bench.name && r.pairs.length > 0);
      const checks = rows.map((row) => {
        const pairs = row.overhead ? subtractOverhead(row.pairs, overheadEstimate({ samples: row.overhead })).pairs : row.pairs;
        const check = stopCheck(pairs, {
          minPairs: spec.minPairs,
          maxPairs: spec.maxPairs,
          precision: spec.precision,
          alpha: spec.alpha,
          threshold: row.threshold ?? spec.threshold,
          outliers: spec.outliers,
        });
        row.estimate = check.estimate;
        row.halfWidth = check.halfWidth;
        return { row, check };
      });
      // A job stops when every one of its rows may stop: a suite runs as a whole.
      if (checks.length > 0 && checks.every(({ check }) => check.stop && check.reason)) {
        for (const { row, check } of checks) row.stoppedBecause = check.reason ?? 'precision';
        job.running = false;
        job.stoppedBecause = checks.some(({ check }) => check.reason === 'decided') ? 'decided' : 'precision';
      }
    }
    emitProgress(round, true);
    round++;
  }
  if (state.stoppedBecause === 'interrupted') {
    for (const j of state.jobs) if (j.running) stop(j, 'interrupted');
  }
  if (!state.stoppedBecause) {
    const reasons = state.jobs.map((j) => j.stoppedBecause);
    state.stoppedBecause = reasons.includes('error') ? 'error' : reasons.includes('max-pairs') ? 'max-pairs' : reasons.includes('precision') ? 'precision' : 'decided';
  }
  return state;

  function stop(job: Job, reason: StopReason) {
    job.running = false;
    job.stoppedBecause = reason;
    for (const row of state.rows.values()) if (row.job === job.bench.name && !row.stoppedBecause) row.stoppedBecause = reason;
  }
}

function describe(run: RunResult): string {
  if (run.outcome === 'signal') return `killed by ${run.signal}`;
  if (run.outcome === 'spawn') return 'could not be started';
  return `exit code ${run.exitCode}`;
}
