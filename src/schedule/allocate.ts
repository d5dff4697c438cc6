/**
 * Where the budget goes: after every round, which undecided units get a pair in the next round,
 * which wait, and which get no more pairs at all (futile).
 *
 * Each unit past its first pairs has three predictions of the pairs in all that would settle it
 * (stats/stop.ts, `settleNeeds`): `need`, from its pairs as they are (what the progress lines and
 * the report say); `hope`, the fewest were it unchanged, read from the sizes of its differences
 * alone with the spread taken three standard errors smaller; `expected`, the pairs after which it
 * would likely settle were it unchanged, from the same sizes; and a pace (the mean time of its
 * pairs). What finishing it could cost is (expected − pairs) × pace, and at best (hope − pairs) × pace.
 *
 * - A unit whose best cost is more than the whole budget left cannot be shown unchanged even with
 *   all of it. If a change of ten thresholds (stats/stop.ts, LONG_SHOT_THRESHOLDS) would still show
 *   within the pairs the budget left could give it (`reach`), it is a long shot: it gets pairs only
 *   in rounds where no other unit waits, like a unit that has its expected pairs (below), so it
 *   never takes the budget from a unit that can be decided, and it is not given up while a
 *   regression worth catching could still show. Otherwise it cannot be decided at all: it gets no
 *   more pairs (`futile`), and the report says how many it needed and how many fitted. No unit is
 *   judged before FUTILITY_MIN_PAIRS pairs; a change large enough to show is decided by the
 *   betting rule before (stats/stop.ts).
 * - The others are ranked by that cost, cheapest first; the next round gives a pair to the longest
 *   prefix of that ranking whose costs together fit in the budget left (always the cheapest one).
 *   The rest wait: they keep their pairs and come back as the cheaper ones settle. This gives the
 *   budget to the units closest to a verdict, so that as many as possible are decided: for a count
 *   of decisions, cheapest-first is the best order (a knapsack of equal values).
 * - A unit that already has its expected pairs, but that no stopping rule has ended, gets more only
 *   while no unit that still needs pairs waits: it is judged on the pairs it has if the budget ends
 *   first. (Ranked at a cost of 0 it would take a pair every round, and a suite's budget would be
 *   spread evenly over benchmarks whatever they still need, deciding fewer.)
 * - A unit still below `--min-pairs` (and FUTILITY_MIN_PAIRS) always gets its pair: before them
 *   its spread is too rough to predict from.
 *
 * The guarantees of the verdicts do not rest on this: the stopping rules still decide when a unit
 * stops on its own (an anytime-valid betting test, or the sign-blind precision rule: stop.ts), and
 * a unit that waits or is futile is judged on the pairs it has, at the levels of stats/judge.ts and stats/analysis.ts. Every
 * decision here reads only the sizes of the differences and the time of the pairs, never their
 * signs: under no change, how many pairs a benchmark gets is independent of which way they lean,
 * and its test stays exact (the argument of the precision rule, statistics.md). Measured too, with
 * the allocation on and off: bench/results/calibration.md, "Allocation".
 */

export interface Candidate {
  name: string;
  /** pairs so far */
  pairs: number;
  /** predicted pairs in all that settle it; null while unknown (below min pairs, no spread yet) */
  need: number | null;
  /** the fewest pairs in all that could settle it were it unchanged, from the sizes of its differences (futility reads it); defaults to `need` */
  hope?: number | null;
  /** the pairs in all after which it would likely settle were it unchanged, from the same sizes (the cost reads it); defaults to `hope` */
  expected?: number | null;
  /** the fewest pairs in all that could show a change of ten thresholds, from the same sizes: whether a unit that cannot be shown unchanged is a long shot or futile; null or absent: futile */
  reach?: number | null;
  /** mean milliseconds per pair so far (0 when none) */
  paceMs: number;
  /**
   * the pairs run by the design its runs have now, when that design was chosen after its first
   * pairs (`--design auto`: after the pilot's): it is not called futile before FUTILITY_MIN_PAIRS of
   * them, since the pilot's pairs may spread far more widely than the design's
   */
  designPairs?: number;
}

export interface Allocation {
  /** the units that get a pair in the next round, in the ranking's order (the caller shuffles them) */
  run: string[];
  /** units that wait this round: not futile, but beyond what the budget left covers after cheaper ones */
  waiting: string[];
  /** units that can no longer be decided within the budget left: no more pairs */
  futile: Array<{ name: string; need: number; hope: number; pairs: number; affordable: number }>;
  /** units that cannot be shown unchanged within the budget left but could still show a change of ten thresholds: in `run` or `waiting` as the satisfied ones are */
  longShots: string[];
}

