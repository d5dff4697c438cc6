/**
 * The action, start to end; each step is a file of this folder:
 *
 * 1. the inputs read and checked, the output paths made (prepare-paths.ts, inputs.ts): a bad one fails
 *    the step with one message before anything runs;
 * 2. the event: what to compare, or nothing to do (context.ts); the API is asked only what the
 *    event does not say (the pull request of a workflow_run or of pr-number, a push's parent);
 * 3. the results: measured on this runner, then `bisect: true`'s search after a regression, whose
 *    sections the reports show (measure.ts); or in report mode, read from result files as
 *    untrusted data (report-mode.ts). Either way the results file is written;
 * 4. everything the user needs, with no GitHub API call: the results table in the log (log.ts),
 *    the HTML report, the report file and the job summary (summary.ts), the outputs and the
 *    step's status (outputs.ts);
 * 5. the optional GitHub API work (publish.ts): the accept label, which can only relieve the gate
 *    (then the summary and the status are written again), the sticky comment and the check run;
 * 6. the step's failure message, once the label is known (outputs.ts).
 *
 * Step 4 comes before step 5 so that a slow or dead GitHub API cannot hold back any of it.
 * Publishing never changes the verdict: a label, comment or check run that cannot be read or
 * written is a warning (S5, S9). Every failure ends as `core.setFailed` with one message, never an
 * uncaught stack trace.
 */
import * as core from '@actions/core';
import { PairbenchError } from '../config/errors.ts';
import { EventError } from '../github/events.ts';
import { readEvent, runUrl, type RunEvent } from './context.ts';
import { logTable, warnOnce } from './log.ts';
import { measure } from './measure.ts';
import type { Outcome } from './outcome.ts';
import { afterLabel, failStep, setOutputs, setStatus } from './outputs.ts';
import type { GitHubApi } from '../github/octokit.ts';
import type { ActionSettings } from './inputs.ts';
import { connect, prepare, type Prepared } from './prepare-paths.ts';
import { acceptLabel, publishReport } from './publish.ts';
import { readResultFiles } from './report-mode.ts';
import { rewriteSummary, writeReports } from './summary.ts';
import { ignoredLine, trustedSettings } from './trusted-judging.ts';

/** Runs the action. */
export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let prepared: Prepared;
  try {
    prepared = prepare(env);
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
    return;
  }
  let { settings } = prepared;
  const api = connect(prepared);
  const url = runUrl(env);

  let event: RunEvent;
  let outcome: Outcome;
  try {
    event = await readEvent(settings, env, api);
    if (event.target.skip) {
      core.info(`Nothing to do: ${event.target.skip}.`);
      return;
    }
    // S26: in compare mode the judging settings come from the base commit's config and the inputs
    settings = await trustedSettings(settings, event.target, (l) => core.info(l));
    if (settings.configIgnored.length > 0) core.warning(ignoredLine(settings.configIgnored, settings.specSource?.config?.path ?? 'config'));
    outcome = settings.mode === 'report' ? await readResultFiles(settings, event.target) : await measure(settings, event.target, env);
  } catch (err) {
    if (err instanceof PairbenchError || err instanceof EventError) core.setFailed(err.message);
    else core.setFailed(`pairbench failed: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  await reportOutcome(outcome, settings, event, api, env, url);
}

/**
 * Steps 4 to 6, inside the action's one error path: a report that cannot be rendered (whatever
 * the results hold) fails the step with one line, never an uncaught stack trace; the results file
 * is already written, so nothing measured is lost. Exported for tests/action/render-errors.test.ts,
 * which calls it in a child process.
 * @public
 */
export async function reportOutcome(outcome: Outcome, settings: ActionSettings, event: RunEvent, api: GitHubApi | null, env: NodeJS.ProcessEnv, url: string | undefined): Promise<void> {
  try {
    const { results } = outcome;
    const warn = warnOnce();
    if (results.kind !== 'noise') logTable(results);
    await writeReports(outcome, settings, env, url, warn);
    setOutputs(results, settings);
    setStatus(outcome.exitCode);

    const accepted = await acceptLabel(api, settings, event.target, event.payload, env, warn);
    let exitCode = outcome.exitCode;
    if (accepted && results.kind !== 'noise') {
      exitCode = afterLabel(exitCode, results, settings.failOn, accepted);
      setStatus(exitCode);
      await rewriteSummary(outcome, settings, env, url, warn, accepted);
    }
    await publishReport(api, settings, event.target, outcome, url, env, accepted, warn);

    failStep(exitCode, results, settings.failOn, accepted);
  } catch (err) {
    const why = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).replace(/\s*[\r\n]+\s*/g, ' ').slice(0, 300);
    core.setFailed(`pairbench could not write its report (${why}); the results file ${settings.resultsPath} holds everything measured.`);
  }
}

/**
 * The name `@github/local-action` calls: `npx @github/local-action run . src/action/steps.ts .env`.
 * @public
 */
export const run = (): Promise<void> => runAction(process.env);
