/**
 * The vocabulary of judging: what goes into `stats/` and what comes out.
 *
 * One name, one meaning: a *pair* is one base run and one head run measured back to back,
 * in an order decided by a coin; a *sample* is one measured value.
 */

import type { AbsoluteFloor } from './floor.ts';
import type { Resolution } from './resolution.ts';

export type Direction = 'lower-is-better' | 'higher-is-better';
export type Verdict = 'regression' | 'improvement' | 'unchanged' | 'inconclusive';
export type OutlierRule = 'tukey' | 'mad' | 'none';
export type Correction = 'holm' | 'bh';
/**
 * The test of "no change" of one benchmark's pairs (docs/statistics.md, "The test"): `sign-flip`,
 * the randomization test with the outlier screen inside its statistic (signflip.ts); `signed-rank`,
 * Wilcoxon's signed-rank test of every pair, as R's `wilcox.test(d)` (signrank.ts), which is exact
 * only without a screen. Chosen from the outlier rule in one place (analysis.ts, `pairedTestFor`).
 */
export type PairedTest = 'sign-flip' | 'signed-rank';
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
  /**
   * median absolute deviation × 1.4826 (R's `mad`), same unit as the samples: the robust spread of
   * single runs that the reports show relative to the median (describe.ts, `relativeMad`)
   */
  mad: number;
}

/** The change of head against base, relative: 0.049 is +4.9%. */
export interface ChangeEstimate {
  /** exp(Hodges-Lehmann estimate of ln(head/base)) - 1 */
  estimate: number;
  /** confidence interval of the relative change, at `ciLevel` */
  ci: [number, number];
  /** the comparison's confidence, 1 - alpha (family-wise with several benchmarks, after the correction) */
  confidence: number;
  /**
   * the level `ci` is computed at, which the verdict is read from: 1 - alpha with one benchmark,
   * higher with several so that it agrees with the correction (Holm: 1 - alpha / (benchmarks not
   * rejected); Benjamini–Hochberg: 1 - alpha × rejected / benchmarks; judge.ts, `intervalAlpha`),
   * and raised again after an early stop (`intervalLevel`)
   */
  ciLevel: number;
  /** `ciLevel` when it differs from `confidence` (kept for readers of earlier files); absent means equal */
  level?: number;
  /**
   * two-sided p-value of "no change", of the test `test`: with an outlier rule, the sign-flip test
   * with the screen inside its statistic (stats/signflip.ts); with `none`, Wilcoxon's signed-rank
   * test of the pairs
   */
  pValue: number;
  /** the test that gave `pValue` (`PairedTest`); absent in an estimate `judge` did not make */
  test?: PairedTest;
  /** p-value after the multiple-comparison correction across all benchmarks */
  pAdjusted: number;
  /**
   * `exact` for the exact null distribution (every sign pattern), `monte-carlo` for sign patterns
   * drawn at random (seeded), `normal` for the signed-rank approximation with tie/zero corrections
   */
  method: 'exact' | 'normal' | 'monte-carlo';
  /** standard error of a `monte-carlo` p-value as an estimate of the exact one */
  pMonteCarloError?: number;
  /**
   * the fixed-sample confidence `ci` actually has: at least `level`, except when too few pairs make
   * the requested level unreachable (the interval is then [min, max] or wider than asked, as R reports)
   */
  achievedConfidence?: number;
  /** pairs the test used (kept pairs with head != base: the test drops zeros, the estimate and interval count them) */
  n?: number;
  /**
   * `equivalence`: `ci` is the equivalence interval (two one-sided tests at alpha, analysis.ts
   * `equivalenceLevel`), which decided the verdict `unchanged`; absent: `ci` is the test's interval
   */
  basis?: 'equivalence';
  /** the equivalence interval and its level, whichever interval `ci` is */
  equivalence?: { ci: [number, number]; level: number };
  /** with `basis: 'equivalence'`: the test's interval (at the correction's level), which `ci` then is not */
  tested?: { ci: [number, number]; level: number; achievedConfidence?: number };
  /**
   * a throughput's change read from its time's (judge.ts, `reciprocalRows`): the name of that
   * result, whose p-value this is and whose intervals these are, carried over by 1/(1 + x) − 1
   */
  readFrom?: string;
}

/**
 * A finding about a benchmark's data (benchstat style: each says what to do), as a code with the
 * figures it rests on. `stats/` states findings; the surfaces word them (report/findings.ts): the
 * terminal in CLI flags (`--metric cpu`), the PR comment and job summary in action inputs
 * (`metric: cpu`). Pair indices (`pairs`) are indices into the benchmark's `pairs`, from 0, as
 * `outliers`; every surface shows them as pair numbers from 1, as its pair tables do.
 */
