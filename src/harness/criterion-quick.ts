/**
 * A Criterion run of one benchmark in Criterion's quick mode (`--quick`), under `--design auto`
 * (the `bencher` format of a Criterion bench executable: `--output-format bencher`).
 *
 * Why: a benchmark group that sets `warm_up_time` and `measurement_time` in code overrules the
 * command line's `--warm-up-time` and `--measurement-time`, so each run lasts what the code says
 * (3 s of warm-up and 5 s of measurement by default; the base64 crate's groups, 3.5 s) whatever
 * the command asks. pairbench reads one value a run, and what its test reads is the spread between
 * processes, which only more processes shrink, not longer runs (Kalibera & Jones, "Rigorous
 * Benchmarking in Reasonable Time", ISMM 2013: the repetitions at the level that varies most are
 * the ones to add). A run of seconds buys a precision inside the process that the pairs do not use,
 * at the price of the pairs themselves.
 *
 * Quick mode (criterion 0.4 to 0.8, `routine::sample`; the Criterion.rs user guide, "Command-Line
 * Options": https://bheisler.github.io/criterion.rs/book/user_guide/command_line_options.html)
 * times 1, 2, 4 ... iterations until two timings in a row agree within Criterion's significance
 * level (5%) after at least 100 ms, or the group's measurement time has passed; it skips the
 * warm-up, then analyses and saves its estimates as a full run does (the median of the two
 * timings per iteration). Its bencher line carries no benchmark name (the reporter writes the name
 * when a warm-up starts), so it is added only to a run that selects one benchmark, and the line is
 * read as that benchmark's (`ParseOptions.unnamed`); and only where the run's saved medians are read
 * (criterion-estimates.ts), whose `benchmark.json` names the benchmark the median belongs to.
 *
 * Left as written: a command that asks for quick mode itself, or for another mode that measures
 * otherwise (`--profile-time`, `--list`, `--test`), or that names a baseline, which keeps its
 * meaning only between runs of one mode. Criterion before 0.4 has no `--quick`, and its argument
 * parser refuses it: `quickRefused` reads that refusal, and pairbench runs that benchmark as
 * written from then on (schedule/pair.ts).
 */
import { BENCHER_OUTPUT } from './criterion-trim.ts';
import { appendToSimpleCommand } from './simple-command.ts';

const QUICK = '--quick';
/** flags after which a run does not measure as a full run would, or is not compared by value: left as written */
const OTHER_MODE = /(?:^|\s)--(?:quick|profile-time|list|test|baseline|load-baseline|save-baseline|discard-baseline)(?:=|\s|$)/;

/** `command` with `--quick` after Criterion's `--output-format bencher`, and the flag added; null when it is left as written. */
export function criterionQuick(command: string): { command: string; added: string } | null {
  const at = BENCHER_OUTPUT.exec(command);
  if (at === null || OTHER_MODE.test(command)) return null;
  return { command: appendToSimpleCommand(command, at.index + at[0].length, ` ${QUICK}`), added: QUICK };
}

/**
 * Whether a failed run's output is Criterion's argument parser refusing `--quick` (criterion 0.3,
 * clap 2: "error: Found argument '--quick' which wasn't expected, or isn't valid in this context").
 */
export function quickRefused(output: string): boolean {
  return /'--quick'|"--quick"|unexpected argument.{0,8}--quick|--quick.{0,40}(?:wasn't expected|unexpected|unrecognized|unknown)/i.test(output);
}
