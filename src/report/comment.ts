/**
 * The Markdown report: the body of the sticky PR comment, the check-run summary and the job summary.
 * Pure: the report model (model.ts) in, a string out; its words are words.ts's, in Markdown syntax.
 *
 * Layout, most important first:
 *   1. the hidden marker `<!-- pairbench:<id> -->` (sticky comments only);
 *   2. the verdict counted by benchmark as a heading, then one number for the whole change: the
 *      suite's geometric mean change with its interval, and what was compared;
 *   3. the model's notes: an accept label, a partial or failed run, futile benchmarks, the gate;
 *   4. the table of the benchmarks that are not unchanged, verdict first, metric and unit named,
 *      the change with its interval, base → head, pairs; a benchmark's derived metrics (MB/s, B/op,
 *      allocs/op) grouped under it and counted once;
 *   5. the forest plot of every benchmark (forest.ts), as fixed-width text;
 *   6. failures, benchmarks added or removed;
 *   7. folds: the unchanged benchmarks, diagnostics, (job summary only) the raw pairs, how it was
 *      measured with the replay and re-judge lines (replay.ts); then where the details are.
 *
 * The raw pairs are not in the comment: they are in the results file, the job summary and the HTML
 * report. Every string from the results file goes through `escape.ts` (S6). Past `maxLength`
 * (UTF-8 bytes) rows and sections are left out, the most important kept, and a note at the bottom
 * says where the full report is (S8).
 */
import { pairRatio } from '../stats/analysis.ts';
import type { BenchmarkResult, Failure, Results } from '../results/schema.ts';
import { Budget, hardCut, REPORT_LIMITS } from './budget.ts';
import { codeBlock, codeSpan, escapeInline, markerFor, safeUrl, tail, utf8Bytes } from './escape.ts';
import { renderForestText } from './forest.ts';
import { FOLD_AT, wordShared, type SharedFindings } from './shared.ts';
import { absoluteChange, changeFromZero, formatChange, formatChangeInterval, formatValue } from './format.ts';
import { reportModel, type ModelOptions, type ReportModel, type RowNote } from './model.ts';
import { replayLines, type ReplaySource } from './replay.ts';
import { KIND_LABEL, type Group, type Row } from './rows.ts';
import type { Markup } from './markup.ts';
import { countParts, nothingComparedText, nothingCounted, summaryText, rowLevelText, wordNote, wordRowNote } from './words.ts';
import { nothingMeasured, nothingMeasuredMarkdown, notRunMarkdown } from './not-run.ts';
import { measuredHow } from './measured-how.ts';

export { type Acceptance } from './model.ts';

export interface MarkdownContext extends ModelOptions {
  /** the sticky comment's id: when set, the marker `<!-- pairbench:<id> -->` is the first line */
  commentId?: string;
  /** the workflow run, linked from the report */
  runUrl?: string;
  /** where the replay line takes its commands and the re-judge line its file name (replay.ts) */
  replay?: ReplaySource;
  /** the report's size limit in UTF-8 bytes; default {@link REPORT_LIMITS.comment} */
  maxLength?: number;
  /** where the full report is (trusted Markdown); default: the job summary and the results file */
  fullReportHint?: string;
  /** show every raw pair in a fold (the job summary; never the comment) */
  pairs?: boolean;
}

/** Longest benchmark name shown in the table. */
const NAME_CELL_CHARS = 100;
/** At most this many rows in the forest plot; the rest are in the HTML report. */
const FOREST_ROWS = 50;

