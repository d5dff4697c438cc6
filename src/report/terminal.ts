/**
 * The terminal report: one table row per result, then the verdict counted by benchmark group and
 * the suite's change as every other report says them (the report model, model.ts; words.ts), then
 * what a user needs to act on it (notes, diagnostics, failures, why measuring stopped). Pure:
 * results in, text out.
 */
import { recordedOr } from '../results/recorded.ts';
import type { BenchmarkResult, Results } from '../results/schema.ts';
import type { Verdict } from '../stats/types.ts';
import { oneLine } from './escape.ts';
import { wordShared } from './shared.ts';
import { absoluteChange, changeFromZero, formatChange, formatChangeInterval, formatCv, formatDuration, formatP, formatSpread, formatValue, spreadName } from './format.ts';
import { reportModel, type ModelOptions, type ReportModel } from './model.ts';
import { PLAIN } from './markup.ts';
import { countsText, rowLevelText, summaryText, wordNote, wordRowNote } from './words.ts';
import { notRunText } from './not-run.ts';

export interface TerminalOptions extends ModelOptions {
  color: boolean;
}

/** Notes of one kind (a diagnostic code, a stop reason) shown before the rest are counted. */
const NOTES_PER_KIND = 20;


const COLORS: Record<Verdict, string> = { regression: '31', improvement: '32', unchanged: '2', inconclusive: '33' };

function paint(text: string, code: string, on: boolean): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}

/**
 * Untrusted text (benchmark names, command output) for one line of the terminal or a CI log: on one
 * line, controls shown escaped, never a GitHub Actions workflow command (S21).
 */
export function safeText(text: string): string {
  return oneLine(text);
}

function sideCell(side: BenchmarkResult['base'], unit: string): string {
  return side ? `${formatValue(side.median, unit)} ${formatSpread(side)}` : '—';
}

/** The spread of head/base across pairs: what pairing leaves of the single runs' spread. */
function pairedCell(b: BenchmarkResult): string {
  const v = b.pairedMad ?? b.pairedCv;
  return v !== undefined && Number.isFinite(v) ? formatCv(v) : '—';
}

/** The change with its interval, with one decimal as on every surface (format.ts `formatChange`), and the interval's own level where the header's is not it. */
function changeCell(b: BenchmarkResult, header: string): string {
  const absolute = absoluteChange(b);
  return b.change ? `${formatChange(b.change.estimate)} ${formatChangeInterval(b.change.ci)}${rowLevelText(b, header)}${absolute ? ` (${safeText(absolute)})` : ''}` : (changeFromZero(b) ?? '—');
}

/**
 * The widest the name column gets, in characters. A longer name is folded onto lines of its own
 * below its row (indented), never cut: two names that differ only in the middle stay apart, and
 * the whole name can be copied into a filter.
 */
export const NAME_COLUMN = 60;

/** What a name is cut between: one escape of `oneLine` (`\x1b`, `\u202e`, `\n`) or one code point. */
const NAME_UNIT = /\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])|[\s\S]/gu;
/** Characters a unit takes on screen: an escape its own length, a code point (a surrogate pair too) one. */
const unitWidth = (unit: string) => (unit.startsWith('\\') ? unit.length : 1);
/** A fold goes after one of these when one is near the end of the line. */
const BREAK_AFTER = new Set(['/', ' ', '_', '-', '.', ':', '=', ',', ']', ')']);

/** `name` in lines of at most `width` characters, broken after a separator where one is in the last third. */
export function foldName(name: string, width: number): string[] {
  if (visible(name) <= width) return [name];
  const units = name.match(NAME_UNIT) ?? [];
  const lines: string[] = [];
  let start = 0;
  while (start < units.length) {
    let end = start;
    let used = 0;
    while (end < units.length && used + unitWidth(units[end]!) <= width) used += unitWidth(units[end++]!);
    if (end === start) end = start + 1;
    if (end < units.length) {
      for (let k = end; k > start + Math.floor((2 * width) / 3); k--) {
        if (BREAK_AFTER.has(units[k - 1]!)) {
          end = k;
          break;
        }
      }
    }
    lines.push(units.slice(start, end).join(''));
    start = end;
  }
  return lines;
}

/**
 * The table's rows with every name longer than {@link NAME_COLUMN} folded: its first line stays in
 * the row, the rest go on rows of their own below, indented by two spaces, the other cells empty.
 */
function foldNames(rows: string[][]): string[][] {
  const out: string[][] = [];
  for (const row of rows) {
    const [name = '', ...rest] = row;
    if (visible(name) <= NAME_COLUMN) {
      out.push(row);
      continue;
    }
    const [first = '', ...more] = foldName(name, NAME_COLUMN);
    out.push([first, ...rest]);
    for (const line of foldName(more.join(''), NAME_COLUMN - 2)) out.push([`  ${line}`, ...rest.map(() => '')]);
  }
  return out;
}

