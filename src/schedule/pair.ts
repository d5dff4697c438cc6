/**
 * Measuring: one side's run of a unit, and one pair (both sides in one request to the runner, so
 * the two runs follow each other with nothing in between; or, at once (`--pair-runs auto` where
 * the machine allows, or `at-once`), both started together, each on a CPU of its own:
 * config/at-once.ts). A failed run is counted against its
 * job; a retriable failure (a non-zero exit, a crash) is measured again up to
 * MAX_CONSECUTIVE_FAILURES times in a row, so a flaky command does not end the comparison.
 */
import { join } from 'node:path';
import type { Spec } from '../config/spec.ts';
import { isHarnessFormat } from '../harness/index.ts';
import { isSimpleCommand } from '../harness/filter-text.ts';
import { countingRule } from '../harness/registry.ts';
import type { HarnessFormat } from '../harness/types.ts';
import { COUNT_UNIT, countedRuns, countIterations, countRowName, perIteration } from './count-runs.ts';
import { harnessOf } from '../harness/registry.ts';
import { quickRun, runFiles, selectBenchmarks, trimmedRun, wholeSuite, type Selection, type Sizing } from '../harness/select.ts';
import { HarnessParseError } from '../harness/types.ts';
import type { FreshCopier } from '../measure/fresh-copy.ts';
import { harnessFailureDetail } from '../measure/harness-failure.ts';
import type { InstructionCounter } from '../measure/instructions.ts';
import { addCalibration, calibrationRequest } from '../measure/overhead.ts';
import type { RunRequest, RunResult } from '../measure/one-run.ts';
import { clearRunFiles, type RunFiles } from '../measure/run-files.ts';
import { afterWarmup, samplesOf, type RowSample } from '../measure/samples.ts';
import type { Revision, Side } from '../revisions/prepare.ts';
import type { Failure } from '../results/schema.ts';
import type { Runner } from './runner.ts';
import type { Job, LoopState, PairingUnit } from './state.ts';
import { selectionOf, stopJob } from './state.ts';

/** A side that fails this many runs in a row fails its benchmark (a flaky 1-in-10 failure is retried). */
const MAX_CONSECUTIVE_FAILURES = 3;

export interface MeasureContext {
  spec: Spec;
  base: Revision;
  head: Revision;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  counter: InstructionCounter | null;
  /** `--fresh-copy auto`: replaces a command's program with a copy of itself before each run (measure/fresh-copy.ts); absent: off */
  freshCopy?: FreshCopier;
  runner: Runner;
  state: LoopState;
  /** the folder under which each side's runs write the files pairbench reads (harness.ts, `Harness.files`); absent: none are */
  runFiles?: string;
  log(line: string): void;
}

/** What a unit's run executes: the whole suite (`select` null) or the named benchmarks. */
export interface Target {
  job: Job;
  select: string[] | null;
  /** how the run is sized: Go's iteration count and repetitions (`--iterations fixed`, `--design auto`), Google Benchmark's minimum time and repetitions */
  sizing?: Sizing;
}

/** One pair's samples per side, and what each side's process took (ms; absent when the runs went separately). */
export type PairSamples = Record<Side, RowSample[]> & { wallMs?: Record<Side, number> };

export class RunFailure extends Error {
  readonly side: Side;
  readonly run: RunResult | null;
  readonly kind: Failure['kind'];
  readonly retriable: boolean;
  /** false for a run made again for pairbench's own reason (a refused quick flag): not the command's failure, not counted */
  readonly counted: boolean;
  constructor(side: Side, kind: Failure['kind'], message: string, run: RunResult | null, retriable: boolean, counted = true) {
    super(message);
    this.side = side;
    this.kind = kind;
    this.run = run;
    this.retriable = retriable;
    this.counted = counted;
  }
}

const aborted = (ctx: MeasureContext) => ctx.signal?.aborted === true;

/**
 * The quick run of a target that selects one benchmark (select.ts, `quickRun`: Criterion's
 * `--quick`), unless its job's harness refused it; null otherwise.
 */
