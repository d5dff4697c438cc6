/**
 * Judging a suite: each benchmark's pairs analysed (analysis.ts), the multiple-comparison
 * correction of the p-values across benchmarks, each interval at the level that agrees with it,
 * and the verdicts read off those intervals (verdict.ts).
 *
 * Method (docs/statistics.md): Holm (default) or Benjamini–Hochberg across the benchmarks whose
 * test can reject (`inFamily`), each interval at the level that agrees with the correction
 * (`intervalAlpha`) and the verdict read off it (`verdictOf`); verdicts as docs/cli.md's
 * "Verdicts" table. Findings are codes with their figures; report/findings.ts words them.
 */
import { COUNT_SPREAD_TOLERANCE, countSpread } from './count-spread.ts';
import { COARSE_SHARE_OF_THRESHOLD, unchangedMargin } from './resolution.ts';
import type { BenchmarkAnalysis, BenchmarkInput, ChangeEstimate, Correction, Finding, Judgement, JudgeOptions, Verdict } from './types.ts';
import { completeAnalysis, intervalLevel, pairedTestFor, pairRatio, screenAndTest, type PairsAnalysis, type ScreenedPairs, type TestOptions } from './analysis.ts';
import { median } from './describe.ts';
import { minPairsForAlpha } from './power.ts';
import { hodgesLehmann } from './hodges-lehmann.ts';
import { benjaminiHochberg, holm } from './multiple.ts';
import { drawsFor, intervalDrawsFor, signFlipSeed, smallestPValue } from './signflip.ts';
import { decide, estimatePairsToSettle, verdictOf, worstVerdict } from './verdict.ts';
import { calledFromZeros, heldVerdict, keptExtremes, oneSidedFinding, rowPValue, signTestCanReject } from './one-sided.ts';

/**
 * The error rate of each benchmark's interval when several are judged together, chosen so that the
 * interval shown agrees with the verdict of the correction and the verdict can be read off it
 * (significant exactly when the interval excludes 0, `verdictOf`). With m benchmarks that have a
 * test and R of them significant after the correction at `alpha`:
 *
 * - Holm: alpha / (m - R) (alpha when every one is rejected). Holm's step-down stops at the first
 *   benchmark it cannot reject, testing it at alpha / (m - R); every rejected benchmark had a
 *   p-value at most alpha / (m - R + 1), every other one above alpha / (m - R). So intervals that
 *   invert the test at this one level exclude 0 for the rejected benchmarks and contain it for the
 *   rest. This is the level of the Holm-compatible simultaneous intervals of Strassburger & Bretz
 *   (2008, "Compatible simultaneous lower confidence bounds for the Holm procedure and other
 *   Bonferroni-based closed tests", Statist. Med. 27, 4914-4927; two-sided: Guilbaud 2008,
 *   Biometrical J. 50, 678-692) for the benchmarks Holm does not reject; for the rejected ones
 *   their simultaneous statement is the sign of the change, which the interval shown carries (it
 *   excludes 0). Why not their intervals as such: for a rejected benchmark they end at 0 unless
 *   every benchmark is rejected, so they could not tell a change beyond the threshold from one
 *   within it. Why not Bonferroni's 1 - alpha/m for all: simultaneous, but the verdicts would then
 *   be Bonferroni's, less powerful than Holm's for every benchmark after the first rejection.
 * - Benjamini–Hochberg: R × alpha / m (alpha / m when R = 0), the false-coverage-rate adjusted
 *   level of Benjamini & Yekutieli (2005, "False discovery rate-adjusted multiple confidence
 *   intervals for selected parameters", JASA 100, 71-81): the intervals of the R selected
 *   benchmarks at 1 - R alpha / m cover their true changes with expected share of non-coverage at
 *   most alpha. BH's step-up rejects exactly the p-values at most R alpha / m and no other (every
 *   larger one exceeds (R + 1) alpha / m), so the same level for every benchmark agrees with it.
 *
 * With one benchmark both give alpha. The interval inverts the signed-rank test with zeros counted
 * (hodges-lehmann.ts), the p-value drops them, and discreteness differs between the two: in the
 * rare case where they part, the verdict follows the interval shown, never the p-value alone.
 */
