/**
 * The report on the runner: the HTML report beside the results file, and the Markdown report file
 * with the job summary's text. The bisect's sections come after the report, their bytes kept out
 * of its size limit. Each file is written whole or not at all (results/atomic.ts); one that cannot
 * be written is a warning, never the step's status. Everything shown is redacted once more as a
 * whole (S4): `***` is shorter than any secret, so the size limits still hold.
 */
import * as core from '@actions/core';
import { basename } from 'node:path';
import { redactOutput } from '../measure/secrets.ts';
import { hardCut } from '../report/budget.ts';
import { utf8Bytes } from '../report/escape.ts';
import { renderHtml } from '../report/html.ts';
import { REPORT_LIMITS, renderMarkdown, type Acceptance } from '../report/markdown.ts';
import { renderNoiseMarkdown } from '../report/noise-report.ts';
import { writeReportFile } from '../results/atomic.ts';
import type { ActionSettings } from './inputs.ts';
import type { Outcome } from './outcome.ts';

/** The HTML report, the report file and the job summary, before the accept label is known. */
export async function writeReports(outcome: Outcome, settings: ActionSettings, env: NodeJS.ProcessEnv, url: string | undefined, warn: (m: string) => void): Promise<void> {
  const { results, replay } = outcome;
  if (results.kind !== 'noise') writeReport(settings.htmlPath, () => redactOutput(renderHtml(results, { replay, ...(url ? { runUrl: url } : {}) })), warn, `HTML report: ${settings.htmlPath}`);
  const summary = renderSummary(outcome, settings, url, null);
  writeReport(settings.reportPath, () => summary, warn);
  await writeSummary(summary, env);
}

/** The report file and the job summary again, in place of the first, saying who added the accept label and whether it counts. */
export async function rewriteSummary(outcome: Outcome, settings: ActionSettings, env: NodeJS.ProcessEnv, url: string | undefined, warn: (m: string) => void, accepted: Acceptance): Promise<void> {
  const summary = renderSummary(outcome, settings, url, accepted);
  writeReport(settings.reportPath, () => summary, warn);
  await writeSummary(summary, env, { replace: true });
}

/** The bisect's sections take at most this share of a report's size limit: the report comes first and keeps the rest. */
const APPENDIX_SHARE = 0.5;

/**
 * The report with the bisect's sections after it, in at most `limit` UTF-8 bytes (GitHub's limit
 * for the surface, REPORT_LIMITS). The sections take what they need up to half the limit; past it
 * they are cut at a line, with a note saying where every step is (`where`). The report is rendered
 * within what is left, with its own cut and note (report/comment.ts); anything still over the
 * limit is cut last, so GitHub never refuses the whole.
 */
export function withAppendix(render: (maxLength: number) => string, appendix: string, limit: number, where: string): string {
  const room = Math.floor(limit * APPENDIX_SHARE);
  const sections = appendix === '' || utf8Bytes(appendix) <= room ? appendix : hardCut(appendix, room, `\n\n✂️ *The bisect's sections are cut to fit GitHub's size limit.* ${where}\n`);
  const report = render(limit - (sections === '' ? 0 : utf8Bytes(sections) + 2));
  const text = sections === '' ? report : `${report.trimEnd()}\n\n${sections}`;
  return utf8Bytes(text) > limit ? hardCut(text, limit) : text;
}

/** The name of a bisect's summary file beside the results file (action/bisect-step.ts), for the notes that point to it. */
export function bisectFiles(resultsPath: string): string {
  return `${basename(resultsPath).replace(/\.json$/i, '')}.bisect-<n>.json`;
}

export function renderSummary({ results, replay, appendix }: Outcome, settings: Pick<ActionSettings, 'failOn' | 'resultsPath' | 'htmlPath' | 'specSource' | 'configIgnored'>, url: string | undefined, acceptance: Acceptance | null): string {
  if (results.kind === 'noise') return redactOutput(withAppendix(() => renderNoiseMarkdown(results), '', REPORT_LIMITS.jobSummary, ''));
  const where = `Every step of each search is in its summary file beside the results file (${bisectFiles(settings.resultsPath)}), with each step's own results file.`;
  return redactOutput(
    withAppendix(
      (maxLength) =>
        renderMarkdown(results, {
          maxLength,
          pairs: true,
          replay,
          acceptance,
          failOn: settings.failOn,
          ...configIgnoredOf(settings),
          fullReportHint: `The results file (${basename(settings.resultsPath)}) and the HTML report with every plot (${basename(settings.htmlPath)}) are written beside each other; upload them as an artifact to keep them.`,
          ...(url ? { runUrl: url } : {}),
        }),
      appendix,
      REPORT_LIMITS.jobSummary,
      where,
    ),
  );
}

/** The note of the judging keys the head's config changed (trusted-judging.ts), for the report model. */
export function configIgnoredOf(settings: Pick<ActionSettings, 'specSource' | 'configIgnored'>): { configIgnored?: { keys: string[]; path: string } } {
  const path = settings.specSource?.config?.path;
  return settings.configIgnored.length > 0 && path ? { configIgnored: { keys: settings.configIgnored, path } } : {};
}

function writeReport(path: string, render: () => string, warn: (m: string) => void, done?: string): void {
  try {
    writeReportFile(path, render());
    if (done) core.info(done);
  } catch (err) {
    warn(`Could not write ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Writes the job summary; `replace`: in place of the one this step wrote before (the step's summary file is its own). */
async function writeSummary(markdown: string, env: NodeJS.ProcessEnv, opts: { replace?: boolean } = {}): Promise<void> {
  if (!env['GITHUB_STEP_SUMMARY']) {
    if (!opts.replace) core.info('No GITHUB_STEP_SUMMARY: the job summary is skipped.');
    return;
  }
  try {
    await core.summary.emptyBuffer().addRaw(markdown, true).write({ overwrite: opts.replace === true });
  } catch (err) {
    core.warning(`Could not write the job summary: ${err instanceof Error ? err.message : String(err)}`);
  }
}
