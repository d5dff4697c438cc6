/**
 * pairbench's own simple format, for suites that measure themselves: the whole output is one
 * JSON document, either an array of results or an object with a `benchmarks` array of them
 * (room for other keys later; they are ignored):
 *
 *     [{ "name": "parse/large", "value": 1234.5, "unit": "ns" },
 *      { "name": "parse/large (throughput)", "value": 812.3, "unit": "MB/s", "direction": "higher-is-better" }]
 *
 * - `name`: a non-empty string; `value`: a number ≥ 0 (0 is left out, as everywhere);
 *   `unit`: a non-empty string; `direction`: `lower-is-better` or `higher-is-better`, optional.
 * - Units are normalised like the harnesses' (`ms` → `ns`, `MiB` → `B`, `MB/s` → `B/s`,
 *   `ops/ms` → `ops/s`); other units are kept as written. Without `direction`, units per unit of
 *   time (`…/s`) are higher-is-better and all others lower-is-better (unless the caller passes a
 *   default direction: `parseHarness(format, text, { defaultDirection })`).
 * - Several entries of one name are combined by their median (one sample per run).
 * - Nothing but the document may be printed on stdout (with npm scripts, use `npm run --silent`).
 */
import { z } from 'zod';
import type { Direction } from '../stats/types.ts';
import { checkShape, NO_BENCHMARKS_IN_DOCUMENT, normalise, parseJsonDocument, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const Result = z.object({
  name: z.string().trim().min(1),
  value: z.number().nonnegative(),
  unit: z.string().trim().min(1),
  direction: z.enum(['lower-is-better', 'higher-is-better']).optional(),
});

/**
 * `defaultDirection` (a config benchmark's `direction`) applies to entries without a `direction`
 * of their own, before the unit's.
 */
export function parseJson(text: string, defaultDirection?: Direction): Sample[] {
  const data = parseJsonDocument(
    'json',
    text,
    'a JSON array of {"name", "value", "unit", "direction"?} (nothing else on stdout; with npm scripts use npm run --silent)',
  );
  // Check the array form or the object form on its own, so the error names the actual problem.
  if (!Array.isArray(data) && (typeof data !== 'object' || data === null || !Object.hasOwn(data, 'benchmarks'))) {
    throw new HarnessParseError('json', null, 'expected an array of results, or an object with a "benchmarks" array of them');
  }
  const results = Array.isArray(data)
    ? checkShape('json', z.array(Result), data)
    : checkShape('json', z.object({ benchmarks: z.array(Result) }), data).benchmarks;
  const out = new SampleCollector('json');
  for (const r of results) {
    const n = normalise(r.value, r.unit);
    out.add(r.name, n.value, n.unit, r.direction ?? defaultDirection ?? n.direction, null);
  }
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}
