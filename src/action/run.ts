/**
 * The action, start to end: inputs -> event -> engine (or result files in report mode) -> job
 * summary, outputs, sticky comment, check run -> the step's status.
 *
 * Publishing never changes the verdict: a comment or check run that cannot be written is a
 * warning (S5, S9), and the results file and the job summary are written first.
 */
import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { glob } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { PairbenchError, UsageError } from '../config/errors.ts';
import { gateAfterAcceptance, gateFails, type FailOn } from '../config/fail-on.ts';
import { runCompare } from '../engine.ts';
import { runNoise } from '../noise.ts';
import { renderNoiseMarkdown } from '../report/noise.ts';
import { publishCheckRun } from '../github/check.ts';
import { upsertComment } from '../github/comment.ts';
import { EventError, resolveEvent, type Target } from '../github/events.ts';
import { createClient, deadlinesFromEnv, type GitHubApi } from '../github/octokit.ts';
import { markerFor } from '../report/escape.ts';
import { REPORT_LIMITS, commandsOf, countVerdicts, renderMarkdown, type Acceptance, type ReplaySource } from '../report/markdown.ts';
import { renderHtml } from '../report/html.ts';
import { reportModel } from '../report/model.ts';
import { failingStepMessage } from '../report/step.ts';
import { ProgressPrinter, pacedProgress } from '../report/progress.ts';
import { renderTerminal } from '../report/terminal.ts';
import { acceptance, DEFAULT_ACCEPT_LABEL } from '../github/labels.ts';
import type { Progress } from '../schedule/loop.ts';
import { mergeResults } from '../results/merge.ts';
import { rejudge, type Rejudged } from '../results/rejudge.ts';
import { readResultsFile } from '../results/read.ts';
import { writeReportFile } from '../results/atomic.ts';
import { prepareOutputFolder } from '../results/writer.ts';
import type { Results } from '../results/schema.ts';
import { addSecret, redactOutput } from '../measure/secrets.ts';
import { writeResultsFile } from '../results/writer.ts';
import { actionNaming } from '../config/spec.ts';
import { commandEnv, envInputReader, readSettings, type ActionSettings } from './inputs.ts';
import { bisectRegressions } from './bisect.ts';
import { actionBuildCache } from './build-cache.ts';
import { utf8Bytes } from '../report/escape.ts';
import { onInterrupt } from '../interrupt.ts';

/** At most this many result files are merged in report mode. */
const MAX_RESULT_FILES = 256;

/**
 * Prints untrusted text (what the PR's build and benchmarks printed, benchmark names, artifact file
 * names) to the step log so that the runner executes no workflow command in it (S21): between
 * `::stop-commands::<token>` and `::<token>::`, with a fresh random token that the text, written
 * before the token existed, does not contain.
 */
export function infoUntrusted(text: string): void {
  // Without `::` or `##[` no line of the text parses as a command (actions/runner ActionCommand):
  // print it plainly, so the log is not doubled with stop and resume lines.
  if (!text.includes('::') && !text.includes('##[')) {
    core.info(text);
    return;
  }
  commandsOff(text);
}

/**
 * Prints text with workflow commands (`::error::`, `::add-mask::`) switched off for its duration,
 * with a token nobody can guess that the text does not hold.
 */
function commandsOff(text: string): void {
  let token = randomBytes(16).toString('hex');
  while (text.toLowerCase().includes(token)) token = randomBytes(16).toString('hex');
  core.info(`::stop-commands::${token}`);
  core.info(text);
  core.info(`::${token}::`);
}

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

/**
 * Report mode: the result files matching the glob(s), read as untrusted data, merged and judged
 * again with this step's inputs only: nothing recorded in them decides the verdict or the step's
 * status (results/rejudge.ts, S23).
 */
