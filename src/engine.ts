/**
 * The engine: one comparison from a Spec to a judged results file. The CLI and the action both
 * build a Spec and call `runCompare`; neither does anything the other cannot.
 *
 *   revisions (worktrees, builds) -> schedule (rounds of random-order pairs) -> results file
 *   (written after every pair) -> stats (judged from the raw pairs) -> results file (final)
 */
import { UsageError } from './config/errors.ts';
import { COMPARE_OPTIONS, recordedKey } from './config/options.ts';
import { keepAtOnce } from './config/at-once.ts';
import type { Spec } from './config/spec.ts';
import { parseMinChange } from './config/values.ts';
import { measuringTimer, type Timer } from './measure/helper.ts';
import { detectCounter, INSTALL_HINT, type InstructionCounter } from './measure/instructions.ts';
import { overheadRecord } from './measure/overhead.ts';
import { sampleCpuLoad } from './measure/cpu-load.ts';
import { machineEnvironment, toolchainVersions, toolsFor } from './measure/environment.ts';
import { toolchainDifferences } from './results/environment-differences.ts';
import { runCommands } from './measure/one-run.ts';
import { MetricUnavailable } from './measure/samples.ts';
import { quickRun, runFiles, runTrim, trimmedRun } from './harness/select.ts';
import { BuildFailure, prepareRevisions, type PreparedRevisions, type Revision } from './revisions/prepare.ts';
import type { BuildCache } from './revisions/build-cache.ts';
import { changedFiles, selectByPaths, SelectionInterrupted, type PathSelection } from './revisions/changed-paths.ts';
import { decideGate } from './results/gate.ts';
import { JudgingInterrupted, judgeResultsCooperatively } from './results/judge-file.ts';
import type { BenchmarkResult, Results } from './results/schema.ts';
import { ResultsWriter } from './results/writer.ts';
import { selectShard } from './schedule/shard.ts';
import { designRecord } from './schedule/choose-design.ts';
import { runSchedule, type LoopState, type Progress } from './schedule/loop.ts';
import type { Clock, Runner } from './schedule/runner.ts';
import { pairedTestFor } from './stats/index.ts';
import type { JudgeOptions } from './stats/types.ts';
import { VERSION } from './version.ts';

export interface EngineHooks {
  log(line: string): void;
  progress?(p: Progress): void;
  signal?: AbortSignal;
  /** environment for the user's commands (the action removes its token from it) */
  env?: Record<string, string | undefined>;
  /** the base build cache and who writes it (the action's or the command line's), where build-cache is set */
  buildCache?: BuildCache;
  /** a base already checked out and built, shared by several comparisons (a bisect's steps): neither built nor removed by this one */
  base?: Revision;
  /**
   * What the comparison measures with, each defaulting to the real one: the runner of the pairs'
   * commands (`runCommands`: real processes through the run helper), the clock of the budget, the
   * pace and the results' timestamps (`Date.now`), the timer (`measuringTimer`) and the instruction
   * counter (`detectCounter`). The command line's hidden debug mode (cli/debug.ts,
   * PAIRBENCH_DEBUG_RUNNER) passes scripted ones, so that the whole pipeline runs without a process
   * and prints the same text on every run. Builds and git worktrees stay real.
   */
  runner?: Runner;
  clock?: Clock;
  timer?: () => Promise<Timer>;
  counter?: () => Promise<InstructionCounter | null>;
  /** each CPU's share kept busy by other work just before measuring (`sampleCpuLoad`, /proc/stat), for `--pair-runs auto`; the debug mode's is scripted */
  cpuLoad?: (cpus: readonly string[]) => Promise<ReadonlyMap<string, number> | null>;
}

export type ExitCode = 0 | 1 | 2 | 3 | 130;

export interface Outcome {
  results: Results;
  exitCode: ExitCode;
  /** absolute path of the results file */
  resultsPath: string;
}

