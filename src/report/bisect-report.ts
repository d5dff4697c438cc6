/**
 * The report of a bisect (bisect/find-commit.ts): which commit regresses the benchmark, its interval
 * against the base, the commits skipped or left unseparated, and its steps. Pure: the result in,
 * text out. Commit subjects come from the repository and are escaped (S6).
 *
 * Its size is bounded whatever the range, so that it fits beside the report in a pull request
 * comment (65,536 characters): each subject is cut to SUBJECT_CHARS, a long range of candidates
 * is named by its ends, and the table lists every measured step (at most the search's planned
 * tests) but only the first of the commits that could not be built. The search's summary file
 * keeps every step.
 */
import type { BisectResult, BisectStep } from '../results/bisect-summary.ts';
import { escapeInline } from './escape.ts';
import { formatChange, formatChangeInterval, formatDuration, formatLevel } from './format.ts';
import { PLAIN } from './markup.ts';

/** A commit subject is cut to this many characters (a subject line is 50 to 72 by convention). */
const SUBJECT_CHARS = 72;
/** Candidates named one by one; more are named by the first and the last of their range. */
const CANDIDATES_LISTED = 5;
/** Skipped commits named in the line that lists them, and rows of skipped commits in the table. */
const SKIPPED_LISTED = 10;

function short(sha: string): string {
  return sha.slice(0, 12);
}

function stepOf(result: BisectResult, index: number): BisectStep | undefined {
  return result.steps.findLast((s) => s.index === index);
}

function measured(step: BisectStep | undefined): string {
  if (!step?.change) return '';
  return `${formatChange(step.change.estimate)} ${formatChangeInterval(step.change.ci)}${step.change.level !== undefined ? ` (${formatLevel(step.change.level)} interval)` : ''} against the base`;
}

/** The finding in one sentence, with `code` marking commit ids and `text` the subjects. */
function finding(result: BisectResult, code: (s: string) => string, text: (s: string) => string): string {
  const c = result.conclusion;
  const commit = (k: number) => `${code(short(result.commits[k - 1]!.sha))} (${k}/${result.commits.length} ${text(result.commits[k - 1]!.subject)})`;
  if (result.stoppedBecause === 'base-build-failed') return 'The base could not be built: nothing was searched.';
  if (result.stoppedBecause === 'interrupted') return 'Interrupted: the search stopped before it ended; the steps below were measured.';
  switch (c.kind) {
    case 'no-regression':
      return `The head does not regress ${text(result.benchmark)} against the base (${stepOf(result, result.commits.length)?.verdict ?? 'no verdict'}): nothing to search.`;
    case 'head-undecided': {
      const head = stepOf(result, result.commits.length);
      return head?.outcome === 'build-failed' ? 'The head could not be built: nothing was searched.' : `The head's comparison could not decide whether ${text(result.benchmark)} regresses: nothing was searched. Raise max-time or max-pairs.`;
    }
    case 'found': {
      const m = measured(stepOf(result, c.first));
      const parent = c.first - 1;
      const before = parent === 0 ? 'the base' : `its parent ${code(short(result.commits[parent - 1]!.sha))}`;
      return `First regressing commit: ${commit(c.first)}${m ? `, ${m}` : ''}; ${before} does not regress.`;
    }
    case 'unseparated': {
      const why = c.why === 'build-failed' ? 'some could not be built' : c.why === 'undecided' ? 'a step could not decide within its budget' : c.why === 'out-of-time' ? 'the time budget, builds included, ran out (raise max-time)' : 'the planned tests were used up';
      // the candidates are a range of consecutive commits (search.ts, `conclude`)
      const named = c.candidates.length <= CANDIDATES_LISTED ? c.candidates.map(commit).join(', ') : `the ${c.candidates.length} commits from ${commit(c.candidates[0]!)} to ${commit(c.candidates.at(-1)!)}`;
      return `The first regressing commit is one of ${named}, which the search could not separate: ${why}.`;
    }
  }
}

function outcomeWords(step: BisectStep): string {
  switch (step.outcome) {
    case 'regressed':
      return step.fromComparison ? "regression (the comparison's)" : 'regression';
    case 'not-regressed':
      // an inconclusive interval wholly on the better side of the threshold (bisect/search.ts, `stepOutcomeOf`)
      return step.verdict === 'inconclusive' ? 'no regression beyond the threshold (inconclusive)' : (step.verdict ?? 'unchanged');
    case 'undecided':
      return step.note ?? 'could not decide';
    case 'build-failed':
      return 'could not be built: skipped';
  }
}