export type Finding =
  /** too few usable pairs for any p-value below alpha, or for the interval to reach its level */
  | { code: 'too-few-pairs'; severity: 'warning'; figures: { pairs: number; zeros: number; smallestP: number; alpha: number; level: number; need: number } }
  /** most pairs have head == base exactly: the interval counts them, the test cannot (info) */
  | { code: 'mostly-equal'; severity: 'info'; figures: { pairs: number; zeros: number; differing: number } }
  /** every pair has the same ratio (0 when head == base throughout) */
  | { code: 'all-equal'; severity: 'info'; figures: { pairs: number; change: number } }
  /** an instruction count whose runs of one side are further apart than the tolerance (count-spread.ts): never `unchanged` */
  | { code: 'unsteady-counts'; severity: 'warning'; figures: { base: number; head: number; tolerance: number } }
  /**
   * times printed in steps (resolution.ts) of `share` of the smallest value, a quarter of the
   * threshold or more, or enough to hold back `unchanged` (`held`): `unchanged` needs the
   * equivalence interval within ±(threshold − share)
   */
  | { code: 'coarse-resolution'; severity: 'warning' | 'info'; figures: { step: number; smallest: number; share: number; threshold: number; held: boolean; unit?: string } }
  /** flagged pairs in excess on one side kept, a split within chance (info, no claim) */
  | { code: 'outliers-kept'; severity: 'info'; figures: { above: number; below: number; excluded: number; kept: number[]; balanceP: number } }
  /** flagged pairs lean to one side beyond chance: kept, a possible tail regression (improvement) */
  | { code: 'one-sided-outliers'; severity: 'warning'; figures: { headWorse: number; baseWorse: number; direction: Direction; kept: number[]; balanceP: number } }
  /** 10% of the pairs or more excluded as outliers: the screen may tilt the test (warning) */
  | { code: 'many-outliers'; severity: 'info'; figures: { excluded: number; pairs: number; metric: string | null } }
  /** pairs with base first differ from pairs with head first */
  | { code: 'order-effect'; severity: 'warning'; figures: { baseFirst: number; headFirst: number; secondSlot: number; pValue: number; /** the pairs ran at once (`--pair-runs auto` or `at-once`): the slots were CPUs, not turns; set by the report from the settings */ atOnce?: boolean } }
  /** the first and second half of the pairs disagree */
  | { code: 'drift'; severity: 'warning'; figures: { firstHalf: number; secondHalf: number; pValue: number } }
  /** still noisy after pairing */
  | { code: 'high-noise'; severity: 'warning'; figures: { pairedCv: number; pairs: number; detectable: number | null; pairsForThreshold: number | null; threshold: number; metric: string | null } }
  /**
   * a Go benchmark noisy even in pairs, and what its own code or command could change: it allocates
   * (`allocsPerOp` ≥ 1, from its `allocs/op` row) or runs on more than one thread (`oneThread` false)
   */
  | { code: 'go-noise'; severity: 'info'; figures: { allocsPerOp: number | null; oneThread: boolean } }
  | { code: 'js-noise'; severity: 'info'; figures: { bound: boolean; batched: boolean } }
  /**
   * pairs in which one side printed 0 and the other did not (`baseZero`: base printed 0), which form
   * no ratio and are weighed apart (one-sided.ts): balanced and left out (`screened`), or an excess
   * kept, or the verdict `held` back from what the other pairs gave (null: none was)
   */
  | { code: 'one-sided-zeros'; severity: 'info' | 'warning'; figures: { baseZero: number; headZero: number; pairs: number; direction: Direction; balanceP: number; held: Verdict | null; screened: boolean; decided?: Verdict | null; pAdjusted?: number; heldBy?: 'interval' | 'lean' } }
  /** a Go pilot that ran a cold start: its pairs are left out of the judgement (results/cold-pilot.ts) */
  | { code: 'cold-pilot'; severity: 'info'; figures: { pilotPairs: number; judged: number; start: 'first' | 'modes' } }
  /** noisy single runs that pairing rescued */
  | { code: 'pairing-rescued'; severity: 'info'; figures: { baseCv: number; headCv: number; pairedCv: number; removed: number } }
  /** pairbench's per-run overhead (the shell's start) was subtracted before the ratios */
  | { code: 'overhead'; severity: 'info'; figures: { subtracted: number; unit: string } }
  /** the runs are within a few times pairbench's per-run overhead, or as short as it (capped) */
  | { code: 'short-run'; severity: 'warning'; figures: { overhead: number; typical: number; subtracted: number; capped: boolean; unit: string } };

export type DiagnosticCode = Finding['code'];

/** A finding (the name the results file uses: `diagnostics`). */
export type Diagnostic = Finding;

/** Options of judging, shared by `compare` and `report`. */
export interface JudgeOptions {
  /** significance level, family-wise after correction */
  alpha: number;
  /** smallest relative change that counts (0.02 = 2%), the default for benchmarks without their own */
  threshold: number;
  outliers: OutlierRule;
  /**
   * the test of no change; absent: the one the outlier rule implies (analysis.ts, `pairedTestFor`).
   * `signed-rank` with an outlier rule other than `none` is refused: the signed-rank test of the
   * pairs a screen kept is not exact (signflip.ts)
   */
  test?: PairedTest;
  correction: Correction;
  /**
   * seed of the sign-flip test's Monte Carlo draws (the results' `settings.seed`), mixed with each
   * benchmark's name: the same file judged again gives the same p-values (default 0)
   */
  seed?: number;
  /**
   * `min-change`: the absolute floors a change must also exceed, one per unit family (floor.ts);
   * results/judge-file.ts raises each benchmark's threshold to its floor's share of its base
   */
  minChange?: AbsoluteFloor[];
}