export function intervalAlpha(pAdjusted: readonly number[], alpha: number, correction: Correction): number {
  const tested = pAdjusted.filter((p) => Number.isFinite(p));
  const m = tested.length;
  if (m <= 1) return alpha;
  const rejected = tested.filter((p) => p < alpha).length;
  if (correction === 'bh') return (Math.max(1, rejected) * alpha) / m;
  return alpha / Math.max(1, m - rejected);
}

/**
 * The interval of a row whose interval excludes 0 though its test, corrected, does not reject:
 * the Hodges–Lehmann interval of its kept pairs at the least level above `level` at which it holds
 * 0, so that the row reads `inconclusive` off its own interval (`verdictOf`). When no level below
 * 1 - 1e-12 holds 0 (every kept pair on one side, in a family so large that even that does not
 * reject), the interval at 1 - 1e-12 shown at level 1, which it falls short of: `inconclusive` too.
 *
 * Why they can disagree. The test's p-value is the randomization distribution of the screened
 * signed-rank statistic at d itself (signflip.ts, thousands of sign patterns); the interval inverts
 * the signed-rank test at a level raised for the screen from the same statistic's distribution
 * around the estimate, on fewer patterns, and capped at 0.999 (`screenedIntervalLevels`). At the
 * levels of a large family (alpha / 42: 99.88%) the two approximations part near the boundary: 60
 * pairs of a benchmark with no change, some of them repeated, gave p = 0.0018 (adjusted 0.075 over
 * 42) and an interval at 99.9% of [+0.06%, +10.8%], which read `regression`. A change is claimed
 * only when the test, whose level is the guarantee, rejects.
 */
function widenedToTest(kept: readonly number[], level: number): Required<Pick<ChangeEstimate, 'ci' | 'ciLevel' | 'achievedConfidence'>> {
  const holdsZero = (l: number) => {
    const hl = hodgesLehmann(kept, l, { zeros: 'keep' });
    return { hl, holds: hl.lower <= 0 && hl.upper >= 0 };
  };
  const top = holdsZero(1 - 1e-12);
  if (!top.holds) return { ci: [Math.expm1(top.hl.lower), Math.expm1(top.hl.upper)], ciLevel: 1, achievedConfidence: Math.min(top.hl.achievedConfidence, 1 - 1e-12) };
  // bisection on log(1 - level): the least level that holds 0, to about 1% of its distance from 1
  let lo = Math.log(1 - level);
  let hi = Math.log(1e-12);
  let found = top.hl;
  let foundLevel = 1 - 1e-12;
  for (let k = 0; k < 40 && lo - hi > 0.01; k++) {
    const mid = (lo + hi) / 2;
    const at = holdsZero(1 - Math.exp(mid));
    if (at.holds) {
      hi = mid;
      found = at.hl;
      foundLevel = 1 - Math.exp(mid);
    } else lo = mid;
  }
  return { ci: [Math.expm1(found.lower), Math.expm1(found.upper)], ciLevel: foundLevel, achievedConfidence: found.achievedConfidence };
}

/**
 * Whether a row counts in the multiple-comparison correction. A row whose every pair is equal
 * (Go's `allocs/op` and `B/op` of a benchmark that allocates alike on both sides, instruction
 * counts of an unchanged path) has a test that cannot reject at any level: given the sizes |d|,
 * all zero, every sign pattern gives the same statistic, p = 1. Counting it would make every other
 * row's level stricter for nothing: a Go suite with `b.ReportAllocs()` has three rows a benchmark,
 * two of them usually constant. Leaving out hypotheses whose smallest attainable p-value is above
 * alpha keeps the family-wise error rate (Tarone 1990, "A modified Bonferroni method for discrete
 * data", Biometrics 46:1071-1085; for Holm's step-down: Hommel & Krummenauer 1998, Biometrics
 * 54:673-681); the sizes |d| that decide it are what the sign-flip test conditions on, so the
 * choice does not depend on the signs the test is about. Only this certain case is left out.
 */
function inFamily(s: ScreenedPairs): boolean {
  if (!s.test) return false;
  for (let i = 0; i < s.d.length; i++) if (s.d[i] !== 0) return true;
  return false;
}