/** How a comparison's results are judged, from its options; the test of no change follows the outlier rule (`pairedTestFor`). */
function judgeOptions(spec: Pick<Spec, 'alpha' | 'threshold' | 'outliers' | 'correction' | 'minChange'>): JudgeOptions {
  return { alpha: spec.alpha, threshold: spec.threshold, outliers: spec.outliers, test: pairedTestFor(spec.outliers), correction: spec.correction, ...(spec.minChange ? { minChange: parseMinChange('--min-change', spec.minChange) } : {}) };
}

/** The settings as recorded in the results: enough to replay the comparison. */
function recordedSettings(spec: Spec): Record<string, unknown> {
  return {
    // the options the table marks recorded, under the keys results/recorded.ts reads them back by
    // (a setting left to follow another, as --precision follows the threshold, is not recorded:
    // replaying or judging again then follows it the same way)
    ...Object.fromEntries(
      COMPARE_OPTIONS.filter((o) => o.recorded !== undefined)
        .map((o) => [recordedKey(o), spec[recordedKey(o) as keyof Spec]])
        .filter(([, v]) => v !== null && v !== undefined),
    ),
    // --cpus none, recorded as given so that a replay leaves the runs unbound too
    ...(spec.isolation?.asked === 'none' ? { cpus: 'none' } : {}),
    build: spec.build,
    failOn: spec.failOn,
    // the gate as applied: a comparison of nothing passes only with it (results/gate.ts)
    ...(spec.allowNothingCompared ? { allowNothingCompared: true } : {}),
    // the rows the gate weighs (results/gate.ts), recorded when not every row
    ...(spec.gateMetric !== 'any' ? { gateMetric: spec.gateMetric } : {}),
    metric: [...new Set(spec.benchmarks.flatMap((b) => b.metrics))].join(','),
    benchmarks: spec.benchmarks.map((b) => ({
      name: b.name,
      run: b.run,
      format: b.format,
      metrics: b.metrics,
      ...(b.threshold !== undefined ? { threshold: b.threshold } : {}),
      ...(b.minChange !== undefined ? { minChange: b.minChange } : {}),
      ...(b.direction ? { direction: b.direction } : {}),
      ...(b.prepare ? { prepare: b.prepare } : {}),
      ...(b.shell === 'none' ? { shell: 'none' } : {}),
      ...(b.filter ? { filter: b.filter } : {}),
      // how the runs were grouped: each benchmark paired on its own or whole runs, and how many to a process
      ...(b.interleave ? { interleave: b.interleave } : {}),
      ...(b.batch !== undefined ? { batch: b.batch } : {}),
      ...(b.iterations ? { iterations: b.iterations } : {}),
      ...(b.design ? { design: b.design } : {}),
    })),
  };
}

