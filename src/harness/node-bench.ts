/**
 * Node.js's own benchmark runner (`node:bench`, Node 26.9 and later, behind `--experimental-bench`):
 * the newline-delimited JSON of its `json` reporter,
 *
 *     node --experimental-bench --bench --bench-reporter=json 'bench/*.bench.mjs'
 *
 * One record per line, `{ "type": "bench:<event>", "data": { … } }`: `bench:plan` and
 * `bench:start` for each benchmark, one `bench:sample` per measured sample, `bench:complete` with
 * every sample again (`samples[]`: `operations` and `duration_ns`, a BigInt written as a decimal
 * string), and one `bench:summary` per file. A benchmark that threw has an `error` on its
 * `bench:complete` and no samples; one the name pattern left out has `skip` set. Both are left out,
 * as mitata's errored runs are; the runner then exits 1, which pairbench reports with the error.
 *
 * - Statistic: the **median** over the run's samples of the time per operation,
 *   `duration_ns / operations`, in ns (as the other JavaScript formats take the median of their
 *   iterations). The runner's own `summary` (mean rate and its interval) is not read.
 * - Names, parts joined by ` > ` as vitest's: `<file> > <suite…> > <bench>`, the benchmark's
 *   `namePath` after its file's name (`strings.bench.mjs > strings > concat`). The runner's
 *   `benchId` holds the file's absolute URL, which differs between base's and head's folders, so
 *   it cannot name a benchmark across the two; the file's name can. Files of the same name are told
 *   apart by their path below the deepest folder they share, as vitest's are. A benchmark declared
 *   with `params` gets them after its name: `parse [size=1000]`.
 * - Lines that are not a JSON object (what the benchmarks themselves print) are passed over;
 *   records of other types are not read.
 *
 * Selection (select.ts): `--bench-name-pattern={filter}`, a RegExp the runner tests on the
 * benchmark's full hierarchical name, its `namePath` joined by spaces. The runner has no flag that
 * selects by `benchId`.
 */
import { z } from 'zod';
import { checkShape, median, SampleCollector } from './common.ts';
import { fileLabels } from './vitest.ts';
import { HarnessParseError, type Sample } from './types.ts';

const SEPARATOR = ' > ';

const Duration = z.union([z.string().regex(/^\d+$/, 'expected a whole number of nanoseconds'), z.number().nonnegative()]);

const Complete = z.object({
  namePath: z.array(z.string()).min(1),
  file: z.string().min(1),
  params: z.record(z.string(), z.unknown()).nullish(),
  skip: z.unknown().optional(),
  error: z.unknown().optional(),
  samples: z.array(z.object({ operations: z.number().positive(), duration_ns: Duration })),
});

type CompleteData = z.infer<typeof Complete>;

const EXPECTED = 'the NDJSON of node --bench --bench-reporter=json';

export function parseNodeBench(text: string): Sample[] {
  const records: Array<{ data: CompleteData; line: number }> = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line.startsWith('{')) return;
    let record: unknown;
    try {
      record = JSON.parse(line) as unknown;
    } catch {
      throw new HarnessParseError('node-bench', i + 1, `not valid JSON; expected ${EXPECTED}, one record a line`);
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
    const { type, data } = record as { type?: unknown; data?: unknown };
    if (type !== 'bench:complete') return;
    records.push({ data: checkShape('node-bench', Complete, data, i + 1), line: i + 1 });
  });
  const files = [...new Set(records.map((r) => filePath(r.data.file)))];
  const labelOf = new Map(fileLabels(files).map((label, i) => [files[i]!, label]));
  const out = new SampleCollector('node-bench');
  for (const { data, line } of records) {
    if (data.skip !== undefined && data.skip !== null && data.skip !== false) continue;
    if (data.error !== undefined && data.error !== null) continue;
    const perOp = data.samples.map((s) => Number(s.duration_ns) / s.operations);
    if (perOp.length === 0) continue;
    const params = Object.entries(data.params ?? {}).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    const name = [labelOf.get(filePath(data.file))!, ...data.namePath].join(SEPARATOR) + (params.length > 0 ? ` [${params.join(', ')}]` : '');
    out.add(name, median(perOp), 'ns', 'lower-is-better', line);
  }
  return out.finish(`no measured benchmark (bench:complete record with samples) found; expected ${EXPECTED}`);
}

/** The path of a record's `file`, a `file:` URL (or a path, as the runner writes `entryFile`). */
function filePath(file: string): string {
  if (!file.startsWith('file:')) return file;
  try {
    return decodeURIComponent(new URL(file).pathname);
  } catch {
    return file;
  }
}
