/**
 * Judging: from one benchmark's pairs to its change, verdict and diagnostics, and across
 * benchmarks to the corrected p-values and the overall verdict.
 *
 * Method (shared/guide/statistics.md): d = ln(head / base) per pair; outliers on d only;
 * Wilcoxon signed-rank test and Hodges–Lehmann estimate with the interval from inverting the test
 * (R's `wilcox.test(d, conf.int = TRUE)` conventions, see signrank.ts and hodges-lehmann.ts);
 * Holm (default) or Benjamini–Hochberg across benchmarks; verdicts as shared/guide/product.md.
 */
import type {
  BenchmarkAnalysis,
  BenchmarkInput,
  ChangeEstimate,
  Diagnostic,
  Direction,
  Judgement,
  JudgeOptions,
  OutlierRule,
  Pair,
  SideSummary,
  Verdict,
} from './types.ts';
import { cv, mean, medianSorted, sd, sorted, summarize } from './describe.ts';
import { hodgesLehmann, type HodgesLehmannResult } from './hodges-lehmann.ts';
import { benjaminiHochberg, holm } from './multiple.ts';
import { LEAN_ALPHA, MIN_FLAGGED_FOR_LEAN, screenOutliers, type OutlierScreen } from './outliers.ts';
import { minimumDetectableChange, minPairsForAlpha, pairsToDetect } from './power.ts';
import { rankSumTest } from './rank-sum.ts';
import { wilcoxonSignedRank, type SignedRankResult } from './signrank.ts';

/** Significance level of the diagnostics' own tests (order effect, drift): they advise, not gate. */
export const DIAGNOSTIC_ALPHA = 0.01;
/** Single-run CV above which pairing's rescue is worth telling. */
export const HIGH_SINGLE_CV = 0.05;
/** CV of the paired ratios above which a benchmark is called noisy. */
export const HIGH_PAIRED_CV = 0.05;

/** Everything computed from one benchmark's pairs before the cross-benchmark correction. */
export interface PairsAnalysis {
  /** ln(head / base) per pair, in pair order */
  d: Float64Array;
  screen: OutlierScreen;
  /** indices of the pairs used by the test and estimate (all but `screen.excluded`) */
  keptIndices: number[];
  base: SideSummary;
  head: SideSummary;
  /** CV of head/base over all pairs */
  pairedCv: number;
  /** CV of head/base over the kept pairs (what the test sees) */
  keptPairedCv: number;
  /** null with no kept pair */
  test: SignedRankResult | null;
  /** on the log scale; null with no kept pair */
  hl: HodgesLehmannResult | null;
  /** the fixed-sample level of `hl`'s interval (`intervalLevel`) */
  level: number;
  /** diagnostics that need only this benchmark's data */
  diagnostics: Diagnostic[];
}

/** Grid of the log-ratios: 1e-12, a relative difference far below any measurement's resolution. */
export const LOG_RATIO_GRID = 1e-12;

/**
 * Log-ratios d_i = ln(head_i / base_i), rounded (symmetrically about 0) to a grid of 1e-12. Without
 * the rounding, pairs with mathematically equal ratios (50/100 and 1/2, or every pair after scaling
 * the times) can differ in the last bit and have their tie broken by floating-point noise, which
 * changes the ranks; with it, swapping base and head negates every d exactly and scaling the times
 * leaves the ties as they were. R's `wilcox.test` has the same device (`digits.rank`).
 */
export function logRatios(pairs: readonly Pair[]): Float64Array {
  return Float64Array.from(pairs, (p) => {
    const d = Math.log(p.head / p.base);
    return (Math.sign(d) * Math.round(Math.abs(d) / LOG_RATIO_GRID)) * LOG_RATIO_GRID;
  });
}

/** At least this many pairs, and this share of them, excluded: the `many-outliers` warning. */
const MANY_OUTLIERS_MIN = 4;
const MANY_OUTLIERS_SHARE = 0.1;
/**
 * Share of A/A comparisons significant at alpha 0.05 with the default (balanced Tukey) screen on
 * bursty noise: 60 pairs, a run slowed by 20% x Exp(1) in 30% of runs, 1% log-normal noise
 * (2,000 trials; `--outliers none` 5.2%; tests/stats/judge.test.ts). Quoted by the warning.
 */
