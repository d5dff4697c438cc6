/**
 * What the workflow reads from the step: its outputs and its status. The status is set as soon as
 * the results are known, so that a slow GitHub API cannot hold it back; an accept label that
 * counts can only relieve it; the failure message comes last, once the label is known.
 */
import * as core from '@actions/core';
import type { FailOn } from '../config/fail-on.ts';
import { decideGate } from '../results/gate.ts';
import { countVerdicts, type Acceptance } from '../report/markdown.ts';
import { reportModel } from '../report/model.ts';
import { failingStepMessage } from '../report/step.ts';
import type { Results } from '../results/schema.ts';
import type { ActionSettings } from './inputs.ts';

/** The outputs but `comment-url` and `check-url`, which publishing sets (publish.ts). */
export function setOutputs(results: Results, settings: ActionSettings): void {
  const counts = countVerdicts(results);
  core.setOutput('verdict', results.verdict ?? '');
  core.setOutput('regressions', String(counts.regression));
  core.setOutput('improvements', String(counts.improvement));
  // every benchmark left undecided, a failed one included (it cannot pass the gate), counted once
  // with its extra metrics as the comment counts it (report/model.ts)
  core.setOutput('inconclusive', String(counts.inconclusive + counts.failed));
  core.setOutput('results-path', settings.resultsPath);
  core.setOutput('report-path', settings.reportPath);
}

/**
 * The step's status as it stands, the command line's exit statuses (0, 1 for the gate, 3 for a
 * comparison that could not be completed, 130 interrupted), so a log and a script read the same code
 * either way; its message comes at the end, once the label is known.
 */
export function setStatus(exitCode: number): void {
  process.exitCode = exitCode;
}

/** The exit status once the label is known: the label accepts a regression only, so an inconclusive gate (fail-on: regression,inconclusive) still holds. */
export function afterLabel(exitCode: number, results: Results, failOn: FailOn, accepted: Acceptance): number {
  return accepted.accepted && exitCode === 1 ? decideGate(results, failOn, true).exitCode : exitCode;
}

/** The step's failure message, when it fails: one line saying why. */
export function failStep(exitCode: number, results: Results, failOn: FailOn, accepted: Acceptance | null): void {
  if (exitCode === 130) core.setFailed('pairbench was interrupted; the results measured so far are in the results file and the job summary.');
  else if (exitCode === 3) core.setFailed('pairbench could not complete the comparison (a build or a benchmark command failed): see Failures in the job summary.');
  // the regressions, or the undecided benchmarks, counted and sized as the comment counts them (report/step.ts)
  else if (exitCode === 1) core.setFailed(failingStepMessage(reportModel(results, { failOn, acceptance: accepted })));
  // core.setFailed sets exit status 1 whatever the reason: keep the status that says why
  setStatus(exitCode);
}
