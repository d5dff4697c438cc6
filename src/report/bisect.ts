/**
 * The report of a bisect (bisect/run.ts): which commit regresses the benchmark, its interval
 * against the base, the commits skipped or left unseparated, and every step. Pure: the result in,
 * text out. Commit subjects come from the repository and are escaped (S6).
 */
import type { BisectResult, BisectStep } from '../results/bisect.ts';
import { escapeInline, oneLine } from './escape.ts';
import { formatChange, formatChangeInterval, formatDuration, formatLevel } from './format.ts';

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
      const why = c.why === 'build-failed' ? 'some could not be built' : c.why === 'undecided' ? 'a step could not decide within its budget' : 'the planned tests were used up';
      return `The first regressing commit is one of ${c.candidates.map(commit).join(', ')}, which the search could not separate: ${why}.`;
    }
  }
}

function outcomeWords(step: BisectStep): string {
  switch (step.outcome) {
    case 'regressed':
      return step.fromComparison ? "regression (the comparison's)" : 'regression';
    case 'not-regressed':
      return step.verdict ?? 'unchanged';
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

export function renderBisectMarkdown(result: BisectResult): string {
  const code = (s: string) => `\`${s}\``;
  const text = (s: string) => escapeInline(s, 200);
  const lines = [`### Bisect of ${escapeInline(result.benchmark, 200)}`, '', finding(result, code, text), ''];
  const skipped = result.steps.filter((s) => s.outcome === 'build-failed');
  if (skipped.length > 0) lines.push(`Skipped (could not be built): ${skipped.map((s) => `${code(short(s.sha))} (${s.index}/${result.commits.length})`).join(', ')}.`, '');
  lines.push('| Step | Commit | Against the base | Pairs |', '| ---: | --- | --- | ---: |');
  result.steps.forEach((s, i) => {
    const m = s.change ? ` ${formatChange(s.change.estimate)} ${formatChangeInterval(s.change.ci)}` : '';
    lines.push(`| ${i + 1} | ${code(short(s.sha))} ${s.index}/${result.commits.length} ${text(s.subject)} | ${outcomeWords(s)}${m} | ${s.pairs} |`);
  });
  lines.push('', guarantee(result));
  return `${lines.join('\n')}\n`;
}

export function renderBisectText(result: BisectResult): string {
  const plain = (s: string) => oneLine(s).slice(0, 200);
  const lines = [`Bisect of ${plain(result.benchmark)}: ${finding(result, (s) => s, plain)}`, ''];
  result.steps.forEach((s, i) => {
    const m = s.change ? ` ${formatChange(s.change.estimate)} ${formatChangeInterval(s.change.ci)}` : '';
    lines.push(`  ${String(i + 1).padStart(2)}. ${short(s.sha)} ${String(s.index).padStart(3)}/${result.commits.length} ${outcomeWords(s)}${m}, ${s.pairs} pairs  ${plain(s.subject)}`);
  });
  lines.push('', guarantee(result));
  return lines.join('\n');
}
