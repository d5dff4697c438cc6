/**
 * Recording: the samples of a pair (or of a listing run) into the rows, one row per benchmark and
 * metric. A pair counts for a row when both sides printed it with a value above 0.
 */
import type { RowSample } from '../measure/samples.ts';
import type { Pair } from '../stats/types.ts';
import type { Job, LoopState, Row } from './state.ts';

export function rowFor(state: LoopState, job: Job, s: RowSample): Row {
  let row = state.rows.get(s.key);
  if (!row) {
    const threshold = (s.metric ? job.bench.thresholds?.[s.metric as keyof NonNullable<typeof job.bench.thresholds>] : undefined) ?? job.bench.threshold;
    row = {
      key: s.key,
      job: job.bench.name,
      unit: s.unit,
      direction: s.direction,
      ...(s.metric ? { metric: s.metric } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
      pairs: [],
      seenBase: 0,
      seenHead: 0,
      estimate: null,
      halfWidth: null,
    };
    state.rows.set(s.key, row);
  }
  return row;
}

/** Records one pair of a unit: every row both sides printed gets a pair. */
export function recordPair(state: LoopState, job: Job, unitName: string, base: readonly RowSample[], head: readonly RowSample[], order: Pair['order']): void {
  const headByKey = new Map(head.map((s) => [s.key, s]));
  const baseKeys = new Set<string>();
  for (const b of base) {
    baseKeys.add(b.key);
    const row = rowFor(state, job, b);
    row.pairedBy ??= unitName;
    row.seenBase++;
    const h = headByKey.get(b.key);
    if (h) {
      row.seenHead++;
      if (b.value > 0 && h.value > 0) row.pairs.push({ base: b.value, head: h.value, order });
    }
  }
  for (const h of head) {
    if (baseKeys.has(h.key)) continue;
    const row = rowFor(state, job, h);
    row.pairedBy ??= unitName;
    row.seenHead++;
  }
}

/** Records a listing run of one side: which rows that side has (for added and removed benchmarks). */
export function recordSeen(state: LoopState, job: Job, side: 'base' | 'head', samples: readonly RowSample[]): void {
  for (const s of samples) {
    const row = rowFor(state, job, s);
    if (side === 'base') row.seenBase++;
    else row.seenHead++;
  }
}
