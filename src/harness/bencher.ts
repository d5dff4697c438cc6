/**
 * Rust libtest's bench output, also printed by Criterion with `cargo bench -- --output-format bencher`:
 *
 *     test parse::small ... bench:       1,234 ns/iter (+/- 56)
 *     test parse::large ... bench:   1,234.50 ns/iter (+/- 56.20) = 830 MB/s
 *
 * The value is what the harness prints per iteration (libtest's median; Criterion's estimate),
 * in `ns`; `= N MB/s` becomes an extra sample `<name> (MB/s)` in `B/s` (×10⁶, higher is better).
 * With `-q`, libtest's progress marks (`i` for an ignored test, …) may stand before `test`.
 * Other lines (`running 3 tests`, `test x ... ok`, `test x ... ignored`, `test result:`) are skipped;
 * a `test … bench:` line that does not read this way is an error, and so is a `bench:` line with no
 * `test <name> ...` before it: Criterion's `--quick` prints its results so (its bencher reporter
 * writes the name when a benchmark warms up, which quick mode skips; Criterion 0.4 to 0.8), and a
 * value without its name cannot be paired, unless the run selected one benchmark and said so
 * (`unnamed`: criterion-quick.ts).
 *
 * Criterion writes `test <name> ... ` when it starts measuring and `bench: …` when it has, so a
 * line Criterion prints in between splits the two: `Criterion.rs ERROR: …` when the estimates it
 * saved last time cannot be read (another run writing them at the same moment, in a shared
 * `CARGO_TARGET_DIR`), or `CRITERION_DEBUG`'s notes. The measurement is whole, so the `bench:`
 * line takes the name of the `test <name> ...` line that was left open before it.
 */
import { extraName, normalise, readNumber, SampleCollector } from './common.ts';
import type { ParseOptions } from './harness.ts';
import { HarnessParseError, type Sample } from './types.ts';

// `cargo bench -q` prints progress marks (`.`, `i`, `F`) without a newline before the next line.
const BENCH_LINE = /^[.iF]*test\s+(.+?)\s+\.\.\.\s+bench:\s*(.*)$/;
/** a result with no name: its `test <name> ...` was split off (see above), or Criterion's `--quick` */
const NAMELESS_LINE = /^bench:\s*(.*)$/;
/** a benchmark started and not yet given its result on the same line */
const OPEN_LINE = /^[.iF]*test\s+(.+?)\s+\.\.\.(?:\s+(.*))?$/;
/** what libtest prints after `test <name> ...` for a test that is not a benchmark */
const TEST_STATUS = /^(?:ok|FAILED|ignored\b.*)$/;
const NUM = String.raw`\d[\d,]*(?:\.\d+)?`;
const RESULT = new RegExp(
  String.raw`^(${NUM})\s+(\S+?)/iter\s+\(\+/-\s*(${NUM})\)(?:\s*=\s*(${NUM})\s+MB/s)?\s*$`,
);

export function parseBencher(text: string, options: ParseOptions = {}): Sample[] {
  const out = new SampleCollector('bencher');
  const lines = text.split(/\r?\n/);
  let open: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = (lines[i] as string).trim();
    const m = BENCH_LINE.exec(line);
    let name: string;
    let result: string;
    if (m) {
      name = m[1] as string;
      result = m[2] as string;
    } else {
      const nameless = NAMELESS_LINE.exec(line);
      if (nameless && (open !== undefined || /^\d/.test(nameless[1] as string))) {
        if (open === undefined && options.unnamed !== undefined) open = options.unnamed;
        if (open === undefined) {
          throw new HarnessParseError('bencher', lineNo, `expected "test <name> ... bench: <number> ns/iter", got "${line}" with no benchmark's name (Criterion's --quick prints its results so: run without --quick)`);
        }
        name = open;
        result = nameless[1] as string;
      } else {
        const started = OPEN_LINE.exec(line);
        if (started) open = TEST_STATUS.test(started[2] ?? '') ? undefined : (started[1] as string);
        continue;
      }
    }
    open = undefined;
    const r = RESULT.exec(result);
    if (!r) {
      throw new HarnessParseError('bencher', lineNo, `${name}: expected "bench: <number> ns/iter (+/- <number>)", got "bench: ${result}"`);
    }
    const unit = r[2] as string;
    const value = readNumber(r[1] as string, true);
    const time = normalise(value, unit);
    if (Number.isNaN(value) || time.unit !== 'ns') {
      throw new HarnessParseError('bencher', lineNo, `${name}: expected a time per iteration such as "1,234 ns/iter", got "${r[1] as string} ${unit}/iter"`);
    }
    out.add(name, time.value, 'ns', 'lower-is-better', lineNo);
    if (r[4] !== undefined) {
      const mbs = readNumber(r[4], true);
      if (Number.isNaN(mbs)) throw new HarnessParseError('bencher', lineNo, `${name}: expected a number before MB/s, got "${r[4]}"`);
      // libtest computes it from the bytes per iteration and the ns/iter beside it
      out.add(extraName(name, 'MB/s'), mbs * 1e6, 'B/s', 'higher-is-better', lineNo, name);
    }
  }
  return out.finish(undefined, options.keepZeroTimes === true);
}
