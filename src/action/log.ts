/**
 * The step log: text from the code under test printed with workflow commands off (S21), each
 * warning once, a progress line while measuring, and the results table at the end.
 */
import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import { ProgressPrinter, pacedProgress } from '../report/progress.ts';
import { renderTerminal } from '../report/terminal.ts';
import type { Results } from '../results/schema.ts';
import type { Progress } from '../schedule/loop.ts';

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

/** Warnings of one step, each printed once (a 403 on the comment and on the check run share their advice). */
export function warnOnce(): (message: string) => void {
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
export function stepProgress(maxPairs: number): (p: Progress) => void {
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
export function logTable(results: Results): void {
  core.startGroup(`pairbench: ${results.verdict ?? 'no verdict'} (the results table)`);
  commandsOff(renderTerminal(results, { color: false }));
  core.endGroup();
}
