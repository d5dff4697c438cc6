/**
 * A Criterion run's own analysis, cut to what pairbench reads (`--design auto`, the `bencher`
 * format of a Criterion bench executable: `--output-format bencher`).
 *
 * After measuring, Criterion bootstraps its samples 100,000 times by default (`--nresamples`) for
 * its own confidence intervals, and again against the baseline it saved last time (Criterion.rs
 * user guide, "Command-Line Options" and "Analysis Process":
 * https://bheisler.github.io/criterion.rs/book/user_guide/command_line_options.html,
 * https://bheisler.github.io/criterion.rs/book/analysis.html). The bencher line pairbench reads
 * prints the median of the samples as measured, the bootstrap's point estimate, which the number of
 * resamples does not change (criterion 0.4 to 0.8, `analysis::estimates`: the point estimates are the
 * sample's own): only Criterion's intervals and its own change report use them. The bootstrap's
 * cost grows with the resamples, and at 100,000 it is a sizeable part of a run of a few seconds
 * (docs/harnesses.md, `bencher`, gives a measured run).
 *
 * 1,000: below it, Criterion's own `nresamples` setter warns that it is not recommended (its
 * intervals would then wander from run to run; pairbench reads none of them). A command that sets
 * `--nresamples` itself keeps it (Criterion's argument parser refuses a flag given twice); a
 * command without `--output-format bencher` (libtest's `#[bench]`, which has no such option, or a
 * Criterion run read another way) is left as written. The flag ends the simple command that holds
 * `--output-format`, before what the shell does next.
 */
import { appendToSimpleCommand } from './simple-command.ts';

/** Resamples of Criterion's bootstrap in a trimmed run: the fewest its own setter accepts without a warning. */
export const CRITERION_RESAMPLES = 1000;

/** A command's `--output-format bencher` (Criterion's bench executable printing bencher lines). */
export const BENCHER_OUTPUT = /(?:^|\s)--output-format(?:=|\s+)['"]?bencher['"]?(?=\s|$|[|&;<>)])/;
const SETS_RESAMPLES = /(?:^|\s)--nresamples(?:=|\s|$)/;

/** `command` with `--nresamples 1000` after Criterion's `--output-format bencher`, and the flag added; null when it is left as written. */
export function criterionTrim(command: string): { command: string; added: string } | null {
  const at = BENCHER_OUTPUT.exec(command);
  if (at === null || SETS_RESAMPLES.test(command)) return null;
  const added = `--nresamples ${CRITERION_RESAMPLES}`;
  return { command: appendToSimpleCommand(command, at.index + at[0].length, ` ${added}`), added };
}