/** The raw rows of the loop as results benchmarks (not yet judged). */
function benchmarksOf(state: LoopState): BenchmarkResult[] {
  const out: BenchmarkResult[] = [];
  // by name, not jobs.find() per row: a config of many benchmarks made this quadratic, after every pair
  const jobs = new Map(state.jobs.map((j) => [j.bench.name, j]));
  const measuredJobs = new Set<string>();
  // what a unit recorded with the rows it paired: Go's fixed count (--iterations fixed), the design of its runs (--design auto), why it stopped early
  const units = new Map(state.units.map((u) => [`${u.job.bench.name}\0${u.name}`, u]));
  for (const row of state.rows.values()) {
    const job = jobs.get(row.job);
    const unit = row.pairedBy === undefined ? undefined : units.get(`${row.job}\0${row.pairedBy}`);
    const count = unit?.design ? undefined : unit?.iterations;
    measuredJobs.add(row.job);
    const presence = row.seenBase === 0 ? 'added' : row.seenHead === 0 ? 'removed' : 'both';
    out.push({
      name: row.key,
      unit: row.unit,
      direction: row.direction,
      ...(row.metric ? { metric: row.metric } : {}),
      ...(row.threshold !== undefined ? { threshold: row.threshold } : {}),
      ...(row.minChange !== undefined ? { minChange: row.minChange } : {}),
      ...(row.reciprocalOf !== undefined ? { reciprocalOf: row.reciprocalOf } : {}),
      presence,
      ...(row.stoppedBecause ?? job?.stoppedBecause ? { stoppedBecause: row.stoppedBecause ?? job?.stoppedBecause } : {}),
      pairs: row.pairs,
      ...(row.oneSidedPairs ? { oneSidedPairs: row.oneSidedPairs } : {}),
      ...(count !== undefined ? { iterations: count } : {}),
      ...(unit?.design ? { design: designRecord(unit.design, unit.pairs) } : {}),
      ...(row.futility ?? unit?.futility ? { futility: row.futility ?? unit?.futility } : {}),
      ...(row.overhead && row.overhead.length > 0 ? { overhead: overheadRecord(row.overhead) } : {}),
      ...(job?.failure ? { failure: job.failure } : {}),
      ...(job && job.failedRuns.base + job.failedRuns.head > 0 ? { failedRuns: { ...job.failedRuns } } : {}),
    });
  }
  // A job that failed before any sample still gets a row, so the failure is reported where users look.
  for (const job of state.jobs) {
    if (job.failure && !measuredJobs.has(job.bench.name)) {
      out.push({ name: job.bench.name, unit: 'ms', direction: 'lower-is-better', stoppedBecause: 'error', pairs: [], failure: job.failure });
    }
  }
  return out;
}

/**
 * `--pair-runs auto` at once: kept while the two CPUs are free of other work, read once before
 * anything runs (config/at-once.ts, `keepAtOnce`); else the pairs run in turn, bound as `--cpus
 * auto` binds them in turn, and the reason is recorded and said.
 */
async function pairRunsHere(spec: Spec, hooks: EngineHooks): Promise<Spec> {
  if (spec.pairRuns !== 'auto' || !spec.atOnce?.cpus) return spec;
  const atOnce = keepAtOnce(spec.atOnce, await (hooks.cpuLoad ?? sampleCpuLoad)(spec.atOnce.cpus));
  if (atOnce.cpus) return spec;
  const { inTurn, ...rest } = spec;
  return { ...rest, ...inTurn, atOnce };
}

