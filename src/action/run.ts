/**
 * The action, start to end: inputs -> event -> engine (or result files in report mode) -> job
 * summary, outputs, sticky comment, check run -> the step's status.
 *
 * Publishing never changes the verdict: a comment or check run that cannot be written is a
 * warning (S5, S9), and the results file and the job summary are written first.
 */
import * as core from '@actions/core';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { glob } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { UsageError } from '../config/errors.ts';
import { gateFails } from '../config/fail-on.ts';
import { runCompare } from '../engine.ts';
import { runNoise } from '../noise.ts';
import { renderNoiseMarkdown } from '../report/noise.ts';
import { publishCheckRun } from '../github/check.ts';
import { upsertComment } from '../github/comment.ts';
import { EventError, resolveEvent, type Target } from '../github/events.ts';
import { createClient, type GitHubApi } from '../github/octokit.ts';
import { markerFor } from '../report/escape.ts';
import { REPORT_LIMITS, countVerdicts, renderMarkdown } from '../report/markdown.ts';
import { judgeResults } from '../results/judge.ts';
import { mergeResults } from '../results/merge.ts';
import { readResultsFile } from '../results/read.ts';
import type { Results } from '../results/schema.ts';
import { commandEnv, envInputReader, readSettings, type ActionSettings } from './inputs.ts';

/** At most this many result files are merged in report mode. */
const MAX_RESULT_FILES = 256;

function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : undefined;
}

function readPayload(env: NodeJS.ProcessEnv): unknown {
  const path = env['GITHUB_EVENT_PATH'];
  if (!path || !existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new EventError(`GITHUB_EVENT_PATH ${path} is not valid JSON`);
  }
}

function repoOf(env: NodeJS.ProcessEnv): { owner: string; repo: string } {
  const [owner, repo] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  if (!owner || !repo) throw new EventError('GITHUB_REPOSITORY is not set (expected owner/name): is this running in GitHub Actions?');
  return { owner, repo };
}

/** Report mode: the result files matching the glob(s), read as untrusted data, merged and judged again. */
async function loadResults(settings: ActionSettings): Promise<{ results: Results; files: string[] }> {
  const patterns = (settings.results ?? '').split(/\r?\n/).map((p) => p.trim()).filter(Boolean);
  const files = new Set<string>();
  for (const pattern of patterns) {
    for await (const f of glob(pattern, { cwd: settings.workspace })) {
      files.add(resolve(settings.workspace, f));
      if (files.size > MAX_RESULT_FILES) throw new UsageError('input results', `input results: more than ${MAX_RESULT_FILES} files match ${JSON.stringify(settings.results)}; expected the result files of one comparison`);
    }
  }
  const list = [...files].sort();
  if (list.length === 0) throw new UsageError('input results', `input results: no file matches ${JSON.stringify(settings.results)} (from ${settings.workspace}); expected the downloaded results artifact`);
  const names = list.map((f) => relative(settings.workspace, f) || f);
  const parsed = list.map((f) => readResultsFile(f));
  const merged = parsed.length === 1 ? parsed[0]! : mergeResults(parsed, names);
  return { results: judgeResults(merged, settings.judge), files: names };
}

/** S2: results reported on a PR must be of that PR's head, whatever the file claims otherwise. */
function checkResultsMatch(results: Results, target: Target): void {
  const want = target.pull?.headSha ?? (target.event === 'workflow_run' ? target.head : null);
  if (!want) return;
  const got = results.head.sha ?? null;
  if (got !== want) {
    throw new EventError(
      `The results file measured head ${got ? got.slice(0, 12) : '(no commit)'}, but ${target.pull ? `pull request #${target.pull.number}'s head` : "the workflow run's head"} is ${want.slice(0, 12)}: refusing to report results of another commit here.`,
    );
  }
}