/** One benchmark's pairs as handed to judging. */
export interface BenchmarkInput {
  name: string;
  direction: Direction;
  /** this benchmark's own threshold, if it has one (config file); else JudgeOptions.threshold */
  threshold?: number;
  /** what was measured (`wall`, `cpu`, ...; none for harness results): diagnostics advise accordingly */
  metric?: string;
  /** an instruction count (unit `instructions`): no outlier screen, and its spread is checked (count-spread.ts) */
  counted?: boolean;
  /**
   * the pairs were ended by a rule that looked at them (`precision` or `decided`, stop.ts): the
   * interval is then computed at the raised level of `intervalLevel`, so that it still covers the
   * true change with probability 1 - alpha (see there)
   */
  stoppedEarly?: boolean;
  /**
   * the pairs were measured under pairbench's stopping rules, whatever ended them (any stop reason,
   * the budget's too): its betting rule watched them as they came and could have stopped them at
   * any pair, so `unchanged` is judged at the raised equivalence level however they ended
   * (analysis.ts, `equivalenceLevel`). A file without stop reasons (another tool's) keeps the plain
   * level.
   */
  sequential?: boolean;
  /**
   * the name of the input whose reciprocal, scaled, this one is in every run (a throughput computed
   * from a time): judged from that input when their pairs agree (judge.ts, `reciprocalRows`)
   */
  reciprocalOf?: string;
  /** a time's printed resolution (resolution.ts): `unchanged` needs its interval within ±(threshold − share) */
  resolution?: Resolution;
  pairs: Pair[];
  /**
   * pairs with one side at 0 and the other not, which form no ratio and are not in `pairs`: `base`
   * where base printed 0 (head above it), `head` the other way round; weighed apart (one-sided.ts)
   */
  oneSided?: { base: number; head: number };
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
  /** robust spread of the paired ratios head/base (MAD × 1.4826 / median, over all pairs): what pairing leaves of the single runs' spread */
  pairedMad: number;
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
}

/** Why measuring a benchmark stopped. */
/** `max-size`: another pair would make the results file larger than `pairbench report` reads */
/** `futile`: the pairs it still needed for a verdict did not fit in the budget left (schedule/allocate.ts) */
export type StopReason = 'precision' | 'decided' | 'max-pairs' | 'max-time' | 'futile' | 'max-size' | 'interrupted' | 'error';

/** Options of the stopping rules, checked between rounds. */
export interface StopOptions {
  minPairs: number;
  maxPairs: number;
  /** interval half-width (relative) below which a benchmark is precise enough */
  precision: number;
  alpha: number;
  threshold: number;
  /**
   * outlier rule applied before the precision interval: the comparison's own (`--outliers`), the
   * one its verdicts use, so that `none` on a bursty machine applies to stopping too. Required: a
   * default here once made every comparison stop as if screened with `tukey`.
   */
  outliers: OutlierRule;
  /**
   * Pairs the outlier screen must keep before any stop: as many as the judgement needs to reach the
   * level of its interval (with several benchmarks and after an early stop, 1 - alpha/(2m): see
   * judge.ts, `intervalAlpha`, and analysis.ts, `intervalLevel`). Without it a benchmark could stop `decided`
   * with too few pairs kept for its verdict, and be judged `inconclusive`. Default 0.
   */
  minKept?: number;
  /** benchmarks in the correction's family (judge.ts, `inFamily`), for the pairs a change needs (`need`); default 1 */
  family?: number;
  /**
   * how `judge` will judge this row (judge.ts, `testOptions`): its sign-flip seed (`signFlipSeed` of
   * the run's seed and the row's name) and its draws, so that a `decided` stop is checked against the
   * very interval the report will show (stop.ts, `verdictBacks`). On pairs of mixed spreads the
   * interval raised for the screen can move by several points with the sign patterns drawn.
   * Default: seed 0 and the draws of one benchmark alone.
   */
  judging?: { seed: number; draws: number; intervalDraws: number };
  /** a time's printed resolution (resolution.ts), as judge.ts reads it: `unchanged` within ±(threshold − share) only */
  resolution?: Resolution | null;
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
  /** pairs in all that would likely settle the benchmark (stop.ts, `settleNeeds`); null when unknown */
  need: number | null;
  /** the fewest pairs in all that could settle it were it unchanged, read from the sizes of its differences alone (stop.ts, `settleNeeds`) */
  hope: number | null;
  /** the pairs in all after which it would likely settle were it unchanged, from the same sizes without the optimism (stop.ts, `settleNeeds`) */
  expected?: number | null;
  /** the fewest pairs in all that could show a change of LONG_SHOT_THRESHOLDS thresholds, from the same sizes (stop.ts, `settleNeeds`): whether a benchmark that cannot be shown unchanged is still worth pairs (allocate.ts) */
  reach?: number | null;
}
