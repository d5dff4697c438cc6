/**
 * mitata's JSON document, which `run({ format: 'json' })` prints on stdout (mitata 1.x,
 * src/main.mjs, `formats.json`): `{ layout, benchmarks, context }`. Each entry of `benchmarks` is
 * one `bench()` (its `alias`, the index of its `group` in `layout`) with one entry in `runs` per
 * argument combination (`.args()`), each with its printed `name` and its `stats` (times in ns), or
 * an `error` when the benchmark threw.
 *
 * By default the document holds every sample and the code mitata generated, megabytes per run;
 * `run({ format: { json: { samples: false, debug: false } } })` leaves them out, and pairbench
 * needs neither.
 *
 * - Statistic: `stats.p50`, mitata's median of the run's samples (its iterations, or batches of
 *   them), normalised to ns; the mean `avg` only where no `p50` is written.
 * - Names: the run's `name` as mitata prints it (`sort 1000` for `bench('sort $n').args('n',
 *   [1000])`). A benchmark in a named `group('parse', ...)` is `parse > <name>`, so benchmarks of
 *   one name in two groups stay apart. Runs of one benchmark that print the same name (a template
 *   without `$n`) get their arguments: `fill [n=8]`.
 * - A run with an `error` (the benchmark threw; mitata goes on) is left out, as Google Benchmark's
 *   errored entries are.
 *
 * mitata's `filter` (a RegExp tested on each `bench()`'s name, its template for `.args()`) selects
 * benchmarks; the bench script passes it on from an argument: `run({ format: 'json', filter: new
 * RegExp(process.argv[2] ?? '.') })` with `--run 'node bench.mjs {filter}'` (select.ts).
 */
import { z } from 'zod';
import { checkShape, NO_BENCHMARKS_IN_DOCUMENT, parseJsonDocument, SampleCollector } from './common.ts';
import type { Sample } from './types.ts';

const Run = z.object({
  name: z.string().trim().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
  error: z.unknown().optional(),
  stats: z.object({ p50: z.number().nonnegative().optional(), avg: z.number().nonnegative() }).nullish(),
});

const Document = z.object({
  layout: z.array(z.object({ name: z.unknown() })),
  benchmarks: z.array(
    z.object({
      alias: z.string(),
      group: z.number().int().nonnegative(),
      runs: z.array(Run),
    }),
  ),
});

const MITATA_SEPARATOR = ' > ';

export function parseMitata(text: string): Sample[] {
  const doc = checkShape('mitata', Document, parseJsonDocument('mitata', text, "the JSON document mitata's run({ format: 'json' }) prints"));
  const out = new SampleCollector('mitata');
  for (const b of doc.benchmarks) {
    const group = doc.layout[b.group]?.name;
    const prefix = typeof group === 'string' && group.trim() !== '' ? `${group}${MITATA_SEPARATOR}` : '';
    const counts = new Map<string, number>();
    for (const r of b.runs) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
    for (const r of b.runs) {
      if (r.error !== undefined && r.error !== null) continue;
      if (!r.stats) continue; // neither stats nor an error: nothing was measured
      const args = Object.entries(r.args ?? {}).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      const name = (counts.get(r.name) ?? 0) > 1 && args.length > 0 ? `${r.name} [${args.join(', ')}]` : r.name;
      out.add(prefix + name, r.stats.p50 ?? r.stats.avg, 'ns', 'lower-is-better', null);
    }
  }
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}