export async function runCompare(fullSpec: Spec, hooks: EngineHooks): Promise<Outcome> {
  const spec: Spec = await pairRunsHere({ ...fullSpec, benchmarks: selectShard(fullSpec.benchmarks, fullSpec.shard) }, hooks);
  if (fullSpec.shard.count > 1) {
    hooks.log(`Shard ${spec.shard.index}/${spec.shard.count}: ${spec.benchmarks.length} of ${fullSpec.benchmarks.length} benchmarks (${spec.benchmarks.map((b) => b.name).join(', ') || 'none'})`);
  }
  const env = hooks.env ?? { ...process.env };
  const now = hooks.clock ?? Date.now;
  const writer = new ResultsWriter(spec.out);
  const startedAt = new Date(now()).toISOString();
  const results: Results = {
    schemaVersion: 1,
    tool: { name: 'pairbench', version: VERSION },
    base: spec.base.kind === 'dir' ? { ref: null, sha: null, dir: spec.base.dir } : { ref: spec.base.rev, sha: null },
    head: spec.head.kind === 'dir' ? { ref: null, sha: null, dir: spec.head.dir } : { ref: spec.head.rev, sha: null },
    environment: machineEnvironment(),
    settings: recordedSettings(spec),
    status: 'running',
    startedAt,
    finishedAt: null,
    ...(spec.shard.count > 1 ? { shard: spec.shard } : {}),
    rounds: [],
    benchmarks: [],
  };
  const finish = async (status: Results['status'], stoppedBecause: string, exitCode: ExitCode, extra: Partial<Results> = {}): Promise<Outcome> => {
    const done: Results = { ...results, ...extra, status, stoppedBecause, finishedAt: new Date(now()).toISOString() };
    let judged: Results;
    // a huge suite takes a while to judge: say so, rather than fall silent
    if (done.benchmarks.length >= 10_000) hooks.log(`judging ${done.benchmarks.length} benchmarks...`);
    try {
      // judged a slice at a time: a signal during the judging of a huge suite is honoured at once (S11)
      judged = await judgeResultsCooperatively(done, judgeOptions(spec), hooks.signal);
    } catch (err) {
      if (!(err instanceof JudgingInterrupted)) throw err;
      // interrupted while judging: the pairs are kept unjudged (pairbench report judges them later)
      const partial: Results = { ...done, status: 'partial', stoppedBecause: 'interrupted' };
      writer.write(partial);
      hooks.log('warning: interrupted while judging: the results file holds every pair, not yet judged; judge it with pairbench report');
      return { results: partial, exitCode: 130, resultsPath: writer.path };
    }
    writer.write(judged);
    // a run that completed exits as the gate decides (results/gate.ts); a failed or interrupted one keeps its status
    return { results: judged, exitCode: exitCode === 0 ? decideGate(judged, spec.failOn).exitCode : exitCode, resultsPath: writer.path };
  };

  let counter: InstructionCounter | null = null;
  // with changed-only a shard runs its part of the selection, which may hold any benchmark
  const mayRun = spec.changedOnly ? fullSpec.benchmarks : spec.benchmarks;
  if (mayRun.some((b) => b.metrics.includes('instructions'))) {
    counter = await (hooks.counter ?? detectCounter)();
    if (!counter) {
      throw new UsageError('--metric', `--metric instructions: no instruction counter on this machine; ${INSTALL_HINT}`);
    }
    results.settings = { ...results.settings, instructionCounter: counter };
    hooks.log(`Counting instructions with ${counter}${counter === 'valgrind' ? ' (exact, but runs are tens of times slower)' : ''}`);
  }
  // The timer is known before anything is built: CPU time and memory need the run helper (S15, S18).
  const timer = await (hooks.timer ?? measuringTimer)();
  const needsHelper = mayRun.flatMap((b) => b.metrics).find((m) => m === 'cpu' || m === 'rss');
  if (timer.kind === 'node' && needsHelper) {
    throw new UsageError('--metric', `--metric ${needsHelper} needs pairbench's run helper, which reads ${needsHelper === 'cpu' ? 'CPU time' : 'peak memory'} with wait4(2), and ${timer.why}; ${timer.remedy}`);
  }
  for (const notice of timer.notices) hooks.log(`warning: ${notice}`);
  results.settings = { ...results.settings, timer: timer.kind };
  // --design auto: a run trimmed to what pairbench reads (Criterion's --nresamples, harness/criterion-trim.ts), said as it will run
  for (const b of mayRun) {
    const trim = runTrim(b.run, b.format, b.design);
    if (trim === null) continue;
    const whose = b.name === b.run ? 'Each run' : `Each run of ${b.name}`;
    hooks.log(`${whose} gets ${trim.added}, which leaves the values pairbench reads as they are (--design command runs the command as written)`);
  }
  // --design auto: a run of one benchmark in its harness's quick mode (Criterion's --quick, harness/criterion-quick.ts)
  for (const b of mayRun) {
    const quick = quickRun(trimmedRun(b.run, b.format, b.design), b.run, b.format, b.design, env);
    if (quick === null) continue;
    const whose = b.name === b.run ? 'Each run' : `Each run of ${b.name}`;
    hooks.log(`${whose} that selects one benchmark gets ${quick.added}: one short measurement, no warm-up, whatever the benchmark's code sets; a run's value still comes from the median it saves (--design command runs the command as written)`);
  }
  // --design auto: a run pointed at a folder of pairbench's, whose files keep what the printed values round (Criterion's saved medians)
  for (const b of mayRun) {
    const files = runFiles(b.run, b.format, b.design, env);
    if (files === null) continue;
    const whose = b.name === b.run ? 'Each run' : `Each run of ${b.name}`;
    hooks.log(`${whose} gets ${files.variable} set to a folder of pairbench's, and its values are read from the files it saves there, which keep what its printed lines round (--design command reads them as printed)`);
  }
  // --cpus auto (the default) or none: what was chosen, and why (config/isolation.ts), said once measuring starts
  if (spec.isolation) results.settings = { ...results.settings, isolation: spec.isolation.reason };
  // --pair-runs auto (the default) or at-once: the CPUs of the two sides, or why the pairs run in turn (config/at-once.ts)
  if (spec.atOnce) results.settings = { ...results.settings, atOnce: spec.atOnce.reason };
  writer.write(results);
  let revisions: PreparedRevisions;
  // changed-only: the benchmarks whose paths base..head changes, chosen before anything is built
  let selection: PathSelection | null = null;
  const changedOnly = spec.changedOnly;
  const select = changedOnly
    ? async (base: { sha: string | null }, head: { sha: string | null }) => {
        // chosen from every benchmark, then sharded: each shard runs its part of one selection (in
        // strict mode, a file claimed by another shard's benchmark is claimed all the same)
        const all = await selectByPaths(fullSpec.benchmarks, await changedFiles(spec.cwd, base.sha ?? '', head.sha ?? ''), { ...changedOnly, ...(hooks.signal ? { signal: hooks.signal } : {}) });
        hooks.log(pathsLog(all, changedOnly.mode));
        selection = { ...all, run: selectShard(all.run, fullSpec.shard) };
        if (fullSpec.shard.count > 1) hooks.log(`Shard ${spec.shard.index}/${spec.shard.count} of the benchmarks changed-only runs: ${selection.run.length} of ${all.run.length} (${selection.run.map((b) => b.name).join(', ') || 'none'})`);
        return selection.run.length > 0;
      }
    : undefined;
  try {
    revisions = await prepareRevisions(spec, { log: hooks.log, env, ...(hooks.signal ? { signal: hooks.signal } : {}), ...(hooks.buildCache ? { buildCache: hooks.buildCache } : {}), ...(select ? { select } : {}), ...(hooks.base ? { base: hooks.base } : {}) });
  } catch (err) {
    // interrupted while building: the build was stopped, it did not fail (a recorded failure would make the file a failed run)
    if (err instanceof BuildFailure && hooks.signal?.aborted) return finish('partial', 'interrupted', 130);
    if (err instanceof SelectionInterrupted) return finish('partial', 'interrupted', 130);
    if (err instanceof BuildFailure) {
      hooks.log(`error: ${err.message}\n${indentTail(err.outputTail)}`);
      return finish('failed', 'error', 3, {
        failures: [{ side: err.side, kind: 'build', exitCode: err.exitCode, stderrTail: err.outputTail, message: err.message }],
      });
    }
    throw err;
  }
  results.base = { ...results.base, sha: revisions.base.sha, ...(revisions.base.sha ? {} : { dir: revisions.base.dir }) };
  results.head = { ...results.head, sha: revisions.head.sha, ...(revisions.head.sha ? {} : { dir: revisions.head.dir }) };
  if (revisions.base.ref) results.base.ref = revisions.base.ref;
  // the toolchains each side was built with, asked once in its folder (measure/environment.ts)
  const tools = toolsFor([...new Set(spec.benchmarks.map((b) => b.format))]);
  const [baseTools, headTools] = await Promise.all([toolchainVersions(tools, revisions.base.dir, env), toolchainVersions(tools, revisions.head.dir, env)]);
  results.environment = { ...results.environment, toolchains: { base: baseTools, head: headTools } };
  const toolchains = toolchainDifferences(results.environment);
  if (toolchains.length > 0) hooks.log(`warning: base and head were built by different toolchains: ${toolchains.join(', ')}`);
  // only build outputs come from the cache, never a measured value: this records which
  if (revisions.buildCache) results.settings = { ...results.settings, buildCacheKey: revisions.buildCache.key, buildCacheHit: revisions.buildCache.hit };
  const chosen = selection as PathSelection | null;
  if (chosen && chosen.notRun.length > 0) results.notRun = chosen.notRun;
  if (changedOnly) results.settings = { ...results.settings, changedOnly: true, pathsMode: changedOnly.mode };
  writer.write(results);
  if (chosen && chosen.run.length === 0) {
    // nothing under any benchmark's paths changed: nothing was built, nothing is measured
    await revisions.cleanup();
    return finish('complete', 'nothing-changed', 0);
  }
  const measured: Spec = chosen ? { ...spec, benchmarks: chosen.run, prefixNames: spec.prefixNames ?? spec.benchmarks.length > 1 } : spec;
  if (spec.isolation) hooks.log(`--cpus ${spec.isolation.asked}: the measured runs are ${spec.isolation.reason}`);
  if (spec.atOnce) {
    const said = spec.atOnce.cpus ? `${spec.atOnce.reason.replace(/^at once: /, '')}; every run has one CPU, and the two share the caches and memory bandwidth` : `the pairs run ${spec.atOnce.reason}`;
    hooks.log(`--pair-runs ${spec.pairRuns}: ${said}`);
  }

  try {
    const state = await runSchedule({
      spec: measured,
      base: revisions.base,
      head: revisions.head,
      env,
      counter,
      runner: hooks.runner ?? runCommands,
      clock: now,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      log: hooks.log,
      ...(hooks.progress ? { progress: hooks.progress } : {}),
      // rewritten after a pair, unless that would spend more than a tenth of the time writing (huge suites)
      onPair: (s) => {
        writer.writeSoon(() => {
          results.benchmarks = benchmarksOf(s);
          results.rounds = s.rounds;
          return results;
        });
      },
    });
    results.benchmarks = benchmarksOf(state);
    results.rounds = state.rounds;
    const failures = state.jobs.flatMap((j) => (j.failure ? [j.failure] : []));
    if (failures.length > 0) results.failures = failures;
    if (state.stoppedBecause === 'interrupted') return finish('partial', 'interrupted', 130);
    if (state.failed) return finish('failed', 'error', 3);
    return finish(state.midRound ? 'partial' : 'complete', state.stoppedBecause ?? 'precision', 0);
  } catch (err) {
    if (err instanceof MetricUnavailable) {
      hooks.log(`error: ${err.message}`);
      return finish('failed', 'error', 3, { failures: [{ side: 'base', kind: 'spawn', message: err.message }] });
    }
    throw err;
  } finally {
    await revisions.cleanup();
  }
}

function pathsLog(s: PathSelection, mode: string): string {
  const files = `${s.changed.length} file${s.changed.length === 1 ? '' : 's'} changed`;
  if (s.unclaimed.length > 0) return `changed-only: ${files}, and ${s.unclaimed.map((f) => JSON.stringify(f)).join(', ')} under no benchmark's paths: every benchmark runs (paths-mode: ${mode})`;
  if (s.run.length === 0) return `changed-only: ${files}, none under a benchmark's paths: nothing is built or measured`;
  return `changed-only: ${files}; running ${s.run.map((b) => b.name).join(', ')}${s.notRun.length ? `; not run (nothing under their paths changed): ${s.notRun.map((b) => b.name).join(', ')}` : ''}`;
}

function indentTail(tail: string): string {
  const lines = tail.trimEnd().split('\n').slice(-20);
  return lines.map((l) => `  | ${l}`).join('\n');
}