async function loadResults(settings: ActionSettings): Promise<Rejudged & { files: string[] }> {
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
  return { ...rejudge(merged, { trustRecorded: false, given: settings.judge, failOn: settings.failOn, naming: actionNaming }), files: names };
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

/**
 * S4: command output in a results file read in report mode was written elsewhere (an artifact, an
 * older version): its failure tails are redacted again before anything shows them. What this
 * action measures itself is redacted when captured.
 */
function redactFailures(results: Results): Results {
  const tail = <T extends { stderrTail?: string | undefined; message?: string | undefined }>(f: T): T => ({
    ...f,
    ...(f.stderrTail !== undefined ? { stderrTail: redactOutput(f.stderrTail) } : {}),
    ...(f.message !== undefined ? { message: redactOutput(f.message) } : {}),
  });
  return {
    ...results,
    ...(results.failures ? { failures: results.failures.map(tail) } : {}),
    benchmarks: results.benchmarks.map((b) => (b.failure ? { ...b, failure: tail(b.failure) } : b)),
  };
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

/** Warnings of one step, each printed once (a 403 on the comment and on the check run share their advice). */
function warnOnce(): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    if (seen.has(message)) return;
    seen.add(message);
    core.warning(message);
  };
}

/**
 * A progress line in the step log every ten seconds while measuring (the first one at once), and
 * every minute the undecided benchmarks, each with the pairs it needs and whether they fit the
 * budget, folded in a group.
 */
function stepProgress(maxPairs: number): (p: Progress) => void {
  // benchmark names come from the code under test: printed with workflow commands off (S21)
  return pacedProgress(maxPairs, {
    line: (text) => infoUntrusted(text),
    undecided: (p) => {
      core.startGroup(`undecided benchmarks (${(p.undecided ?? []).length}): pairs needed, and whether they fit the budget`);
      infoUntrusted(ProgressPrinter.list(p).join('\n'));
      core.endGroup();
    },
  });
}


/** The terminal table at the end of the step log, folded in a group named by the verdict. */
function logTable(results: Results): void {
  core.startGroup(`pairbench: ${results.verdict ?? 'no verdict'} (the results table)`);
  commandsOff(renderTerminal(results, { color: false }));
  core.endGroup();
}

/** The gate once the accept label is weighed: an accepted label takes regression out of it, nothing else. */
function gateOf(failOn: FailOn, accepted: Acceptance | null): FailOn {
  return gateAfterAcceptance(failOn, accepted?.accepted === true);
}

/** Whether the accept label is on the pull request and counts (github/labels.ts). */
async function acceptLabel(api: GitHubApi | null, settings: ActionSettings, target: Target, payload: unknown, env: NodeJS.ProcessEnv): Promise<Acceptance | null> {
  const raw = env['INPUT_ACCEPT-LABEL'];
  const label = raw === undefined ? DEFAULT_ACCEPT_LABEL : raw.trim();
  if (label === '' || !target.pull || settings.mode === 'noise') return null;
  const a = await acceptance(api, { ...repoOf(env), pull: target.pull.number, label, payload });
  if (a?.accepted) core.notice(`The label "${label}" was added by ${a.by}, who can write to this repository: a regression does not fail this step.`);
  else if (a) core.warning(`The label "${label}" is ignored: ${a.reason ?? 'it cannot be checked'}.`);
  return a;
}

interface ReportExtras {
  replay: ReplaySource;
  acceptance: Acceptance | null;
  /** sections after the report (the bisect's), '' when none */
  appendix: string;
}

/** The report with the bisect's sections after it (their bytes are kept out of the report's limit). */
function withAppendix(report: string, appendix: string): string {
  return appendix === '' ? report : `${report.trimEnd()}\n\n${appendix}`;
}

function appendixBytes(appendix: string): number {
  return appendix === '' ? 0 : utf8Bytes(appendix) + 2;
}

/** Where the report was published: the outputs `comment-url` and `check-url` ('' when not). */
interface Published {
  commentUrl: string;
  checkUrl: string;
}

