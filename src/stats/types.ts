/**
 * The vocabulary of judging: what goes into `stats/` and what comes out.
 *
 * One name, one meaning: a *pair* is one base run and one head run measured back to back,
 * in an order decided by a coin; a *sample* is one measured value.
 */

export type Direction = 'lower-is-better' | 'higher-is-better';
export type Verdict = 'regression' | 'improvement' | 'unchanged' | 'inconclusive';
export type OutlierRule = 'tukey' | 'mad' | 'none';
export type Correction = 'holm' | 'bh';
export type PairOrder = 'base-first' | 'head-first';

export interface Pair {
  base: number;
  head: number;
  order: PairOrder;
}

/** Descriptive figures of one side, for the report only (the test works on the paired log-ratios). */
export interface SideSummary {
  n: number;
  median: number;
  mean: number;
  min: number;
  max: number;
  /** coefficient of variation: sample standard deviation / mean */
  cv: number;
  /** interquartile range, same unit as the samples */
  iqr: number;
}

/** The change of head against base, relative: 0.049 is +4.9%. */
export interface ChangeEstimate {
  /** exp(Hodges-Lehmann estimate of ln(head/base)) - 1 */
  estimate: number;
  /** confidence interval of the relative change, at `confidence` */
  ci: [number, number];
  /** confidence level of `ci` (1 - alpha): the share of comparisons whose interval covers the true change */
  confidence: number;
  /**
   * the level of the fixed-sample interval computed to reach `confidence`: equal to it, or higher
   * after an early stop (judge.ts, `intervalLevel`); absent means equal
   */
  level?: number;
  /** two-sided Wilcoxon signed-rank p-value of the pairs kept */
  pValue: number;
  /** p-value after the multiple-comparison correction across all benchmarks */
  pAdjusted: number;
  /** `exact` for the exact null distribution, `normal` for the approximation with tie/zero corrections */
  method: 'exact' | 'normal';
  /**
   * the fixed-sample confidence `ci` actually has: at least `level`, except when too few pairs make
   * the requested level unreachable (the interval is then [min, max] or wider than asked, as R reports)
   */
  achievedConfidence?: number;
  /** pairs the test used (kept pairs with head != base: the test drops zeros, the estimate and interval count them) */
  n?: number;
}

export type DiagnosticCode =
  | 'too-few-pairs'
  | 'order-effect'
  | 'drift'
  | 'one-sided-outliers'
  | 'pairing-rescued'
  | 'high-noise'
  | 'all-equal'
  /** most pairs have head == base exactly: the interval counts them, the test cannot (info) */
  | 'mostly-equal'
  /** 10% of the pairs or more excluded as outliers: the screen may tilt the test (warning) */
  | 'many-outliers'
  /** flagged pairs in excess on one side kept, a split within chance (info, no claim) */
  | 'outliers-kept';

/** A finding about a benchmark's data, with the advice a user needs (benchstat style). */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: 'info' | 'warning';
  message: string;
}

/** Options of judging, shared by `compare` and `report`. */
export interface JudgeOptions {
  /** significance level, family-wise after correction */
  alpha: number;
  /** smallest relative change that counts (0.02 = 2%), the default for benchmarks without their own */
  threshold: number;
  outliers: OutlierRule;
  correction: Correction;
}

/** One benchmark's pairs as handed to judging. */
export interface BenchmarkInput {
  name: string;
  direction: Direction;
  /** this benchmark's own threshold, if it has one (config file); else JudgeOptions.threshold */
  threshold?: number;
  /** what was measured (`wall`, `cpu`, ...; none for harness results): diagnostics advise accordingly */
  metric?: string;
  /**
   * the pairs were ended by a rule that looked at them (`precision` or `decided`, stop.ts): the
   * interval is then computed at the raised level of `intervalLevel`, so that it still covers the
   * true change with probability 1 - alpha (see there)
   */
  stoppedEarly?: boolean;
  pairs: Pair[];
}

/** Everything `stats/` concludes about one benchmark. */
export interface BenchmarkAnalysis {
  name: string;
  direction: Direction;
  threshold: number;
  /** indices into `pairs` excluded from the test and estimate */
  outliers: number[];
  /**
   * pairs flagged as outliers but kept: those that lean to one side more than chance allows (a
   * finding), and otherwise the flagged pairs in excess on one side (outliers are excluded only in
   * balanced pairs, one above for one below, so that excluding them cannot tilt the test)
   */
  outliersKept: number[];
  base: SideSummary;
  head: SideSummary;
  /** CV of the paired ratios head/base: how much noise is left after pairing */
  pairedCv: number;
  /** null when there are no usable pairs */
  change: ChangeEstimate | null;
  verdict: Verdict;
  /** for `inconclusive`: a rough count of pairs in all that would likely settle it; null otherwise */
  pairsToSettle: number | null;
  diagnostics: Diagnostic[];
}

export interface Judgement {
  benchmarks: BenchmarkAnalysis[];
  /** the worst verdict: regression > inconclusive > improvement > unchanged */
  verdict: Verdict;
  /** geometric mean over benchmarks of the estimated ratios head/base, minus one (relative) */
  geomean: number | null;
}

/** Why measuring a benchmark stopped. */
/** `max-size`: another pair would make the results file larger than `pairbench report` reads */
export type StopReason = 'precision' | 'decided' | 'max-pairs' | 'max-time' | 'max-size' | 'interrupted' | 'error';

/** Options of the stopping rules, checked between rounds. */
export interface StopOptions {
  minPairs: number;
  maxPairs: number;
  /** interval half-width (relative) below which a benchmark is precise enough */
  precision: number;
  alpha: number;
  threshold: number;
  /** outlier rule applied before the precision interval (default `tukey`, as judging) */
  outliers?: OutlierRule;
}

/** What `stopCheck` tells the scheduler after a round. */
export interface StopCheck {
  stop: boolean;
  reason: 'precision' | 'decided' | null;
  /** half-width of the (1 - alpha) interval of the relative change, null with no usable pair */
  halfWidth: number | null;
  /** Hodges–Lehmann estimate of the relative change, null with no usable pair */
  estimate: number | null;
  /** for `decided`: which way the anytime-valid test decided */
  decision?: 'change' | 'unchanged' | null;
}
