/**
 * Where the budget goes: after every round, which undecided units get a pair in the next round,
 * which wait, and which get no more pairs at all (futile).
 *
 * Each unit past its first `--min-pairs` pairs has a predicted number of pairs in all that would
 * settle it (`need`, from stats/need.ts: the pairs that take its equivalence interval within
 * ±threshold or its test's interval away from 0 beyond the threshold, from the spread measured so
 * far), and a pace (the mean time of its pairs). What finishing it costs is (need − pairs) × pace.
 *
 * - A unit whose cost is more than the whole budget left cannot be decided even with all of it:
 *   it gets no more pairs (`futile`), and the report says how many it needed and how many fitted.
 *   The prediction rests on a spread measured from a few pairs, so futility is judged only after
 *   FUTILITY_MIN_PAIRS pairs, and on an optimistic need (`optimisticNeed`: the need had the spread
 *   been three standard errors smaller), so that noise in the prediction rarely gives up on a
 *   benchmark that was within reach (bench/results/calibration.md, "Allocation": with these, as many
 *   benchmarks end decided as with no allocation, or more, in about three quarters of the time).
 * - The others are ranked by cost, cheapest first; the next round gives a pair to the longest
 *   prefix of that ranking whose costs together fit in the budget left (always the cheapest one).
 *   The rest wait: they keep their pairs and come back as the cheaper ones settle. This gives the
 *   budget to the units closest to a verdict, so that as many as possible are decided: for a count
 *   of decisions, cheapest-first is the best order (a knapsack of equal values).
 * - A unit still below `--min-pairs` (and FUTILITY_MIN_PAIRS) always gets its pair: before them
 *   its spread is too rough to predict from.
 *
 * The guarantees of the verdicts do not rest on this: the stopping rules still decide when a unit
 * stops on its own (an anytime-valid betting test, or the sign-blind precision rule: stop.ts), and
 * a unit that waits or is futile is judged on the pairs it has, at the levels of judge.ts. The
 * predictions use the estimate, so the number of pairs a benchmark gets depends on its data;
 * bench/results/calibration.md measures the false-alarm rate and the coverage with the allocation
 * on (section "Allocation").
 */

export interface Candidate {
  name: string;
  /** pairs so far */
  pairs: number;
  /** predicted pairs in all that settle it; null while unknown (below min pairs, no spread yet) */
  need: number | null;
  /** mean milliseconds per pair so far (0 when none) */
  paceMs: number;
}

export interface Allocation {
  /** the units that get a pair in the next round, in the ranking's order (the caller shuffles them) */
  run: string[];
  /** units that wait this round: not futile, but beyond what the budget left covers after cheaper ones */
  waiting: string[];
  /** units that can no longer be decided within the budget left: no more pairs */
  futile: Array<{ name: string; need: number; pairs: number; affordable: number }>;
}

export interface AllocateOptions {
  minPairs: number;
  maxPairs: number;
  /** milliseconds of budget left */
  budgetLeftMs: number;
}

/** No unit is called futile before this many pairs: its spread is not known well enough before. */
export const FUTILITY_MIN_PAIRS = 20;

/**
 * The need had the spread been three standard errors smaller: the standard deviation estimated
 * from n pairs has a relative standard error of about 1/sqrt(2n) (for normal data; Kendall &
 * Stuart), and pairs needed scale as its square. Never below a tenth of the need.
 */
export function optimisticNeed(need: number, pairs: number): number {
  const shrink = Math.max(0.3, 1 - 3 / Math.sqrt(2 * Math.max(pairs, 1)));
  return Math.ceil(need * shrink * shrink);
}

/** Pairs still to measure for a unit that settles after `need` pairs in all, within max pairs. */
export function remainingPairs(c: Candidate, maxPairs: number): number {
  if (c.need === null) return 0;
  return Math.max(0, Math.min(c.need, maxPairs) - c.pairs);
}

export function allocate(candidates: readonly Candidate[], opts: AllocateOptions): Allocation {
  const run: string[] = [];
  const waiting: string[] = [];
  const futile: Allocation['futile'] = [];
  const ranked: Array<{ c: Candidate; cost: number }> = [];
  for (const c of candidates) {
    if (c.pairs < Math.max(opts.minPairs, FUTILITY_MIN_PAIRS) || c.need === null) {
      run.push(c.name);
      continue;
    }
    const cost = remainingPairs(c, opts.maxPairs) * c.paceMs;
    const hope = optimisticNeed(c.need, c.pairs);
    // a need beyond max pairs settles nothing: the unit would stop at max pairs undecided
    const hopeless = hope > opts.maxPairs || Math.max(0, hope - c.pairs) * c.paceMs > opts.budgetLeftMs;
    if (hopeless) {
      futile.push({ name: c.name, need: c.need, pairs: c.pairs, affordable: c.pairs + Math.max(0, Math.floor(opts.budgetLeftMs / Math.max(c.paceMs, 1e-9))) });
      continue;
    }
    ranked.push({ c, cost });
  }
  ranked.sort((a, b) => a.cost - b.cost || a.c.name.localeCompare(b.c.name));
  // the bootstrapping units spend budget too: what they will take before they can be ranked
  const bootstrap = Math.max(opts.minPairs, FUTILITY_MIN_PAIRS);
  let spent = candidates.reduce((s, c) => (c.pairs < bootstrap || c.need === null ? s + Math.max(0, bootstrap - c.pairs) * c.paceMs : s), 0);
  for (let i = 0; i < ranked.length; i++) {
    const { c, cost } = ranked[i]!;
    if (i === 0 || spent + cost <= opts.budgetLeftMs) {
      run.push(c.name);
      spent += cost;
    } else waiting.push(c.name);
  }
  return { run, waiting, futile };
}