/**
 * How far apart, at the median over the pairs, a throughput and the reciprocal of its time may be
 * and still be one measurement: |ln(head / base)| of the one plus that of the other. The two are
 * printed rounded (Go: four significant digits of ns/op, two decimals of MB/s, about 0.05% each),
 * and a process's value may be the median of its repetitions, which for an even count is not
 * exactly the reciprocal of the time's (about δ²/4 for two repetitions δ apart: 0.25% at 10%; Go's
 * own are the least time and the greatest throughput, one repetition's). A change of
 * the bytes per operation between the revisions (`b.SetBytes` of another input) moves every pair by
 * that change, and the throughput is then judged on its own. Below this, a throughput read from its
 * time is off by at most an eighth of the default threshold.
 */
const RECIPROCAL_TOLERANCE = 0.0025;

/**
 * The inputs that are the scaled reciprocal of another input (`reciprocalOf`: Go's MB/s of its
 * ns/op, computed by the harness from the same run), by index, with the index of that input: those
 * whose pairs show it, the same count in the same order and the two changes cancelling pair by pair
 * (the median of |d_throughput + d_time| within RECIPROCAL_TOLERANCE). Such an input is one
 * measurement shown twice: its null hypothesis is its time's (the bytes are the same on both sides,
 * so throughput and time move together exactly), and counting it in the correction's family
 * would make every other benchmark's level stricter for a test already made. It is judged from its
 * time: the same p-value, and the time's intervals carried over by x ↦ 1/(1 + x) − 1, so its
 * verdict rejects exactly when its time's does and no error is added to the family's. The check
 * reads only the sizes |d_throughput + d_time|, which a swap of the sides in a pair leaves as they
 * are, so the family does not depend on the signs the test is about.
 */
function reciprocalRows(inputs: readonly BenchmarkInput[]): Map<number, number> {
  const byName = new Map(inputs.map((b, i) => [b.name, i]));
  const out = new Map<number, number>();
  inputs.forEach((b, i) => {
    if (b.reciprocalOf === undefined) return;
    const j = byName.get(b.reciprocalOf);
    if (j === undefined || j === i) return;
    const time = inputs[j]!;
    if (time.reciprocalOf !== undefined || time.pairs.length !== b.pairs.length || b.pairs.length === 0) return;
    const gaps: number[] = [];
    for (let k = 0; k < b.pairs.length; k++) {
      const p = b.pairs[k]!;
      const q = time.pairs[k]!;
      if (p.order !== q.order) return;
      gaps.push(Math.abs(Math.log(pairRatio(p)) + Math.log(pairRatio(q))));
    }
    if (median(gaps) <= RECIPROCAL_TOLERANCE) out.set(i, j);
  });
  return out;
}

/** A relative change of a time as the change of a throughput read from it: 1/(1 + x) − 1. */
const reciprocal = (x: number): number => 1 / (1 + x) - 1;

/** A time's change carried over to its throughput: the estimate and both intervals by `reciprocal`, their ends swapped. */
function reciprocalChange(c: ChangeEstimate, from: string): ChangeEstimate {
  const flip = (ci: [number, number]): [number, number] => [reciprocal(ci[1]), reciprocal(ci[0])];
  return {
    ...c,
    estimate: reciprocal(c.estimate),
    ci: flip(c.ci),
    ...(c.equivalence ? { equivalence: { ...c.equivalence, ci: flip(c.equivalence.ci) } } : {}),
    ...(c.tested ? { tested: { ...c.tested, ci: flip(c.tested.ci) } } : {}),
    readFrom: from,
  };
}

/**
 * The fewest pairs the outlier screen must leave a benchmark judged with `benchmarks` others: as
 * many as an exact Hodges–Lehmann interval needs to reach the strictest level the correction can
 * ask of it, 1 - alpha / benchmarks (Holm's first step, Bonferroni's level; halved after an early
 * stop, `intervalLevel`). Fewer kept pairs could never give a verdict, whatever they measured: the
 * screen then sets fewer aside (outliers.ts, `trimLimit`). A function of the count of pairs and of
 * benchmarks only, so the randomization test that recomputes the screen stays exact.
 */
export function minKeptFor(benchmarks: number, alpha: number, stoppedEarly: boolean): number {
  return minPairsForAlpha(1 - intervalLevel(alpha / Math.max(1, benchmarks), stoppedEarly));
}

