/**
 * The time left that the progress lines show, from the units still running: at their own pace,
 * the pairs each is predicted to need and the pairs it may still get. Both are bounded by the
 * measuring budget left.
 *
 * A unit's `need` is a count of pairs in all (stats/stop.ts, `need`), predicted after the last
 * round; a unit that was just paired may already have that many while it still runs, and the
 * prediction of a unit close to settling is one more pair, round after round, while the rule that
 * stops it (a betting test, or the precision rule) waits for more. Read as time left, such a need
 * said "~0ms left" for minutes. So a running unit counts at least one more pair, and the line
 * also says the most the comparison can still take, which no prediction can undercut.
 */

/** A running unit as the estimate reads it. */
export interface PacedUnit {
  pairs: number;
  /** milliseconds its pairs took in all */
  pairMsTotal: number;
  /** the pairs and milliseconds when its runs last changed (state.ts) */
  paceSince?: { pairs: number; ms: number };
  /** pairs in all predicted to settle it; null while unknown */
  need: number | null;
}

export interface TimeLeft {
  /** at the predicted needs (the pairs allowed where unknown); null while no unit has a pace */
  expectedMs: number | null;
  /** at the pairs every unit may still get (`--max-pairs`), or the budget left if less; null while no unit has a pace and the budget is unbounded */
  boundMs: number | null;
}

/** The pairs a running unit is still predicted to need: at least one, at most what `--max-pairs` allows it. */
export function pairsStillNeeded(unit: Pick<PacedUnit, 'pairs' | 'need'>, maxPairs: number): number {
  const allowed = Math.max(0, maxPairs - unit.pairs);
  if (unit.need === null) return allowed;
  return Math.min(allowed, Math.max(1, unit.need - unit.pairs));
}

/**
 * A unit's milliseconds a pair: over its pairs since its runs last changed (a batch whose settled
 * benchmark left its runs runs fewer), else over all of them; 0 before its first pair.
 */
export function paceOf(unit: Pick<PacedUnit, 'pairs' | 'pairMsTotal' | 'paceSince'>): number {
  const since = unit.paceSince;
  if (since && unit.pairs > since.pairs) return (unit.pairMsTotal - since.ms) / (unit.pairs - since.pairs);
  return unit.pairs > 0 ? unit.pairMsTotal / unit.pairs : 0;
}

/**
 * The time left of the units still running. A unit not yet paired is taken at the mean pace of
 * those that are; before any is paired, only the budget bounds it.
 */
export function timeLeft(units: readonly PacedUnit[], maxPairs: number, budgetLeftMs: number): TimeLeft {
  const budget = Math.max(0, budgetLeftMs);
  const paced = units.filter((u) => u.pairs > 0);
  if (units.length === 0) return { expectedMs: 0, boundMs: 0 };
  if (paced.length === 0) return { expectedMs: null, boundMs: Number.isFinite(budget) ? budget : null };
  const meanPace = paced.reduce((s, u) => s + paceOf(u), 0) / paced.length;
  let expected = 0;
  let bound = 0;
  for (const u of units) {
    const pace = u.pairs > 0 ? paceOf(u) : meanPace;
    expected += pace * pairsStillNeeded(u, maxPairs);
    bound += pace * Math.max(0, maxPairs - u.pairs);
  }
  return { expectedMs: Math.min(budget, expected), boundMs: Math.min(budget, bound) };
}
