/**
 * A Criterion run's medians as it computed them, not as its bencher line prints them
 * (`--design auto`, the `bencher` format of a Criterion bench executable: `--output-format bencher`).
 *
 * Criterion's bencher reporter prints the median time per iteration cut to whole nanoseconds
 * (criterion 0.3 to 0.8, `report::BencherReport` and `format::integer`: `n as u64`; the files below
 * read alike in 0.3.6, 0.4, 0.5.1 and 0.8.2). For a
 * benchmark of 45 ns a step of one nanosecond is 2.2%, more than the threshold: every pair's
 * difference is then 0 or ±2.2%, and an interval that has to fit inside ±2% to call the benchmark
 * `unchanged` cannot, however many pairs are run. Criterion keeps the median it computed, to a
 * fraction of a nanosecond, in `<CRITERION_HOME>/<benchmark>/new/estimates.json` (its
 * `median.point_estimate`), with the benchmark's printed name in `new/benchmark.json` (`title`),
 * both saved before the bencher line is printed (`analysis::common`). Criterion.rs user guide,
 * "Criterion.rs Output Format" and "Command-Line Options":
 * https://bheisler.github.io/criterion.rs/book/user_guide/command_line_output.html.
 *
 * So each run gets a folder of its own as `CRITERION_HOME` (measure/run-files.ts), and a printed
 * value is replaced by the saved median when that median, cut to whole nanoseconds, is the printed
 * value: a file that is not this run's, or not this benchmark's, changes nothing. A folder of its
 * own also means Criterion compares the run with no baseline of its own, which pairbench never read.
 *
 * Left as written: a command whose environment sets `CRITERION_HOME` (the user's folder), or that
 * names a baseline (`--baseline`, `--load-baseline`, `--save-baseline`, `--discard-baseline`:
 * Criterion reads or keeps one there, or saves nothing), and libtest's `#[bench]`, which writes no
 * files. The values are read as printed under `--design command`.
 */
import { z } from 'zod';
import { BENCHER_OUTPUT } from './criterion-trim.ts';
import type { FileReading } from './harness.ts';
import type { Sample } from './types.ts';

const BASELINE = /(?:^|\s)--(?:baseline|load-baseline|save-baseline|discard-baseline)(?:=|\s|$)/;
/** the two files of a benchmark's last run under CRITERION_HOME */
const WANTED = /(?:^|\/)new\/(?:benchmark|estimates)\.json$/;
const Estimates = z.object({ median: z.object({ point_estimate: z.number().finite().positive() }) });
const Benchmark = z.object({ title: z.string().min(1) });

/** The file's document when it is valid JSON of this shape; null otherwise (cut short, another version's). */
function read<T>(schema: z.ZodType<T>, text: string | undefined): T | null {
  if (text === undefined) return null;
  try {
    const got = schema.safeParse(JSON.parse(text));
    return got.success ? got.data : null;
  } catch {
    return null;
  }
}

/** Each benchmark's saved median by its printed name; a name saved twice (two folders) is left out. */
export function savedMedians(files: ReadonlyMap<string, string>): Map<string, number> {
  const out = new Map<string, number>();
  const twice = new Set<string>();
  for (const [path, text] of files) {
    if (!path.endsWith('new/benchmark.json')) continue;
    const title = read(Benchmark, text)?.title;
    const median = read(Estimates, files.get(path.slice(0, -'benchmark.json'.length) + 'estimates.json'))?.median.point_estimate;
    if (title === undefined || median === undefined) continue;
    if (out.has(title)) twice.add(title);
    out.set(title, median);
  }
  for (const t of twice) out.delete(t);
  return out;
}

/**
 * The samples with each time replaced by its saved median where that median, cut to whole
 * nanoseconds, is what the line printed; every other sample as it was.
 */
export function refineFromEstimates(samples: Sample[], files: ReadonlyMap<string, string>): Sample[] {
  const medians = savedMedians(files);
  if (medians.size === 0) return samples;
  return samples.map((s) => {
    const median = medians.get(s.name);
    if (median === undefined || s.unit !== 'ns' || s.repetitions !== undefined || s.reciprocalOf !== undefined) return s;
    return Math.floor(median) === s.value ? { ...s, value: median } : s;
  });
}

export const criterionEstimates: FileReading = {
  variable: 'CRITERION_HOME',
  applies: (command) => BENCHER_OUTPUT.test(command) && !BASELINE.test(command),
  wanted: (path) => WANTED.test(path),
  refine: refineFromEstimates,
};
