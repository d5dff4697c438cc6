/**
 * What gets paired. A job whose format can select one benchmark (src/harness/select.ts) is listed
 * first: one run of the whole suite per side, which is also its warmup, names its benchmarks; then
 * each benchmark (or batch of `batch` benchmarks) that both sides have becomes a unit of its own,
 * paired on its own and stopped on its own. Listing by a run rather than by the harness's list
 * command (`-test.list`, `--collect-only`) finds sub-benchmarks and parameterised cases by the very
 * names their results carry, for every format alike. Any other job is one unit: the whole suite,
 * after `--warmup` unmeasured runs per side.
 */
import { countingRule, harnessOf, isHarnessFormat } from '../harness/registry.ts';
import { selectionBlocker } from '../harness/select.ts';
import type { RowSample } from '../measure/samples.ts';
import { countFailure, countsPerBenchmark, measureSide, RunFailure, type MeasureContext } from './pair.ts';
import { COUNT_UNIT, COUNT_WORK_MS, countIterations, countRowName } from './count-runs.ts';
import { beyondLimits, recordSeen } from './record.ts';
import type { HarnessFormat } from '../harness/types.ts';
import { designs, LISTING_SIZING, pilotDesign, PILOT_LENGTH_MS, PILOT_PAIRS, PILOT_REPETITIONS } from './choose-design.ts';
import { addUnit, type Job, type PairingUnit } from './state.ts';

const SHELL_NONE_BLOCKER = 'the selection reaches the command through the shell, and the run command is started without one (--shell none)';

function newUnit(job: Job, name: string, select: string[] | null, iterations?: number, batchKeys?: string[]): PairingUnit {
  return {
    name,
    job,
    select,
    ...(batchKeys ? { batchKeys } : {}),
    ...(iterations !== undefined ? { iterations, sizing: { iterations } } : {}),
    pairs: 0,
    running: job.running,
    ...(job.running ? {} : { stoppedBecause: job.stoppedBecause ?? 'error' }),
    pairMsTotal: 0,
    rowsPerPair: 0,
    rows: [],
    need: null,
  };
}

/**
 * The benchmarks of a run: its samples less the extra metrics of another sample
 * (`BenchmarkParse (B/op)` belongs to `BenchmarkParse`), with their row names.
 */
function primaries(samples: readonly RowSample[]): Array<{ name: string; key: string }> {
  const names = new Set(samples.map((s) => s.name));
  return samples
    .filter((s) => {
      const m = / \([^()]*\)$/.exec(s.name);
      return !(m && names.has(s.name.slice(0, m.index)));
    })
    .map((s) => ({ name: s.name, key: s.key }));
}

/** Plans the units of every job: lists the suites that can be paired per benchmark, warms the others up. */
export async function planUnits(ctx: MeasureContext): Promise<void> {
  const { state } = ctx;
  for (const job of state.jobs) {
    if (ctx.signal?.aborted) return;
    const bench = job.bench;
    const wantsBenchmarks = bench.interleave !== 'suite' && isHarnessFormat(bench.format);
    if (!wantsBenchmarks) {
      if (countsPerBenchmark(ctx, job)) {
        refuseWholeCounts(ctx, job, 'interleave suite pairs whole runs of the suite');
        continue;
      }
      await warmUp(ctx, job);
      addUnit(state, newUnit(job, bench.name, null));
      continue;
    }
    // A command that cannot select one benchmark whatever the names (no placeholder, no filter flag
    // pairbench may add, --shell none) is not listed: it is warmed up (--warmup) and paired whole.
    const early = bench.shell === 'none' ? SHELL_NONE_BLOCKER : isHarnessFormat(bench.format) ? selectionBlocker(bench.run, bench.format, []) : null;
    if (early !== null) {
      if (countsPerBenchmark(ctx, job)) {
        refuseWholeCounts(ctx, job, early);
        continue;
      }
      ctx.log(`${bench.interleave === 'benchmark' ? 'warning' : 'note'}: ${bench.name}: pairing whole runs of the suite, not each benchmark: ${early}. Benchmarks paired on their own share the machine's moment and stop once decided; see docs/harnesses.md, "Pairing each benchmark"`);
      await warmUp(ctx, job);
      addUnit(state, newUnit(job, bench.name, null));
      continue;
    }
    // The listing: one run of the whole suite per side, also its warmup (short, when pairbench designs the runs).
    const designed = designs(bench);
    const listed: Partial<Record<'base' | 'head', RowSample[]>> = {};
    for (const side of ['base', 'head'] as const) {
      const samples = job.running ? await measureSide(ctx, { job, select: null, ...(designed ? { sizing: LISTING_SIZING } : {}) }, side) : null;
      if (!samples) break;
      const beyond = beyondLimits(state, { [side]: samples });
      if (beyond) {
        countFailure(ctx, job, new RunFailure(beyond.side, 'parse', beyond.message, null, false));
        break;
      }
      listed[side] = samples;
      // only instructions measured: the listing shows which benchmarks each side has, as count rows
      recordSeen(state, job, side, bench.metrics.includes('wall') ? samples : countRowsOf(samples));
    }
    if (!listed.base || !listed.head) continue; // the job failed (recorded) or the run was interrupted
    const inHead = new Set(listed.head.map((s) => s.name));
    const both = primaries(listed.base).filter((p) => inHead.has(p.name));
    const blocker = isHarnessFormat(bench.format) ? selectionBlocker(bench.run, bench.format, both.map((p) => p.name)) : 'not a harness format';
    if (blocker !== null || both.length === 0) {
      if (countsPerBenchmark(ctx, job)) {
        refuseWholeCounts(ctx, job, blocker ?? 'no benchmark is on both sides');
        continue;
      }
      const tip = bench.interleave === 'benchmark' ? 'warning' : 'note';
      ctx.log(`${tip}: ${bench.name}: pairing whole runs of the suite, not each benchmark: ${blocker ?? 'no benchmark is on both sides'}. Benchmarks paired on their own share the machine's moment and stop once decided; see docs/harnesses.md, "Pairing each benchmark"`);
      addUnit(state, newUnit(job, bench.name, null));
      continue;
    }
    job.level = 'benchmark';
    const before = state.units.length;
    if (designed) planDesigns(ctx, job, both, listed.base, listed.head);
    else addFixedUnits(ctx, job, both, listed.base, listed.head);
    if (countsPerBenchmark(ctx, job)) planCounts(ctx, job, state.units.slice(before), both, listed.base, listed.head);
  }
}

