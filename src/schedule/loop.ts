/**
 * The schedule: plan the units (listing suites that can be paired per benchmark, warming up the
 * others), then rounds of randomized pairs until every unit is decided, precise enough, or out of
 * budget.
 *
 * A round measures one pair of every unit still running, in a freshly shuffled order (as folly's
 * adaptive mode does); within a pair, a seeded coin decides whether base or head runs first, and
 * the two runs go to the runner in one request, so nothing runs between them and nothing the
 * machine does in time (drift, a first-slot advantage) can favour one side. Stopping rules are
 * checked between rounds and never look at a p-value crossing alpha (statistics.md, "When to stop").
 */
import type { Spec } from '../config/spec.ts';
import type { InstructionCounter } from '../measure/instructions.ts';
import type { Revision, Side } from '../revisions/prepare.ts';
import type { Pair } from '../stats/types.ts';
import { LIMITS } from '../results/schema.ts';
import { countFailure, measurePair, RunFailure, type MeasureContext } from './pair.ts';
import { baseFirst, rngFor, shuffle } from './random.ts';
import { beyondLimits, noRoomFor, recordPair } from './record.ts';
import type { Clock, Runner } from './runner.ts';
import { newState, stopUnit, summary, type LoopState, type Row, type Unit } from './state.ts';
import { checkUnit } from './stopping.ts';
import { planUnits } from './units.ts';

export { MAX_CONSECUTIVE_FAILURES } from './pair.ts';
export type { Job, LoopState, Row, Unit } from './state.ts';
export type { Clock, Runner } from './runner.ts';

export interface Progress {
  round: number;
  pairsDone: number;
  /** units (whole suites, or single benchmarks of suites paired per benchmark) still running, and in all */
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
  /** runs the commands of a pair (the engine passes `runCommands`) */
  runner: Runner;
  /** milliseconds, for the budget and pace (default `Date.now`) */
  clock?: Clock;
  log(line: string): void;
  /** called after every pair, to persist what was measured */
  onPair(state: LoopState): void;
  progress?(p: Progress): void;
}

export async function runSchedule(ctx: LoopContext): Promise<LoopState> {
  const { spec } = ctx;
  const now = ctx.clock ?? Date.now;
  const state = newState(spec.benchmarks);
  const measure: MeasureContext = {
    spec,
    base: ctx.base,
    head: ctx.head,
    env: ctx.env,
    counter: ctx.counter,
    runner: ctx.runner,
    state,
    log: ctx.log,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  const started = now();
  const aborted = () => ctx.signal?.aborted === true;
  const budgetLeft = () => spec.maxTimeMs - (now() - started);
  const progress = progressEmitter(ctx, state, started, now, budgetLeft);

  await planUnits(measure);

  let round = 0;
  while (state.units.some((u) => u.running)) {
    if (aborted()) {
      state.stoppedBecause = 'interrupted';
      break;
    }
    const order = shuffle(state.units.filter((u) => u.running), rngFor(spec.seed, 'round', round));
    state.rounds.push(order.map((u) => u.name));
    const ended = await runRound(order, round);
    if (ended) break;
    for (const unit of state.units) checkUnit(state, unit, spec);
    progress(round, true);
    round++;
  }
  if (state.stoppedBecause === 'interrupted') {
    for (const u of state.units) if (u.running) stopUnit(state, u, 'interrupted');
  }
  state.stoppedBecause ??= summary(state.jobs.map((j) => j.stoppedBecause));
  return state;

  /** One round: a pair of each unit in `order`. True when the budget or an interrupt ended the schedule in it. */
  async function runRound(order: readonly Unit[], round: number): Promise<boolean> {
    for (let k = 0; k < order.length; k++) {
      const unit = order[k]!;
      if (outOfTime(unit)) {
        // Out of time: a pair that cannot finish within the budget is not started.
        state.stoppedBecause = 'max-time';
        state.midRound = k > 0;
        for (const u of state.units) if (u.running) stopUnit(state, u, 'max-time');
        return true;
      }
      if (!unit.running) continue;
      if (noRoomFor(state, unit.rowsPerPair)) {
        // Out of room: the results file must stay within what `pairbench report` reads (S2).
        state.stoppedBecause = 'max-size';
        state.midRound = k > 0;
        ctx.log(`warning: stopped measuring after ${unit.pairs} pairs: another pair would make the results file (${state.rows.size} benchmarks, ${state.size.pairs} pairs) larger than the ${LIMITS.fileBytes / 2 ** 20} MiB that pairbench report reads; to measure more pairs, measure fewer benchmarks per comparison (filter, shard)`);
        for (const u of state.units) if (u.running) stopUnit(state, u, 'max-size');
        return true;
      }
      const ok = await pairOnce(unit);
      if (aborted()) {
        state.stoppedBecause = 'interrupted';
        state.midRound = true;
        return true;
      }
      if (ok) progress(round);
    }
    return false;
  }

  /** The budget is spent, or this unit's next pair would overrun it at its pace so far. */
  function outOfTime(unit: Unit): boolean {
    const pace = unit.pairs > 0 ? unit.pairMsTotal / unit.pairs : 0;
    return budgetLeft() <= 0 || (unit.pairs >= spec.minPairs && pace > budgetLeft());
  }

  async function pairOnce(unit: Unit): Promise<boolean> {
    const order: Pair['order'] = baseFirst(spec.seed, unit.name, unit.pairs) ? 'base-first' : 'head-first';
    const sides: Side[] = order === 'base-first' ? ['base', 'head'] : ['head', 'base'];
    const t0 = now();
    const got = await measurePair(measure, unit, sides);
    if (!got) return false;
    unit.pairMsTotal += now() - t0;
    const beyond = beyondLimits(state, got);
    if (beyond) {
      countFailure(measure, unit.job, new RunFailure(beyond.side, 'parse', beyond.message, null, false));
      return false;
    }
    unit.rowsPerPair = recordPair(state, unit.job, unit.name, got.base, got.head, order);
    unit.pairs++;
    ctx.onPair(state);
    return true;
  }
}

/** Progress reports, at most every 250 ms unless forced (after each round). */
function progressEmitter(ctx: LoopContext, state: LoopState, started: number, now: Clock, budgetLeft: () => number) {
  let last = -Infinity;
  return (round: number, force = false) => {
    if (!ctx.progress) return;
    const t = now();
    if (!force && t - last < 250) return;
    last = t;
    const running = state.units.filter((u) => u.running);
    const paceLeft = running.reduce((sum, u) => sum + (u.pairs > 0 ? (u.pairMsTotal / u.pairs) * (ctx.spec.maxPairs - u.pairs) : 0), 0);
    ctx.progress({
      round,
      pairsDone: state.units.reduce((s, u) => s + u.pairs, 0),
      jobsRunning: running.length,
      jobsTotal: state.units.length,
      elapsedMs: t - started,
      remainingMs: Math.max(0, Math.min(budgetLeft(), paceLeft)),
      rows: [...state.rows.values()],
    });
  };
}
