/**
 * What the schedule keeps while it runs: jobs (one per `--run` or config benchmark), the units
 * that are paired (a whole suite, one benchmark of it, or a batch of benchmarks), and the rows of
 * results (one per benchmark and metric).
 */
import type { BenchmarkSpec } from '../config/spec.ts';
import { calibrates, type Calibration } from '../measure/overhead.ts';
import type { Failure } from '../results/schema.ts';
import type { Sizing } from '../harness/select.ts';
import type { Direction, Pair, StopReason } from '../stats/types.ts';
import type { UnitDesign } from './choose-design.ts';

/** One result row: one benchmark (and metric), with its pairs. */
export interface Row {
  key: string;
  job: string;
  unit: string;
  /** the name of the PairingUnit whose runs give this row its pairs (unset for a row seen only while listing) */
  pairedBy?: string;
  direction: Direction;
  metric?: string;
  threshold?: number;
  /** the benchmark's own `min-change` (config file), as typed */
  minChange?: string;
  pairs: Pair[];
  /** pairs in which one side printed 0 and the other did not: no ratio, so not in `pairs`; `after`: how many of `pairs` came before it (record.ts) */
  oneSidedPairs?: Array<Pair & { after: number }>;
  /** the raw samples of the calibration runs (`sh -c ''`) in this row's metric, subtracted when judged (shared with the job's Calibration) */
  overhead?: number[];
  seenBase: number;
  seenHead: number;
  stoppedBecause?: StopReason;
  /** last stopping check, for progress lines; null until there is an interval */
  estimate: number | null;
  halfWidth: number | null;
  /** last stopping check: pairs in all that would likely settle this row, the fewest that could on an optimistic reading, and the likely pairs were it unchanged (stats/stop.ts); null when unknown */
  need?: number | null;
  hope?: number | null;
  expected?: number | null;
  /** last stopping check: the fewest pairs in all that could show a change of ten thresholds (stats/stop.ts, `reach`) */
  reach?: number | null;
  /** last stopping check: this row may stop (decided, or precise enough) */
  settled?: boolean;
  /** a batch's benchmark that left it as futile (loop.ts): the pairs it needed and the pairs the budget left could give it */
  futility?: { need: number; hope: number; affordable: number };
  /** some pair differs (base ≠ head): the row counts in the multiple-comparison correction (stats/judge.ts) */
  varies?: boolean;
  /** the key of the row whose reciprocal this one is (Go's `MB/s` of its `ns/op`): judged from it, outside the correction's family (harness/types.ts) */
  reciprocalOf?: string;
}

/** One command measured in pairs: a `--run`, or one benchmark of a config file. */
export interface Job {
  bench: BenchmarkSpec;
  /** `suite`: whole runs are paired; `benchmark`: each benchmark (or batch) of the suite on its own */
  level: 'suite' | 'benchmark';
  running: boolean;
  stoppedBecause?: StopReason;
  failedRuns: { base: number; head: number };
  consecutiveFailures: { base: number; head: number };
  /** its harness refused the quick run of one benchmark (Criterion before 0.4: harness/criterion-quick.ts); its runs go as written */
  quickRefused?: boolean;
  /** the shell's calibration runs, one after each pair (measure/overhead.ts); null when not calibrated */
  calibration: Calibration | null;
  failure?: Failure & { benchmark: string };
  /** the job's units, and how many of them still run */
  units: PairingUnit[];
  runningUnits: number;
  /** the job's rows, in the order they appeared */
  rows: Row[];
}

/**
 * What one pair measures: a whole suite (`select` null), or the named benchmarks of it. A unit
 * stops on its own once its rows are decided, precise enough, or at `--max-pairs`.
 */
