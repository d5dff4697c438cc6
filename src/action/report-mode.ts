/**
 * mode: report, the untrusted-artifact path: the result files matching the `results` glob(s),
 * written by another workflow (the artifact of a pull request's run, a fork's maybe), are read as
 * untrusted data. They are judged again with this step's inputs (S23), must be of the event's
 * head (S2), their failure tails are redacted again (S4), and what they hold reaches the log with
 * workflow commands off (S21).
 */
import * as core from '@actions/core';
import { glob } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { UsageError } from '../config/errors.ts';
import { LIMITS } from '../config/limits.ts';
import { actionNaming } from '../config/spec.ts';
import { EventError, type Target } from '../github/events.ts';
import { redactOutput } from '../measure/secrets.ts';
import { mergeResults } from '../results/merge.ts';
import { readResultsFile } from '../results/read.ts';
import { rejudge, type Rejudged } from '../results/rejudge.ts';
import type { Results } from '../results/schema.ts';
import { writeResultsFile } from '../results/writer.ts';
import type { ActionSettings } from './inputs.ts';
import { infoUntrusted } from './log.ts';
import type { Outcome } from './outcome.ts';

/** At most this many result files are merged in report mode: one per shard, as the command line's report. */
const MAX_RESULT_FILES = LIMITS.shards;

/** The result files read, checked, and written as this step's results file. */
export async function readResultFiles(settings: ActionSettings, target: Target): Promise<Outcome> {
  const loaded = await loadResults(settings);
  infoUntrusted(`Read ${loaded.files.length} results file(s): ${loaded.files.join(', ')}`);
  const results = redactFailures(loaded.results);
  // the files may come from an untrusted workflow: no command of theirs reaches the replay line (S2)
  const replay = { resultsFiles: loaded.files.map((f) => basename(f)) };
  checkResultsMatch(results, target);
  for (const w of loaded.warnings) core.warning(w);
  for (const n of loaded.notes) infoUntrusted(n);
  writeResultsFile(settings.resultsPath, results);
  // 3 for a run that failed, as the command line's report: the step fails then too
  return { results, exitCode: loaded.exitCode, replay, appendix: '' };
}

/**
 * The result files matching the glob(s), read as untrusted data, merged and judged again with
 * this step's inputs only: nothing recorded in them decides the verdict or the step's status
 * (results/rejudge.ts, S23).
 */
async function loadResults(settings: ActionSettings): Promise<Rejudged & { files: string[] }> {
  const patterns = (settings.results ?? '').split(/\r?\n/).map((p) => p.trim()).filter(Boolean);
  const files = new Set<string>();
  for (const pattern of patterns) {
    for await (const f of glob(pattern, { cwd: settings.workspace })) {
      files.add(resolve(settings.workspace, f));
      if (files.size > MAX_RESULT_FILES) throw new UsageError('input results', `input results: more than ${MAX_RESULT_FILES} files match ${JSON.stringify(settings.results)} (one per shard at most); expected the result files of one comparison`);
    }
  }
  const list = [...files].sort();
  if (list.length === 0) throw new UsageError('input results', `input results: no file matches ${JSON.stringify(settings.results)} (from ${settings.workspace}); expected the downloaded results artifact`);
  const names = list.map((f) => relative(settings.workspace, f) || f);
  const parsed = list.map((f) => readResultsFile(f));
  const merged = parsed.length === 1 ? parsed[0]! : mergeResults(parsed, names);
  return { ...rejudge(merged, { trustRecorded: false, given: settings.judge, failOn: settings.failOn, allowNothingCompared: settings.allowNothingCompared, gateMetric: settings.gateMetric, naming: actionNaming }), files: names };
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
