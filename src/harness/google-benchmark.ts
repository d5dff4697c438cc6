/**
 * Google Benchmark's `--benchmark_format=json` document (its `context` and `benchmarks`).
 *
 * - Benchmarks are grouped by `run_name` (the name without an aggregate's `_mean`/`_median`
 *   suffix), and named by it: `BM_Sort/1000`, `BM_Work/threads:2`.
 * - Statistic: `real_time` (wall clock, what a user waits for; `cpu_time` leaves out time the
 *   benchmark spends blocked), in its `time_unit`, normalised to `ns`.
 *   With `--benchmark_repetitions=N` the median of the N per-repetition `real_time`s is taken
 *   (robust to one disturbed repetition). When only aggregates are printed
 *   (`--benchmark_report_aggregates_only`), the `median` aggregate is used, else the `mean`.
 *   Other aggregates (`stddev`, `cv`, complexity fits `BigO`, `RMS`) are not samples.
 * - `bytes_per_second` and `items_per_second` become extra samples `<name> (bytes_per_second)`
 *   in `B/s` and `<name> (items_per_second)` in `items/s`, higher is better. Other user counters
 *   carry no unit or direction and are not reported.
 * - Entries with `error_occurred` (`SkipWithError`) or `skipped` set are left out.
 */
import { z } from 'zod';
import { checkShape, extraName, NO_BENCHMARKS_IN_DOCUMENT, parseJsonDocument, SampleCollector, timeFactor } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const Entry = z.object({
  name: z.string().trim().min(1),
  run_name: z.string().trim().min(1).optional(),
  run_type: z.string().optional(),
  aggregate_name: z.string().optional(),
  error_occurred: z.boolean().optional(),
  skipped: z.unknown().optional(),
  real_time: z.number().nonnegative().optional(),
  time_unit: z.string().optional(),
  bytes_per_second: z.number().nonnegative().optional(),
  items_per_second: z.number().nonnegative().optional(),
});
type Entry = z.infer<typeof Entry>;

const Document = z.object({ benchmarks: z.array(Entry) });

interface Group {
  name: string;
  runs: Array<{ entry: Entry; index: number }>;
  median?: { entry: Entry; index: number };
  mean?: { entry: Entry; index: number };
}

export function parseGoogleBenchmark(text: string): Sample[] {
  const doc = checkShape(
    'google-benchmark',
    Document,
    parseJsonDocument('google-benchmark', text, 'the JSON document of --benchmark_format=json'),
  );
  const groups = new Map<string, Group>();
  doc.benchmarks.forEach((entry, index) => {
    if (entry.error_occurred === true || (entry.skipped !== undefined && entry.skipped !== false && entry.skipped !== 0)) return;
    const isAggregate = entry.run_type === 'aggregate' || (entry.run_type === undefined && entry.aggregate_name !== undefined);
    const name = entry.run_name ?? entry.name;
    const group = groups.get(name) ?? { name, runs: [] };
    groups.set(name, group);
    if (!isAggregate) group.runs.push({ entry, index });
    else if (entry.aggregate_name === 'median') group.median = { entry, index };
    else if (entry.aggregate_name === 'mean') group.mean = { entry, index };
  });

  const out = new SampleCollector('google-benchmark');
  for (const group of groups.values()) {
    const chosen = group.runs.length > 0 ? group.runs : [group.median ?? group.mean].filter((x) => x !== undefined);
    for (const { entry, index } of chosen) {
      const where = `benchmarks[${index}] (${entry.name})`;
      if (entry.real_time === undefined) throw new HarnessParseError('google-benchmark', null, `${where}: expected a real_time`);
      const unit = entry.time_unit ?? 'ns';
      const factor = timeFactor(unit);
      if (factor === undefined) {
        throw new HarnessParseError('google-benchmark', null, `${where}: expected time_unit ns, us, ms or s, got "${unit}"`);
      }
      out.add(group.name, entry.real_time * factor, 'ns', 'lower-is-better', null);
      if (entry.bytes_per_second !== undefined) {
        out.add(extraName(group.name, 'bytes_per_second'), entry.bytes_per_second, 'B/s', 'higher-is-better', null);
      }
      if (entry.items_per_second !== undefined) {
        out.add(extraName(group.name, 'items_per_second'), entry.items_per_second, 'items/s', 'higher-is-better', null);
      }
    }
  }
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}