function quickOf(ctx: MeasureContext, target: Target): { command: string; added: string } | null {
  const job = target.job;
  const bench = job.bench;
  if (job.quickRefused || target.select?.length !== 1 || ctx.runFiles === undefined) return null;
  return quickRun(trimmedRun(bench.run, bench.format, bench.design), bench.run, bench.format, bench.design, ctx.env);
}

function selection(ctx: MeasureContext, target: Target): Selection {
  const bench = target.job.bench;
  const run = quickOf(ctx, target)?.command ?? trimmedRun(bench.run, bench.format, bench.design);
  if (target.select && isHarnessFormat(bench.format)) return selectBenchmarks(run, bench.format, target.select, target.sizing);
  return wholeSuite(run, isHarnessFormat(bench.format) ? bench.format : undefined, target.sizing);
}

/** Where a side's run writes the files pairbench reads (measure/run-files.ts), or null when it writes none. */
function filesOf(ctx: MeasureContext, target: Target, side: Side): RunFiles | null {
  if (ctx.runFiles === undefined) return null;
  const bench = target.job.bench;
  const reading = runFiles(bench.run, bench.format, bench.design, ctx.env);
  return reading ? { reading, folder: join(ctx.runFiles, side) } : null;
}

/**
 * The CPUs a side's run is bound to: at once (config/at-once.ts), a run outside a pair (a warm-up, a
 * counted run) on its side's CPU of a base-first pair; else `--cpus`, or none.
 */
function cpusOf(ctx: MeasureContext, side: Side): { cpus?: string } {
  const cpus = ctx.spec.atOnce?.cpus?.[side === 'base' ? 0 : 1] ?? ctx.spec.cpus;
  return cpus ? { cpus } : {};
}

/** The requests of one side's run: its `--prepare` (stopping the rest if it fails), then the run. */
function sideRequests(ctx: MeasureContext, target: Target, side: Side, cpu?: string): { prepare: RunRequest | null; run: RunRequest } {
  const bench = target.job.bench;
  const dir = (side === 'base' ? ctx.base : ctx.head).dir;
  const common = { cwd: dir, env: ctx.env, timeoutMs: ctx.spec.timeoutMs, ...(cpu ? { cpus: cpu } : cpusOf(ctx, side)), ...(ctx.signal ? { signal: ctx.signal } : {}) };
  const sel = selection(ctx, target);
  const files = filesOf(ctx, target, side);
  return {
    prepare: bench.prepare ? { ...common, command: bench.prepare, captureStdout: false, stopOnFailure: true } : null,
    run: { ...common, env: { ...ctx.env, ...sel.env, ...(files ? { [files.reading.variable]: files.folder } : {}) }, command: sel.command, ...(bench.shell ? { shell: bench.shell } : {}), captureStdout: bench.format !== 'time', stopOnFailure: true },
  };
}

/**
 * The samples of a run of `target`. For a selection, only the selected benchmarks and their extra
 * metrics (`<name> (<metric>)`) count: a Go filter over several levels may run a few more.
 */
function keep(target: Target, samples: RowSample[]): RowSample[] {
  if (!target.select) return samples;
  const wanted = new Set(target.select);
  return samples.filter((s) => wanted.has(s.name) || target.select!.some((n) => s.name.startsWith(`${n} (`) && s.name.endsWith(')')));
}

