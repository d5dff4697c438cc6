/**
 * The stopping rules of one unit, checked between rounds (statistics.md, "When to stop"): a unit
 * stops at `--max-pairs`, or once every row of its benchmarks may stop (decided against the
 * threshold, or precise enough; the extra metrics a harness prints beside a benchmark ride along). A unit of a whole suite thus runs until its last benchmark is settled; a
 * unit of one benchmark stops on its own and is not run again; a batch's benchmark that may stop
 * leaves the batch's runs (`leaveSettled`). The check also predicts how many
 * pairs each row still needs for a verdict (`need`), which the allocation reads (allocate.ts).
 */
import type { Spec } from '../config/spec.ts';
import { defaultPrecision, drawsFor, intervalDrawsFor, minPairsForAlpha, signFlipSeed, stopCheck } from '../stats/index.ts';
import { timeResolution } from '../stats/resolution.ts';
import { overheadEstimate, subtractOverhead } from '../stats/overhead-estimate.ts';
import { selectionOf, stopUnit, type LoopState, type Row, type PairingUnit } from './state.ts';
import { coldPilotLeftOut } from '../harness/go-cold-start.ts';

/**
 * The rows a unit gives pairs to that have pairs, less those that left a batch's runs: a row that
 * has a stop reason while its unit runs settled and left (`leaveSettled`), and keeps its verdict's pairs.
 */
function rowsOf(unit: PairingUnit): Row[] {
  return unit.rows.filter((r) => r.pairs.length > 0 && r.stoppedBecause === undefined);
}

/** Checks one unit after a round; stops it when its rules say so. Linear in the unit's own rows and pairs. */
export function checkUnit(state: LoopState, unit: PairingUnit, spec: Spec): void {
  if (!unit.running) return;
  if (unit.pairs >= spec.maxPairs) {
    stopUnit(state, unit, 'max-pairs');
    return;
  }
  // The judgement reads each interval at up to 1 - alpha/(2m) for m results in the correction's
  // family (Holm's level after an early stop): no row stops before the screen keeps enough pairs
  // to reach it. Rows whose every pair is equal (Go's allocs/op) are not in the family.
  const family = Math.max(1, state.varyingRows);
  const minKept = minPairsForAlpha(spec.alpha / (2 * family));
  const checks = rowsOf(unit).map((row) => {
    // judged as the report will judge it: after a pilot that ran a cold start (results/cold-pilot.ts),
    // on pairs less pairbench's own overhead (stats/overhead-estimate.ts)
    const left = coldPilotPairs(unit, row);
    const judged = left > 0 ? row.pairs.slice(left) : row.pairs;
    const pairs = row.overhead ? subtractOverhead(judged, overheadEstimate({ samples: row.overhead })).pairs : judged;
    const threshold = row.threshold ?? spec.threshold;
    const check = stopCheck(pairs, {
      minPairs: spec.minPairs,
      maxPairs: spec.maxPairs,
      precision: spec.precision ?? defaultPrecision(threshold),
      alpha: spec.alpha,
      threshold,
      outliers: spec.outliers,
      minKept,
      family,
      // as the report will judge the row (results/judge-file.ts: one input per row of the results)
      judging: { seed: signFlipSeed(spec.seed, row.key), draws: drawsFor(state.rows.size, spec.alpha), intervalDraws: intervalDrawsFor(state.rows.size) },
      // a time's printed steps, read from the pairs as recorded (results/judge-file.ts reads them so)
      resolution: timeResolution(row.unit, judged),
    });
    row.estimate = check.estimate;
    // Below the fewest pairs that can reach alpha there is no interval yet: none is shown.
    row.halfWidth = pairs.length >= minPairsForAlpha(spec.alpha) ? check.halfWidth : null;
    // the pairs in all each count predicts, the pilot's not judged among them
    const inAll = (n: number | null | undefined): number | null => (pairs.length >= spec.minPairs && n !== null && n !== undefined ? n + left : null);
    row.need = inAll(check.need);
    row.hope = inAll(check.hope);
    row.expected = inAll(check.expected);
    row.reach = inAll(check.reach);
    row.settled = check.stop && check.reason !== null;
    return { row, check };
  });
  // A unit stops when the rows of its own benchmarks may stop; the extra metrics a harness prints
  // beside them (Go's `B/op`, `allocs/op`, `MB/s`: `<name> (<metric>)`) ride along and are judged
  // on the pairs they have. Memory counts amortized over a short run are noisy (a one-time
  // allocation over few iterations), and must not keep a decided benchmark measuring, nor make it
  // look hopeless to the allocation.
  const keys = new Set(checks.map(({ row }) => row.key));
  const own = checks.filter(({ row }) => !isExtra(row.key, keys));
  const gating = own.length > 0 ? own : checks;
  setNeeds(unit);
  // nothing stops during a pilot (`--design auto`): the pairs the rules watch begin with the design's
  // after a cold start (results/cold-pilot.ts), and the pilot is at least `--min-pairs` anyway
  if (unit.design?.phase === 'pilot') return;
  // ...nor right after a cold start's pilot, before a pair of its design: the rules would read the pilot's
  if (unit.design?.coldStart !== undefined && unit.pairs <= unit.design.pilot.length) return;
  if (gating.length > 0 && gating.every(({ check }) => check.stop && check.reason)) {
    const reason = gating.some(({ check }) => check.reason === 'decided') ? 'decided' : 'precision';
    for (const { row, check } of checks) row.stoppedBecause = check.stop && check.reason ? check.reason : reason;
    stopUnit(state, unit, reason);
    return;
  }
  leaveSettled(unit, checks);
}