const BURSTY_TUKEY_LEVEL = 0.13;

const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
const signedPct = (x: number, digits = 1): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}%`;
const fmtP = (p: number): string => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));

/**
 * Share of alpha left to the interval after an early stop: the interval is computed at the
 * fixed-sample level 1 - alpha × STOPPED_EARLY_ALPHA_SHARE (97.5% for alpha 0.05).
 *
 * Why. A fixed-sample interval computed at a stopping time that depended on the data covers less
 * often than its level: the rules stop preferentially when the pairs so far happen to look
 * precise or decisive (the sequential-estimation problem behind Stein's two-stage procedure and
 * Chow & Robbins' fixed-width intervals: Chow & Robbins 1965, Ann. Math. Statist. 36, 457-462;
 * Siegmund 1985, "Sequential Analysis", Springer, ch. 3). The stopping rules keep the *test*
 * exact with no change (stop.ts: the precision rule is blind to the signs), but not the interval
 * at every true change: measured (bench/results/calibration.md, column *plain interval*) the 95%
 * interval covered 92.7-95.9% after early stops under the drift-and-spikes model, against
 * 94.7-94.8% at a fixed 13 pairs. A confidence sequence would cover at any stop by construction,
 * but the betting one of stop.ts came out 1.7 times as wide at 60 pairs (and far wider at 13): too
 * high a price. Raising the level to 1 - alpha/2 costs about 15% of width and brings coverage to
 * 96.5-98.2% in every cell of that model (94.0% and 94.8% at a 2% change under the heavy-tailed
 * and the independent-noise models, within their sampling error). A comparison that ran to its
 * budget (`max-pairs`, `max-time`) or a file without stop reasons gets the plain interval, which
 * is R's `wilcox.test(conf.int = TRUE)` exactly.
 */
export const STOPPED_EARLY_ALPHA_SHARE = 0.5;

/** The fixed-sample level at which a benchmark's interval is computed (see STOPPED_EARLY_ALPHA_SHARE). */
export function intervalLevel(alpha: number, stoppedEarly: boolean): number {
  return 1 - (stoppedEarly ? alpha * STOPPED_EARLY_ALPHA_SHARE : alpha);
}

/**
 * Analyzes one benchmark's pairs at significance `alpha`: outliers, side summaries, the signed-rank
 * test and the Hodges–Lehmann estimate with its (1 - alpha) interval (log scale), and the
 * diagnostics of the data alone. No multiple-comparison correction and no verdict (see `judge`).
 */
export function analyzePairs(
  pairs: readonly Pair[],
  opts: { alpha: number; outliers: OutlierRule; direction?: Direction; threshold?: number; metric?: string; stoppedEarly?: boolean },
): PairsAnalysis {
  const direction = opts.direction ?? 'lower-is-better';
  const d = logRatios(pairs);
  const screen = screenOutliers(d, opts.outliers);
  const excluded = new Set(screen.excluded);
  const keptIndices: number[] = [];
  for (let i = 0; i < d.length; i++) if (!excluded.has(i)) keptIndices.push(i);
  const kept = Float64Array.from(keptIndices, (i) => d[i] as number);
  const ratios = pairs.map((p) => p.head / p.base);
  const keptRatios = keptIndices.map((i) => ratios[i] as number);
  const base = summarize(pairs.map((p) => p.base));
  const head = summarize(pairs.map((p) => p.head));
  const pairedCv = ratios.length > 0 ? cv(ratios) : NaN;
  const keptPairedCv = keptRatios.length > 0 ? cv(keptRatios) : NaN;
  const test = kept.length > 0 ? wilcoxonSignedRank(kept) : null;
  // The estimate and interval count zeros (head == base) as values, the test drops them as R does:
  // see hodges-lehmann.ts. Without zeros both are R's `wilcox.test(d, conf.int = TRUE)`.
  const level = intervalLevel(opts.alpha, opts.stoppedEarly ?? false);
  const hl = kept.length > 0 ? hodgesLehmann(kept, level, { zeros: 'keep' }) : null;
  const analysis: PairsAnalysis = { d, screen, keptIndices, base, head, pairedCv, keptPairedCv, test, hl, level, diagnostics: [] };
  analysis.diagnostics = dataDiagnostics(pairs, analysis, opts.alpha, direction, opts.threshold ?? 0.02, opts.metric);
  return analysis;
}

function dataDiagnostics(pairs: readonly Pair[], a: PairsAnalysis, alpha: number, direction: Direction, threshold: number, metric?: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kept = a.keptIndices.map((i) => a.d[i] as number);
  const n = kept.length;
  const need = minPairsForAlpha(alpha);
  const usable = a.test ? a.test.n : 0;
  const zeros = a.test ? a.test.zeros : 0;
  if (n === 0) {
    out.push({
      code: 'too-few-pairs',
      severity: 'warning',
      message: `No usable pairs, so nothing can be concluded. Need >= ${need} pairs for any p-value below alpha = ${alpha}: raise --min-pairs / --max-pairs or --max-time.`,
    });
    return out;
  }
  const allEqual = kept.every((v) => v === kept[0]);
  // The interval counts every kept pair, zeros included (hodges-lehmann.ts), so pairs with
  // head == base do pin the change; only too few pairs in all leave it unknown.
  const confident = a.hl !== null && a.hl.achievedConfidence >= a.level - 1e-12;
  if (n < need || !confident) {
    const minP = usable > 0 ? 2 ** (1 - usable) : 1;
    out.push({
      code: 'too-few-pairs',
      severity: 'warning',
      message:
        `Only ${n} usable pair${n === 1 ? '' : 's'}${zeros > 0 ? ` (${zeros} of them with head == base, which carry no sign for the test)` : ''}: ` +
        `the smallest possible two-sided p-value is then ${fmtP(minP)}${minP >= alpha ? `, never below alpha = ${alpha}` : ''}, and the interval cannot reach ${pct(a.level, 1).replace(/\.0%$/, '%')} confidence. ` +
        `Need >= ${need} pairs (--min-pairs ${Math.max(need, 10)}).`,
    });
  } else if (zeros > 0 && 2 * zeros > n && !allEqual) {
    out.push({
      code: 'mostly-equal',
      severity: 'info',
      message:
        `${zeros} of ${n} pairs measured head and base exactly equal; only ${usable} differ. The test counts only the pairs that differ (a pair with head == base has no sign), ` +
        `so it can hardly be significant; the estimate and interval count all ${n} pairs, and the equal ones pin the change near 0 ` +
        `(Hodges–Lehmann over all pairs: Pratt 1959, Lehmann 1975). Typical of counts and sizes (bytes, allocations) that move by a unit in a few runs.`,
    });
  }
  if (allEqual && n >= 2) {
    const v = kept[0] as number;
    out.push({
      code: 'all-equal',
      severity: 'info',
      message:
        v === 0
          ? `All ${n} pairs measured head and base exactly equal: the metric does not vary between runs (a count, or a coarse clock). The test sees no noise; "no change" here means no pair differed at all. If this is a time, check the timer's resolution or measure a longer run.`
          : `All ${n} pairs have the same ratio head/base (${signedPct(Math.expm1(v), 2)}): the metric does not vary between runs (a count, or a coarse clock), so the interval is a single point. Fine for deterministic counts (instructions, memory); for times, check the timer's resolution.`,
    });
  }
  // One-sided outliers: flagged pairs that lean to one side beyond chance are kept as a finding.
  // The claim is made only under the condition it states (the screen's binomial test: at least
  // MIN_FLAGGED_FOR_LEAN flagged, p < LEAN_ALPHA), checked here again so message and condition
  // cannot drift apart; an excess on one side that chance explains is reported neutrally.
  const flagged = a.screen.high + a.screen.low;
  const leans = a.screen.lean && flagged >= MIN_FLAGGED_FOR_LEAN && (a.screen.balanceP ?? 1) < LEAN_ALPHA;
  if (!leans && a.screen.kept.length > 0) {
    const k = a.screen.kept.length;
    out.push({
      code: 'outliers-kept',
      severity: 'info',
      message:
        `${flagged} pair${flagged === 1 ? '' : 's'} fell outside the outlier fences (${a.screen.high} above, ${a.screen.low} below); ${a.screen.excluded.length} were excluded as balanced pairs (one above for one below), ` +
        `and the ${k} in excess on one side kept (pairs ${a.screen.kept.slice(0, 10).join(', ')}${k > 10 ? ', ...' : ''}): excluding them would tilt the test. ` +
        `A split like ${a.screen.high} to ${a.screen.low} is within chance (binomial p = ${fmtP(a.screen.balanceP ?? 1)}).`,
    });
  }
  if (leans) {
    const lower = direction === 'lower-is-better';
    const headWorse = lower ? a.screen.high : a.screen.low;
    const baseWorse = lower ? a.screen.low : a.screen.high;
    const adj = lower ? 'slow' : 'low';
    const lead =
      headWorse >= baseWorse
        ? `head has ${headWorse} ${adj} outlier${headWorse === 1 ? '' : 's'}, base ${baseWorse === 0 ? 'none' : baseWorse}: a tail regression?`
        : `base has ${baseWorse} ${adj} outlier${baseWorse === 1 ? '' : 's'}, head ${headWorse === 0 ? 'none' : headWorse}: a tail improvement?`;
    out.push({
      code: 'one-sided-outliers',
      severity: 'warning',
      message:
        `${lead[0]?.toUpperCase()}${lead.slice(1)} Outlying pairs should fall on either side alike; these lean to one side far more than chance allows (binomial p = ${fmtP(a.screen.balanceP ?? 1)}), ` +
        `so they are kept in the test, not excluded (pairs ${a.screen.kept.slice(0, 10).join(', ')}${a.screen.kept.length > 10 ? ', ...' : ''}). ` +
        `Look at the runs behind them: a path that is only sometimes slow (GC, a cold cache, contention, a retry) shows as a tail, not as a shift of the median.`,
    });
  }
  // Many pairs excluded: balanced trimming keeps the test's level on well-behaved noise, not when a
  // machine runs in bursts (see screenOutliers), so say so and how to judge without it.
  const total = a.d.length;
  const dropped = a.screen.excluded.length;
  if (dropped >= MANY_OUTLIERS_MIN && dropped >= MANY_OUTLIERS_SHARE * total) {
    out.push({
      code: 'many-outliers',
      severity: 'warning',
      message:
        `${dropped} of ${total} pairs (${pct(dropped / total, 0)}) were excluded as outliers: some runs here are far slower than the rest (bursts of load, or runs that land in a slow mode). ` +
        `Trimming that many tilts the signed-rank test: on simulated bursty noise, ${pct(BURSTY_TUKEY_LEVEL, 0)} of comparisons of a revision with itself came out significant at alpha 0.05 with the default screen, 5% with none. ` +
        `The gate also needs the change beyond the threshold, so false alarms stay rare, but read a small significant change with care: judge again with every pair (pairbench report <results> --outliers none), measure CPU time (--metric cpu), or quiet the machine.`,
    });
  }
  // Order effect: d of base-first pairs against head-first pairs.
  const bf: number[] = [];
  const hf: number[] = [];
  for (const i of a.keptIndices) (pairs[i]?.order === 'base-first' ? bf : hf).push(a.d[i] as number);
  if (bf.length >= 4 && hf.length >= 4) {
    const t = rankSumTest(bf, hf);
    if (t.pValue < DIAGNOSTIC_ALPHA) {
      const mb = medianSorted(sorted(bf));
      const mh = medianSorted(sorted(hf));
      const second = Math.expm1((mb - mh) / 2);
      out.push({
        code: 'order-effect',
        severity: 'warning',
        message:
          `Pairs with base first differ from pairs with head first (median change ${signedPct(Math.expm1(mb))} vs ${signedPct(Math.expm1(mh))}, rank-sum p = ${fmtP(t.pValue)}): ` +
          `the second run of a pair measures about ${pct(Math.abs(second))} ${second > 0 ? 'higher' : 'lower'} than the first. ` +
          `The random order keeps the estimate fair, but this adds noise. Add unmeasured warm-up runs (--warmup 2 or more) or a --prepare command that puts both sides in the same state before every run (clear caches, reset files).`,
      });
    }
  }
  // Drift: first half of the pairs against the second half, in measuring order.
  if (n >= 10) {
    const half = Math.floor(n / 2);
    const first = kept.slice(0, half);
    const second = kept.slice(half);
    const t = rankSumTest(first, second);
    if (t.pValue < DIAGNOSTIC_ALPHA) {
      out.push({
        code: 'drift',
        severity: 'warning',
        message:
          `The change drifted during the run: ${signedPct(Math.expm1(medianSorted(sorted(first))))} over the first half of the pairs, ${signedPct(Math.expm1(medianSorted(sorted(second))))} over the second (rank-sum p = ${fmtP(t.pValue)}). ` +
          `Pairing cancels what the machine does to both sides alike, not a difference that itself moves (one side filling a cache or a disk, throttling that hits one build harder, a job that competes with one of them). ` +
          `Look at the pairs over time in the results file and re-run; if it persists, the change is not a constant factor.`,
      });
    }
  }
  // Noise: still high after pairing, or high per run but rescued by pairing.
  const unpaired = Math.sqrt(a.base.cv ** 2 + a.head.cv ** 2);
  if (n >= 3 && a.keptPairedCv > HIGH_PAIRED_CV) {
    const logSd = sd(kept);
    const mdc = minimumDetectableChange(logSd, n, alpha);
    const needed = pairsToDetect(logSd, threshold, alpha);
    out.push({
      code: 'high-noise',
      severity: 'warning',
      message:
        // One count of pairs per benchmark is given, the one that settles its verdict (pairsToSettle);
        // a second count here, to shrink the detectable change to the threshold, only confused it.
        `Noisy even in pairs: the ratio head/base varies by ${pct(a.keptPairedCv)} (CV) from pair to pair. With ${n} pairs the smallest change this detects reliably is about ${pct(mdc)}` +
        `${Number.isFinite(needed) && needed > n ? ` (the threshold is ${pct(threshold)})` : ''}. ` +
        `To cut the noise itself: ${metric === 'wall' ? 'measure CPU time instead of wall time (--metric cpu), ' : ''}run on a quieter machine (a dedicated runner, no parallel jobs), or make one run do more work.`,
    });
  } else if (Math.max(a.base.cv, a.head.cv) > HIGH_SINGLE_CV && unpaired > 0 && a.pairedCv < 0.5 * unpaired) {
    out.push({
      code: 'pairing-rescued',
      severity: 'info',
      message:
        `Single runs vary a lot (CV ${pct(a.base.cv)} base, ${pct(a.head.cv)} head), but the two runs of a pair move together (paired CV ${pct(a.pairedCv)}): ` +
        `pairing removed ${pct(1 - a.pairedCv / unpaired, 0)} of the noise that unpaired runs would have had. The machine changes state between runs; runs of base and head measured apart (all base, then all head) would not be comparable here.`,
    });
  }
  return out;
}