/** One side's samples from its results, or the RunFailure that says what went wrong. */
function interpret(ctx: MeasureContext, target: Target, side: Side, prep: RunResult | null, run: RunResult): RowSample[] {
  const bench = target.job.bench;
  if (prep) {
    if (prep.outcome === 'cancelled') throw new RunFailure(side, 'signal', 'interrupted', prep, false);
    if (prep.outcome !== 'ok') throw new RunFailure(side, prep.outcome === 'timeout' ? 'timeout' : 'exit', `--prepare failed in ${side} (${describe(prep)})`, prep, prep.outcome !== 'timeout');
  }
  if (run.outcome === 'cancelled') throw new RunFailure(side, 'signal', 'interrupted', run, false);
  if (run.outcome === 'timeout') throw new RunFailure(side, 'timeout', `${side} timed out after ${ctx.spec.timeoutMs} ms (--timeout); its process tree was killed`, run, false);
  const quick = quickOf(ctx, target);
  if (run.outcome === 'exit' && quick !== null && harnessOf(bench.format)?.quickRefused?.(`${run.stdout}\n${run.outputTail}`)) {
    // an older harness without the quick run (Criterion before 0.4): this job's runs go as written from now on, and the run is made again, not counted as a failure
    target.job.quickRefused = true;
    ctx.log(`${side}'s run refused ${quick.added} (a version without it): ${bench.name === bench.run ? 'every run' : `every run of ${bench.name}`} goes without it from now on`);
    throw new RunFailure(side, 'exit', `${side}'s run refused ${quick.added}`, run, true, false);
  }
  if (run.outcome !== 'ok') {
    // a harness that writes its errors into its report: what it said, where the last lines only say where the report went
    const detail = run.outcome === 'exit' && isHarnessFormat(bench.format) ? harnessFailureDetail(bench.format, run, sideRequests(ctx, target, side).run) : '';
    throw new RunFailure(side, run.outcome === 'spawn' ? 'spawn' : run.outcome === 'signal' ? 'signal' : 'exit', `${side}'s command failed (${describe(run)}${detail})`, run, true);
  }
  try {
    const unnamed = quick !== null ? { unnamed: target.select![0]! } : {};
    return afterWarmup(keep(target, samplesOf(bench, run, { prefix: ctx.spec.prefixNames ?? ctx.spec.benchmarks.length > 1, files: filesOf(ctx, target, side), ...unnamed })), target.sizing?.warmup ?? 0);
  } catch (err) {
    if (err instanceof HarnessParseError) throw new RunFailure(side, 'parse', `${side}'s output could not be read as --format ${bench.format}: ${err.message}`, run, false);
    throw err; // MetricUnavailable: the engine reports it
  }
}

/** The run itself is counted (`--format time`); a harness suite's benchmarks are counted one by one (count-runs.ts). */
const counts = (ctx: MeasureContext, job: Job): boolean => !!(job.bench.format === 'time' && job.bench.metrics.includes('instructions') && ctx.counter);

/** A harness suite measured for instructions: each benchmark of a unit is counted on its own (count-runs.ts). */
export const countsPerBenchmark = (ctx: MeasureContext, job: Job): boolean => !!(job.bench.format !== 'time' && job.bench.metrics.includes('instructions') && ctx.counter);

/** Whether the unit's count rows (unit `instructions`) or its other rows all exist and have settled: that lens may skip the pair. */
function lensSettled(unit: PairingUnit, counted: boolean): boolean {
  const rows = unit.rows.filter((r) => (r.unit === COUNT_UNIT) === counted);
  return rows.length > 0 && rows.every((r) => r.settled === true);
}

/**
 * One side's instruction counts of the unit's benchmarks: for each, a run of N and one of M
 * iterations under the counter, and their difference per iteration (count-runs.ts), as the
 * sample of the row `<name> (instructions)`.
 */