export interface PairingUnit {
  /** the job's name for a whole suite; else the row name of its (first) benchmark */
  name: string;
  job: Job;
  select: string[] | null;
  /** a batch of `--batch` benchmarks: the row key of each one in `select`, in its order */
  batchKeys?: string[];
  /** the batch's benchmarks that settled while others ran on: its runs leave them out (stopping.ts) */
  left?: string[];
  /** Go, `--iterations fixed`: every run of this benchmark does this many iterations (harness/go-iterations.ts) */
  iterations?: number;
  /** how each run of it is sized (`--iterations fixed`, or the current design of `--design auto`) */
  sizing?: Sizing;
  /** `--design auto`: its pilot and the design chosen from it (choose-design.ts) */
  design?: UnitDesign;
  /** instruction counts per benchmark: N, the iterations of each selected benchmark's counted run, the same on both sides (count-runs.ts) */
  countIterations?: Record<string, number>;
  pairs: number;
  running: boolean;
  stoppedBecause?: StopReason;
  pairMsTotal: number;
  /** the pairs and their milliseconds when its runs last changed (a batch's benchmark left them): its pace is read from the pairs since (time-left.ts, `paceOf`) */
  paceSince?: { pairs: number; ms: number };
  /** how many rows the unit's last pair gave a pair to: what one more pair adds to the results file */
  rowsPerPair: number;
  /** the rows this unit gives pairs to */
  rows: Row[];
  /** pairs in all that would likely settle every row of it still open (the most any of them needs); null when unknown */
  need: number | null;
  /** the same on an optimistic reading (stats/stop.ts, `hope`): what the allocation ranks and judges futility by */
  hope?: number | null;
  /** the pairs after which it would likely settle were it unchanged (stats/stop.ts, `expected`): what the allocation ranks by */
  expected?: number | null;
  /** the fewest pairs that could show a change of ten thresholds (stats/stop.ts, `reach`): whether the allocation still measures a unit that cannot be shown unchanged */
  reach?: number | null;
  /** the allocation left it out of the last round: it waits for cheaper units to settle (allocate.ts) */
  waiting?: boolean;
  /** when it stopped as futile: the pairs it needed and the pairs the budget left could give it */
  futility?: { need: number; hope: number; affordable: number };
}

export interface LoopState {
  jobs: Job[];
  units: PairingUnit[];
  rows: Map<string, Row>;
  /** the units of every round, in the order they ran */
  rounds: string[][];
  stoppedBecause: StopReason | null;
  /** the budget ran out or an interrupt came in the middle of a round */
  midRound: boolean;
  failed: boolean;
  /** what the results file holds so far, so that it never outgrows what `pairbench report` reads (S2) */
  size: { pairs: number; nameChars: number };
  /** rows with a pair that differs, but for the reciprocal of another row: the family the correction counts (stats/judge.ts `inFamily`) */
  varyingRows: number;
}

export function newState(benchmarks: readonly BenchmarkSpec[]): LoopState {
  return {
    jobs: benchmarks.map((bench) => ({
      bench,
      level: 'suite',
      running: true,
      failedRuns: { base: 0, head: 0 },
      consecutiveFailures: { base: 0, head: 0 },
      calibration: calibrates(bench) ? { wall: [], cpu: [] } : null,
      units: [],
      runningUnits: 0,
      rows: [],
    })),
    units: [],
    rows: new Map(),
    rounds: [],
    stoppedBecause: null,
    midRound: false,
    failed: false,
    size: { pairs: 0, nameChars: 0 },
    varyingRows: 0,
  };
}

/** What a unit's runs select: its benchmarks, less those of a batch that left it; null for a whole suite. */
export function selectionOf(unit: Pick<PairingUnit, 'select' | 'left'>): string[] | null {
  const left = unit.left;
  if (!unit.select || !left || left.length === 0) return unit.select;
  return unit.select.filter((name) => !left.includes(name));
}

/** Adds a unit to the schedule and to its job. */
export function addUnit(state: LoopState, unit: PairingUnit): void {
  state.units.push(unit);
  unit.job.units.push(unit);
  if (unit.running) unit.job.runningUnits++;
}

/**
 * A job stops: every unit and row of it that is still open takes the reason. Touches only the
 * job's own units and rows, so stopping every job of a huge config is linear in its size.
 */
export function stopJob(state: LoopState, job: Job, reason: StopReason): void {
  for (const unit of job.units) if (unit.running) stopUnit(state, unit, reason);
  job.running = false;
  job.stoppedBecause ??= reason;
  for (const row of job.rows) if (!row.stoppedBecause) row.stoppedBecause = reason;
}

/** A unit stops; its job stops with it when it was the job's last running unit. */
export function stopUnit(_state: LoopState, unit: PairingUnit, reason: StopReason): void {
  if (!unit.running) return;
  unit.running = false;
  unit.waiting = false;
  unit.stoppedBecause ??= reason;
  for (const row of unit.rows) if (!row.stoppedBecause) row.stoppedBecause = reason;
  const job = unit.job;
  job.runningUnits--;
  if (job.runningUnits <= 0) {
    job.running = false;
    job.stoppedBecause ??= summary(job.units.map((u) => u.stoppedBecause));
  }
}

/** The reason that sums up several: an error wins, then the budget, futility, max-pairs, precision, decided. */
export function summary(reasons: ReadonlyArray<StopReason | undefined>): StopReason {
  const seen = new Set(reasons);
  for (const r of ['error', 'interrupted', 'max-size', 'max-time', 'futile', 'max-pairs', 'precision'] as const) if (seen.has(r)) return r;
  return 'decided';
}
