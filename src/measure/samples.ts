/**
 * From one run to its samples: the figures of the run itself (`--format time`), or the results
 * its harness printed (`--format go`, `criterion`, ...), one sample per benchmark and metric.
 */
import type { BenchmarkSpec } from '../config/spec.ts';
import type { Metric } from '../config/options.ts';
import { parseHarness } from '../harness/index.ts';
import { combined, TIME_UNIT, withoutZeroTimes } from '../harness/common.ts';
import { filterMatches } from '../harness/select.ts';
import type { HarnessFormat, Sample } from '../harness/types.ts';
import type { RunResult } from './one-run.ts';
import { readRunFiles, type RunFiles } from './run-files.ts';

export interface RowSample extends Sample {
  /** the metric, for `--format time`; undefined for harness results */
  metric?: Metric;
  /** the name of the row: unique within the comparison */
  key: string;
}

export class MetricUnavailable extends Error {
  readonly metric: Metric;
  constructor(metric: Metric, why: string) {
    super(`--metric ${metric} is not available here: ${why}`);
    this.name = 'MetricUnavailable';
    this.metric = metric;
  }
}

/** The row name of one metric of a `time` benchmark: the name alone for a single metric. */
function rowKey(bench: BenchmarkSpec, metric: Metric): string {
  return bench.metrics.length > 1 && metric ? `${bench.name} [${metric}]` : bench.name;
}

function timeSamples(bench: BenchmarkSpec, run: RunResult): RowSample[] {
  return bench.metrics.map((metric): RowSample => {
    const key = rowKey(bench, metric);
    const direction = bench.direction ?? 'lower-is-better';
    switch (metric) {
      case 'wall':
        return { key, name: bench.name, metric, value: run.wallMs, unit: 'ms', direction };
      case 'cpu':
        if (run.cpuMs === null) throw new MetricUnavailable('cpu', 'no C compiler was found to build the run helper that reads CPU time (install gcc or clang, or set CC)');
        return { key, name: bench.name, metric, value: run.cpuMs, unit: 'ms', direction };
      case 'rss':
        if (run.maxRssBytes === null) throw new MetricUnavailable('rss', 'no C compiler was found to build the run helper that reads peak memory (install gcc or clang, or set CC)');
        return { key, name: bench.name, metric, value: run.maxRssBytes, unit: 'B', direction };
      case 'instructions':
        if (run.instructions === undefined || run.instructions === null) throw new MetricUnavailable('instructions', 'no instruction counter ran');
        return { key, name: bench.name, metric, value: run.instructions, unit: 'instructions', direction };
    }
  });
}

/**
 * The samples of one run. For harness formats, results are filtered by the benchmark's name filter
 * and named `<benchmark>/<result>` when a config file holds several benchmarks, so names stay unique;
 * with `files`, their values are refined from the files the run wrote (run-files.ts); `unnamed`:
 * the one benchmark the run selected, whose result the harness printed without its name
 * (Criterion's `--quick`, harness/criterion-quick.ts).
 */
export function samplesOf(bench: BenchmarkSpec, run: RunResult, opts: { prefix: boolean; files?: RunFiles | null; unnamed?: string }): RowSample[] {
  if (bench.format === 'time') return timeSamples(bench, run);
  const printed = parseHarness(bench.format as HarnessFormat, run.stdout, { ...(bench.direction ? { defaultDirection: bench.direction } : {}), ...(opts.unnamed !== undefined ? { unnamed: opts.unnamed } : {}), ...(opts.files ? { keepZeroTimes: true } : {}) });
  const parsed = opts.files ? withoutZeroTimes(bench.format as HarnessFormat, opts.files.reading.refine(printed, readRunFiles(opts.files))) : printed;
  const filter = bench.filter ? new RegExp(bench.filter) : null;
  return parsed
    .filter((s) => !filter || filterMatches(bench.format, filter, s.name))
    .map((s) => ({
      ...s,
      key: opts.prefix ? `${bench.name}/${s.name}` : s.name,
      // the row it is the reciprocal of, by that row's key
      ...(s.reciprocalOf !== undefined ? { reciprocalOf: opts.prefix ? `${bench.name}/${s.reciprocalOf}` : s.reciprocalOf } : {}),
    }));
}

/**
 * A run's samples with the first `warmup` repetitions of each left out of its value (a design's
 * warm-up: schedule/choose-design.ts): the value is the median of the rest (the minimum for an allocation
 * count: harness/types.ts, `Sample.combine`), and `repetitions` keeps every
 * one, so the design still sees the warm-up. A sample that printed no more repetitions than the
 * warm-up keeps its value. A count whose remaining median is 0 is kept, as a harness keeps a count
 * of 0 (Go's `allocs/op` of a pool that the warm-up filled: harness/common.ts); a time whose
 * remaining median is 0 is left out, as a harness leaves out a time of 0.
 */
export function afterWarmup<S extends Sample>(samples: S[], warmup: number): S[] {
  if (warmup <= 0) return samples;
  const out: S[] = [];
  for (const s of samples) {
    const reps = s.repetitions;
    if (!reps || reps.length <= warmup) {
      out.push(s);
      continue;
    }
    const value = combined(reps.slice(warmup), s.combine);
    if (value > 0 || (value === 0 && s.unit !== TIME_UNIT)) out.push({ ...s, value });
  }
  return out;
}