async function countSide(ctx: MeasureContext, unit: PairingUnit, side: Side): Promise<RowSample[]> {
  const job = unit.job;
  const bench = job.bench;
  const format = bench.format as HarnessFormat;
  const rule = countingRule(format)!;
  const dir = (side === 'base' ? ctx.base : ctx.head).dir;
  const prefix = ctx.spec.prefixNames ?? ctx.spec.benchmarks.length > 1;
  const out: RowSample[] = [];
  for (const name of selectionOf(unit) ?? []) {
    const n = unit.countIterations?.[name] ?? countIterations(ctx.counter!, rule.setupIterations, null);
    const runs = countedRuns(rule, ctx.counter!, bench.run, (command) => selectBenchmarks(command, format, [name]), ctx.env, n);
    if (runs === null) throw new RunFailure(side, 'exit', rule.flagsAt === 'end' ? 'instruction counts per benchmark append the iteration count to the run command, which is not one simple command' : 'instruction counts per benchmark put the iteration count right after the run command\'s {benchmark} placeholder, and it has none', null, false);
    const counted: number[] = [];
    for (const r of runs) {
      if (bench.prepare) {
        const prep = (await ctx.runner([{ cwd: dir, env: ctx.env, timeoutMs: ctx.spec.timeoutMs, command: bench.prepare, captureStdout: false, stopOnFailure: true, ...(ctx.signal ? { signal: ctx.signal } : {}) }]))[0]!;
        if (prep.outcome !== 'ok') interpret(ctx, { job, select: [name] }, side, prep, prep);
      }
      const req: RunRequest = { cwd: dir, env: r.env, timeoutMs: ctx.spec.timeoutMs, command: r.command, captureStdout: true, stopOnFailure: true, countInstructions: ctx.counter!, countInside: isSimpleCommand(r.command), ...(bench.shell ? { shell: bench.shell } : {}), ...cpusOf(ctx, side), ...(ctx.signal ? { signal: ctx.signal } : {}) };
      const run = (await ctx.runner([req]))[0]!;
      const refused = rule.refusal?.(`${run.stdout}\n${run.outputTail}`) ?? null;
      if (refused !== null) throw new RunFailure(side, 'exit', refused, run, false);
      if (run.outcome !== 'ok') interpret(ctx, { job, select: [name] }, side, null, run);
      if (run.instructions === undefined || run.instructions === null) throw new RunFailure(side, 'parse', `${side}'s counted run of ${name} gave no instruction count (${ctx.counter})`, run, true);
      counted.push(run.instructions);
    }
    const per = perIteration(counted[0]!, counted[1]!, runs[0]!.iterations, runs[1]!.iterations);
    if (per === null) throw new RunFailure(side, 'parse', `${side}'s run of ${name} counted ${counted[0]} instructions for ${runs[0]!.iterations} iterations and ${counted[1]} for ${runs[1]!.iterations}: no more for more iterations`, null, true);
    const rowName = countRowName(name);
    out.push({ key: prefix ? `${bench.name}/${rowName}` : rowName, name: rowName, value: per, unit: COUNT_UNIT, direction: 'lower-is-better' });
  }
  return out;
}

/** countSide, retrying a failed run as measureSide does; null when the job stopped. */
function countSideRetrying(ctx: MeasureContext, unit: PairingUnit, side: Side): Promise<RowSample[] | null> {
  return retrying(ctx, unit.job, side, () => countSide(ctx, unit, side));
}

/** Before a side's run, not timed: its program a fresh copy of itself (`--fresh-copy`), and the folder it writes its files to emptied. */
function refreshProgram(ctx: MeasureContext, target: Target, side: Side): void {
  ctx.freshCopy?.(target.job.bench.run, (side === 'base' ? ctx.base : ctx.head).dir);
  const files = filesOf(ctx, target, side);
  if (files) clearRunFiles(files.folder);
}

async function runSide(ctx: MeasureContext, target: Target, side: Side): Promise<RowSample[]> {
  refreshProgram(ctx, target, side);
  const { prepare, run: request } = sideRequests(ctx, target, side);
  const prep = prepare ? (await ctx.runner([prepare]))[0]! : null;
  if (prep && prep.outcome !== 'ok') return interpret(ctx, target, side, prep, prep);
  const job = target.job;
  // valgrind slows a run tens of times: wall, cpu and rss then come from a run of their own.
  const separate = counts(ctx, job) && ctx.counter === 'valgrind' && job.bench.metrics.some((m) => m !== 'instructions');
  let run = (await ctx.runner([counts(ctx, job) && !separate ? { ...request, countInstructions: ctx.counter! } : request]))[0]!;
  if (separate && run.outcome === 'ok') {
    const counted = (await ctx.runner([{ ...request, countInstructions: ctx.counter! }]))[0]!;
    run = counted.outcome === 'ok' ? { ...run, instructions: counted.instructions ?? null } : counted;
  }
  return interpret(ctx, target, side, prep, run);
}

/**
 * Counts a failed run of one side; true when it may be measured again (a retriable failure, fewer
 * than MAX_CONSECUTIVE_FAILURES in a row), else the job stops with the failure recorded.
 */