async function writeSummary(markdown: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (!env['GITHUB_STEP_SUMMARY']) {
    core.info('No GITHUB_STEP_SUMMARY: the job summary is skipped.');
    return;
  }
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (err) {
    core.warning(`Could not write the job summary: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function publish(api: GitHubApi | null, settings: ActionSettings, target: Target, results: Results, url: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const repo = repoOf(env);
  const marker = markerFor(settings.commentId);
  const hint = 'The full report is in the job summary of the workflow run, and every pair is in the results file.';
  let commentUrl = '';
  if (settings.comment === 'never') core.info('comment: never, so no pull request comment.');
  else if (!target.pull) core.info('No pull request for this event: the report is in the job summary only.');
  else if (!api) core.warning('No github-token: the pull request comment is skipped.');
  else {
    const c = countVerdicts(results);
    const outcome = await upsertComment(api, {
      ...repo,
      issueNumber: target.pull.number,
      marker,
      mode: settings.comment,
      changed: c.regression + c.improvement + c.inconclusive + c.failed + c.added + c.removed > 0 || results.status !== 'complete',
      render: (maxBytes) => renderMarkdown(results, { commentId: settings.commentId, maxLength: maxBytes, fullReportHint: hint, ...(url ? { runUrl: url } : {}) }),
      log: (l) => core.info(l),
    });
    if (outcome.action === 'forbidden' || outcome.action === 'failed') core.warning(outcome.detail);
    else core.info(`Pull request #${target.pull.number}: comment ${outcome.action}${outcome.url ? ` (${outcome.url})` : ''}.`);
    commentUrl = outcome.url ?? '';
  }
  if (settings.checkName) {
    if (!api) core.warning('No github-token: the check run is skipped.');
    else if (!target.checkSha) core.info('No commit to attach a check run to: skipped.');
    else {
      const outcome = await publishCheckRun(api, {
        ...repo,
        name: settings.checkName,
        headSha: target.checkSha,
        results,
        failOn: settings.failOn,
        render: (maxBytes) => renderMarkdown(results, { maxLength: maxBytes, fullReportHint: hint, ...(url ? { runUrl: url } : {}) }),
        ...(url ? { detailsUrl: url } : {}),
        log: (l) => core.info(l),
      });
      if (outcome.action !== 'created') core.warning(outcome.detail);
      else core.info(`Check run "${settings.checkName}": ${outcome.conclusion}.`);
    }
  }
  return commentUrl;
}

/** Runs the action. Every failure ends as `core.setFailed` with one message, never an uncaught stack trace. */
export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let settings: ActionSettings;
  try {
    settings = readSettings(envInputReader(env), env);
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
    return;
  }
  if (settings.token) core.setSecret(settings.token);
  const api = settings.token ? createClient(settings.token, { log: (l) => core.info(l) }) : null;
  const url = runUrl(env);

  let target: Target;
  let results: Results;
  let exitCode: number;
  try {
    target = await resolveEvent({
      eventName: env['GITHUB_EVENT_NAME'] ?? '',
      payload: readPayload(env),
      repo: repoOf(env),
      sha: env['GITHUB_SHA'] ?? null,
      inputs: { mode: settings.mode, prNumber: settings.prNumber, baseRef: settings.baseRef, headRef: settings.headRef, allowPullRequestTarget: settings.allowPullRequestTarget },
      api,
    });
    for (const w of target.warnings) core.warning(w);
    if (target.skip) {
      core.info(`Nothing to do: ${target.skip}.`);
      return;
    }

    if (settings.mode === 'report') {
      const loaded = await loadResults(settings);
      core.info(`Read ${loaded.files.length} results file(s): ${loaded.files.join(', ')}`);
      results = loaded.results;
      checkResultsMatch(results, target);
      mkdirSync(dirname(settings.resultsPath), { recursive: true });
      writeFileSync(settings.resultsPath, `${JSON.stringify(results, null, 2)}\n`);
      exitCode = gateFails(settings.failOn, results) ? 1 : 0;
    } else {
      const spec = settings.spec!;
      const head = target.head;
      const base = settings.mode === 'noise' ? head : target.base;
      core.info(settings.mode === 'noise' ? `A/A run of ${head}: the noise floor of this machine.` : `Comparing head ${head} against base ${base ?? 'the merge-base with the default branch'}.`);
      mkdirSync(dirname(settings.resultsPath), { recursive: true });
      const controller = new AbortController();
      const stop = (signal: string) => {
        core.warning(`${signal}: stopping; the results measured so far are kept.`);
        controller.abort();
      };
      const onInt = () => stop('SIGINT');
      const onTerm = () => stop('SIGTERM');
      process.once('SIGINT', onInt);
      process.once('SIGTERM', onTerm);
      try {
        const outcome = await (settings.mode === 'noise' ? runNoise : runCompare)(
          { ...spec, base: { kind: 'git', rev: base }, head: { kind: 'git', rev: head }, out: settings.resultsPath, cwd: settings.workspace },
          { log: (l) => core.info(l), signal: controller.signal, env: commandEnv(env, settings.token) },
        );
        results = outcome.results;
        exitCode = outcome.exitCode;
      } finally {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      }
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof EventError) core.setFailed(err.message);
    else core.setFailed(`pairbench failed: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }

  // The results file is written; now the report, whatever happens to the comment.
  const summary = results.kind === 'noise' ? renderNoiseMarkdown(results) : renderMarkdown(results, { maxLength: REPORT_LIMITS.jobSummary, fullReportHint: `The full report, with every pair, is in the results file (${settings.resultsPath}); upload it as an artifact to keep it.`, ...(url ? { runUrl: url } : {}) });
  try {
    mkdirSync(dirname(settings.reportPath), { recursive: true });
    writeFileSync(settings.reportPath, summary);
  } catch (err) {
    core.warning(`Could not write ${settings.reportPath}: ${err instanceof Error ? err.message : String(err)}`);
  }
  await writeSummary(summary, env);

  const counts = countVerdicts(results);
  core.setOutput('verdict', results.verdict ?? '');
  core.setOutput('regressions', String(counts.regression));
  core.setOutput('improvements', String(counts.improvement));
  core.setOutput('results-path', settings.resultsPath);
  core.setOutput('report-path', settings.reportPath);

  let commentUrl = '';
  try {
    commentUrl = await publish(api, settings, target, results, url, env);
  } catch (err) {
    core.warning(`Could not publish to the pull request: ${err instanceof Error ? err.message : String(err)}. The results, the job summary and the verdict are not affected.`);
  }
  core.setOutput('comment-url', commentUrl);

  if (exitCode === 130) core.setFailed('pairbench was interrupted; the results measured so far are in the results file and the job summary.');
  else if (exitCode === 3) core.setFailed('pairbench could not complete the comparison (a build or a benchmark command failed): see Failures in the job summary.');
  else if (exitCode === 1) {
    const worst = results.benchmarks.filter((b) => b.verdict === 'regression').map((b) => b.name.slice(0, 80));
    const undecided = results.benchmarks.filter((b) => b.verdict === 'inconclusive').map((b) => b.name.slice(0, 80));
    if (worst.length > 0 && settings.failOn !== 'inconclusive') {
      core.setFailed(`pairbench: ${counts.regression} regression${counts.regression === 1 ? '' : 's'} beyond the threshold (${worst.slice(0, 5).join(', ')}${worst.length > 5 ? ', …' : ''}). Set fail-on: none to report without failing.`);
    } else {
      core.setFailed(`pairbench: ${undecided.length} benchmark${undecided.length === 1 ? '' : 's'} inconclusive (${undecided.slice(0, 5).join(', ')}${undecided.length > 5 ? ', …' : ''}), and fail-on names inconclusive: give it more pairs (max-time, max-pairs) or a quieter runner, or set fail-on: regression.`);
    }
  }
}

/** The name `@github/local-action` calls: `npx @github/local-action run . src/action/run.ts .env`. */
export const run = (): Promise<void> => runAction(process.env);
