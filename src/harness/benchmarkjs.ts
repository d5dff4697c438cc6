/**
 * benchmark.js's result lines, `String(benchmark)` (benchmark.js 2.1.4, `toStringBench`), which a
 * suite prints from its `cycle` event:
 *
 *     suite.on('cycle', (event) => console.log(String(event.target)))
 *     // checksum 64 KiB x 13,912 ops/sec ±0.42% (60 runs sampled)
 *
 * - Statistic: the printed operations per second, in `ops/s`, higher-is-better. benchmark.js
 *   prints `hz`, one over the mean time of its samples (each sample a timed cycle of many calls);
 *   no median is printed, and the line is all the output has. Below 100 ops/sec it prints two
 *   decimals (`50.32 ops/sec`), above it thousands separators (`1,234`).
 * - Name: everything before the last ` x <number> ops/sec` of the line, so a name may hold ` x `.
 * - A benchmark that threw prints `name: <error>` instead and is left out; every other line (the
 *   `Fastest is` line, the suite's own output) is not a result and is skipped.
 * - A line with ` ops/sec ±` whose count cannot be read (`Infinity`) is an error, naming the line.
 *
 * benchmark.js has no filter of its own: the bench script adds only the benchmarks whose name
 * matches a pattern it is given (`--run 'node bench.mjs {filter}'`, select.ts).
 */
import { readNumber, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const RESULT = /^(.+) x (\S+) ops\/sec \u00b1(\S+)% \((\d+) runs? sampled\)\s*$/;
const LOOKS_LIKE_RESULT = / x \S+ ops\/sec \u00b1/;

export function parseBenchmarkjs(text: string): Sample[] {
  const out = new SampleCollector('benchmarkjs');
  text.split(/\r?\n/).forEach((line, i) => {
    if (!LOOKS_LIKE_RESULT.test(line)) return;
    const m = RESULT.exec(line);
    if (!m) {
      throw new HarnessParseError('benchmarkjs', i + 1, `expected "<name> x <ops> ops/sec ±<rme>% (<n> runs sampled)", got ${JSON.stringify(line.slice(0, 120))}`);
    }
    const hz = readNumber(m[2]!, true);
    if (!Number.isFinite(hz)) {
      throw new HarnessParseError('benchmarkjs', i + 1, `${m[1]!.trim()}: expected a number of ops/sec, got "${m[2]!}"`);
    }
    out.add(m[1]!, hz, 'ops/s', 'higher-is-better', i + 1);
  });
  return out.finish();
}
