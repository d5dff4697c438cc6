/**
 * Criterion.rs through cargo-criterion's machine-readable output, one JSON message a line:
 *
 *     cargo criterion --message-format=json --plotting-backend disabled
 *
 *     {"reason":"benchmark-complete","id":"kernels/checksum","unit":"ns",
 *      "median":{"estimate":71483.4,"lower_bound":…,"upper_bound":…,"unit":"ns"},
 *      "throughput":[{"per_iteration":65536,"unit":"bytes"}], …}
 *
 * This is what one run prints on stdout (the human report goes to stderr). Plain `cargo bench`
 * without cargo-criterion prints no machine format of its own; use
 * `cargo bench -- --output-format bencher` with `--format bencher` there.
 *
 * - Statistic: `median.estimate`, the median time per iteration of the run's samples: robust
 *   to the outlying samples Criterion itself flags, and the same statistic libtest reports.
 * - Each `throughput` entry becomes an extra sample `<id> (bytes/s)` or `<id> (elements/s)`:
 *   `per_iteration` divided by the median time, in `B/s` or `elements/s`, higher is better.
 * - Other messages (`group-complete`) and lines that are not JSON objects (cargo's own
 *   messages) are skipped; a `{…}` line that is not valid JSON, or a `benchmark-complete`
 *   message without a readable id and median, is an error.
 */
import { z } from 'zod';
import { checkShape, extraName, normalise, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const Estimate = z.object({ estimate: z.number().nonnegative(), unit: z.string().min(1).optional() });

const BenchmarkComplete = z.object({
  reason: z.literal('benchmark-complete'),
  id: z.string().trim().min(1),
  unit: z.string().min(1),
  median: Estimate,
  throughput: z
    .array(z.object({ per_iteration: z.number().nonnegative(), unit: z.string().min(1) }))
    .nullish(),
});

const THROUGHPUT_UNITS: Record<string, { label: string; unit: string }> = {
  bytes: { label: 'bytes/s', unit: 'B/s' },
  bytes_decimal: { label: 'bytes/s', unit: 'B/s' },
  elements: { label: 'elements/s', unit: 'elements/s' },
};

export function parseCriterion(text: string): Sample[] {
  const out = new SampleCollector('criterion');
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = (lines[i] as string).trim();
    if (!raw.startsWith('{')) continue;
    let message: unknown;
    try {
      message = JSON.parse(raw) as unknown;
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      throw new HarnessParseError('criterion', lineNo, `expected one cargo-criterion JSON message per line (${detail})`);
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) continue;
    if ((message as { reason?: unknown }).reason !== 'benchmark-complete') continue;
    const b = checkShape('criterion', BenchmarkComplete, message, lineNo);
    const unit = b.median.unit ?? b.unit;
    const time = normalise(b.median.estimate, unit);
    out.add(b.id, time.value, time.unit, time.direction, lineNo);
    if (time.unit !== 'ns' || time.value <= 0) continue;
    for (const t of b.throughput ?? []) {
      const known = Object.hasOwn(THROUGHPUT_UNITS, t.unit) ? THROUGHPUT_UNITS[t.unit] : undefined;
      const label = known?.label ?? `${t.unit}/s`;
      out.add(extraName(b.id, label), (t.per_iteration * 1e9) / time.value, known?.unit ?? label, 'higher-is-better', lineNo, b.id);
    }
  }
  return out.finish();
}
