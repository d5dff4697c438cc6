/**
 * pyperf's JSON document (pyperf 2.x, format version 1.0; https://pyperf.readthedocs.io/en/latest/
 * api.html#benchmark-suite-json), which a pyperf Runner script or `python -m pyperf timeit` writes
 * with `--output <file>`; the CPython performance suite (pyperformance) writes the same. The run
 * command writes it and prints it:
 *
 *     python3 bench.py --quiet --output build/bench.json {benchmark} >&2 && cat build/bench.json
 *
 * (`--output` refuses a file that exists: remove it first, as the examples do.)
 *
 * - `benchmarks[]` each hold `runs[]`, one per worker process, each with its `values` (seconds per
 *   loop iteration, after `warmups`); a worker's first run may calibrate the loop count and hold
 *   only warmups. Metadata common to every benchmark (the `name` when there is one benchmark, the
 *   `unit`) is in the document's `metadata`, the rest in each benchmark's.
 * - Statistic: the median of every value of every run (warmups left out), normalised to ns for
 *   `unit` `second`; `byte` (`--track-memory`) becomes `B`, `integer` stays a count. pyperf's own
 *   summary is the mean; the median keeps one disturbed worker from moving the run's value. Every
 *   value is kept, in order, as the sample's repetitions: a designed run's values are its
 *   repetitions, whose spread the design reads (pyperf-design.ts). A value is per inner loop
 *   (`inner_loops` in the metadata: `bench_func(..., inner_loops=N)`, `timeit --duplicate N`),
 *   while `--loops` counts outer ones: the sample's `iterationScale` says how many make one.
 * - Name: the benchmark's `name` metadata.
 */
import { z } from 'zod';
import { checkShape, NO_BENCHMARKS_IN_DOCUMENT, parseJsonDocument, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const Metadata = z.record(z.string(), z.unknown());

const Document = z.object({
  version: z.string().optional(),
  metadata: Metadata.optional(),
  benchmarks: z.array(
    z.object({
      metadata: Metadata.optional(),
      runs: z.array(z.object({ values: z.array(z.number().nonnegative()).optional() })),
    }),
  ),
});

const UNITS: Record<string, { factor: number; unit: string }> = {
  second: { factor: 1e9, unit: 'ns' },
  byte: { factor: 1, unit: 'B' },
  integer: { factor: 1, unit: 'integer' },
};

export function parsePyperf(text: string): Sample[] {
  const doc = checkShape('pyperf', Document, parseJsonDocument('pyperf', text, 'the JSON document pyperf writes with --output'));
  const out = new SampleCollector('pyperf');
  const innerLoops = new Map<string, number>();
  doc.benchmarks.forEach((b, i) => {
    const meta = { ...doc.metadata, ...b.metadata };
    const name = meta['name'];
    if (typeof name !== 'string' || name.trim() === '') {
      throw new HarnessParseError('pyperf', null, `benchmarks[${i}]: expected a name in its metadata or the document's`);
    }
    const unitName = meta['unit'] ?? 'second';
    // own keys only: a unit named `__proto__` or `constructor` is unknown like any other
    const unit = typeof unitName === 'string' && Object.hasOwn(UNITS, unitName) ? UNITS[unitName] : undefined;
    if (unit === undefined) {
      throw new HarnessParseError('pyperf', null, `benchmarks[${i}] (${name}): expected unit second, byte or integer, got ${JSON.stringify(unitName)}`);
    }
    const values = b.runs.flatMap((r) => r.values ?? []);
    if (values.length === 0) throw new HarnessParseError('pyperf', null, `benchmarks[${i}] (${name}): no run holds a value`);
    for (const v of values) out.add(name, v * unit.factor, unit.unit, 'lower-is-better', null);
    const inner = meta['inner_loops'];
    if (typeof inner === 'number' && Number.isInteger(inner) && inner > 1) innerLoops.set(name.trim(), inner);
  });
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT).map((s) => (innerLoops.has(s.name) ? { ...s, iterationScale: innerLoops.get(s.name)! } : s));
}
