/**
 * Recording: the samples of a pair (or of a listing run) into the rows, one row per benchmark and
 * metric. A pair counts for a row when both sides printed it: with values above 0, or both with a
 * count of 0 (Go's `0 allocs/op` on both sides, an equal pair). A pair in which one side printed 0
 * and the other did not forms no ratio: it is kept apart (`oneSidedPairs`), values and order, and
 * weighed apart (stats/one-sided.ts).
 */
import { show } from '../config/errors.ts';
import { TIME_UNIT } from '../harness/common.ts';
import { calibratedMetric } from '../measure/overhead.ts';
import type { RowSample } from '../measure/samples.ts';
import type { Side } from '../revisions/prepare.ts';
import { LIMITS } from '../results/schema.ts';
import { estimateFileBytes } from '../results/writer.ts';
import type { Pair } from '../stats/types.ts';
import { COUNT_UNIT } from './count-runs.ts';
import type { Job, LoopState, Row, PairingUnit } from './state.ts';

function rowFor(state: LoopState, job: Job, s: RowSample): Row {
  let row = state.rows.get(s.key);
  if (!row) {
    // a harness's rows take the per-metric threshold of what they measure: its times `wall`, the counts pairbench adds `instructions`
    const metric = s.metric ?? (s.unit === COUNT_UNIT ? 'instructions' : s.unit === TIME_UNIT ? 'wall' : undefined);
    const threshold = (metric ? job.bench.thresholds?.[metric as keyof NonNullable<typeof job.bench.thresholds>] : undefined) ?? job.bench.threshold;
    row = {
      key: s.key,
      job: job.bench.name,
      unit: s.unit,
      direction: s.direction,
      ...(s.metric ? { metric: s.metric } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
      ...(job.bench.minChange !== undefined ? { minChange: job.bench.minChange } : {}),
      ...(s.reciprocalOf !== undefined ? { reciprocalOf: s.reciprocalOf } : {}),
      pairs: [],
      ...(job.calibration && calibratedMetric(s.metric) ? { overhead: job.calibration[s.metric] } : {}),
      seenBase: 0,
      seenHead: 0,
      estimate: null,
      halfWidth: null,
    };
    state.rows.set(s.key, row);
    job.rows.push(row);
    state.size.nameChars += s.key.length;
  }
  return row;
}

/** Records one pair of a unit: every row both sides printed gets a pair. Returns how many pairs it stored (one a row). */
export function recordPair(state: LoopState, unit: PairingUnit, base: readonly RowSample[], head: readonly RowSample[], order: Pair['order']): number {
  const job = unit.job;
  const pairedBy = (row: Row): void => {
    if (row.pairedBy !== undefined) return;
    row.pairedBy = unit.name;
    unit.rows.push(row);
  };
  let added = 0;
  const headByKey = new Map(head.map((s) => [s.key, s]));
  const baseKeys = new Set<string>();
  for (const b of base) {
    baseKeys.add(b.key);
    const row = rowFor(state, job, b);
    pairedBy(row);
    row.seenBase++;
    const h = headByKey.get(b.key);
    if (h) {
      row.seenHead++;
      if ((b.value > 0) !== (h.value > 0)) {
        (row.oneSidedPairs ??= []).push({ base: b.value, head: h.value, order, after: row.pairs.length });
        added++;
      } else {
        row.pairs.push({ base: b.value, head: h.value, order });
        if (b.value !== h.value && !row.varies) {
          row.varies = true;
          // the reciprocal of another row tests that row's hypothesis: it is not in the family (stats/judge.ts)
          if (row.reciprocalOf === undefined) state.varyingRows++;
        }
        added++;
      }
    }
  }
  for (const h of head) {
    if (baseKeys.has(h.key)) continue;
    const row = rowFor(state, job, h);
    pairedBy(row);
    row.seenHead++;
  }
  state.size.pairs += added;
  return added;
}

/** Records a listing run of one side: which rows that side has (for added and removed benchmarks). */
export function recordSeen(state: LoopState, job: Job, side: 'base' | 'head', samples: readonly RowSample[]): void {
  for (const s of samples) {
    const row = rowFor(state, job, s);
    if (side === 'base') row.seenBase++;
    else row.seenHead++;
  }
}

/**
 * What a results file cannot hold (S2: `pairbench report` reads every file `compare` writes): a
 * name longer than LIMITS.nameLength, more than LIMITS.benchmarks benchmarks. Checked on the first
 * run that shows it (a listing run or a pair), with a message that says what to do; null when it fits.
 */
export function beyondLimits(state: LoopState, got: Partial<Record<Side, readonly RowSample[]>>): { side: Side; message: string } | null {
  for (const side of ['base', 'head'] as const) {
    const long = got[side]?.find((s) => s.key.length > LIMITS.nameLength);
    if (long) {
      return { side, message: `${side}'s output names a benchmark of ${long.key.length} characters (${show(long.key)}); a results file holds names of at most ${LIMITS.nameLength} characters, as many as pairbench report reads: shorten the name, or leave the benchmark out with filter` };
    }
  }
  const fresh = new Set<string>();
  for (const side of ['base', 'head'] as const) for (const s of got[side] ?? []) if (!state.rows.has(s.key)) fresh.add(s.key);
  if (state.rows.size + fresh.size > LIMITS.benchmarks) {
    const side = (got.head?.length ?? 0) >= (got.base?.length ?? 0) ? 'head' : 'base';
    return { side, message: `${side}'s output holds ${got[side]!.length} benchmarks, ${state.rows.size + fresh.size} in the comparison; a results file holds at most ${LIMITS.benchmarks}, as many as pairbench report reads: measure parts of the suite as config benchmarks with filter, and spread them over jobs with shard` };
  }
  return null;
}

/** True when one more pair of a unit whose pairs fill `rowsPerPair` rows could make the results file larger than LIMITS.fileBytes. */
export function noRoomFor(state: LoopState, rowsPerPair: number): boolean {
  return rowsPerPair > 0 && estimateFileBytes(state.rows.size, state.size.pairs + rowsPerPair, state.size.nameChars) > LIMITS.fileBytes;
}