/**
 * The verdict of one benchmark (shared/guide/product.md), direction-aware:
 * significant (pAdjusted < alpha) and worse than the threshold: regression; better: improvement;
 * significant but within the threshold, or not significant with the whole interval within
 * ±threshold: unchanged; otherwise inconclusive. An interval whose confidence falls short of the
 * requested one (too few pairs) cannot make a benchmark unchanged.
 */
export function verdictOf(change: ChangeEstimate | null, threshold: number, direction: Direction, alpha: number): Verdict {
  if (!change) return 'inconclusive';
  const significant = change.pAdjusted < alpha;
  const up = change.estimate > threshold;
  const down = change.estimate < -threshold;
  if (significant && (up || down)) {
    const worse = direction === 'lower-is-better' ? up : down;
    return worse ? 'regression' : 'improvement';
  }
  if (significant) return 'unchanged';
  const level = change.level ?? change.confidence;
  const confident = (change.achievedConfidence ?? level) >= level - 1e-12;
  if (confident && change.ci[0] >= -threshold && change.ci[1] <= threshold) return 'unchanged';
  return 'inconclusive';
}

/**
 * For an inconclusive benchmark: a rough count of pairs in all that would likely settle it,
 * assuming the interval's half-width shrinks as 1/sqrt(n). It settles once the half-width falls
 * below either |estimate| (the interval leaves 0: significant) or threshold - |estimate| (the
 * interval fits within ±threshold), whichever is larger.
 */
