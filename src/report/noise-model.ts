/**
 * The report of `pairbench noise` (an A/A run) laid out once, as the comparison's reports are
 * (model.ts): for each benchmark its noise, the threshold it is judged by, the pairs that threshold
 * needs on this machine, whether `max-pairs` pairs resolve it, the smallest threshold they do
 * resolve, and the threshold to configure; then the one suggestion for the whole run. The terminal
 * text and the Markdown summary (noise-report.ts) only word these figures, so neither can suggest what the
 * other does not. The statistical rules are stats/noise-floor.ts's; this file only applies them, once.
 *
 * Pure: results in, a value out.
 */
import { parseOptionValue } from '../config/spec.ts';
import { NOISE_DEFAULTS } from '../config/options.ts';
import { readRecordedSetting, recordedOr } from '../results/recorded.ts';
import type { Results } from '../results/schema.ts';
import { slotAdvantage, thresholdToConfigure } from '../stats/noise-floor.ts';
import { reportModel, type Revision } from './model.ts';

/** One benchmark whose noise was measured. */
export interface NoiseRow {
  measured: true;
  name: string;
  pairs: number;
  singleRunCv: number;
  pairedCv: number;
  /** the share of the run-to-run variation that pairing cancelled, 0 when it cancelled none */
  pairingGain: number;
  /** the smallest change detected with 80% power, per pair count */
  detectable: { pairs: number; change: number }[];
  /** the threshold it is judged by: its own (a config file's), else the run's */
  threshold: number;
  /** whether that threshold is its own */
  ownThreshold: boolean;
  /** the pairs that threshold needs here (80% power); null when more than is practical */
  pairsForThreshold: number | null;
  /** whether `max-pairs` pairs resolve that threshold here */
  resolved: boolean;
  /** the smallest threshold `max-pairs` pairs resolve here; null when the noise could not be measured */
  smallestResolvable: number | null;
  /** the threshold to configure: its own when resolved, else the smallest resolvable (stats/noise-floor.ts `thresholdToConfigure`) */
  suggested: number | null;
  /** the A/A change, when the first or second slot of a pair has an advantage here (stats/noise-floor.ts `slotAdvantage`); null otherwise */
  slotAdvantage: number | null;
}

/** One benchmark of the run, in the file's order: measured, or with too few pairs to measure its noise. */
type NoiseBenchmark = NoiseRow | { measured: false; name: string; pairs: number };

export interface NoiseReportModel {
  /** the revision measured on both sides */
  revision: Revision;
  cores: number | null;
  /** untrusted (from the results file): each surface escapes it */
  cpu: string | null;
  /** the run's threshold, for benchmarks without their own */
  threshold: number;
  maxPairs: number;
  benchmarks: NoiseBenchmark[];
  /**
   * The one `threshold` to configure for the run: the largest threshold to configure of the
   * benchmarks judged by the run's threshold (of every measured one, when each has its own); null
   * when none was measured.
   */
  suggestedThreshold: number | null;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** `max-pairs` as the run recorded it, else the noise run's own default (config/options.ts `NOISE_DEFAULTS`). */
function maxPairsOf(results: Results): number {
  const recorded = readRecordedSetting(results.settings, 'maxPairs');
  if (recorded && 'value' in recorded) return Number(recorded.value);
  return parseOptionValue('max-pairs', '--max-pairs', NOISE_DEFAULTS['max-pairs']) as number;
}

/** The noise report of an A/A run's results, laid out once for every surface. */
export function noiseReportModel(results: Results): NoiseReportModel {
  const threshold = recordedOr(results.settings, 'threshold') as number;
  const maxPairs = maxPairsOf(results);
  const benchmarks: NoiseBenchmark[] = [];
  // the thresholds to configure, of the benchmarks judged by the run's threshold and of those with their own
  const suggestions = { run: [] as number[], own: [] as number[] };
  for (const b of results.benchmarks) {
    const n = b.noise;
    if (!n) {
      benchmarks.push({ measured: false, name: b.name, pairs: b.pairs.length });
      continue;
    }
    const own = b.threshold ?? threshold;
    const suggested = thresholdToConfigure(n, own, maxPairs);
    if (Number.isFinite(suggested)) suggestions[b.threshold === undefined ? 'run' : 'own'].push(suggested);
    benchmarks.push({
      measured: true,
      name: b.name,
      pairs: n.pairs,
      singleRunCv: n.singleRunCv,
      pairedCv: n.pairedCv,
      pairingGain: Math.max(0, n.pairingGain),
      detectable: n.detectable,
      threshold: own,
      ownThreshold: b.threshold !== undefined,
      pairsForThreshold: finite(n.pairsForThreshold),
      resolved: n.pairsForThreshold <= maxPairs,
      smallestResolvable: finite(n.suggestedThreshold),
      suggested: finite(suggested),
      slotAdvantage: slotAdvantage(n) ? n.aaChange : null,
    });
  }
  const global = suggestions.run.length > 0 ? suggestions.run : suggestions.own;
  return {
    revision: reportModel(results).head,
    cores: results.environment?.cores ?? null,
    cpu: results.environment?.cpu ?? null,
    threshold,
    maxPairs,
    benchmarks,
    suggestedThreshold: global.length === 0 ? null : global.reduce((a, b) => Math.max(a, b)),
  };
}