export interface AllocateOptions {
  minPairs: number;
  maxPairs: number;
  /** milliseconds of budget left */
  budgetLeftMs: number;
}

/**
 * No unit is called futile before this many pairs, nor before this many of the design it runs now:
 * its spread is not known well enough before. A pilot's pairs can spread far more than its
 * design's (a Go parser that fills a pool, timed in its pilot while refilling it), and judged on
 * the two together such a benchmark would be given up with a large slowdown undecided.
 */
const FUTILITY_MIN_PAIRS = 20;

/** Whether a unit is still too new to predict: below the pairs its interval needs, or FUTILITY_MIN_PAIRS, in all or of its design. */
function bootstrapping(c: Candidate, minPairs: number): boolean {
  return c.pairs < Math.max(minPairs, FUTILITY_MIN_PAIRS) || (c.designPairs !== undefined && c.designPairs < FUTILITY_MIN_PAIRS);
}

/** The pairs a bootstrapping unit takes before it can be ranked. */
function bootstrapPairs(c: Candidate, minPairs: number): number {
  return Math.max(0, Math.max(minPairs, FUTILITY_MIN_PAIRS) - c.pairs, c.designPairs === undefined ? 0 : FUTILITY_MIN_PAIRS - c.designPairs);
}

/** Pairs still to measure for a unit that would likely settle after `expected` pairs in all (else `hope`), within max pairs. */
function remainingPairs(c: Candidate, maxPairs: number): number {
  const target = c.expected ?? (c.hope === undefined ? c.need : c.hope);
  if (target === null) return 0;
  return Math.max(0, Math.min(target, maxPairs) - c.pairs);
}

export function allocate(candidates: readonly Candidate[], opts: AllocateOptions): Allocation {
  const run: string[] = [];
  const waiting: string[] = [];
  const futile: Allocation['futile'] = [];
  const ranked: Array<{ c: Candidate; cost: number }> = [];
  const satisfied: Candidate[] = [];
  const longShots: string[] = [];
  for (const c of candidates) {
    const hope = c.hope === undefined ? c.need : c.hope;
    if (bootstrapping(c, opts.minPairs) || c.need === null || hope === null) {
      run.push(c.name);
      continue;
    }
    // a hope beyond max pairs settles nothing: the unit would stop at max pairs undecided
    const beyond = (pairs: number): boolean => pairs > opts.maxPairs || Math.max(0, pairs - c.pairs) * c.paceMs > opts.budgetLeftMs;
    if (beyond(hope)) {
      if (c.reach !== undefined && c.reach !== null && !beyond(c.reach)) longShots.push(c.name);
      else futile.push({ name: c.name, need: c.need, hope, pairs: c.pairs, affordable: c.pairs + Math.max(0, Math.floor(opts.budgetLeftMs / Math.max(c.paceMs, 1e-9))) });
      continue;
    }
    const remaining = remainingPairs(c, opts.maxPairs);
    if (remaining === 0) satisfied.push(c);
    else ranked.push({ c, cost: remaining * c.paceMs });
  }
  ranked.sort((a, b) => a.cost - b.cost || a.c.name.localeCompare(b.c.name));
  // the bootstrapping units spend budget too: what they will take before they can be ranked
  let spent = candidates.reduce((s, c) => (bootstrapping(c, opts.minPairs) || c.need === null || c.hope === null ? s + bootstrapPairs(c, opts.minPairs) * c.paceMs : s), 0);
  for (let i = 0; i < ranked.length; i++) {
    const { c, cost } = ranked[i]!;
    if (i === 0 || spent + cost <= opts.budgetLeftMs) {
      run.push(c.name);
      spent += cost;
    } else waiting.push(c.name);
  }
  // A unit with the pairs it likely needs gets more (each makes its verdict surer), and a long shot
  // gets more (a large change may yet show), only while no unit that still needs pairs waits for
  // the budget.
  const othersWait = waiting.length > 0;
  for (const c of satisfied) (othersWait ? waiting : run).push(c.name);
  for (const name of longShots) (othersWait ? waiting : run).push(name);
  return { run, waiting, futile, longShots };
}
