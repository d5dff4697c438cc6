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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Spec } from '../config/spec.ts';
import { runFiles } from '../harness/select.ts';
import { freshCopier } from '../measure/fresh-copy.ts';
import type { InstructionCounter } from '../measure/instructions.ts';
import type { Revision, Side } from '../revisions/prepare.ts';
import type { Pair } from '../stats/types.ts';
import { LIMITS } from '../results/schema.ts';
import { countFailure, measurePair, RunFailure, type MeasureContext } from './pair.ts';
import { baseFirst, rngFor, shuffle } from './random.ts';
import { beyondLimits, noRoomFor, recordPair } from './record.ts';
import type { Clock, Runner } from './runner.ts';
import { newState, stopUnit, summary, type Job, type LoopState, type Row, type PairingUnit } from './state.ts';
import { minPairsForAlpha } from '../stats/power.ts';
import { settlePairsPerVariance } from '../stats/stop.ts';
import { allocate, type Candidate } from './allocate.ts';
import { chooseDesigns, pilotComplete, recordPilot } from './choose-design.ts';
import { checkUnit, leaveHopeless, openMembers } from './stopping.ts';
import { planUnits } from './pairing-units.ts';
import { paceOf, pairsStillNeeded, timeLeft } from './time-left.ts';

export type { LoopState } from './state.ts';

export interface Progress {
  round: number;
  pairsDone: number;
  /** units (whole suites, or single benchmarks of suites paired per benchmark) still running, and in all */
  jobsRunning: number;
  jobsTotal: number;
  elapsedMs: number;
  /** a rough time left, at the pairs the running units are predicted to need (time-left.ts); null while no unit has a pace */
  remainingMs: number | null;
  /** the most time left: the budget left, or the pairs `--max-pairs` still allows at the current pace if less; null while unbounded */
  remainingAtMostMs: number | null;
  /** the rows of the units still running (the rows of stopped units are settled or out of budget) */
  rows: Row[];
  /** the units still running, with what each still needs (allocate.ts): a pair in the next round, or waiting */
  undecided: UndecidedUnit[];
}

/** A unit still running, as the progress lines show it. */
interface UndecidedUnit {
  name: string;
  pairs: number;
  /** the pairs it is still predicted to need, one at least while it runs (time-left.ts); null while unknown */
  more: number | null;
  /** waiting for cheaper units to settle (it does not fit the budget left after them) */
  waiting: boolean;
}

export interface LoopContext {
  spec: Spec;
  base: Revision;
  head: Revision;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** the instruction counter, when some benchmark measures `instructions` */
  counter: InstructionCounter | null;
  /** runs the commands of a pair (the engine passes `runCommands`, or its hooks' runner) */
  runner: Runner;
  /** milliseconds, for the budget and pace (default `Date.now`) */
  clock?: Clock;
  log(line: string): void;
  /** called after every pair, to persist what was measured */
  onPair(state: LoopState): void;
  /**
   * `false`: every undecided unit gets a pair in every round, none is stopped as futile (the
   * schedule before allocate.ts; bench/calibration.ts compares the two). Default true.
   */
  allocation?: boolean;
  progress?(p: Progress): void;
}

