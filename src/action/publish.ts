/**
 * The optional GitHub API work, after everything the user needs is written: whether the accept
 * label counts, then the sticky comment and the check run. Publishing never changes the verdict:
 * what cannot be looked up or written is a warning (S5, S9).
 */
import * as core from '@actions/core';
import { basename } from 'node:path';
import { publishCheckRun } from '../github/check.ts';
import { upsertComment } from '../github/post-comment.ts';
import type { Target } from '../github/events.ts';
import { acceptance, DEFAULT_ACCEPT_LABEL } from '../github/labels.ts';
import type { GitHubApi } from '../github/octokit.ts';
import { redactOutput } from '../measure/secrets.ts';
import { markerFor } from '../report/escape.ts';
import type { MarkdownContext } from '../report/comment.ts';
import { countVerdicts, renderMarkdown, type Acceptance } from '../report/markdown.ts';
import { repoOf } from './context.ts';
import type { ActionSettings } from './inputs.ts';
import type { Outcome } from './outcome.ts';
import { bisectFiles, configIgnoredOf, withAppendix } from './summary.ts';

/** The comment's body in at most `maxBytes`: the report, then the bisect's sections. */
export function renderComment({ results, appendix }: Pick<Outcome, 'results' | 'appendix'>, settings: Pick<ActionSettings, 'commentId' | 'resultsPath'>, common: Omit<MarkdownContext, 'maxLength' | 'commentId'>, maxBytes: number): string {
  const where = `Every step is in the job summary, and in each search's summary file beside the results file (${bisectFiles(settings.resultsPath)}).`;
  return redactOutput(withAppendix((maxLength) => renderMarkdown(results, { ...common, commentId: settings.commentId, maxLength }), appendix, maxBytes, where));
}

/** Whether the accept label is on the pull request and counts; null when there is none to weigh, or it cannot be checked (a warning). */
export async function acceptLabel(api: GitHubApi | null, settings: ActionSettings, target: Target, payload: unknown, env: NodeJS.ProcessEnv, warn: (m: string) => void): Promise<Acceptance | null> {
  try {
    return await lookUpLabel(api, settings, target, payload, env);
  } catch (err) {
    warn(`Could not check the accept label: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

/** The accept label as github/labels.ts weighs it. */
async function lookUpLabel(api: GitHubApi | null, settings: ActionSettings, target: Target, payload: unknown, env: NodeJS.ProcessEnv): Promise<Acceptance | null> {
  const raw = env['INPUT_ACCEPT-LABEL'];
  const label = raw === undefined ? DEFAULT_ACCEPT_LABEL : raw.trim();
  if (label === '' || !target.pull || settings.mode === 'noise') return null;
  const a = await acceptance(api, { ...repoOf(env), pull: target.pull.number, label, payload, event: target.event, headSha: target.pull.headSha });
  if (a?.accepted) core.notice(`The label "${label}" was added by ${a.by}, who can write to this repository: a regression does not fail this step.`);
  else if (a) core.warning(`The label "${label}" is ignored: ${a.reason ?? 'it cannot be checked'}.`);
  return a;
}

/** Where the report was published: the outputs `comment-url` and `check-url` ('' when not). */
interface Published {
  commentUrl: string;
  checkUrl: string;
}

/** The comment and the check run, then the outputs `comment-url` and `check-url`. */
export async function publishReport(api: GitHubApi | null, settings: ActionSettings, target: Target, outcome: Outcome, url: string | undefined, env: NodeJS.ProcessEnv, accepted: Acceptance | null, warn: (m: string) => void): Promise<void> {
  // Filled in as each is written, so that a failure of the other still leaves this one's URL.
  const published: Published = { commentUrl: '', checkUrl: '' };
  try {
    await publish(api, settings, target, outcome, url, env, accepted, warn, published);
  } catch (err) {
    warn(`Could not publish to the pull request: ${err instanceof Error ? err.message : String(err)}. The results, the job summary and the verdict are not affected.`);
  }
  core.setOutput('comment-url', published.commentUrl);
  core.setOutput('check-url', published.checkUrl);
}

async function publish(api: GitHubApi | null, settings: ActionSettings, target: Target, { results, replay, appendix }: Outcome, url: string | undefined, env: NodeJS.ProcessEnv, accepted: Acceptance | null, warn: (m: string) => void, published: Published): Promise<void> {
  const repo = repoOf(env);
  const marker = markerFor(settings.commentId);
  const hint = `Every pair, the plots of each benchmark and the diagnostics are in the job summary and in the artifact with the results file and its HTML report (${basename(settings.htmlPath)}).`;
  const common = { fullReportHint: hint, replay, acceptance: accepted, failOn: settings.failOn, ...configIgnoredOf(settings), ...(url ? { runUrl: url } : {}) };
  if (settings.comment === 'never') core.info('comment: never, so no pull request comment.');
  else if (!target.pull && target.event === 'merge_group') core.info('merge_group: there is no single pull request to comment on; the report is in the check run and the job summary.');
  else if (!target.pull) core.info('No pull request for this event: the report is in the job summary only.');
  else if (!api) warn('No github-token: the pull request comment is skipped.');
  else {
    const c = countVerdicts(results);
    const outcome = await upsertComment(api, {
      ...repo,
      issueNumber: target.pull.number,
      marker,
      mode: settings.comment,
      changed: c.regression + c.improvement + c.inconclusive + c.failed + c.added + c.removed > 0 || results.status !== 'complete',
      render: (maxBytes) => renderComment({ results, appendix }, settings, common, maxBytes),
      log: (l) => core.info(l),
    });
    if (outcome.action === 'forbidden' || outcome.action === 'failed') warn(outcome.detail);
    else core.info(`Pull request #${target.pull.number}: comment ${outcome.action}${outcome.url ? ` (${outcome.url})` : ''}.`);
    published.commentUrl = outcome.url ?? '';
  }
  if (settings.checkName) {
    if (!api) warn('No github-token: the check run is skipped.');
    else if (!target.checkSha) core.info('No commit to attach a check run to: skipped.');
    else {
      const outcome = await publishCheckRun(api, {
        ...repo,
        name: settings.checkName,
        headSha: target.checkSha,
        results,
        failOn: settings.failOn,
        acceptance: accepted,
        render: (maxBytes) => redactOutput(renderMarkdown(results, { ...common, maxLength: maxBytes })),
        ...(url ? { detailsUrl: url } : {}),
        log: (l) => core.info(l),
      });
      if (outcome.action !== 'created') warn(outcome.detail);
      else core.info(`Check run "${settings.checkName}": ${outcome.conclusion}${outcome.url ? ` (${outcome.url})` : ''}.`);
      published.checkUrl = outcome.url ?? '';
    }
  }
}
