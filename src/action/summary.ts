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
import { utf8Bytes } from '../report/escape.ts';
import { renderHtml } from '../report/html.ts';
import { REPORT_LIMITS, renderMarkdown, type Acceptance } from '../report/markdown.ts';
import { renderNoiseMarkdown } from '../report/noise.ts';
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

/** The report with the bisect's sections after it (their bytes are kept out of the report's limit). */
export function withAppendix(report: string, appendix: string): string {
  return appendix === '' ? report : `${report.trimEnd()}\n\n${appendix}`;
}

export function appendixBytes(appendix: string): number {
  return appendix === '' ? 0 : utf8Bytes(appendix) + 2;
}

function renderSummary({ results, replay, appendix }: Outcome, settings: ActionSettings, url: string | undefined, acceptance: Acceptance | null): string {
  return redactOutput(
    results.kind === 'noise'
      ? renderNoiseMarkdown(results)
      : withAppendix(renderMarkdown(results, {
          maxLength: REPORT_LIMITS.jobSummary - appendixBytes(appendix),
          pairs: true,
          replay,
          acceptance,
          failOn: settings.failOn,
          ...configIgnoredOf(settings),
          fullReportHint: `The results file (${basename(settings.resultsPath)}) and the HTML report with every plot (${basename(settings.htmlPath)}) are written beside each other; upload them as an artifact to keep them.`,
          ...(url ? { runUrl: url } : {}),
        }), appendix),
  );
}

/** The note of the judging keys the head's config changed (trusted-judging.ts), for the report model. */
export function configIgnoredOf(settings: ActionSettings): { configIgnored?: { keys: string[]; path: string } } {
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
