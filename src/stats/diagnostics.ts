/**
 * The diagnostics of one benchmark's data alone, each a finding that says what to do (benchstat
 * style): too few pairs, most pairs equal, outliers kept or leaning to one side, many excluded, an
 * order effect, drift, noise left after pairing or rescued by it. Codes with their figures
 * (types.ts, `Finding`); report/findings.ts words them. Method: docs/statistics.md, step 7.
 */
import type { Diagnostic, Direction, Pair } from './types.ts';
import type { PairsAnalysis } from './analysis.ts';
import { median, sd } from './describe.ts';
import { LEAN_ALPHA, MIN_FLAGGED_FOR_LEAN } from './outliers.ts';
import { minimumDetectableChange, minPairsForAlpha, pairsToDetect } from './power.ts';
import { rankSumTest } from './rank-sum.ts';

/** Significance level of the diagnostics' own tests (order effect, drift): they advise, not gate. */
const DIAGNOSTIC_ALPHA = 0.01;
/** Single-run CV above which pairing's rescue is worth telling. */
const HIGH_SINGLE_CV = 0.05;
/** CV of the paired ratios above which a benchmark is called noisy. */
const HIGH_PAIRED_CV = 0.05;

/** At least this many pairs, and this share of them, excluded: the `many-outliers` note. */
const MANY_OUTLIERS_MIN = 4;
const MANY_OUTLIERS_SHARE = 0.1;
/**
 * An order effect is reported only when the second slot differs by at least this share of the
 * threshold (0.2% at 2%): below it the rank-sum test can still tell the slots apart (a Go B/op row
 * of mostly equal pairs, both medians 0.0%), but the noise it adds is far below what matters, and
 * the warning read "the second run of a pair measures about 0.0% higher".
 */
const ORDER_EFFECT_SHARE = 0.1;