/** `--iterations fixed` or the command's own sizing: a unit per benchmark, or per batch of `--batch` benchmarks. */
function addFixedUnits(ctx: MeasureContext, job: Job, both: ReadonlyArray<{ name: string; key: string }>, base: readonly RowSample[], head: readonly RowSample[]): void {
  const size = job.bench.batch ?? 1;
  const counts = fixedIterations(ctx, job, base, head, size);
  for (let i = 0; i < both.length; i += size) {
    const batch = both.slice(i, i + size);
    const n = size === 1 ? counts?.get(batch[0]!.key) : undefined;
    addUnit(ctx.state, newUnit(job, batch.map((p) => p.key).join(', '), batch.map((p) => p.name), n, batch.length > 1 ? batch.map((p) => p.key) : undefined));
  }
}

/** The count rows a listing names, when only instructions are measured: `<name> (instructions)` of each benchmark. */
function countRowsOf(samples: readonly RowSample[]): RowSample[] {
  return primaries(samples).map((p) => ({ key: countRowName(p.key), name: countRowName(p.name), value: 1, unit: COUNT_UNIT, direction: 'lower-is-better' }));
}

/**
 * Instruction counts per benchmark: N for each benchmark of the units, from its time per
 * iteration in the listing (the faster side's), the same for both sides (count-runs.ts).
 */
function planCounts(ctx: MeasureContext, job: Job, units: readonly PairingUnit[], both: ReadonlyArray<{ name: string; key: string }>, base: readonly RowSample[], head: readonly RowSample[]): void {
  const rule = countingRule(job.bench.format as HarnessFormat)!;
  const op = iterationMs(base, head);
  const keyOf = new Map(both.map((p) => [p.name, p.key]));
  const all: number[] = [];
  for (const unit of units) {
    const counts: Record<string, number> = {};
    for (const name of unit.select ?? []) {
      const ms = op.get(keyOf.get(name) ?? '');
      counts[name] = countIterations(ctx.counter!, rule.setupIterations, ms === undefined ? null : ms * 1e6, ctx.spec.countWorkMs);
      all.push(counts[name]);
    }
    unit.countIterations = counts;
  }
  if (all.length > 0) {
    all.sort((a, b) => a - b);
    ctx.log(`${job.bench.name}: instructions counted per benchmark (${ctx.counter}): each side runs a benchmark for N iterations (${all[0]} to ${all.at(-1)}, about ${ctx.spec.countWorkMs ?? COUNT_WORK_MS[ctx.counter!]} ms of its work) and for ${rule.setupIterations}, and counts the difference per iteration`);
  }
}

