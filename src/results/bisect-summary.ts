/**
 * The summary file of `pairbench bisect`: the range searched, every step with its verdict and its
 * own results file, and what the search concluded. bisect/find-commit.ts writes it, report/bisect-report.ts
 * renders it; its shape lives with the results files, which both read.
 */

export interface RangeCommit {
  sha: string;
  /** the first line of its message, for the report */
  subject: string;
}

/** What one step found at a commit, against the base. */
export type StepOutcome =
  /** the paired test found a regression beyond the threshold */
  | 'regressed'
  /** the paired test found the change within the threshold, or an improvement */
  | 'not-regressed'
  /** the test could not decide within its share of the budget */
  | 'undecided'
  /** the commit could not be built: it is skipped */
  | 'build-failed';

/** What the search concluded (bisect/search.ts, `conclude`). */
export type Conclusion =
  /** the head does not regress against the base: nothing to look for */
  | { kind: 'no-regression' }
  /** the head was not confirmed: its test could not decide, or it could not be built */
  | { kind: 'head-undecided' }
  /** `first` regresses and its parent (commit first - 1) does not */
  | { kind: 'found'; first: number }
  /** the first regressing commit is one of `candidates` (in order), which the search could not separate */
  | { kind: 'unseparated'; candidates: number[]; why: 'build-failed' | 'undecided' | 'tests-used' | 'out-of-time' };

/** One commit of the range measured against the base (or skipped). */
export interface BisectStep {
  /** the commit's place in the range: 1 is the oldest, n the head */
  index: number;
  sha: string;
  subject: string;
  outcome: StepOutcome;
  /** the step's verdict on the benchmark, when it was measured */
  verdict?: string;
  /** the change against the base and its interval, at the step's level */
  change?: { estimate: number; ci: [number, number]; level?: number };
  pairs: number;
  /** the step's own results file (every pair it measured) */
  resultsFile: string;
  /** why it was skipped (a build failure) */
  note?: string;
  /** the head's step taken from the comparison that found the regression, not measured again */
  fromComparison?: true;
}

export interface BisectResult {
  kind: 'bisect';
  benchmark: string;
  base: { ref: string; sha: string };
  head: { ref: string; sha: string };
  commits: RangeCommit[];
  /** the search's alpha, and what each test spends of it */
  alpha: number;
  alphaPerTest: number;
  maxTests: number;
  threshold: number;
  /** each step's share of --max-time */
  stepBudgetMs: number;
  steps: BisectStep[];
  conclusion: Conclusion;
  /** set when the search ended early: interrupted, or the base could not be built */
  stoppedBecause?: 'interrupted' | 'base-build-failed';
  /** the head's regression is the comparison's own verdict; the search's tests are the halvings */
  headFromComparison?: true;
}
