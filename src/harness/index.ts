/**
 * The harness room: turns what a benchmark suite printed in one run into samples, one per
 * benchmark and metric. Text in, samples out; no I/O.
 *
 * Naming: a benchmark's primary metric (its time, or a JMH score) is named as the harness names
 * the benchmark; every other metric is a sample of its own named `<name> (<metric>)`, with the
 * metric as the harness labels it (`BenchmarkParse (B/op)`, `BM_Sort/1000 (items_per_second)`).
 * Units are normalised (times `ns`, sizes `B`, throughputs `ops/s`, `B/s`, `<things>/s`).
 * The statistic each format takes is documented in its parser's file.
 */
import { parseBencher } from './bencher.ts';
import { parseBenchmarkjs } from './benchmarkjs.ts';
import { parseCatch2 } from './catch2.ts';
import { parseCriterion } from './criterion.ts';
import { parseGo } from './go.ts';
import { parseGoogleBenchmark } from './google-benchmark.ts';
import { parseHyperfine } from './hyperfine.ts';
import { parseJmh } from './jmh.ts';
import { parseJson } from './json.ts';
import { parseMitata } from './mitata.ts';
import { parseNodeBench } from './node-bench.ts';
import { parsePyperf } from './pyperf.ts';
import { parsePytestBenchmark } from './pytest-benchmark.ts';
import { parseVitest } from './vitest.ts';
import type { Direction } from '../stats/types.ts';
import { HARNESS_FORMATS, HarnessParseError, type HarnessFormat, type HarnessParser, type Sample } from './types.ts';

export { HARNESS_FORMATS, HarnessParseError };
export type { HarnessFormat, HarnessParser, Sample };

export const HARNESS_PARSERS: Readonly<Record<HarnessFormat, HarnessParser>> = {
  go: parseGo,
  criterion: parseCriterion,
  bencher: parseBencher,
  'pytest-benchmark': parsePytestBenchmark,
  'google-benchmark': parseGoogleBenchmark,
  hyperfine: parseHyperfine,
  jmh: parseJmh,
  json: parseJson,
  vitest: parseVitest,
  mitata: parseMitata,
  benchmarkjs: parseBenchmarkjs,
  catch2: parseCatch2,
  pyperf: parsePyperf,
  'node-bench': parseNodeBench,
};

/** True when `format` names a harness format (not `time`). */
export function isHarnessFormat(format: string): format is HarnessFormat {
  return (HARNESS_FORMATS as readonly string[]).includes(format);
}

export interface ParseOptions {
  /**
   * For `json` entries that carry no `direction` of their own (a config benchmark's `direction`).
   * The other formats know each metric's direction and ignore it.
   */
  defaultDirection?: Direction;
}

/**
 * Parses one run's output. Throws HarnessParseError, and nothing else, when the output is not
 * what the format prints or holds no benchmark.
 */
export function parseHarness(format: HarnessFormat, text: string, options: ParseOptions = {}): Sample[] {
  if (!Object.hasOwn(HARNESS_PARSERS, format)) {
    throw new HarnessParseError(format, null, `unknown harness format; expected one of ${HARNESS_FORMATS.join(', ')}`);
  }
  const parser = HARNESS_PARSERS[format];
  try {
    if (format === 'json' && options.defaultDirection !== undefined) return parseJson(text, options.defaultDirection);
    return parser(text);
  } catch (err) {
    if (err instanceof HarnessParseError) throw err;
    // A parser bug must not surface as a TypeError in the engine; the fuzz tests keep this unreached.
    const detail = err instanceof Error ? err.message : String(err);
    throw new HarnessParseError(format, null, `unreadable output (${detail})`);
  }
}