/** A suite that would be paired whole cannot be counted per benchmark: its job fails with why. */
function refuseWholeCounts(ctx: MeasureContext, job: Job, why: string): void {
  countFailure(ctx, job, new RunFailure('base', 'exit', `--metric instructions counts each benchmark of a suite on its own, and this suite would be paired whole: ${why}`, null, false));
}

/**
 * One iteration of each benchmark, ms: the faster side's time in the listing run (times are in ns),
 * an iteration as pairbench sizes runs (harness/types.ts, `Sample.iterationScale`).
 */
function iterationMs(base: readonly RowSample[], head: readonly RowSample[]): Map<string, number> {
  const fastest = new Map<string, number>();
  for (const s of [...base, ...head]) {
    if (s.unit !== 'ns' || / \([^()]*\)$/.test(s.name)) continue;
    fastest.set(s.key, Math.min(fastest.get(s.key) ?? Infinity, (s.value * (s.iterationScale ?? 1)) / 1e6));
  }
  return fastest;
}

/**
 * `--design auto`: a unit per benchmark, each starting with its pilot (choose-design.ts). The longest
 * repetition a design may choose is the command's own length, as its harness reads it
 * (`design.commandLengthMs`: Go's `-test.benchtime`, 1 s when not given; Google Benchmark's
 * `--benchmark_min_time`, 0.5 s when not given).
 */
function planDesigns(ctx: MeasureContext, job: Job, both: ReadonlyArray<{ name: string; key: string }>, base: readonly RowSample[], head: readonly RowSample[]): void {
  const bench = job.bench;
  const format = bench.format as HarnessFormat;
  const design = harnessOf(format).design!;
  const op = iterationMs(base, head);
  const maxLengthMs = design.commandLengthMs(bench.run);
  let n = 0;
  for (const p of both) {
    const unit = newUnit(job, p.key, [p.name]);
    const opMs = op.get(p.key);
    if (opMs !== undefined && Number.isFinite(opMs) && opMs > 0) {
      const d = pilotDesign(format, opMs, maxLengthMs, ctx.spec.minPairs);
      const { sizing, ...design } = d;
      unit.design = design;
      unit.sizing = sizing;
      n++;
    }
    addUnit(ctx.state, unit);
  }
  ctx.log(`${bench.name}: each benchmark's runs are designed from its first ${Math.min(PILOT_PAIRS.max, Math.max(PILOT_PAIRS.min, ctx.spec.minPairs))} pairs (${n} of ${both.length} benchmarks; ${design.pilotWarmup > 0 ? 'a warm-up and ' : ''}${PILOT_REPETITIONS} repetitions of ${PILOT_LENGTH_MS} ms per process until then); --design command runs them as the command says`);
}

/**
 * `--iterations fixed` (the default), where the format's harness fixes counts (Go): each
 * benchmark's iteration count, from the listing run, so that every run of it does the same work
 * (harness/go-iterations.ts). Null, with a note when the user may want to know, where counts are
 * not fixed.
 */
function fixedIterations(ctx: MeasureContext, job: Job, base: readonly RowSample[], head: readonly RowSample[], batch: number): Map<string, number> | null {
  const bench = job.bench;
  const rule = isHarnessFormat(bench.format) ? harnessOf(bench.format).design?.fixedIterations : null;
  if (!rule || (bench.iterations ?? 'fixed') !== 'fixed') return null;
  const fixed = rule(bench.run, batch);
  if (fixed === null) return null; // the command fixes the count itself
  if ('note' in fixed) {
    ctx.log(`note: ${bench.name}: ${fixed.note}`);
    return null;
  }
  const fastest = new Map<string, number>();
  for (const s of [...base, ...head]) {
    if (s.unit !== 'ns' || / \([^()]*\)$/.test(s.name)) continue;
    fastest.set(s.key, Math.min(fastest.get(s.key) ?? Infinity, s.value));
  }
  const counts = new Map([...fastest].map(([key, ns]) => [key, fixed.count(ns)]));
  if (counts.size > 0) {
    const all = [...counts.values()].sort((a, b) => a - b);
    ctx.log(`${bench.name}: ${fixed.log(all[0]!, all.at(-1)!)}`);
  }
  return counts;
}

/** Unmeasured runs of each side, alternating, before the first pair of a whole suite. */
async function warmUp(ctx: MeasureContext, job: Job): Promise<void> {
  for (let i = 0; i < ctx.spec.warmup && job.running && !ctx.signal?.aborted; i++) {
    for (const side of ['base', 'head'] as const) {
      if (job.running && !ctx.signal?.aborted) await measureSide(ctx, { job, select: null }, side);
    }
  }
}
