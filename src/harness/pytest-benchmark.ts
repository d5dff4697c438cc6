/**
 * pytest-benchmark's `--benchmark-json=<file>` document. pytest prints its own report on stdout,
 * so the run command writes the file and prints it, for example
 *
 *     python3 -m pytest --benchmark-json=.benchmarks/run.json >&2 && cat .benchmarks/run.json
 *
 * - One sample per entry of `benchmarks`, named by its `fullname`
 *   (`tests/test_parse.py::test_parse[large]`): unique across files, and the same on both sides
 *   when the command is.
 * - Statistic: `stats.median` (seconds, normalised to `ns`). pytest-benchmark times many rounds
 *   per run; their mean is pulled off by a few GC pauses or preemptions (in the real fixture the
 *   slowest round is 11× the median and the mean 21% above it), while the median stays with the
 *   typical round.
 * - `ops`, `extra_info` and the other statistics are not reported: ops is 1/mean, and
 *   `extra_info` carries no unit or direction.
 */
import { z } from 'zod';
import { checkShape, NO_BENCHMARKS_IN_DOCUMENT, parseJsonDocument, SampleCollector } from './common.ts';
import type { Sample } from './types.ts';

const Document = z.object({
  benchmarks: z.array(
    z.object({
      fullname: z.string().trim().min(1),
      stats: z.object({ median: z.number().nonnegative() }),
    }),
  ),
});

export function parsePytestBenchmark(text: string): Sample[] {
  const doc = checkShape(
    'pytest-benchmark',
    Document,
    parseJsonDocument('pytest-benchmark', text, 'the JSON document that --benchmark-json writes'),
  );
  const out = new SampleCollector('pytest-benchmark');
  for (const b of doc.benchmarks) out.add(b.fullname, b.stats.median * 1e9, 'ns', 'lower-is-better', null);
  return out.finish(NO_BENCHMARKS_IN_DOCUMENT);
}
