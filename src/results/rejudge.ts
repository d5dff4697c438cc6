/**
 * What a results file may decide when it is judged again: the one rule of `pairbench report` and
 * of the action's `mode: report` (SECURITY.md S23).
 *
 * A results file is data: its pairs, benchmark names, units, directions and metadata. The
 * settings recorded in it are a convenience for judging one's own file again, and a file may come
 * from anywhere (the artifact of a fork's workflow, S2), so:
 * - the gate (`fail-on`) never comes from a file: it is the flag's or the input's, else the default;
 * - with `trustRecorded` (the command line, re-judging one's own file), a recorded alpha,
 *   threshold, outlier rule or correction fills in a flag that was not given, when its flag's
 *   parser accepts it (results/recorded.ts), and an alpha also only from RECORDED_ALPHA_FLOOR up;
 *   a benchmark's own threshold (the run's config file) is kept when `--threshold` would accept
 *   it and `--threshold` is not given. Anything else is dropped with a warning that names it;
 * - without it (an artifact), nothing recorded decides how the file is judged: every judging
 *   setting is the input's, and no benchmark keeps a threshold of its own;
 * - a flag or an input given explicitly always wins;
 * - the file's exit status is decided here, for both: a run that failed (its status, or a failure
 *   it records) exits 3, else the gate decides between 1 and 0.
 *
 * The seed is data, not a setting of judging: it records the run's pair order and replays the
 * sign-flip test's Monte Carlo draws, so a file judged again gives the p-values of its run. A
 * forged one moves a Monte Carlo p-value only within the standard error the report shows with it.
 */
import type { GateMetric } from '../config/options.ts';
import { show } from '../config/errors.ts';
import type { FailOn } from '../config/fail-on.ts';
import { optionDefault, type InputNaming } from '../config/spec.ts';
import { pairedTestFor } from '../stats/index.ts';
import { formatThreshold, parseMinChange } from '../config/values.ts';
import type { JudgeOptions } from '../stats/types.ts';
import { decideGate } from './gate.ts';
import { judgeResults } from './judge-file.ts';
import { readAsFlag, readRecordedSetting } from './recorded.ts';
import type { BenchmarkResult, Results } from './schema.ts';

/**
 * The smallest alpha a results file may set: a smaller recorded one is dropped (with a warning)
 * and only `--alpha` can ask for it. 0.001 is the strictest level in common use, and at it every
 * verdict stays reachable with the pairs pairbench takes by default: under Holm's correction
 * across 100,000 benchmarks (1e-8 for the first one tested), a benchmark whose every pair moves
 * the same way is significant from 28 pairs on (the exact sign-flip test's smallest p-value is
 * 2 / 2^n = 7.5e-9 at n = 28), well within the default `--max-pairs` of 200. Below it, a file can
 * make every benchmark inconclusive, which passes the default gate: 1e-300 needs more pairs than
 * any run can take.
 */
const RECORDED_ALPHA_FLOOR = 0.001;

/** The judging settings, by the flag and the key in `settings` each is recorded under. */
const JUDGING = ['alpha', 'threshold', 'outliers', 'correction'] as const;
type Judging = (typeof JUDGING)[number];

export interface RejudgeOptions {
  /**
   * true: `pairbench report` of one's own files, where valid recorded settings fill in the flags
   * not given. false: an untrusted file (the action's `mode: report`), which sets nothing.
   */
  trustRecorded: boolean;
  /** the judging settings given as flags or inputs, parsed; absent ones are filled in as above */
  given: Partial<Pick<JudgeOptions, Judging | 'minChange'>>;
  /** the gate, from the flag or input, else the default: never from the file */
  failOn: FailOn;
  /** `allow-nothing-compared`, from the flag or input: never from the file (results/gate.ts) */
  allowNothingCompared?: boolean;
  /** `gate-metric`, from the flag or input: never from the file (results/gate.ts); absent: any */
  gateMetric?: GateMetric;
  /** how the flags or inputs are named in messages (`--threshold`, `input threshold`) */
  naming: InputNaming;
}

export interface Rejudged {
  /** the file judged again, with the settings it was judged with in `settings` */
  results: Results;
  /** 3: the run failed; 1: the gate fails; 0: it passes */
  exitCode: 0 | 1 | 3;
  /** recorded settings that were not valid and were dropped, one line each */
  warnings: string[];
  /** what the file records that was not used, said once */
  notes: string[];
}