export function countFailure(ctx: MeasureContext, job: Job, err: RunFailure): boolean {
  if (!err.counted) return true;
  const side = err.side;
  job.failedRuns[side]++;
  job.consecutiveFailures[side]++;
  if (err.retriable && job.consecutiveFailures[side] < MAX_CONSECUTIVE_FAILURES) {
    ctx.log(`warning: ${job.bench.name}: ${err.message}; retrying (${job.consecutiveFailures[side]}/${MAX_CONSECUTIVE_FAILURES - 1})`);
    return true;
  }
  job.failure = {
    benchmark: job.bench.name,
    side,
    kind: err.kind,
    exitCode: err.run?.exitCode ?? null,
    signal: err.run?.signal ?? null,
    stderrTail: err.run?.outputTail.slice(-4000) ?? '',
    message: err.retriable ? `${err.message}, ${MAX_CONSECUTIVE_FAILURES} times in a row` : err.message,
  };
  stopJob(ctx.state, job, 'error');
  job.stoppedBecause = 'error';
  ctx.state.failed = true;
  ctx.log(`error: ${job.bench.name}: ${job.failure.message}`);
  return false;
}

/** Runs one side, retrying a failed run, so a flaky command does not end the comparison; null when the job stopped. */
export function measureSide(ctx: MeasureContext, target: Target, side: Side): Promise<RowSample[] | null> {
  return retrying(ctx, target.job, side, () => runSide(ctx, target, side));
}

/** One side's attempt, made again after a retriable failure (countFailure); null when the job stopped. */
async function retrying(ctx: MeasureContext, job: Job, side: Side, attempt: () => Promise<RowSample[]>): Promise<RowSample[] | null> {
  for (;;) {
    try {
      const samples = await attempt();
      job.consecutiveFailures[side] = 0;
      return samples;
    } catch (err) {
      if (!(err instanceof RunFailure)) throw err;
      if (aborted(ctx)) return null;
      if (!countFailure(ctx, job, err)) return null;
    }
  }
}

/**
 * Both sides of a pair in one request to the runner (each after its --prepare), so the two runs
 * follow each other with no round trip through Node. Null when a run failed and may be retried
 * (the pair is measured again side by side), 'stop' when the job stopped on it or the comparison
 * was interrupted.
 */
async function pairInOneRequest(ctx: MeasureContext, target: Target, sides: readonly Side[]): Promise<PairSamples | 'stop' | null> {
  for (const side of sides) refreshProgram(ctx, target, side);
  const plan = sides.map((side) => ({ side, ...sideRequests(ctx, target, side) }));
  const reqs = plan.flatMap((p) => (p.prepare ? [p.prepare, p.run] : [p.run]));
  // The shell's calibration run goes last in the same request, sharing the machine's moment with the pair.
  const job = target.job;
  const calibration = job.calibration && plan.length > 0 ? calibrationRequest(plan[plan.length - 1]!.run) : null;
  const results = await ctx.runner(calibration ? [...reqs, calibration] : reqs);
  if (calibration) addCalibration(job.calibration!, results.pop()!);
  const got: Partial<Record<Side, RowSample[]>> = {};
  const wallMs: Partial<Record<Side, number>> = {};
  let k = 0;
  for (const p of plan) {
    const prep = p.prepare ? results[k++]! : null;
    const run = results[k++]!;
    wallMs[p.side] = run.wallMs;
    // skipped: an earlier run of this request failed, and that failure was handled there
    if (prep?.outcome === 'skipped' || (run.outcome === 'skipped' && (!prep || prep.outcome === 'ok'))) return null;
    try {
      got[p.side] = interpret(ctx, target, p.side, prep, run);
      target.job.consecutiveFailures[p.side] = 0;
    } catch (err) {
      if (!(err instanceof RunFailure)) throw err;
      if (aborted(ctx)) return 'stop';
      return countFailure(ctx, target.job, err) ? null : 'stop';
    }
  }
  return { ...(got as Record<Side, RowSample[]>), wallMs: wallMs as Record<Side, number> };
}

/**
 * Both sides of a pair at once (`--pair-runs auto` or `at-once`, config/at-once.ts): the first side of the
 * coin's order on the first of the two CPUs, the other on the second. Their `--prepare` commands go
 * first, together, then both runs are started together, each through a run helper of its own, so
 * that the two runs share the machine's moment. The shell's calibration run follows, alone, on the
 * first CPU. Null when a run failed and may be retried (the pair is measured at once again), 'stop'
 * when the job stopped on it or the comparison was interrupted.
 */
