/**
 * The search of `pairbench bisect`, as pure state: which commit to measure next, what a step's
 * verdict teaches, and what the search concluded. No process runs here (find-commit.ts measures).
 *
 * Commits are numbered along the first-parent history of the range: 0 is the base, 1..n the
 * range's commits, n the head. `lo` is the last commit known not to regress the benchmark against
 * the base, `hi` the first known to regress it. Each step measures one commit between them against
 * the base with the comparison's own paired test, and moves `lo` or `hi` to it: the classic halving
 * of git bisect, which ends with `hi = lo + 1`, a commit that regresses where its parent does not.
 *
 * Every step is a test, so the search controls the error of all of them together: it plans at most
 * `testsPlanned(n)` tests (one that confirms the head regresses, then ceil(log2 n) halvings) and
 * runs each at alpha / that many. By Bonferroni's inequality (Dunn 1961) the chance that any step's
 * verdict is wrong is then at most alpha, however the steps depend on each other. A commit that
 * cannot be built is skipped (no test is spent on it); when the planned tests are used up, or a
 * step cannot decide (`stepOutcomeOf`), the search stops and names the commits it could not separate.
 */
import type { Conclusion, StepOutcome } from '../results/bisect-summary.ts';
import type { BenchmarkResult } from '../results/schema.ts';

export type { Conclusion, StepOutcome };

export interface SearchState {
  /** commits in the range (the head is commit n) */
  readonly n: number;
  /** the last commit known not to regress (0: the base) */
  readonly lo: number;
  /** the first commit known to regress (n: the head, once confirmed) */
  readonly hi: number;
  /** commits that could not be built */
  readonly skipped: readonly number[];
  /** tests run so far (build failures spend none) */
  readonly tests: number;
  /** the most tests the search may run, each at alpha / maxTests */
  readonly maxTests: number;
  /** whether the head was confirmed to regress (the first test) */
  readonly confirmed: boolean;
  /** set when a step could not decide: the search stops there */
  readonly undecidedAt: number | null;
  /** set when the search's time (--max-time, builds included) ran out: it stops there */
  readonly outOfTime?: true;
}

/**
 * The tests a search of n commits may need: one to confirm the head regresses, then ceil(log2 n)
 * halvings of the n commits that may be the first to regress.
 */
export function testsPlanned(n: number): number {
  return 1 + Math.ceil(Math.log2(Math.max(1, n)));
}

export function startSearch(n: number): SearchState {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`a search needs at least one commit; got ${n}`);
  return { n, lo: 0, hi: n, skipped: [], tests: 0, maxTests: testsPlanned(n), confirmed: false, undecidedAt: null };
}

/**
 * The commit to measure next, or null when the search is over. First the head (is there a
 * regression to look for?), then the unskipped commit between lo and hi nearest their middle
 * (the lower on a tie).
 */
export function nextCommit(state: SearchState): number | null {
  if (state.undecidedAt !== null || state.outOfTime || state.tests >= state.maxTests) return null;
  if (!state.confirmed) return state.lo === state.n || state.skipped.includes(state.n) ? null : state.n;
  const middle = (state.lo + state.hi) / 2;
  let best: number | null = null;
  for (let k = state.lo + 1; k < state.hi; k++) {
    if (state.skipped.includes(k)) continue;
    if (best === null || Math.abs(k - middle) < Math.abs(best - middle)) best = k;
  }
  return best;
}

/**
 * What a step's row says about the one question the search asks of a commit: does it regress the
 * benchmark beyond the threshold against the base? `regression`: yes. `unchanged` and
 * `improvement`: no. An `inconclusive` row whose interval lies wholly on the better side of the
 * threshold (below +threshold for a time, above −threshold for a throughput) also answers no,
 * though it does not settle *unchanged*: an interval across −threshold, or a significant change
 * within the threshold. The interval is the step's, at 1 − alpha / T, so the chance that the true
 * change lies beyond it on the regressing side is at most alpha / (2T) and the search's guarantee
 * stands. Only an interval that still holds both answers (it reaches past the threshold and
 * below it), or one whose pairs are too few to reach its level, leaves the step undecided.
 */
export function stepOutcomeOf(row: BenchmarkResult | undefined, threshold: number): StepOutcome {
  if (row?.verdict === 'regression') return 'regressed';
  if (row?.verdict === 'unchanged' || row?.verdict === 'improvement') return 'not-regressed';
  const change = row?.change;
  if (!row || !change) return 'undecided';
  const level = change.ciLevel ?? change.level ?? change.confidence;
  if (level === undefined || (change.achievedConfidence ?? level) < level - 1e-12) return 'undecided';
  const t = row.threshold ?? threshold;
  const [lower, upper] = change.ci;
  const excludesRegression = row.direction === 'higher-is-better' ? lower >= -t : upper <= t;
  return excludesRegression ? 'not-regressed' : 'undecided';
}

/** The state after measuring commit `k` (the one {@link nextCommit} named). */
export function recordStep(state: SearchState, k: number, outcome: StepOutcome): SearchState {
  if (outcome === 'build-failed') return { ...state, skipped: [...state.skipped, k].sort((a, b) => a - b) };
  const tests = state.tests + 1;
  if (outcome === 'undecided') return { ...state, tests, undecidedAt: k };
  if (!state.confirmed) {
    // the head: regressed starts the search; not regressed ends it with nothing to find
    return outcome === 'regressed' ? { ...state, tests, confirmed: true } : { ...state, tests, confirmed: false, lo: state.n };
  }
  return outcome === 'regressed' ? { ...state, tests, hi: k } : { ...state, tests, lo: k };
}

/** The state once the search's time has run out: no further step. */
export function outOfTime(state: SearchState): SearchState {
  return { ...state, outOfTime: true };
}

/** What the search found once {@link nextCommit} returns null. */
export function conclude(state: SearchState): Conclusion {
  if (!state.confirmed) return state.lo === state.n ? { kind: 'no-regression' } : { kind: 'head-undecided' };
  const candidates: number[] = [];
  for (let k = state.lo + 1; k <= state.hi; k++) candidates.push(k);
  if (candidates.length === 1) return { kind: 'found', first: state.hi };
  const why = state.undecidedAt !== null ? 'undecided' : state.outOfTime ? 'out-of-time' : state.tests >= state.maxTests && nextCommit({ ...state, maxTests: Infinity }) !== null ? 'tests-used' : 'build-failed';
  return { kind: 'unseparated', candidates, why };
}
