/**
 * JMH's `-rf json` result document (`-rff <file>`; JMH prints its own report on stdout, so the
 * run command prints the file afterwards, for example
 * `java -jar target/benchmarks.jar -rf json -rff jmh.json >&2 && cat jmh.json`).
 *
 * - One sample per entry, named `<benchmark>` or, with `@Param`s, `<benchmark>[size=1000,kind=a]`
 *   (parameters in JMH's order). When the same benchmark and parameters were run in several
 *   modes (`-bm thrpt,avgt`), each mode's sample is named `<name>:<mode>` (JMH's own `:` style).
 * - Statistic: the median of the measurement iterations, `primaryMetric.scorePercentiles["50.0"]`
 *   (robust to one disturbed iteration; for `sample` mode it is the median sampled time), else
 *   `primaryMetric.score`.
 * - Units from `scoreUnit`: throughput (`ops/s`, `ops/ms`, …) in `ops/s`, higher is better;
 *   times per operation (`avgt`, `sample`, `ss`: `ns/op`, `us/op`, …) in `ns`, lower is better.
 * - Secondary metrics in `B/op` (the gc profiler's `gc.alloc.rate.norm`) become extra samples
 *   `<name> (gc.alloc.rate.norm)` in `B`. Other secondary metrics (rates, counts) are not
 *   reported.
 */
import { z } from 'zod';
import { checkShape, extraName, NO_BENCHMARKS_IN_DOCUMENT, normalise, parseJsonDocument, SampleCollector } from './common.ts';
import type { Sample } from './types.ts';

const Metric = z.object({
  score: z.number().nonnegative(),
  scorePercentiles: z.record(z.string(), z.number()).optional(),
  scoreUnit: z.string().trim().min(1),
});

const Entry = z.object({
  benchmark: z.string().trim().min(1),
  mode: z.string().trim().min(1),
  params: z.record(z.string(), z.union([z.string(), z.number()])).nullish(),
  primaryMetric: Metric,
  secondaryMetrics: z.record(z.string(), z.unknown()).nullish(),
});

const Document = z.array(Entry);
const SecondaryInBytes = z.object({ score: z.number().nonnegative(), scoreUnit: z.literal('B/op') });

export function parseJmh(text: string): Sample[] {
  const entries = checkShape('jmh', Document, parseJsonDocument('jmh', text, 'the JSON array that -rf json writes'));
  const base = entries.map((e) => {
    const params = Object.entries(e.params ?? {});
    return params.length === 0 ? e.benchmark : `${e.benchmark}[${params.map(([k, v]) => `${k}=${String(v)}`).join(',')}]`;
  });
  const modes = new Map<string, Set<string>>();
  entries.forEach((e, i) => {
    const set = modes.get(base[i] as string) ?? new Set<string>();
    set.add(e.mode);
    modes.set(base[i] as string, set);
  });

  const out = new SampleCollector('jmh');
  entries.forEach((e, i) => {
    const b = base[i] as string;
    const name = (modes.get(b)?.size ?? 0) > 1 ? `${b}:${e.mode}` : b;
    const m = e.primaryMetric;
    const percentile = m.scorePercentiles !== undefined && Object.hasOwn(m.scorePercentiles, '50.0') ? m.scorePercentiles['50.0'] : undefined;
    const primary = normalise(percentile ?? m.score, m.scoreUnit);
    out.add(name, primary.value, primary.unit, primary.direction, null);
    for (const [key, raw] of Object.entries(e.secondaryMetrics ?? {})) {
      const secondary = SecondaryInBytes.safeParse(raw);
      if (!secondary.success) continue;
      const label = key.replace(/^\u00b7/, '');
      if (label.trim() === '') continue;
      out.add(extraName(name, label), secondary.data.score, 'B', 'lower-is-better', null);
    }
  });
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}