/** A duration as the log says it: `4 min 10 s`, `12 s`. */
function formatMs(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

export async function runSchedule(ctx: LoopContext): Promise<LoopState> {
  // the folder each side's runs write the files pairbench reads to (harness.ts, `Harness.files`), private and removed at the end
  const files = ctx.spec.benchmarks.some((b) => runFiles(b.run, b.format, b.design, ctx.env) !== null) ? mkdtempSync(join(tmpdir(), 'pairbench-files-')) : undefined;
  try {
    return await schedule(ctx, files);
  } finally {
    if (files !== undefined) rmSync(files, { recursive: true, force: true });
  }
}

async function schedule(ctx: LoopContext, files: string | undefined): Promise<LoopState> {
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
    ...(files !== undefined ? { runFiles: files } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(spec.freshCopy === 'off' ? {} : { freshCopy: freshCopier(ctx.log) }),
  };
  const started = now();
  const aborted = () => ctx.signal?.aborted === true;
  const budgetLeft = () => spec.maxTimeMs - (now() - started);
  let running: PairingUnit[] = [];
  const progress = progressEmitter(ctx, state, started, now, budgetLeft, () => running);

  await planUnits(measure);
  // interrupted while listing or warming up: nothing more is run
  if (aborted()) state.stoppedBecause = 'interrupted';

  let round = 0;
  running = state.stoppedBecause === 'interrupted' ? [] : state.units.filter((u) => u.running);
  let next = running;
  while (running.length > 0) {
    if (aborted()) {
      state.stoppedBecause = 'interrupted';
      break;
    }
    const order = shuffle(next, rngFor(spec.seed, 'round', round));
    state.rounds.push(order.map((u) => u.name));
    const ended = await runRound(order, round);
    if (ended) break;
    for (const unit of order) checkUnit(state, unit, spec);
    // a suite whose last benchmark still in its pilot stopped (decided, failed) chooses the others' designs now;
    // only a job with a unit in this round can have changed (a unit in its pilot runs in every round)
    for (const job of new Set(order.map((u) => u.job))) if (job.running && job.units.some((u) => u.design?.phase === 'pilot')) designsReady(job);
    running = running.filter((u) => u.running);
    next = ctx.allocation === false ? running : allocateRound(running);
    progress(round, true);
    round++;
  }
  if (state.stoppedBecause === 'interrupted') {
    for (const u of state.units) if (u.running) stopUnit(state, u, 'interrupted');
  }
  state.stoppedBecause ??= summary(state.jobs.map((j) => j.stoppedBecause));
  return state;

  /** One round: a pair of each unit in `order`. True when the budget or an interrupt ended the schedule in it. */
  async function runRound(order: readonly PairingUnit[], round: number): Promise<boolean> {
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

  /**
   * The units of the next round (allocate.ts): every unit below min pairs, then the ones closest to
   * a verdict that the budget left covers, then long shots while nothing waits; a unit that could
   * neither be shown unchanged nor show a change of ten thresholds within it stops as futile.
   */
  function allocateRound(units: readonly PairingUnit[]): PairingUnit[] {
    const byName = new Map(units.map((u) => [u.name, u]));
    // no prediction before a unit has the pairs its interval needs at Holm's level, nor during its pilot
    const minPairs = Math.max(spec.minPairs, minPairsForAlpha(spec.alpha / (2 * Math.max(1, state.varyingRows))));
    const options = { minPairs, maxPairs: spec.maxPairs, budgetLeftMs: budgetLeft() };
    const candidate = (u: PairingUnit, name: string, needs: { need?: number | null; hope?: number | null; expected?: number | null; reach?: number | null }): Candidate => ({
      name,
      pairs: u.pairs,
      need: u.design?.phase === 'pilot' ? null : (needs.need ?? null),
      hope: needs.hope ?? null,
      expected: needs.expected ?? null,
      reach: needs.reach ?? null,
      paceMs: paceOf(u),
      // the pairs of its chosen design, after the pilot's: futility waits for enough of them
      ...(u.design?.phase === 'chosen' ? { designPairs: Math.max(0, u.pairs - u.design.pilot.length) } : {}),
    });
    // A batch's benchmark that could not be decided leaves it while others of the batch still could
    // (stopping.ts, `leaveHopeless`): judged on its own row, as a benchmark paired alone would be.
    for (const u of units) {
      const members = openMembers(u).flatMap((b) => {
        const row = u.rows.find((r) => r.key === b.key);
        return row && row.varies && !row.settled ? [{ row, c: candidate(u, b.key, row) }] : [];
      });
      if (members.length < 2) continue;
      const futile = allocate(members.map((m) => m.c), options).futile;
      if (futile.length === 0 || futile.length >= members.length) continue;
      for (const f of futile) {
        const row = members.find((m) => m.c.name === f.name)!.row;
        row.futility = { need: Math.max(f.need, f.hope), hope: f.hope, affordable: Math.min(f.affordable, spec.maxPairs) };
        ctx.log(`${row.key}: no more pairs: it needs about ${row.futility.need} pairs to be decided at the spread of its ${f.pairs} so far (${f.hope} at best), and ${f.hope > spec.maxPairs ? `--max-pairs is ${spec.maxPairs}` : `the ${formatMs(budgetLeft())} left give it at most ${row.futility.affordable}`}; it leaves its batch, which runs on without it, and is judged on the pairs it has`);
      }
      leaveHopeless(u, new Set(futile.map((f) => f.name)));
    }
    const plan = allocate(
      units.map((u) => candidate(u, u.name, u)),
      options,
    );
    for (const f of plan.futile) {
      const unit = byName.get(f.name)!;
      unit.futility = { need: Math.max(f.need, f.hope), hope: f.hope, affordable: Math.min(f.affordable, spec.maxPairs) };
      ctx.log(`${unit.name}: no more pairs: it needs about ${unit.futility.need} pairs to be decided at the spread of its ${f.pairs} so far (${f.hope} at best), and ${f.hope > spec.maxPairs ? `--max-pairs is ${spec.maxPairs}` : `the ${formatMs(budgetLeft())} left give it at most ${unit.futility.affordable}`}; it is judged on the pairs it has`);
      stopUnit(state, unit, 'futile');
    }
    for (const name of plan.waiting) byName.get(name)!.waiting = true;
    return plan.run.map((name) => {
      const unit = byName.get(name)!;
      unit.waiting = false;
      return unit;
    });
  }

  /**
   * `--design auto`: once every running benchmark of a suite has finished its pilot, their designs
   * are chosen together (choose-design.ts, `chooseDesigns`: each pooled with the suite's figures).
   */
  function designsReady(job: Job): void {
    const piloting = job.units.filter((u) => u.design?.phase === 'pilot');
    if (piloting.some((u) => u.running && !pilotComplete(u.design!))) return;
    // what each may still spend: the pairs --max-pairs leaves it, and an even share of the time left.
    // The model prices a pair as both sides' runs one after the other; at once (config/at-once.ts) a
    // pair takes the longer of the two, about half, so the same time buys about twice the pairs
    const perPair = spec.atOnce?.cpus ? 2 : 1;
    const share = (perPair * budgetLeft()) / Math.max(1, state.units.filter((u) => u.running).length);
    const chosen = chooseDesigns(
      piloting.map((u) => u.design!),
      piloting.map((u) => ({
        pairs: Math.max(1, spec.maxPairs - u.pairs),
        timeMs: Math.max(0, share),
        // the narrowest threshold of its rows: the one that takes the most pairs
        pairsPerVariance: settlePairsPerVariance(spec.alpha, u.rows.length > 0 ? u.rows.reduce((t, r) => Math.min(t, r.threshold ?? spec.threshold), Infinity) : spec.threshold),
      })),
    );
    piloting.forEach((u, i) => {
      u.sizing = chosen[i]!.sizing;
      // a benchmark that stopped during the pilot lent its figures to the suite's; only the running ones say what they run next
      if (u.running) ctx.log(`${u.name}: ${chosen[i]!.log}`);
    });
  }

  /** The budget is spent, or this unit's next pair would overrun it at its pace so far. */
  function outOfTime(unit: PairingUnit): boolean {
    const pace = paceOf(unit);
    return budgetLeft() <= 0 || (unit.pairs >= spec.minPairs && pace > budgetLeft());
  }

  async function pairOnce(unit: PairingUnit): Promise<boolean> {
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
    unit.rowsPerPair = recordPair(state, unit, got.base, got.head, order);
    unit.pairs++;
    progress.pair();
    if (unit.design?.phase === 'pilot' && unit.select?.length === 1) {
      const next = recordPilot(unit.design, unit.select[0]!, got);
      if (next) unit.sizing = next;
      else designsReady(unit.job);
    }
    ctx.onPair(state);
    return true;
  }
}

/**
 * Unforced progress reports list at most this many units, summed, per pair measured since the last
 * report. A report lists every running unit, so one after each pair of a round of n units would
 * make the round O(n²) (one report per 250 ms of a round whose length grows with n); with this, a
 * suite of up to 64 units reports as often as the clock allows, and a round of 100,000 reports
 * every 1,563 pairs or so: the reports cost O(1) per pair, amortized.
 */
export const PROGRESS_UNITS_PER_PAIR = 64;

/**
 * Progress reports, at most every 250 ms and every {@link PROGRESS_UNITS_PER_PAIR} pairs per running
 * unit, unless forced (after each round). `running` is the loop's list of the units still running
 * (stopped ones are left out here), so a report never scans the units that stopped long ago.
 */
function progressEmitter(ctx: LoopContext, state: LoopState, started: number, now: Clock, budgetLeft: () => number, running: () => readonly PairingUnit[]) {
  let last = -Infinity;
  let pairsDone = 0;
  let pairsSince = 0;
  const emit = (round: number, force = false) => {
    if (!ctx.progress) return;
    const units = running();
    if (!force && pairsSince * PROGRESS_UNITS_PER_PAIR < units.length) return;
    const t = now();
    if (!force && t - last < 250) return;
    last = t;
    pairsSince = 0;
    const open = units.filter((u) => u.running);
    let rows: Row[] | undefined;
    let undecided: UndecidedUnit[] | undefined;
    // what the running units still need (max pairs where unknown), at their pace
    const left = timeLeft(open, ctx.spec.maxPairs, budgetLeft());
    ctx.progress({
      round,
      pairsDone,
      jobsRunning: open.length,
      jobsTotal: state.units.length,
      elapsedMs: t - started,
      remainingMs: left.expectedMs,
      remainingAtMostMs: left.boundMs,
      // listed when read: a log that prints a line every ten seconds skips the other reports at once
      get rows() {
        // a batch's benchmark that left its runs is settled, not running (stopping.ts, `leaveSettled`)
        return (rows ??= open.flatMap((u) => u.rows.filter((r) => r.stoppedBecause === undefined)));
      },
      get undecided() {
        return (undecided ??= open.map((u) => ({ name: u.name, pairs: u.pairs, more: u.need === null ? null : pairsStillNeeded(u, ctx.spec.maxPairs), waiting: u.waiting === true })));
      },
    });
  };
  return Object.assign(emit, {
    /** a pair was measured: counts toward the next report */
    pair() {
      pairsDone++;
      pairsSince++;
    },
  });
}