/** GitHub-flavoured Markdown: every string from the results file escaped (S6). */
export const MARKDOWN: Markup = {
  text: (s, max) => escapeInline(s, max),
  code: (s, max) => codeSpan(s, max),
  strong: (s) => `**${s}**`,
  em: (s) => `*${s}*`,
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The heading: the verdict counted by benchmark, worst first. Reads without colour: every emoji has its word. */
function headingOf(model: ReportModel): string {
  const parts = countParts(model.counts).map((p) => `${p.emoji} ${p.words}`);
  if (parts.length === 0) {
    const none = nothingCounted(model);
    parts.push(`${none.emoji ? `${none.emoji} ` : ''}${none.words}`);
  }
  const nothing = nothingComparedText(model, MARKDOWN);
  return `### ${nothing ? `⛔ ${nothing}: ` : ''}${parts.join(', ')} · ${escapeInline(model.title, 80)}`;
}

/** The heading of a results file's report (see {@link headingOf}). */
export function headline(results: Results, title = 'pairbench'): string {
  return headingOf(reportModel(results, { title }));
}

function verdictCell(r: Row): string {
  if (r.kind === 'failed') return `❌ failed (${r.result.failure?.side ?? '?'})`;
  return KIND_LABEL[r.kind];
}

/** The change with its interval; its own level when it is not the one the table's header names. */
function changeCell(b: BenchmarkResult, header: string): string {
  if (!b.change) return changeFromZero(b) ?? '—';
  const own = rowLevelText(b, header);
  const absolute = absoluteChange(b);
  return `${formatChange(b.change.estimate)} ${formatChangeInterval(b.change.ci)}${own}${absolute ? ` (${escapeInline(absolute, 120)})` : ''}`;
}

function sidesCell(b: BenchmarkResult): string {
  const v = (s: BenchmarkResult['base']) => (s && Number.isFinite(s.median) ? escapeInline(formatValue(s.median, b.unit), 60) : '—');
  return `${v(b.base)} → ${v(b.head)}`;
}

function pairsCell(b: BenchmarkResult): string {
  const excluded = b.outliers?.length ?? 0;
  const counted = excluded > 0 ? `${b.pairs.length - excluded} + ${excluded} excl.` : String(b.pairs.length);
  // pairs with one side at 0 form no ratio and are counted apart (stats/one-sided.ts)
  const oneSided = b.oneSidedPairs?.length ?? 0;
  return oneSided > 0 ? `${counted} + ${oneSided} with a 0` : counted;
}

function tableRow(r: Row, derived: boolean, header: string): string {
  const name = derived ? '↳' : `**${escapeInline(r.name, NAME_CELL_CHARS)}**`;
  const change = r.kind === 'regression' || r.kind === 'improvement' ? `**${changeCell(r.result, header)}**` : changeCell(r.result, header);
  return `| ${verdictCell(r)} | ${name} | ${escapeInline(r.metric, 40)} | ${change} | ${sidesCell(r.result)} | ${pairsCell(r.result)} |`;
}

const tableHead = (confidence: string): string => `| verdict | benchmark | metric | change [${confidence} interval] | base → head (median) | pairs |\n|:--|:--|:--|--:|--:|--:|`;

function unchangedRow(r: Row, name: string, header: string): string {
  return `| ${name} | ${escapeInline(r.metric, 40)} | ${changeCell(r.result, header)} | ${sidesCell(r.result)} | ${pairsCell(r.result)} |`;
}

function failureBlock(f: Failure & { benchmark?: string | undefined }): string {
  const what =
    f.kind === 'build'
      ? 'build failed'
      : f.kind === 'timeout'
        ? 'timed out'
        : f.kind === 'signal'
          ? `was killed by ${escapeInline(f.signal ?? 'a signal', 20)}`
          : f.kind === 'parse'
            ? 'printed output that could not be parsed'
            : f.kind === 'spawn'
              ? 'could not be started'
              : 'exited with an error';
  const code = f.exitCode !== undefined && f.exitCode !== null ? ` (exit code ${f.exitCode})` : '';
  const bench = f.benchmark ? ` benchmark **${escapeInline(f.benchmark, NAME_CELL_CHARS)}**` : '';
  let out = `- **${f.side}**${bench}: ${what}${code}. ${escapeInline(f.message, 300)}`;
  if (f.stderrTail && f.stderrTail.trim() !== '') {
    out += `\n  <details><summary>stderr (last lines)</summary>\n\n${indent(codeBlock(tail(f.stderrTail), 'text'), '  ')}\n\n  </details>`;
  }
  return out;
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/** All failures: the results' own list, plus benchmark failures not already in it. */
function allFailures(results: Results): (Failure & { benchmark?: string | undefined })[] {
  const list: (Failure & { benchmark?: string | undefined })[] = (results.failures ?? []).map((f) => ({ ...f }));
  for (const b of results.benchmarks) {
    if (!b.failure) continue;
    const f = b.failure;
    // The engine lists a benchmark's failure both on the benchmark and in `failures`: show it once, named.
    const same = list.find((x) => x.side === f.side && x.kind === f.kind && x.message === f.message && (x.benchmark === undefined || x.benchmark === b.name));
    if (same) same.benchmark ??= b.name;
    else list.push({ ...f, benchmark: b.name });
  }
  return list;
}

/** Every pair of one benchmark as a fixed-width table (job summary only). */
function pairsBlock(b: BenchmarkResult): string {
  const excluded = new Set(b.outliers ?? []);
  const kept = new Set(b.outliersKept ?? []);
  // Inside a code block nothing is interpreted; the unit is the only text from the file, so cut it.
  const unit = b.unit.slice(0, 16);
  const lines = [`    #  order       ${'base'.padStart(14)}  ${'head'.padStart(14)}  head/base`];
  b.pairs.forEach((p, i) => {
    const note = excluded.has(i) ? '  outlier, excluded' : kept.has(i) ? '  outlier, kept' : '';
    lines.push(`${String(i + 1).padStart(5)}  ${p.order.padEnd(10)}  ${formatValue(p.base, unit).padStart(14)}  ${formatValue(p.head, unit).padStart(14)}  ${pairRatio(p).toFixed(4).padStart(9)}${note}`);
  });
  const summary = `${escapeInline(b.name, NAME_CELL_CHARS)}: ${plural(b.pairs.length, 'pair')}, ${plural(excluded.size, 'outlier')} excluded${kept.size ? `, ${kept.size} flagged but kept (they lean to one side)` : ''}`;
  return `<details><summary>${summary}</summary>\n\n${codeBlock(lines.join('\n'), 'text')}\n\n</details>`;
}

/**
 * A short title per finding, for the fold that gathers FOLD_AT or more benchmarks with the same one
 * (a Go suite's comment listed 85 "outlying pairs kept" notes, 37 "many outliers" and 31 about
 * equal counts one after the other, among a hundred items).
 */
const FINDING_TITLES: Record<string, string> = {
  'too-few-pairs': 'too few usable pairs for a verdict',
  'mostly-equal': 'most pairs measured head and base exactly equal',
  'all-equal': 'every pair measured head and base exactly equal',
  'unsteady-counts': 'instruction counts vary between runs of one side',
  'coarse-resolution': 'times printed in steps too coarse for the threshold',
  'outliers-kept': 'outlying pairs kept on one side, a split within chance',
  'one-sided-outliers': 'outliers on one side only',
  'many-outliers': 'many pairs excluded as outliers',
  'order-effect': 'the order within a pair matters',
  drift: 'the change drifted during the run',
  'cold-pilot': "judged after the pilot, whose pairs ran a cold start",
  'pairing-rescued': 'single runs vary, pairs move together',
  overhead: "pairbench's overhead subtracted",
  'short-run': "runs short against pairbench's overhead",
  inconclusive: 'inconclusive, with the pairs that would likely settle each',
  'runs failed': 'some runs failed and were measured again',
};

/**
 * The diagnostics fold: what many benchmarks share first, once for all of them (shared.ts), then
 * each benchmark's own, gathered by finding where FOLD_AT or more benchmarks have the same one (a
 * fold of its own, warnings first), each item taken from the budget as it goes.
 */
function diagnosticsItems(groups: readonly Group[], rowNotes: readonly RowNote[], shared: SharedFindings, budget: Budget): string[] {
  // the undecided ones are said above the table (the budget notes) and in their rows
  const items = budget.takeAll(
    shared.items
      .filter((f) => f.code !== 'settle')
      .map((f) => {
        const w = wordShared(f, 'action', MARKDOWN);
        return `- ${w.warning ? '⚠️' : 'ℹ️'} ${w.text}`;
      }),
  );
  const byCode = new Map<string, { warning: boolean; lines: string[] }>();
  const notesOf = rowNotesByName(rowNotes);
  for (const g of groups) {
    for (const r of [g.primary, ...g.derived]) {
      for (const n of notesOf.get(r.result.name) ?? []) {
        // the outliers a row excluded are in its pairs cell and the pairs fold; added and removed rows have their own list
        if (n.folded || n.code === 'outliers-excluded' || n.code === 'added' || n.code === 'removed') continue;
        const entry = byCode.get(n.kind) ?? { warning: false, lines: [] };
        const w = wordRowNote(n, 'action', MARKDOWN);
        entry.warning ||= w.warning;
        entry.lines.push(w.text);
        byCode.set(n.kind, entry);
      }
    }
  }
  const codes = [...byCode.entries()].sort((a, b) => Number(b[1].warning) - Number(a[1].warning));
  for (const [code, { warning, lines }] of codes) {
    const icon = warning ? '⚠️' : 'ℹ️';
    if (lines.length < FOLD_AT || !Object.hasOwn(FINDING_TITLES, code)) {
      for (const l of lines) if (budget.take(`- ${icon} ${l}`)) items.push(`- ${icon} ${l}`);
      continue;
    }
    const summary = `- <details><summary>${icon} ${lines.length} benchmarks: ${FINDING_TITLES[code]}</summary>\n`;
    if (!budget.take(summary, 20)) continue;
    const taken = budget.takeAll(lines.map((l) => `  - ${l}`));
    const rest = lines.length - taken.length;
    const more = rest === 0 ? '' : taken.length === 0 ? '  Each of them is in the HTML report and the results file.' : `  - …and ${rest} more, in the HTML report and the results file.`;
    items.push(`${summary}\n${[...taken, more].filter((l) => l !== '').join('\n')}\n\n  </details>`);
  }
  return items;
}

/** A recorded setting shown in prose, under its user-facing name (the same list as the replay line). */
function aboutSection(results: Results, ctx: MarkdownContext): string {
  const lines: string[] = [];
  const rev = (label: string, r: Results['base']) => {
    const bits = [r.ref && r.ref !== r.sha ? `ref ${codeSpan(r.ref, 100)}` : null, r.sha ? `commit ${codeSpan(r.sha, 64)}` : null, r.dir ? `directory ${codeSpan(r.dir, 100)}` : null].filter(Boolean);
    return `- **${label}**: ${bits.length ? bits.join(', ') : 'unknown'}`;
  };
  lines.push(rev('base', results.base), rev('head', results.head));
  const env = results.environment;
  if (env) {
    const bits = [env.os, env.cpu, env.cores !== undefined ? `${env.cores} cores` : undefined, env.node ? `Node ${env.node}` : undefined, env.runner]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .map((x) => escapeInline(x, 120));
    if (bits.length) lines.push(`- **environment**: ${bits.join(', ')}`);
  }
  for (const h of measuredHow(results)) lines.push(`- **${h.label}**: ${codeSpan(h.value, 64)}, ${escapeInline(h.meaning, 300)}`);
  if (results.stoppedBecause) lines.push(`- **stopped because**: ${escapeInline(results.stoppedBecause, 40)}`);
  if (results.rounds) lines.push(`- **rounds**: ${results.rounds.length}`);
  if (results.shard && results.shard.count > 1) lines.push(`- **shard**: ${results.shard.index}/${results.shard.count}`);
  if (results.tool) lines.push(`- **tool**: ${escapeInline(results.tool.name, 40)} ${escapeInline(results.tool.version, 40)}`);
  const replay = replayLines(results, ctx.replay);
  lines.push('', 'Replay this comparison (same revisions, seed and settings) with the `pairbench` command-line tool:', '', codeBlock(replay.replay.slice(0, 4000), 'sh'));
  if (replay.replayNote) lines.push('', replay.replayNote);
  lines.push('', 'or judge the saved results again, with other settings if you like:', '', codeBlock(replay.rejudge.slice(0, 2000), 'sh'));
  return `<details><summary>How this was measured, and how to replay it</summary>\n\n${lines.join('\n')}\n\n</details>`;
}

/** A benchmark's notes by its name (the model lists them in the file's order; the comment in the report's). */
function rowNotesByName(rowNotes: readonly RowNote[]): Map<string, RowNote[]> {
  const byName = new Map<string, RowNote[]>();
  for (const n of rowNotes) byName.set(n.name, [...(byName.get(n.name) ?? []), n]);
  return byName;
}

function addedRemoved(groups: readonly Group[], rowNotes: readonly RowNote[]): string[] {
  const notesOf = rowNotesByName(rowNotes);
  const items: string[] = [];
  for (const g of groups) {
    for (const n of notesOf.get(g.primary.result.name) ?? []) {
      if (n.code !== 'added' && n.code !== 'removed') continue;
      const w = wordRowNote(n, 'action', MARKDOWN);
      items.push(`- ${w.icon} ${w.text}`);
    }
  }
  return items;
}

function detailsLinks(ctx: MarkdownContext): string {
  const run = safeUrl(ctx.runUrl);
  const where = ctx.fullReportHint ?? 'Every pair, the plots of each benchmark and the diagnostics are in the HTML report and the results file (`--html`, `--out`).';
  return `${run ? `[Workflow run](${run}) · ` : ''}${where}`;
}

/** Renders the report of a results file (see {@link markdownReport}); `ctx` gives the gate, the accept label and the title. */
export function renderMarkdown(results: Results, ctx: MarkdownContext = {}): string {
  // changed-only left every benchmark out: a short comment says so, and the check passes
  if (nothingMeasured(results)) return nothingMeasuredMarkdown(results, ctx.commentId);
  return markdownReport(reportModel(results, ctx), ctx);
}

/** Renders the report model. The result is at most `ctx.maxLength` UTF-8 bytes (default: a comment's limit). */
export function markdownReport(model: ReportModel, ctx: Omit<MarkdownContext, keyof ModelOptions> = {}): string {
  const { results, groups } = model;
  const limit = ctx.maxLength ?? REPORT_LIMITS.comment;
  const budget = new Budget(limit - 700);
  const confidence = model.interval.label;

  const marker = ctx.commentId !== undefined ? markerFor(ctx.commentId) : null;
  const top = [marker, headingOf(model), '', summaryText(model, MARKDOWN)].filter((x): x is string => x !== null).join('\n');
  budget.take(top, 2);
  const notes = model.notes.map((n) => {
    const w = wordNote(n, 'action', MARKDOWN);
    return `> ${w.icon} ${w.text}`;
  });
  for (const n of notes) budget.take(n, 2);
  const links = detailsLinks(ctx);
  budget.take(links, 2);

  // What must survive, in order: the changed rows, the forest plot, failures, how it was measured.
  const changed = groups.filter((g) => g.kind !== 'unchanged' && g.kind !== 'added' && g.kind !== 'removed');
  const changedRows: string[] = [];
  const unchangedRows: Row[] = [];
  if (changed.length > 0) budget.take(tableHead(confidence), 3);
  let changedShown = 0;
  for (const g of changed) {
    const rows = [tableRow(g.primary, false, confidence)];
    for (const d of g.derived) {
      if (d.kind === 'unchanged') unchangedRows.push(d);
      else rows.push(tableRow(d, true, confidence));
    }
    const text = rows.join('\n');
    if (!budget.take(text)) break;
    changedRows.push(text);
    changedShown++;
  }

  const forestSource = model.forest.rows;
  const summaryRow = model.forest.summary;
  let forestText: string | null = null;
  if (forestSource.length > 0) {
    const shown = forestSource.slice(0, FOREST_ROWS);
    const plot = renderForestText(shown, { confidence, more: forestSource.length - shown.length, summary: summaryRow });
    const text = `${codeBlock(plot, 'text')}`;
    if (budget.take(text, 2)) forestText = text;
  }

  const failures = budget.takeAll(allFailures(results).map(failureBlock));
  const addRem = budget.takeAll(addedRemoved(groups, model.rowNotes));
  const notRun = notRunMarkdown(results);
  const notRunFits = notRun !== '' && budget.take(notRun, 2);

  const about = aboutSection(results, ctx);
  const aboutFits = budget.take(about, 2);

  // The unchanged benchmarks, and the unchanged metrics of changed ones, in a fold.
  for (const g of groups) if (g.kind === 'unchanged') for (const r of [g.primary, ...g.derived]) unchangedRows.push(r);
  let unchangedText: string | null = null;
  if (unchangedRows.length > 0) {
    const head = `| benchmark | metric | change [${confidence} interval] | base → head (median) | pairs |\n|:--|:--|--:|--:|--:|`;
    budget.take(head, 80);
    let prev = '';
    const rows: string[] = [];
    for (const r of unchangedRows) {
      const name = r.name === prev ? '↳' : escapeInline(r.name, NAME_CELL_CHARS);
      prev = r.name;
      const row = unchangedRow(r, name, confidence);
      if (!budget.take(row)) break;
      rows.push(row);
    }
    const n = groups.filter((g) => g.kind === 'unchanged').length;
    const title = n > 0 ? `⚪ ${n} unchanged benchmark${n === 1 ? '' : 's'}${unchangedRows.length > n ? ' and unchanged metrics' : ''}` : '⚪ unchanged metrics';
    if (rows.length) unchangedText = `<details><summary>${title} (within ±threshold)</summary>\n\n${head}\n${rows.join('\n')}${rows.length < unchangedRows.length ? `\n\n…and ${unchangedRows.length - rows.length} more.` : ''}\n\n</details>`;
  }

  const diag = diagnosticsItems(groups, model.rowNotes, model.shared, budget);
  const pairTexts = ctx.pairs ? budget.takeAll(reportPairs(groups)) : [];

  // Assemble in reading order.
  const out: string[] = [top, ...notes];
  if (changedRows.length) out.push(`${tableHead(confidence)}\n${changedRows.join('\n')}`);
  // why the intervals are at the level shown, when it is not 1 - alpha (several benchmarks, early stops)
  const levelNote = changedRows.length ? model.interval.note : null;
  if (levelNote && budget.take(levelNote, 14)) out.push(`<sub>${escapeInline(levelNote, 400)}</sub>`);
  // how the runs were designed, once for the comparison (schedule/choose-design.ts)
  const designs = model.designs;
  if (designs && budget.take(designs, 14)) out.push(`<sub>${escapeInline(designs, 400)} (\`design: command\` runs them as the command says).</sub>`);
  if (forestText) out.push(forestText);
  if (failures.length) out.push(`**Failures**\n\n${failures.join('\n')}`);
  if (addRem.length) out.push(`**Benchmarks added or removed**\n\n${addRem.join('\n')}`);
  if (notRunFits) out.push(notRun);
  if (unchangedText) out.push(unchangedText);
  if (diag.length) out.push(`<details><summary>Diagnostics (${diag.length})</summary>\n\n${diag.join('\n')}\n\n</details>`);
  if (pairTexts.length) out.push(`<details><summary>Pairs and outliers</summary>\n\n${pairTexts.join('\n\n')}\n\n</details>`);
  if (aboutFits) out.push(about);
  out.push(links);
  if (budget.cut) {
    const shown = changedShown < changed.length ? ` It shows ${changedShown} of ${changed.length} changed benchmarks, regressions first.` : '';
    out.push(`✂️ *Cut to fit GitHub's size limit.*${shown} ${ctx.fullReportHint ?? 'The full report is in the job summary and the results file.'}`);
  }
  let text = `${out.join('\n\n')}\n`;
  if (utf8Bytes(text) > limit) text = hardCut(text, limit);
  return text;
}

function reportPairs(groups: readonly Group[]): string[] {
  return groups.flatMap((g) => [g.primary, ...g.derived]).filter((r) => r.result.pairs.length > 0).map((r) => pairsBlock(r.result));
}