async function publish(api: GitHubApi | null, settings: ActionSettings, target: Target, results: Results, url: string | undefined, env: NodeJS.ProcessEnv, extras: ReportExtras, warn: (m: string) => void, published: Published): Promise<void> {
  const repo = repoOf(env);
  const marker = markerFor(settings.commentId);
  const hint = `Every pair, the plots of each benchmark and the diagnostics are in the job summary and in the artifact with the results file and its HTML report (${basename(htmlPathOf(settings))}).`;
  const common = { fullReportHint: hint, replay: extras.replay, acceptance: extras.acceptance, failOn: settings.failOn, ...(url ? { runUrl: url } : {}) };
  if (settings.comment === 'never') core.info('comment: never, so no pull request comment.');
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
      render: (maxBytes) => redactOutput(withAppendix(renderMarkdown(results, { ...common, commentId: settings.commentId, maxLength: maxBytes - appendixBytes(extras.appendix) }), extras.appendix)),
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
        failOn: gateOf(settings.failOn, extras.acceptance),
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

/** The HTML report, beside the results file: `pairbench-results.html`. */
function htmlPathOf(settings: ActionSettings): string {
  return `${settings.resultsPath.replace(/\.json$/i, '')}.html`;
}

/** Runs the action. Every failure ends as `core.setFailed` with one message, never an uncaught stack trace. */
export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let settings: ActionSettings;
  let deadlines: ReturnType<typeof deadlinesFromEnv>;
  try {
    settings = readSettings(envInputReader(env), env);
    deadlines = deadlinesFromEnv(env);
    // S16: the output paths are checked (and their folders made) before anything runs.
    prepareOutputFolder('input results-path', settings.resultsPath);
    prepareOutputFolder('input results-path', settings.reportPath, { replaced: false });
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
    return;
  }
  // S4: masked in the runner's log, and redacted from every output pairbench captures and shows.
  if (settings.token) {
    core.setSecret(settings.token);
    addSecret(settings.token);
  }
  // every request has a deadline and the API's time in all is capped (S9): a dead API cannot hold the step
  const api = settings.token ? createClient(settings.token, { log: (l) => core.info(l), ...deadlines }) : null;
  const url = runUrl(env);

  let target: Target;
  let results: Results;
  let exitCode: number;
  let payload: unknown = {};
  let replay: ReplaySource = {};
  // bisect: true: the sections naming the commits that regressed, after the report
  let appendix = '';
  try {
    payload = readPayload(env);
    target = await resolveEvent({
      eventName: env['GITHUB_EVENT_NAME'] ?? '',
      payload,
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
      infoUntrusted(`Read ${loaded.files.length} results file(s): ${loaded.files.join(', ')}`);
      results = redactFailures(loaded.results);
      // the files may come from an untrusted workflow: no command of theirs reaches the replay line (S2)
      replay = { resultsFiles: loaded.files.map((f) => basename(f)) };
      checkResultsMatch(results, target);
      for (const w of loaded.warnings) core.warning(w);
      for (const n of loaded.notes) infoUntrusted(n);
      writeResultsFile(settings.resultsPath, results);
      // 3 for a run that failed, as the command line's report: the step fails then too
      exitCode = loaded.exitCode;
    } else {
      const spec = settings.spec!;
      replay = { commands: commandsOf(spec, envInputReader(env)('config') || null), resultsFiles: [basename(settings.resultsPath)] };
      const head = target.head;
      const base = settings.mode === 'noise' ? head : target.base;
      core.info(settings.mode === 'noise' ? `A/A run of ${head}: the noise floor of this machine.` : `Comparing head ${head} against base ${base ?? 'the merge-base with the default branch'}.`);
      const interrupt = onInterrupt((signal) => core.warning(`${signal}: stopping; the results measured so far are kept.`), { once: true });
      const buildCache = settings.mode === 'compare' ? actionBuildCache(spec, settings, env, (l) => core.info(l)) : undefined;
      try {
        const outcome = await (settings.mode === 'noise' ? runNoise : runCompare)(
          { ...spec, base: { kind: 'git', rev: base }, head: { kind: 'git', rev: head }, out: settings.resultsPath, cwd: settings.workspace },
          { log: (l) => infoUntrusted(l), signal: interrupt.signal, env: commandEnv(env, settings.token), progress: stepProgress(spec.maxPairs), ...(buildCache ? { buildCache } : {}) },
        );
        results = outcome.results;
        exitCode = outcome.exitCode;
        if (settings.bisect && settings.mode === 'compare' && target.pull && results.verdict === 'regression' && exitCode !== 130) {
          const hooks = { log: (l: string) => infoUntrusted(l), signal: interrupt.signal, env: commandEnv(env, settings.token), ...(buildCache ? { buildCache } : {}) };
          const bisected = (await bisectRegressions(spec, results, { maxTimeMs: settings.bisect.maxTimeMs, resultsPath: settings.resultsPath, hooks, warn: (m) => core.warning(m) })).markdown;
          appendix = [appendix, bisected].filter((a) => a !== '').join('\n\n');
        }
      } finally {
        interrupt.dispose();
      }
    }
  } catch (err) {
    if (err instanceof PairbenchError || err instanceof EventError) core.setFailed(err.message);
    else core.setFailed(`pairbench failed: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }

  // The results file is written. Everything else that needs no API comes next (the HTML report,
  // the report file, the job summary, the outputs and the step's status), so that a slow or dead
  // GitHub API, which only the accept label, the comment and the check run need, cannot hold any
  // of it back. The accept label is looked up after, and can only relieve the gate: until it is
  // known the step fails on a regression, and if the label counts, the summary and the status are
  // written again.
  const warn = warnOnce();
  if (results.kind !== 'noise') logTable(results);
  const htmlPath = htmlPathOf(settings);
  // Redacted once more as a whole (S4): `***` is shorter than any secret, so the size limits still hold.
  const renderSummary = (acceptance: Acceptance | null) =>
    redactOutput(
      results.kind === 'noise'
        ? renderNoiseMarkdown(results)
        : withAppendix(renderMarkdown(results, {
            maxLength: REPORT_LIMITS.jobSummary - appendixBytes(appendix),
            pairs: true,
            replay,
            acceptance,
            failOn: settings.failOn,
            fullReportHint: `The results file (${basename(settings.resultsPath)}) and the HTML report with every plot (${basename(htmlPath)}) are written beside each other; upload them as an artifact to keep them.`,
            ...(url ? { runUrl: url } : {}),
          }), appendix),
    );
  // Written whole or not at all (results/atomic.ts); a failure is a warning, never the step's status.
  const writeReport = (path: string, render: () => string, done?: string) => {
    try {
      writeReportFile(path, render());
      if (done) core.info(done);
    } catch (err) {
      warn(`Could not write ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  if (results.kind !== 'noise') writeReport(htmlPath, () => redactOutput(renderHtml(results, { replay, ...(url ? { runUrl: url } : {}) })), `HTML report: ${htmlPath}`);
  let summary = renderSummary(null);
  writeReport(settings.reportPath, () => summary);
  await writeSummary(summary, env);

  const counts = countVerdicts(results);
  core.setOutput('verdict', results.verdict ?? '');
  core.setOutput('regressions', String(counts.regression));
  core.setOutput('improvements', String(counts.improvement));
  // every benchmark left undecided, a failed one included (it cannot pass the gate), counted once
  // with its extra metrics as the comment counts it (report/model.ts)
  core.setOutput('inconclusive', String(counts.inconclusive + counts.failed));
  core.setOutput('results-path', settings.resultsPath);
  core.setOutput('report-path', settings.reportPath);
  // the step's status as it stands; its message comes at the end, once the label is known
  process.exitCode = exitCode === 0 ? 0 : 1;

  let accepted: Acceptance | null = null;
  try {
    accepted = await acceptLabel(api, settings, target, payload, env);
  } catch (err) {
    warn(`Could not check the accept label: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (accepted && results.kind !== 'noise') {
    // the label accepts a regression only: an inconclusive gate (fail-on: regression,inconclusive) still holds
    if (accepted.accepted && exitCode === 1) exitCode = gateFails(gateOf(settings.failOn, accepted), results) ? 1 : 0;
    process.exitCode = exitCode === 0 ? 0 : 1;
    // the summary says who added the label and whether it counts
    summary = renderSummary(accepted);
    writeReport(settings.reportPath, () => summary);
    await writeSummary(summary, env, { replace: true });
  }

  // Filled in as each is written, so that a failure of the other still leaves this one's URL.
  const published: Published = { commentUrl: '', checkUrl: '' };
  try {
    await publish(api, settings, target, results, url, env, { replay, acceptance: accepted, appendix }, warn, published);
  } catch (err) {
    warn(`Could not publish to the pull request: ${err instanceof Error ? err.message : String(err)}. The results, the job summary and the verdict are not affected.`);
  }
  core.setOutput('comment-url', published.commentUrl);
  core.setOutput('check-url', published.checkUrl);

  if (exitCode === 130) core.setFailed('pairbench was interrupted; the results measured so far are in the results file and the job summary.');
  else if (exitCode === 3) core.setFailed('pairbench could not complete the comparison (a build or a benchmark command failed): see Failures in the job summary.');
  // the regressions, or the undecided benchmarks, counted and sized as the comment counts them (report/step.ts)
  else if (exitCode === 1) core.setFailed(failingStepMessage(reportModel(results, { failOn: settings.failOn, acceptance: accepted })));
}

/** The name `@github/local-action` calls: `npx @github/local-action run . src/action/run.ts .env`. */
export const run = (): Promise<void> => runAction(process.env);