/** Columns padded to their widest cell. Loops, not `Math.max(...cells)`: a suite may have 100,000 rows. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map(() => 0);
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(c))));
  return rows.map((r) => r.map((c, i) => c + ' '.repeat(widths[i]! - visible(c))).join('  ').trimEnd());
}

/** Characters shown: code points, without our own colour codes. */
function visible(text: string): number {
  // eslint-disable-next-line no-control-regex
  const shown = text.includes('\x1b') ? text.replace(/\x1b\[[0-9;]*m/g, '') : text;
  let n = shown.length;
  for (let i = 0; i < shown.length; i++) {
    const c = shown.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** The terminal report of a results file (see {@link terminalReport}). */
export function renderTerminal(results: Results, opts: TerminalOptions): string {
  return terminalReport(reportModel(results, opts), opts);
}

/** The terminal report of the report model. */
export function terminalReport(model: ReportModel, opts: { color: boolean }): string {
  const { results } = model;
  const lines: string[] = [];
  const color = opts.color;
  const benchmarks = results.benchmarks;
  // the table's rows in the report's order, as the comment and the HTML report list them:
  // regressions first, a benchmark's extra metrics (MB/s, B/op) under it; the notes below keep the file's order
  const ordered = model.groups.flatMap((g) => [g.primary.result, ...g.derived.map((d) => d.result)]);
  // spreads: MAD x 1.4826 relative to the median (CV for older files), of single runs and of head/base across pairs
  const spread = spreadName(benchmarks);
  const pairedSpread = benchmarks.every((b) => !b.base || b.pairedMad !== undefined) ? 'MAD' : 'CV';
  const rows: string[][] = [['benchmark', `base (median ±${spread})`, `head (median ±${spread})`, `paired ±${pairedSpread}`, `change [${model.interval.label} CI]`, 'p (adj.)', 'pairs', 'verdict']];
  for (const b of ordered) {
    const verdict = (b.verdict ?? 'inconclusive') as Verdict;
    const kept = b.pairs.length - (b.outliers?.length ?? 0);
    const presence = b.presence && b.presence !== 'both' ? b.presence : null;
    rows.push([
      safeText(b.name) + (b.metric && !b.name.endsWith(`[${b.metric}]`) && b.metric !== 'wall' ? ` [${b.metric}]` : ''),
      sideCell(b.base, b.unit),
      sideCell(b.head, b.unit),
      pairedCell(b),
      changeCell(b, model.interval.label),
      b.change ? formatP(b.change.pAdjusted ?? b.change.pValue) : '—',
      `${b.outliers && b.outliers.length > 0 ? `${kept}+${b.outliers.length}` : String(b.pairs.length)}${b.oneSidedPairs?.length ? ` +${b.oneSidedPairs.length} with a 0` : ''}`,
      presence ? presence : b.failure ? paint('failed', '31', color) : paint(verdict, COLORS[verdict], color),
    ]);
  }
  for (const line of table(foldNames(rows))) lines.push(line);
  lines.push('');
  // a file of another tool may have no status or stop reason: then there is nothing to say
  const status = !results.status || results.status === 'complete' ? '' : ` (${results.status}${results.stoppedBecause ? `: ${results.stoppedBecause}` : ''})`;
  // counted by benchmark group, as the comment, the HTML report and the check run count
  lines.push(`${paint(String(results.verdict ?? 'inconclusive').toUpperCase(), COLORS[(results.verdict ?? 'inconclusive') as Verdict], color)}: ${countsText(model)}${status}`);
  lines.push(summaryText(model, PLAIN));
  if (model.interval.note) lines.push(model.interval.note);
  if (model.designs) lines.push(`${model.designs} (--design command runs them as the command says).`);

  const notes: string[] = [];
  for (const n of model.notes) {
    const w = wordNote(n, 'cli', PLAIN);
    notes.push(`${w.warning ? 'warning: ' : ''}${w.text}`);
  }
  // Notes that most benchmarks of a suite share are said once, not once per benchmark (FOLD_AT or
  // more); any other note that many benchmarks share is shown NOTES_PER_KIND times, then counted:
  // a suite of 100,000 benchmarks would otherwise print 100,000 copies of it.
  const shared = model.shared;
  for (const f of shared.items) {
    const w = wordShared(f, 'cli', PLAIN);
    notes.push(`${w.warning ? 'warning: ' : ''}${w.text}`);
  }
  const perKind = new Map<string, number>();
  const note = (kind: string, text: string) => {
    const n = (perKind.get(kind) ?? 0) + 1;
    perKind.set(kind, n);
    if (n <= NOTES_PER_KIND) notes.push(text);
  };
  // which rows have which notes, and their words, come from the model; a terminal's short list leaves some findings to the full reports
  for (const n of model.rowNotes) if (!n.folded && (n.code !== 'diagnostic' || n.brief)) note(n.kind, wordRowNote(n, 'cli', PLAIN).text);
  for (const [kind, n] of perKind) {
    if (n > NOTES_PER_KIND) notes.push(`… and ${n - NOTES_PER_KIND} more benchmarks with the note ${JSON.stringify(safeText(kind))}; the results file (or --json) has every one`);
  }
  for (const f of results.failures ?? []) {
    notes.push(`${f.side} failed${'benchmark' in f && f.benchmark ? ` in ${safeText(String(f.benchmark))}` : ''}: ${safeText(f.message)}`);
    if (f.stderrTail) for (const l of f.stderrTail.trimEnd().split('\n').slice(-10)) notes.push(`  | ${safeText(l)}`);
  }
  if (notes.length > 0) {
    lines.push('');
    for (const note of notes) lines.push(note);
  }
  const started = results.startedAt ? Date.parse(results.startedAt) : NaN;
  const finished = results.finishedAt ? Date.parse(results.finishedAt) : NaN;
  const notRun = notRunText(results);
  if (notRun.length > 0) lines.push('');
  for (const line of notRun) lines.push(line);
  const seed = recordedOr(results.settings, 'seed');
  const took = Number.isFinite(started) && Number.isFinite(finished) ? `, took ${formatDuration(finished - started)}` : '';
  lines.push('');
  lines.push(seed !== undefined ? `seed ${String(seed)}${took}; replay the pair order with --seed ${String(seed)}` : `no seed recorded${took}`);
  return lines.join('\n');
}