/** The findings of one analysed benchmark's data (analysis.ts, `completeAnalysis`), at `alpha` and `threshold`. */
export function dataDiagnostics(pairs: readonly Pair[], a: PairsAnalysis, alpha: number, direction: Direction, threshold: number, metric?: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kept = a.keptIndices.map((i) => a.d[i] as number);
  const n = kept.length;
  // pairs for any p-value below alpha, and for an exact interval at its level (higher with
  // several benchmarks or after an early stop)
  const need = Math.max(minPairsForAlpha(alpha), minPairsForAlpha(1 - a.level));
  const usable = a.test ? a.test.n : 0;
  const zeros = a.test ? a.test.zeros : 0;
  if (n === 0) {
    out.push({ code: 'too-few-pairs', severity: 'warning', figures: { pairs: 0, zeros: 0, smallestP: 1, alpha, level: a.level, need } });
    return out;
  }
  const allEqual = kept.every((v) => v === kept[0]);
  // The interval counts every kept pair, zeros included (hodges-lehmann.ts), so pairs with
  // head == base do pin the change; only too few pairs in all leave it unknown.
  const confident = a.hl !== null && a.hl.achievedConfidence >= a.level - 1e-12;
  if (n < need || !confident) {
    const smallestP = usable > 0 ? 2 ** (1 - usable) : 1;
    // n pairs enough by count that still fell short (the interval raised for the screen): more than n
    out.push({ code: 'too-few-pairs', severity: 'warning', figures: { pairs: n, zeros, smallestP, alpha, level: a.level, need: Math.max(need, n + 1) } });
  } else if (zeros > 0 && 2 * zeros > n && !allEqual) {
    out.push({ code: 'mostly-equal', severity: 'info', figures: { pairs: n, zeros, differing: usable } });
  }
  if (allEqual && n >= 2) {
    out.push({ code: 'all-equal', severity: 'info', figures: { pairs: n, change: Math.expm1(kept[0] as number) } });
  }
  // One-sided outliers: flagged pairs that lean to one side beyond chance are kept as a finding.
  // The claim is made only under the condition it states (the screen's binomial test: at least
  // MIN_FLAGGED_FOR_LEAN flagged, p < LEAN_ALPHA), checked here again so finding and condition
  // cannot drift apart; an excess on one side that chance explains is reported neutrally.
  const flagged = a.screen.high + a.screen.low;
  const leans = a.screen.lean && flagged >= MIN_FLAGGED_FOR_LEAN && (a.screen.balanceP ?? 1) < LEAN_ALPHA;
  if (!leans && a.screen.kept.length > 0) {
    out.push({
      code: 'outliers-kept',
      severity: 'info',
      figures: { above: a.screen.high, below: a.screen.low, excluded: a.screen.excluded.length, kept: a.screen.kept.slice(), balanceP: a.screen.balanceP ?? 1 },
    });
  }
  if (leans) {
    const lower = direction === 'lower-is-better';
    out.push({
      code: 'one-sided-outliers',
      severity: 'warning',
      figures: {
        headWorse: lower ? a.screen.high : a.screen.low,
        baseWorse: lower ? a.screen.low : a.screen.high,
        direction,
        kept: a.screen.kept.slice(),
        balanceP: a.screen.balanceP ?? 1,
      },
    });
  }
  // Many pairs excluded: the test accounts for the screen (signflip.ts), so this only informs.
  const total = a.d.length;
  const dropped = a.screen.excluded.length;
  if (dropped >= MANY_OUTLIERS_MIN && dropped >= MANY_OUTLIERS_SHARE * total) {
    out.push({ code: 'many-outliers', severity: 'info', figures: { excluded: dropped, pairs: total, metric: metric ?? null } });
  }
  // Order effect: d of base-first pairs against head-first pairs.
  const bf: number[] = [];
  const hf: number[] = [];
  for (const i of a.keptIndices) (pairs[i]?.order === 'base-first' ? bf : hf).push(a.d[i] as number);
  if (bf.length >= 4 && hf.length >= 4) {
    const t = rankSumTest(bf, hf);
    const mb = median(bf);
    const mh = median(hf);
    if (t.pValue < DIAGNOSTIC_ALPHA && Math.abs(Math.expm1((mb - mh) / 2)) >= ORDER_EFFECT_SHARE * threshold) {
      out.push({
        code: 'order-effect',
        severity: 'warning',
        figures: { baseFirst: Math.expm1(mb), headFirst: Math.expm1(mh), secondSlot: Math.expm1((mb - mh) / 2), pValue: t.pValue },
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
      out.push({ code: 'drift', severity: 'warning', figures: { firstHalf: Math.expm1(median(first)), secondHalf: Math.expm1(median(second)), pValue: t.pValue } });
    }
  }
  // Noise: still high after pairing, or high per run but rescued by pairing.
  const unpaired = Math.sqrt(a.base.cv ** 2 + a.head.cv ** 2);
  if (n >= 3 && a.keptPairedCv > HIGH_PAIRED_CV) {
    const logSd = sd(kept);
    const needed = pairsToDetect(logSd, threshold, alpha);
    // below the pairs the test needs to reach alpha at all no change is detectable: null, not
    // Infinity (which a results file, being JSON, could not hold)
    const detectable = minimumDetectableChange(logSd, n, alpha);
    out.push({
      code: 'high-noise',
      severity: 'warning',
      figures: {
        pairedCv: a.keptPairedCv,
        pairs: n,
        detectable: Number.isFinite(detectable) ? detectable : null,
        pairsForThreshold: Number.isFinite(needed) && needed > n ? needed : null,
        threshold,
        metric: metric ?? null,
      },
    });
  } else if (Math.max(a.base.cv, a.head.cv) > HIGH_SINGLE_CV && unpaired > 0 && a.pairedCv < 0.5 * unpaired) {
    out.push({ code: 'pairing-rescued', severity: 'info', figures: { baseCv: a.base.cv, headCv: a.head.cv, pairedCv: a.pairedCv, removed: 1 - a.pairedCv / unpaired } });
  }
  return out;
}
