/**
 * The benchmarks a comparison left out (changed-only: nothing under their paths changed), as every
 * report lists them: never dropped in silence. Pure; names are escaped for each medium (S6, S21).
 */
import type { Results } from '../results/schema.ts';
import { escapeHtml } from './html-plots.ts';
import { escapeInline, markerFor, oneLine } from './escape.ts';

/** Names listed at most; the rest are counted (the results file holds them all). */
const LISTED = 50;

type NotRun = NonNullable<Results['notRun']>;

/** The reasons and their benchmarks, in the file's order. */
function byReason(notRun: NotRun): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of notRun) out.set(n.why, [...(out.get(n.why) ?? []), n.name]);
  return out;
}

function listed(names: string[], show: (n: string) => string): string {
  const shown = names.slice(0, LISTED).map(show).join(', ');
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}

/** Whether the comparison measured nothing because no benchmark's paths changed. */
export function nothingMeasured(results: Pick<Results, 'benchmarks' | 'notRun'>): boolean {
  return results.benchmarks.length === 0 && (results.notRun?.length ?? 0) > 0;
}

/** The comment's section: `**Not run** (nothing under its paths changed): a, b`. */
export function notRunMarkdown(results: Pick<Results, 'notRun'>): string {
  const notRun = results.notRun ?? [];
  return [...byReason(notRun)].map(([why, names]) => `⏭️ **Not run: ${escapeInline(why, 200)}** (${names.length}): ${listed(names, (n) => escapeInline(n, 120))}`).join('\n\n');
}

/** The whole comment when nothing was measured: one line, and the check passes. */
export function nothingMeasuredMarkdown(results: Pick<Results, 'notRun'>, commentId?: string): string {
  const n = results.notRun?.length ?? 0;
  const marker = commentId !== undefined ? `${markerFor(commentId)}\n` : '';
  return `${marker}### ⏭️ Nothing measured: no changed file is under a benchmark's paths\n\n${notRunMarkdown(results).replace(/^⏭️ /, '')}\n\n<sub>${n} benchmark${n === 1 ? '' : 's'} not run (changed-only); the check passes.</sub>\n`;
}

/** The terminal's lines. */
export function notRunText(results: Pick<Results, 'notRun'>): string[] {
  return [...byReason(results.notRun ?? [])].map(([why, names]) => `not run: ${oneLine(why)} (${names.length}): ${listed(names, (n) => oneLine(n).slice(0, 120))}`);
}

/** The HTML report's section. */
export function notRunHtml(results: Pick<Results, 'notRun'>): string {
  const groups = [...byReason(results.notRun ?? [])];
  if (groups.length === 0) return '';
  return `<h2>Not run</h2>${groups.map(([why, names]) => `<p>${escapeHtml(why)} (${names.length}): ${listed(names, (n) => `<code>${escapeHtml(n.slice(0, 120))}</code>`)}</p>`).join('')}`;
}
