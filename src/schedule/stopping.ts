/**
 * The stopping rules of one unit, checked between rounds (statistics.md, "When to stop"): a unit
 * stops at `--max-pairs`, or once every one of its rows may stop (decided against the threshold,
 * or precise enough). A unit of a whole suite thus runs until its last benchmark is settled; a
 * unit of one benchmark stops on its own and is not run again.
 */
import type { Spec } from '../config/spec.ts';
import { minPairsForAlpha, stopCheck } from '../stats/index.ts';
import { overheadEstimate, subtractOverhead } from '../stats/overhead.ts';
import { stopUnit, type LoopState, type Row, type Unit } from './state.ts';

export function rowsOf(state: LoopState, unit: Unit): Row[] {
  return [...state.rows.values()].filter((r) => r.job === unit.job.bench.name && r.pairedBy === unit.name && r.pairs.length > 0);
}

/** Checks one unit after a round; stops it when its rules say so. */
export function checkUnit(state: LoopState, unit: Unit, spec: Spec): void {
  if (!unit.running) return;
  if (unit.pairs >= spec.maxPairs) {
    stopUnit(state, unit, 'max-pairs');
    return;
  }
  // The judgement reads each interval at up to 1 - alpha/(2m) for m results in the correction's
  // family (Holm's level after an early stop): no row stops before the screen keeps enough pairs
  // to reach it. Rows whose every pair is equal (Go's allocs/op) are not in the family.
  const minKept = minPairsForAlpha(spec.alpha / (2 * Math.max(1, state.varyingRows)));
  const checks = rowsOf(state, unit).map((row) => {
    // judged as the report will judge it: on pairs less pairbench's own overhead (stats/overhead.ts)
    const pairs = row.overhead ? subtractOverhead(row.pairs, overheadEstimate({ samples: row.overhead })).pairs : row.pairs;
    const check = stopCheck(pairs, {
      minPairs: spec.minPairs,
      maxPairs: spec.maxPairs,
      precision: spec.precision,
      alpha: spec.alpha,
      threshold: row.threshold ?? spec.threshold,
      outliers: spec.outliers,
      minKept,
    });
    row.estimate = check.estimate;
    // Below the fewest pairs that can reach alpha there is no interval yet: none is shown.
    row.halfWidth = row.pairs.length >= minPairsForAlpha(spec.alpha) ? check.halfWidth : null;
    return { row, check };
  });
  if (checks.length > 0 && checks.every(({ check }) => check.stop && check.reason)) {
    for (const { row, check } of checks) row.stoppedBecause = check.reason ?? 'precision';
    stopUnit(state, unit, checks.some(({ check }) => check.reason === 'decided') ? 'decided' : 'precision');
  }
}