/**
 * Judges every benchmark: per benchmark the outlier screen and test, the multiple-comparison
 * correction of the p-values over all benchmarks with a test (Holm, or Benjamini–Hochberg with
 * `correction: 'bh'`), each interval at the level that agrees with the correction
 * (`intervalAlpha`, raised after an early stop: `intervalLevel`), verdicts read off those
 * intervals, the worst verdict, and the geometric mean of the estimated ratios head/base over the
 * benchmarks with an estimate.
 */
export function judge(inputs: readonly BenchmarkInput[], opts: JudgeOptions): Judgement {
  const steps = judgeSteps(inputs, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `judge` one benchmark at a time: the generator yields after each benchmark's test and after each
 * one's interval, so that a caller can share the thread between them (results/judge-file.ts,
 * `judgeResultsCooperatively`: a suite of 100,000 benchmarks takes minutes to judge, and a signal
 * must still be honoured within seconds). Pure: no I/O, no clock; `judge` drains it at once.
 */
export function* judgeSteps(inputs: readonly BenchmarkInput[], opts: JudgeOptions): Generator<void, Judgement, void> {
  const draws = drawsFor(inputs.length, opts.alpha);
  const intervalDraws = intervalDrawsFor(inputs.length);
  const test = opts.test ?? pairedTestFor(opts.outliers);
  // Counts are not screened for outliers: near-constant counts give fences of almost no width, which
  // would set aside most pairs for a last-digit difference, and a count far from the others is what
  // the spread check (count-spread.ts) is there to report, not noise to drop.
  const testOptions = (b: BenchmarkInput): TestOptions => ({
    test,
    outliers: b.counted ? 'none' : opts.outliers,
    seed: signFlipSeed(opts.seed ?? 0, b.name),
    draws,
    intervalDraws,
    minKept: minKeptFor(inputs.length, opts.alpha, b.stoppedEarly ?? false),
  });
  const screened: ScreenedPairs[] = [];
  for (const b of inputs) {
    screened.push(screenAndTest(b.pairs, testOptions(b)));
    yield;
  }
  // a row with pairs of one side at 0: its p-value joins the sign test of their split (one-sided.ts)
  const raw = screened.map((s, i) => rowPValue(s.test ? s.test.pValue : NaN, inFamily(s), inputs[i]!.oneSided));
  // The correction's family: rows whose test can reach alpha (inFamily). A row outside it keeps
  // its own p-value, which cannot be significant anyway.
  const mirrors = reciprocalRows(inputs);
  const family = screened.map((x, i) => (inFamily(x) || signTestCanReject(inputs[i]!.oneSided)) && !mirrors.has(i));
  const familyAdjusted = (opts.correction === 'bh' ? benjaminiHochberg : holm)(raw.map((p, i) => (family[i] ? p : NaN)));
  const adjusted = raw.map((p, i) => (family[i] ? (familyAdjusted[i] as number) : p));
  const perInterval = intervalAlpha(familyAdjusted, opts.alpha, opts.correction);
  const analyses: PairsAnalysis[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const b = inputs[i]!;
    const extremes = keptExtremes(b.oneSided, opts.outliers);
    analyses.push(
      completeAnalysis(b.pairs, screened[i] as ScreenedPairs, {
        alpha: opts.alpha,
        direction: b.direction,
        threshold: b.threshold ?? opts.threshold,
        ...(b.metric ? { metric: b.metric } : {}),
        ...testOptions(b),
        level: intervalLevel(perInterval, b.stoppedEarly ?? false),
        ...(extremes !== 0 ? { extremes } : {}),
        ...(b.stoppedEarly ? { stoppedEarly: true } : {}),
        ...(b.sequential ? { sequential: true } : {}),
      }),
    );
    yield;
  }
  const benchmarks = inputs.map((b, i): BenchmarkAnalysis => {
    const a = analyses[i] as PairsAnalysis;
    const threshold = b.threshold ?? opts.threshold;
    let change: ChangeEstimate | null = null;
    let verdict: Verdict = 'inconclusive';
    let pairsToSettle: number | null = null;
    let held: Verdict | null = null;
    let heldBy: 'interval' | 'lean' | undefined;
    let fromZeros = false;
    // times printed in coarse steps (resolution.ts): `unchanged` only within the threshold less a step
    const margin = unchangedMargin(threshold, b.resolution);
    let heldByResolution = false;
    if (a.test && a.hl) {
      const tested: ChangeEstimate = {
        estimate: Math.expm1(a.hl.estimate),
        ci: [Math.expm1(a.hl.lower), Math.expm1(a.hl.upper)],
        confidence: 1 - opts.alpha,
        ciLevel: a.level,
        ...(a.level !== 1 - opts.alpha ? { level: a.level } : {}),
        pValue: raw[i] as number,
        pAdjusted: adjusted[i] as number,
        test,
        method: a.test.method,
        ...(a.test.pMonteCarloError ? { pMonteCarloError: a.test.pMonteCarloError } : {}),
        achievedConfidence: a.hl.achievedConfidence,
        n: a.test.n,
      };
      const eq = a.equivalence!;
      const equivalence = { ci: [Math.expm1(eq.lower), Math.expm1(eq.upper)] as [number, number], level: a.equivalenceLevel, achievedConfidence: eq.achievedConfidence };
      ({ change, verdict } = decide(tested, equivalence, threshold, b.direction));
      // the interval excludes 0 where the test, corrected, does not reject though it could have:
      // the test decides (its level is the guarantee), and the row shows the interval widened
      // until it agrees. In a family so large that the test's Monte Carlo floor is above the
      // row's level (100,000 benchmarks of 30 pairs: about 167,000 draws, level alpha / 100,000),
      // the test cannot speak and the interval decides, as it always did.
      const testCanReject = smallestPValue(a.test) < perInterval;
      if ((verdict === 'regression' || verdict === 'improvement') && testCanReject && !((adjusted[i] as number) < opts.alpha)) {
        const widened = widenedToTest(a.keptIndices.map((k) => a.d[k] as number), a.level);
        ({ change, verdict } = decide({ ...tested, ...widened, level: widened.ciLevel }, equivalence, threshold, b.direction));
      }
      if (b.oneSided) {
        // pairs with one side at 0: an excess kept as values beyond every other (one-sided.ts)
        const x = a.equivalenceWithExtremes;
        const hull = x ? { ci: [Math.expm1(Math.min(eq.lower, x.lower)), Math.expm1(Math.max(eq.upper, x.upper))] as [number, number], level: a.equivalenceLevel, achievedConfidence: Math.min(eq.achievedConfidence, x.achievedConfidence) } : null;
        const unchangedWithExtremes = hull ? hull.achievedConfidence >= hull.level - 1e-12 && hull.ci[0] >= -threshold && hull.ci[1] <= threshold : null;
        held = heldVerdict(b.oneSided, verdict, b.direction, opts.outliers, unchangedWithExtremes, opts.alpha);
        if (held === 'unchanged') heldBy = unchangedWithExtremes === false ? 'interval' : 'lean';
        if (held !== null) {
          verdict = 'inconclusive';
          // the test's interval, as every inconclusive row shows, and the equivalence interval with the excess beside it
          change = { ...tested, equivalence: { ci: (hull ?? equivalence).ci, level: equivalence.level } };
        } else if (hull && verdict === 'unchanged') {
          ({ change } = decide(tested, hull, threshold, b.direction));
        }
      }
      if (verdict === 'unchanged' && margin < threshold && !(margin > 0 && change !== null && change.ci[0] >= -margin && change.ci[1] <= margin)) {
        // its interval lies within ±threshold but not within a step of it: a change smaller than a
        // step may have printed as none. Shown as every inconclusive row, with the test's interval.
        verdict = 'inconclusive';
        heldByResolution = true;
        change = { ...tested, equivalence: { ci: equivalence.ci, level: equivalence.level } };
      }
      if (verdict === 'inconclusive') {
        // predicted for the kept pairs; the screen sets aside about the same share of the pairs to
        // come, so the count in all (what the report says: "about N pairs in all") is scaled up by it.
        // No count where a step of the printed values reaches the threshold: more pairs cannot show it unchanged.
        const kept = margin > 0 ? estimatePairsToSettle(tested, equivalence, a.keptIndices.length, margin, 1 - a.level) : null;
        const all = b.pairs.length;
        pairsToSettle = kept === null || a.keptIndices.length === 0 ? kept : Math.max(all + 1, Math.ceil((kept * all) / a.keptIndices.length - 1e-9));
      }
    }
    // undecided by its other pairs (or with none), a row whose one-sided pairs lean significantly,
    // and far enough, is called from them (one-sided.ts, `calledFromZeros`)
    if (b.oneSided && verdict === 'inconclusive' && (held === null || held === 'unchanged')) {
      const called = calledFromZeros(b.oneSided, Float64Array.from(a.keptIndices, (k) => a.d[k] as number), a.level, adjusted[i] as number, opts.alpha, threshold, opts.outliers);
      if (called !== null) {
        verdict = (called > 0) === (b.direction === 'lower-is-better') ? 'regression' : 'improvement';
        held = null;
        fromZeros = true;
        // no ratio states a change from 0: no change is shown, and the finding says what it is
        change = null;
        pairsToSettle = null;
      }
    }
    // counts that vary between runs of one side: their interval claims a precision the counts do not have
    const spread = b.counted ? countSpread(b.pairs) : null;
    const unsteady: Finding[] = spread?.unsteady ? [{ code: 'unsteady-counts', severity: 'warning', figures: { base: spread.base, head: spread.head, tolerance: COUNT_SPREAD_TOLERANCE } }] : [];
    if (spread?.unsteady && (verdict === 'unchanged' || verdict === 'inconclusive')) {
      // more pairs of the same unsteady counts cannot show it unchanged: no count of pairs is promised
      verdict = 'inconclusive';
      pairsToSettle = null;
    }
    const r = b.resolution;
    const coarse: Finding[] =
      r && (heldByResolution || r.share >= COARSE_SHARE_OF_THRESHOLD * threshold)
        ? [{ code: 'coarse-resolution', severity: heldByResolution || r.share >= threshold ? 'warning' : 'info', figures: { step: r.step, smallest: r.smallest, share: r.share, threshold, held: heldByResolution, ...(r.unit ? { unit: r.unit } : {}) } }]
        : [];
    return {
      name: b.name,
      direction: b.direction,
      threshold,
      outliers: a.screen.excluded,
      outliersKept: a.screen.kept,
      base: a.base,
      head: a.head,
      pairedCv: a.pairedCv,
      pairedMad: a.pairedMad,
      change,
      verdict,
      pairsToSettle,
      diagnostics:
        b.oneSided && b.oneSided.base + b.oneSided.head > 0
          ? [
              oneSidedFinding(b.oneSided, b.pairs.length, b.direction, opts.outliers, held, fromZeros ? { verdict, pAdjusted: adjusted[i] as number } : null, heldBy),
              ...coarse,
              // too few pairs for a test of their own: said of the pairs that form a ratio, it would contradict a call from the one-sided ones, and with none it says less than the finding above;
              // every pair equal: said of those pairs, it would tell a metric that varies with its one-sided pairs that it never varies
              ...a.diagnostics.filter((f) => (f.code !== 'too-few-pairs' || (!fromZeros && b.pairs.length > 0)) && f.code !== 'all-equal'),
            ]
          : [...unsteady, ...coarse, ...a.diagnostics],
    };
  });
  // a throughput judged from its time (reciprocalRows): the time's change, outliers and count of
  // pairs to settle; its own summaries of each side stay, and its findings are its time's
  for (const [i, j] of mirrors) {
    const time = benchmarks[j]!;
    const own = benchmarks[i]!;
    const change = time.change ? reciprocalChange(time.change, time.name) : null;
    // a time held back (its counts unsteady, its printed steps too coarse) holds its throughput back too
    const verdict = time.verdict === 'inconclusive' ? 'inconclusive' : verdictOf(change, own.threshold, own.direction);
    benchmarks[i] = {
      ...own,
      outliers: time.outliers,
      outliersKept: time.outliersKept,
      change,
      verdict,
      pairsToSettle: verdict === 'inconclusive' ? time.pairsToSettle : null,
      diagnostics: [],
    };
  }
  return { benchmarks, verdict: worstVerdict(benchmarks.map((b) => b.verdict)) };
}