/** A value as a user would type it back: `2%` for a threshold. */
function typed(flag: string, value: unknown): string {
  if (flag === 'threshold' && typeof value === 'number') return formatThreshold(value);
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** A recorded value as a message shows it: JSON, cut to one short line. */
function recordedText(raw: unknown): string {
  return (JSON.stringify(raw) ?? String(raw)).slice(0, 80);
}

/** Names in a message: the first three, and how many more. */
function listed(items: readonly string[]): string {
  return `${items.slice(0, 3).join(', ')}${items.length > 3 ? ` and ${items.length - 3} more` : ''}`;
}

/**
 * Whether the run that wrote the file failed: its status says so, or it records a failure (of a
 * build, or of a benchmark, whose row then holds only the pairs before it). `compare` marks every
 * run with a failure `failed` (or `partial`, interrupted after it), so a failure in a file whose
 * status says otherwise still fails it: a forged mark can make a file fail, never pass.
 */
function runFailed(results: Pick<Results, 'status' | 'failures' | 'benchmarks'>): boolean {
  return results.status === 'failed' || (results.failures?.length ?? 0) > 0 || results.benchmarks.some((b) => b.failure !== undefined);
}

/** Judges a results file again under the rule above. */
export function rejudge(file: Results, opts: RejudgeOptions): Rejudged {
  const warnings: string[] = [];
  const notes: string[] = [];
  const recorded = file.settings;

  // The judging settings: the flag's, else (trusted) the recorded one when valid, else the default.
  const chosen = {} as Pick<JudgeOptions, Judging>;
  const unused: string[] = [];
  for (const flag of JUDGING) {
    const read = readRecordedSetting(recorded, flag);
    let value: unknown = opts.given[flag];
    if (value === undefined && opts.trustRecorded && read) {
      if (!('value' in read)) {
        warnings.push(`the ${flag} recorded in the results (${recordedText(read.raw)}) is not valid (${read.expected}); judging with ${typed(flag, optionDefault(flag))}`);
      } else if (flag === 'alpha' && Number(read.value) < RECORDED_ALPHA_FLOOR) {
        warnings.push(`the alpha recorded in the results (${read.value}) is below ${RECORDED_ALPHA_FLOOR}, the smallest a results file may set; judging with ${typed(flag, optionDefault(flag))} (give ${opts.naming('alpha')} to judge at a smaller level)`);
      } else value = read.value;
    }
    value ??= optionDefault(flag);
    (chosen as Record<Judging, unknown>)[flag] = value;
    if (!opts.trustRecorded && read && 'value' in read && read.value !== value) unused.push(`${flag} ${typed(flag, read.value)}`);
  }
  // min-change: the flag's or input's, else (trusted) the recorded one when valid (stats/floor.ts)
  let minChange = opts.given.minChange;
  const recordedFloor = recorded?.['minChange'];
  if (minChange === undefined && typeof recordedFloor === 'string') {
    if (!opts.trustRecorded) unused.push(`min-change ${recordedText(recordedFloor)}`);
    else {
      try {
        minChange = parseMinChange('min-change', recordedFloor);
      } catch (err) {
        warnings.push(`the min-change recorded in the results (${recordedText(recordedFloor)}) is not valid (${err instanceof Error ? err.message : String(err)}); judging without it`);
      }
    }
  }
  const recordedGate = recorded?.['failOn'];
  if (typeof recordedGate === 'string' && recordedGate !== opts.failOn) {
    if (opts.trustRecorded) notes.push(`the results record fail-on ${recordedText(recordedGate)}, which is not used: the gate comes from ${opts.naming('fail-on')} only (${opts.failOn} here)`);
    else unused.push(`fail-on ${recordedText(recordedGate)}`);
  }

  // A benchmark's own threshold (the run's config file): kept, valid, in one's own file; never from an untrusted one.
  const invalid: string[] = [];
  let expected = '';
  const oneSided: string[] = [];
  let ownThresholds = 0;
  let ownFloors = 0;
  const benchmarks = file.benchmarks.map((row): BenchmarkResult => {
    // A benchmark's own min-change: kept, when valid, in one's own file with no min-change given; never from an untrusted one.
    let b = row;
    if (row.minChange !== undefined) {
      ownFloors++;
      const { minChange: own, ...rest } = row;
      let keep = opts.trustRecorded && opts.given.minChange === undefined;
      if (keep) {
        try {
          parseMinChange('min-change', own);
        } catch {
          warnings.push(`the min-change recorded for the benchmark ${show(row.name)} (${recordedText(own)}) is not valid; judging it without`);
          keep = false;
        }
      }
      if (!keep) b = rest;
    }
    // A pair holds a run of each side: a benchmark with pairs was measured on both, whatever it claims.
    const claimsOneSide = b.pairs.length > 0 && b.presence !== undefined && b.presence !== 'both';
    if (b.threshold === undefined && !claimsOneSide) return b;
    const { threshold, ...rest } = b;
    const out: BenchmarkResult = claimsOneSide ? { ...rest, presence: 'both' } : rest;
    if (claimsOneSide) oneSided.push(`${show(b.name)} (${b.presence}, ${b.pairs.length} pairs)`);
    if (threshold === undefined) return out;
    ownThresholds++;
    // an untrusted file sets nothing; and a threshold given as a flag or input wins over the file's
    if (!opts.trustRecorded || opts.given.threshold !== undefined) return out;
    const read = readAsFlag('threshold', threshold);
    if ('value' in read) return { ...out, threshold: read.value as number };
    invalid.push(`${show(b.name)} (${recordedText(threshold)})`);
    expected = read.expected;
    return out;
  });
  if (oneSided.length > 0) {
    warnings.push(`${oneSided.length === 1 ? 'a benchmark is' : `${oneSided.length} benchmarks are`} recorded as added or removed but ${oneSided.length === 1 ? 'has pairs' : 'have pairs'}, each with a run of both sides: ${listed(oneSided)}; judging ${oneSided.length === 1 ? 'it' : 'them'} from the pairs`);
  }
  if (invalid.length > 0) {
    const which = invalid.length === 1 ? `the threshold recorded for the benchmark ${invalid[0]} is` : `the thresholds recorded for ${invalid.length} benchmarks (${listed(invalid)}) are`;
    warnings.push(`${which} not valid (${expected}); judging ${invalid.length === 1 ? 'it' : 'them'} with ${typed('threshold', chosen.threshold)}`);
  }
  if (opts.trustRecorded && opts.given.threshold !== undefined && ownThresholds > 0) {
    notes.push(`${ownThresholds === 1 ? 'A benchmark records a threshold of its own' : `${ownThresholds} benchmarks record a threshold of their own`} (the run's config file), not used: ${opts.naming('threshold')} ${typed('threshold', chosen.threshold)} was given, and a flag always wins over a results file.`);
  }
  if (!opts.trustRecorded && ownFloors > 0) unused.push(`a min-change of its own for ${ownFloors} benchmark${ownFloors === 1 ? '' : 's'}`);
  if (!opts.trustRecorded && ownThresholds > 0) unused.push(`a threshold of its own for ${ownThresholds} benchmark${ownThresholds === 1 ? '' : 's'}`);
  if (unused.length > 0) {
    notes.push(`The results file records ${unused.join(', ')}, which ${unused.length === 1 ? 'is' : 'are'} not used: an untrusted results file never sets how it is judged, so every setting is this judging's own (threshold ${typed('threshold', chosen.threshold)}, alpha ${chosen.alpha}, outliers ${chosen.outliers}, correction ${chosen.correction}, fail-on ${opts.failOn}).`);
  }

  // A recorded CPU list that --cpus would refuse is shown nowhere (report/measured-how.ts, the replay line): said once here.
  const cpus = readRecordedSetting(recorded, 'cpus');
  if (cpus && !('value' in cpus)) warnings.push(`the cpus recorded in the results (${recordedText(cpus.raw)}) is not valid (${cpus.expected}); left out of the report`);

  // A run that recorded a failure failed, whatever its status says: the check run, the comment and the exit agree.
  const failed = runFailed(file);
  if (failed && (file.status === undefined || file.status === 'complete')) {
    warnings.push(`the results record a failure but the status ${file.status ?? '(none)'}; judging them as a failed run`);
  }
  const seed = readRecordedSetting(recorded, 'seed');
  // The test of no change follows the outlier rule judged with, as when the file was written (`pairedTestFor`): never a recorded `change.test`.
  const judged = judgeResults({ ...file, ...(failed ? { status: 'failed' as const } : {}), benchmarks }, { ...chosen, ...(minChange ? { minChange } : {}), test: pairedTestFor(chosen.outliers), seed: seed && 'value' in seed ? Number(seed.value) : 0 });
  // the gate as this judging applies it, over whatever the file recorded
  const { allowNothingCompared: _allowed, gateMetric: _gateMetric, ...settings } = judged.settings ?? {};
  const gateMetric = opts.gateMetric ?? 'any';
  const results: Results = { ...judged, settings: { ...settings, failOn: opts.failOn, ...(opts.allowNothingCompared ? { allowNothingCompared: true } : {}), ...(gateMetric !== 'any' ? { gateMetric } : {}) } };
  return { results, exitCode: decideGate(results, opts.failOn).exitCode, warnings, notes };
}