/**
 * What the unit still needs, for the allocation: the most that any of its open rows needs (a row
 * that never varies is settled: its pairs are all equal and it is not in the family), its own
 * benchmarks' rows gating, the extra metrics riding along (checkUnit).
 */
function setNeeds(unit: PairingUnit): void {
  const rows = rowsOf(unit);
  const keys = new Set(rows.map((row) => row.key));
  const own = rows.filter((row) => !isExtra(row.key, keys));
  const open = (own.length > 0 ? own : rows).filter((row) => !row.settled && row.varies);
  const most = (pick: (row: Row) => number | null | undefined): number | null =>
    open.length === 0 || open.some((row) => pick(row) === null || pick(row) === undefined) ? null : open.reduce((m, row) => Math.max(m, pick(row) as number), 0);
  unit.need = most((row) => row.need);
  unit.hope = most((row) => row.hope);
  unit.expected = most((row) => row.expected);
  unit.reach = most((row) => row.reach);
}

/** A batch's open benchmarks, each with the key of its own row (`batchKeys`); none for a unit that is not a batch. */
export function openMembers(unit: PairingUnit): Array<{ name: string; key: string }> {
  const { batchKeys, select } = unit;
  if (!batchKeys || !select) return [];
  const open = new Set(selectionOf(unit));
  return select.map((name, i) => ({ name, key: batchKeys[i]! })).filter((b) => open.has(b.name));
}

/**
 * A batch's benchmarks that the allocation found futile while others of the batch are not
 * (loop.ts, `allocateRound`) leave the batch's runs, as a settled one does (`leaveSettled`): their
 * rows stop as `futile` with the pairs they have, and the others run on without them. Paired on
 * its own, each would have been given up alone; kept in the batch, the one that cannot be decided
 * made the whole batch futile, and its open benchmarks with it. Futility reads only the sizes of
 * the differences (allocate.ts), so no row's test depends on which way its pairs lean.
 */
export function leaveHopeless(unit: PairingUnit, keys: ReadonlySet<string>): void {
  const leaving = openMembers(unit).filter((b) => keys.has(b.key));
  if (leaving.length === 0) return;
  for (const b of leaving) {
    for (const row of unit.rows) if (row.key === b.key || extraOf(row.key) === b.key) row.stoppedBecause = 'futile';
    (unit.left ??= []).push(b.name);
  }
  unit.paceSince = { pairs: unit.pairs, ms: unit.pairMsTotal };
  setNeeds(unit);
}

type Checked = { row: Row; check: { stop: boolean; reason: 'decided' | 'precision' | null } };

/**
 * A batch's benchmark whose rows may stop leaves the batch's runs while the others run on, as a
 * benchmark paired on its own stops: its rows keep the pairs they were settled on and the reason, and
 * the batch's processes no longer run it, so each pair costs only the benchmarks still open. Without
 * this, the batch's slowest benchmark kept every other one measuring. The rules are the same ones
 * that stop a unit of one benchmark (statistics.md, "When to stop"), read on the same pairs, so each
 * row's guarantee is that of a benchmark stopped on its own. The last open benchmark stays: the
 * unit then stops as any unit does.
 */
function leaveSettled(unit: PairingUnit, checks: readonly Checked[]): void {
  const open = openMembers(unit);
  const settled = open.filter((b) => checks.some(({ row, check }) => row.key === b.key && check.stop && check.reason));
  if (settled.length === 0 || settled.length >= open.length) return;
  for (const b of settled) {
    const own = checks.find(({ row }) => row.key === b.key)!;
    const reason = own.check.reason!;
    // its extra metrics (`<name> (B/op)`) ride along, as at a unit's stop
    for (const { row, check } of checks) {
      if (row.key === b.key || extraOf(row.key) === b.key) row.stoppedBecause = check.stop && check.reason ? check.reason : reason;
    }
    (unit.left ??= []).push(b.name);
  }
  unit.paceSince = { pairs: unit.pairs, ms: unit.pairMsTotal };
  setNeeds(unit);
}

/**
 * How many of a row's first pairs are a pilot that ran a cold start, not judged: the rule of
 * harness/go-cold-start.ts that results/cold-pilot.ts (`pilotLeftOut`) judges by, on the pilot's pairs the results file will record, so that the rules
 * stop a row on the pairs its verdict will be judged from.
 */
function coldPilotPairs(unit: PairingUnit, row: Row): number {
  const d = unit.design;
  if (d?.phase !== 'chosen' || d.coldStart === undefined) return 0;
  return coldPilotLeftOut(d.pilot.length, row.pairs.length);
}

/** The `<name>` of a key `<name> (<metric>)`, the benchmark it would be an extra metric of; else null. */
function extraOf(key: string): string | null {
  const m = / \([^()]*\)$/.exec(key);
  return m === null ? null : key.slice(0, m.index);
}

/** `<name> (<metric>)` beside a row `<name>` of the same unit: an extra metric of that benchmark. */
function isExtra(key: string, keys: ReadonlySet<string>): boolean {
  const name = extraOf(key);
  return name !== null && keys.has(name);
}
