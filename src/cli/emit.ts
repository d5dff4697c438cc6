/**
 * The files and the table a comparison ends with (compare, noise, report): the output paths
 * checked before anything runs, then the Markdown and HTML reports written and the table printed.
 */
import { fsReason } from '../config/errors.ts';
import type { FailOn } from '../config/fail-on.ts';
import { writeReportFile } from '../results/atomic.ts';
import type { Results } from '../results/schema.ts';
import { checkOutputPath, resultsText } from '../results/writer.ts';
import { renderHtml } from '../report/html.ts';
import { renderMarkdown, type ReplaySource } from '../report/markdown.ts';
import { renderNoiseMarkdown, renderNoiseText } from '../report/noise-report.ts';
import { renderTerminal } from '../report/terminal.ts';
import type { Io } from './io.ts';

/** S16: the files written at the end are checked before anything is built or measured. */
export function checkOutputs(spec: { out: string | null; markdown: string | null }, html: string | null = null): void {
  if (spec.out !== null) checkOutputPath('--out', spec.out, { replaced: true });
  if (spec.markdown !== null) checkOutputPath('--markdown', spec.markdown, { replaced: false });
  if (html !== null) checkOutputPath('--html', html, { replaced: false });
}

/**
 * Writes a report file whole or not at all (atomic.ts). A report that cannot be written (a full
 * disk) is one warning: the comparison finished and its results file is whole, so the exit status
 * stays the comparison's.
 */
function writeReport(io: Io, what: string, path: string, render: () => string, resultsFile: string | null): void {
  try {
    writeReportFile(path, render());
  } catch (err) {
    io.stderr.write(`warning: could not write the ${what} ${path}: ${fsReason(err)}; the exit status is the comparison's${resultsFile ? `, and its results are in ${resultsFile}` : ''}\n`);
  }
}

/** After a signal, reports are still written for this long; later ones are skipped with a line (S11). */
export const REPORT_GRACE_MS = 1500;

/**
 * Writes the reports and prints the table. Between two reports the event loop turns, so that a
 * signal is seen; once `late()` says the time after a signal is up, the reports left are skipped.
 * `failOn` is the gate the exit status was decided by: each report says what it made of the
 * verdict (report/model.ts, results/gate.ts), as the exit status does.
 */
export async function emit(io: Io, results: Results, spec: { json: boolean; markdown: string | null; html: string | null; out?: string | null; failOn: FailOn }, replay: ReplaySource, late: () => boolean = () => false): Promise<void> {
  const { failOn } = spec;
  const noise = results.kind === 'noise';
  const resultsFile = spec.out ?? null;
  const turn = async (what: string): Promise<boolean> => {
    await new Promise((resolve) => setImmediate(resolve));
    if (!late()) return true;
    io.stderr.write(`pairbench: interrupted: the ${what} was not written; the results file ${resultsFile ?? ''} holds everything (pairbench report renders it)\n`);
    return false;
  };
  if (spec.markdown && (await turn('Markdown report'))) writeReport(io, 'Markdown report', spec.markdown, () => (noise ? renderNoiseMarkdown(results) : renderMarkdown(results, { replay, failOn })), resultsFile);
  if (spec.html && (await turn('HTML report'))) writeReport(io, 'HTML report', spec.html, () => renderHtml(results, { replay, failOn }), resultsFile);
  if (!(await turn('table'))) return;
  if (spec.json) for (const piece of resultsText(results)) io.stdout.write(piece);
  else if (noise) io.stdout.write(`${renderNoiseText(results)}\n`);
  else io.stdout.write(`${renderTerminal(results, { color: io.stdout.isTTY === true && !io.env.NO_COLOR, failOn })}\n`);
}
