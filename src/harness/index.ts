/**
 * The harness room: turns what a benchmark suite printed in one run into samples, one per
 * benchmark and metric. Text in, samples out; no I/O.
 *
 * Naming: a benchmark's primary metric (its time, or a JMH score) is named as the harness names
 * the benchmark; every other metric is a sample of its own named `<name> (<metric>)`, with the
 * metric as the harness labels it (`BenchmarkParse (B/op)`, `BM_Sort/1000 (items_per_second)`).
 * Units are normalised (times `ns`, sizes `B`, throughputs `ops/s`, `B/s`, `<things>/s`).
 * The statistic each format takes is documented in its parser's file; everything else pairbench
 * knows of a format is its harness's (harness.ts, registry.ts).
 */
import type { ParseOptions } from './harness.ts';
import { HARNESSES, HARNESS_FORMATS, harnessOf, isHarnessFormat } from './registry.ts';
import { HarnessParseError, type HarnessFormat, type HarnessParser, type Sample } from './types.ts';

export { HARNESS_FORMATS, HarnessParseError, isHarnessFormat };
export type { HarnessFormat, HarnessParser, ParseOptions, Sample };

/** Each format's parser, read off its harness (registry.ts). */
export const HARNESS_PARSERS: Readonly<Record<HarnessFormat, HarnessParser>> = Object.fromEntries(HARNESSES.map((h) => [h.format, (text: string) => h.parse(text)])) as Record<HarnessFormat, HarnessParser>;

/**
 * Parses one run's output. Throws HarnessParseError, and nothing else, when the output is not
 * what the format prints or holds no benchmark.
 */
export function parseHarness(format: HarnessFormat, text: string, options: ParseOptions = {}): Sample[] {
  const harness = harnessOf(format as string);
  if (!harness) {
    throw new HarnessParseError(format, null, `unknown harness format; expected one of ${HARNESS_FORMATS.join(', ')}`);
  }
  try {
    return harness.parse(text, options);
  } catch (err) {
    if (err instanceof HarnessParseError) throw err;
    // A parser bug must not surface as a TypeError in the engine; the fuzz tests keep this unreached.
    const detail = err instanceof Error ? err.message : String(err);
    throw new HarnessParseError(format, null, `unreadable output (${detail})`);
  }
}