function guarantee(result: BisectResult): string {
  if (result.headFromComparison) {
    return `The head's regression is the comparison's own verdict (step 1, not measured again). Each further step compares a commit with the base by the same paired test, on new pairs, at alpha ${Number(result.alphaPerTest.toPrecision(3))} (${result.alpha} / ${result.maxTests} tests at most, Bonferroni), with ${formatDuration(result.stepBudgetMs)} of the budget: given that regression, the chance that any of these steps' verdicts is wrong is at most ${result.alpha}.`;
  }
  return `Each step compares a commit with the base by the same paired test as the comparison, at alpha ${Number(result.alphaPerTest.toPrecision(3))} (${result.alpha} / ${result.maxTests} tests at most, Bonferroni), with ${formatDuration(result.stepBudgetMs)} of the budget: the chance that any step's verdict is wrong is at most ${result.alpha}.`;
}

/**
 * The steps the table lists, numbered as they ran: every measured one (at most the planned tests),
 * and the first SKIPPED_LISTED of those that could not be built; and how many of these it leaves out.
 */
function listedSteps(result: BisectResult): { steps: { step: BisectStep; number: number }[]; unlisted: number } {
  let skipped = 0;
  const steps = result.steps.map((step, i) => ({ step, number: i + 1 })).filter(({ step }) => step.outcome !== 'build-failed' || ++skipped <= SKIPPED_LISTED);
  return { steps, unlisted: result.steps.length - steps.length };
}

function unlistedNote(unlisted: number): string {
  return `…and ${unlisted} more commits could not be built: every step is in the search's summary file.`;
}

export function renderBisectMarkdown(result: BisectResult): string {
  const code = (s: string) => `\`${s}\``;
  const text = (s: string) => escapeInline(s, SUBJECT_CHARS);
  const lines = [`### Bisect of ${escapeInline(result.benchmark, 200)}`, '', finding(result, code, text), ''];
  const skipped = result.steps.filter((s) => s.outcome === 'build-failed');
  if (skipped.length > 0) {
    const more = skipped.length > SKIPPED_LISTED ? ` and ${skipped.length - SKIPPED_LISTED} more` : '';
    lines.push(`Skipped (could not be built): ${skipped.slice(0, SKIPPED_LISTED).map((s) => `${code(short(s.sha))} (${s.index}/${result.commits.length})`).join(', ')}${more}.`, '');
  }
  lines.push('| Step | Commit | Against the base | Pairs |', '| ---: | --- | --- | ---: |');
  const { steps, unlisted } = listedSteps(result);
  for (const { step: s, number } of steps) {
    const m = s.change ? ` ${formatChange(s.change.estimate)} ${formatChangeInterval(s.change.ci)}` : '';
    lines.push(`| ${number} | ${code(short(s.sha))} ${s.index}/${result.commits.length} ${text(s.subject)} | ${outcomeWords(s)}${m} | ${s.pairs} |`);
  }
  if (unlisted > 0) lines.push('', unlistedNote(unlisted));
  lines.push('', guarantee(result));
  return `${lines.join('\n')}\n`;
}

export function renderBisectText(result: BisectResult): string {
  const plain = (s: string) => PLAIN.text(s, SUBJECT_CHARS);
  const lines = [`Bisect of ${PLAIN.text(result.benchmark, 200)}: ${finding(result, (s) => s, plain)}`, ''];
  const { steps, unlisted } = listedSteps(result);
  for (const { step: s, number } of steps) {
    const m = s.change ? ` ${formatChange(s.change.estimate)} ${formatChangeInterval(s.change.ci)}` : '';
    lines.push(`  ${String(number).padStart(2)}. ${short(s.sha)} ${String(s.index).padStart(3)}/${result.commits.length} ${outcomeWords(s)}${m}, ${s.pairs} pairs  ${plain(s.subject)}`);
  }
  if (unlisted > 0) lines.push(`  ${unlistedNote(unlisted)}`);
  lines.push('', guarantee(result));
  return lines.join('\n');
}

/**
 * The search's summary as JSON for a terminal or a CI log (`--json`): the same JSON, with each `[`
 * after `##` written `\u005b`, so that a commit subject holds no workflow command the runner would
 * execute (`##[error]` anywhere on a line; no string starts a line, so `::error::` cannot). `#`
 * occurs only inside strings, where `\u005b` reads back as `[`.
 */
export function renderBisectJson(result: BisectResult): string {
  return JSON.stringify(result, null, 2).replace(/##\[/g, '##\\u005b');
}