async function pairAtOnce(ctx: MeasureContext, target: Target, sides: readonly Side[], cpus: readonly [string, string]): Promise<PairSamples | 'stop' | null> {
  for (const side of sides) refreshProgram(ctx, target, side);
  const plan = sides.map((side, i) => ({ side, ...sideRequests(ctx, target, side, cpus[i]) }));
  const preps = await Promise.all(plan.map(async (p) => (p.prepare ? (await ctx.runner([p.prepare]))[0]! : null)));
  const prepared = preps.every((r) => r === null || r.outcome === 'ok');
  const runs = prepared ? await Promise.all(plan.map(async (p) => (await ctx.runner([p.run]))[0]!)) : null;
  const job = target.job;
  if (runs && job.calibration) addCalibration(job.calibration, (await ctx.runner([calibrationRequest(plan[0]!.run)]))[0]!);
  const got: Partial<Record<Side, RowSample[]>> = {};
  const wallMs: Partial<Record<Side, number>> = {};
  for (const [i, p] of plan.entries()) {
    const prep = preps[i]!;
    // a side whose --prepare failed is the failure; the other side's run was not made
    if (!runs && prep?.outcome === 'ok') continue;
    const run = runs ? runs[i]! : prep!;
    wallMs[p.side] = run.wallMs;
    try {
      got[p.side] = interpret(ctx, target, p.side, prep, run);
      job.consecutiveFailures[p.side] = 0;
    } catch (err) {
      if (!(err instanceof RunFailure)) throw err;
      if (aborted(ctx)) return 'stop';
      return countFailure(ctx, job, err) ? null : 'stop';
    }
  }
  return { ...(got as Record<Side, RowSample[]>), wallMs: wallMs as Record<Side, number> };
}

/**
 * One pair of a unit, in the given order: both sides back to back. When a run failed and may be
 * retried, the pair is measured again side by side (each side with its retries). Null when the
 * job stopped or the comparison was interrupted.
 */
export async function measurePair(ctx: MeasureContext, unit: PairingUnit, sides: readonly Side[]): Promise<PairSamples | null> {
  if (!countsPerBenchmark(ctx, unit.job)) return measureTimedPair(ctx, unit, sides);
  // a harness suite counted per benchmark: its own rows (unless only instructions are measured, or
  // they have settled), then each side's counts, each lens until its rows settle
  const timed = unit.job.bench.metrics.includes('wall') && !lensSettled(unit, false) ? await measureTimedPair(ctx, unit, sides) : { base: [], head: [] };
  if (timed === null) return null;
  if (lensSettled(unit, true)) return timed;
  const got: PairSamples = { base: [...timed.base], head: [...timed.head], ...(timed.wallMs ? { wallMs: timed.wallMs } : {}) };
  for (const side of sides) {
    const samples = await countSideRetrying(ctx, unit, side);
    if (!samples) return null;
    got[side] = got[side].concat(samples);
  }
  return got;
}

async function measureTimedPair(ctx: MeasureContext, unit: PairingUnit, sides: readonly Side[]): Promise<PairSamples | null> {
  const target: Target = { job: unit.job, select: selectionOf(unit), ...(unit.sizing ? { sizing: unit.sizing } : {}) };
  const atOnce = ctx.spec.atOnce?.cpus;
  if (atOnce && !counts(ctx, unit.job)) {
    // at once until the pair is measured: a retried pair is measured at once again, never in turn
    for (;;) {
      const got = await pairAtOnce(ctx, target, sides, atOnce);
      if (got === 'stop') return null;
      if (got) return got;
    }
  }
  if (!counts(ctx, unit.job)) {
    const got = await pairInOneRequest(ctx, target, sides);
    if (got === 'stop') return null;
    if (got) return got;
  }
  const got: Partial<Record<Side, RowSample[]>> = {};
  for (const side of sides) {
    const samples = await measureSide(ctx, target, side);
    if (!samples) return null;
    got[side] = samples;
  }
  return got as Record<Side, RowSample[]>;
}

function describe(run: RunResult): string {
  if (run.outcome === 'signal') return `killed by ${run.signal}`;
  if (run.outcome === 'spawn') return 'could not be started';
  return `exit code ${run.exitCode}`;
}