export function estimatePairsToSettle(change: ChangeEstimate, n: number, threshold: number, alpha: number): number | null {
  const half = (change.ci[1] - change.ci[0]) / 2;
  const est = Math.abs(change.estimate);
  const target = Math.max(est, threshold - est);
  const floor = Math.max(n + 1, minPairsForAlpha(alpha));
  if (!(target > 0)) return null;
  if (!(half > 0)) return floor;
  return Math.max(floor, Math.ceil(n * (half / target) ** 2 - 1e-9));
}

const VERDICT_RANK: Record<Verdict, number> = { unchanged: 0, improvement: 1, inconclusive: 2, regression: 3 };

/** The worse of verdicts: regression > inconclusive > improvement > unchanged. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  let worst: Verdict = 'unchanged';
  for (const v of verdicts) if (VERDICT_RANK[v] > VERDICT_RANK[worst]) worst = v;
  return worst;
}

/**
 * Judges every benchmark: per benchmark `analyzePairs`, then the multiple-comparison correction of
 * the p-values over all benchmarks with a test (Holm, or Benjamini–Hochberg with
 * `correction: 'bh'`), verdicts, the worst verdict, and the geometric mean of the estimated
 * ratios head/base over the benchmarks with an estimate.
 */
export function judge(inputs: readonly BenchmarkInput[], opts: JudgeOptions): Judgement {
  const analyses = inputs.map((b) =>
    analyzePairs(b.pairs, {
      alpha: opts.alpha,
      outliers: opts.outliers,
      direction: b.direction,
      threshold: b.threshold ?? opts.threshold,
      ...(b.metric ? { metric: b.metric } : {}),
      ...(b.stoppedEarly ? { stoppedEarly: true } : {}),
    }),
  );
  const raw = analyses.map((a) => (a.test ? a.test.pValue : NaN));
  const adjusted = opts.correction === 'bh' ? benjaminiHochberg(raw) : holm(raw);
  const benchmarks = inputs.map((b, i): BenchmarkAnalysis => {
    const a = analyses[i] as PairsAnalysis;
    const threshold = b.threshold ?? opts.threshold;
    let change: ChangeEstimate | null = null;
    if (a.test && a.hl) {
      change = {
        estimate: Math.expm1(a.hl.estimate),
        ci: [Math.expm1(a.hl.lower), Math.expm1(a.hl.upper)],
        confidence: 1 - opts.alpha,
        ...(a.level !== 1 - opts.alpha ? { level: a.level } : {}),
        pValue: a.test.pValue,
        pAdjusted: adjusted[i] as number,
        method: a.test.method,
        achievedConfidence: a.hl.achievedConfidence,
        n: a.test.n,
      };
    }
    const verdict = verdictOf(change, threshold, b.direction, opts.alpha);
    const pairsToSettle = verdict === 'inconclusive' && change ? estimatePairsToSettle(change, a.keptIndices.length, threshold, opts.alpha) : null;
    return {
      name: b.name,
      direction: b.direction,
      threshold,
      outliers: a.screen.excluded,
      outliersKept: a.screen.kept,
      base: a.base,
      head: a.head,
      pairedCv: a.pairedCv,
      change,
      verdict,
      pairsToSettle,
      diagnostics: a.diagnostics,
    };
  });
  const logs = analyses.filter((a) => a.hl).map((a) => (a.hl as HodgesLehmannResult).estimate);
  return {
    benchmarks,
    verdict: worstVerdict(benchmarks.map((b) => b.verdict)),
    geomean: logs.length > 0 ? Math.expm1(mean(logs)) : null,
  };
}
