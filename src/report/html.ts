/**
 * The HTML report (`--html report.html`, and beside the results file in the action): everything
 * the comment leaves out, in one self-contained file that opens offline. Pure: results in, a string out.
 *
 * - the verdict and the suite's geometric mean change, as in the comment;
 * - the forest plot of every benchmark, then the table of all of them;
 * - per benchmark: its diagnostics first, the distribution of its paired ratios with excluded
 *   outliers marked, and the timeline of base and head per pair in measuring order;
 * - failures, how it was measured, the replay and re-judge lines.
 *
 * No script, no external resource: a Content-Security-Policy forbids both. Light and dark themes
 * follow `prefers-color-scheme`. Every string from the results file is HTML-escaped.
 */
import type { BenchmarkResult, Results } from '../results/schema.ts';
import { absoluteChange, changeFromZero, formatChange, formatChangeInterval, formatCv, formatP, formatSpread, formatValue, spreadName } from './format.ts';
import { formatThreshold } from '../config/values.ts';
import { reportModel, type ModelOptions, type ReportModel, type RowNote } from './model.ts';
import { cutText, escapeHtml, forestSvg, MAX_DRAWN_PAIRS, ratiosSvg, timelineSvg } from './html-plots.ts';
import { replayLines, type ReplaySource } from './replay.ts';
import { KIND_LABEL, type Row } from './rows.ts';
import { stripControls } from './escape.ts';
import { PLAIN, type Markup } from './markup.ts';
import { countParts, nothingComparedText, nothingCounted, rowLevelText, summaryText, wordNote, wordRowNote } from './words.ts';
import { notRunHtml } from './not-run.ts';
import { measuredHow } from './measured-how.ts';
import { wordShared } from './shared.ts';

export interface HtmlContext extends ModelOptions {
  replay?: ReplaySource;
  runUrl?: string;
  /** per-benchmark plots for at most this many benchmarks (changed first); default 200 */
  maxSections?: number;
  /** rows of the forest plot at most (changed first); default {@link FOREST_ROWS} */
  maxForestRows?: number;
  /** rows of the table at most (changed first); default {@link TABLE_ROWS} */
  maxTableRows?: number;
  /** characters of the per-benchmark sections at most, the last one finished; default {@link SECTION_BYTES} */
  maxSectionBytes?: number;
}

/**
 * The report stays under 10 MB whatever the suite: a forest plot taller than a few hundred rows
 * cannot be read, a table of 100,000 benchmarks made a report of 94 MB, and 200 benchmarks'
 * sections of 200 pairs each (every pair a mark) about 18 MB. Past these bounds the rows and
 * sections of most change are shown (the order of rows.ts: regressions, failures, inconclusive,
 * improvements, then the rest), and a note says how many more the results file holds. A section
 * takes at most about 100 KB (html-plots.ts bins past 200 pairs), so the sections end within
 * {@link SECTION_BYTES} and one section of it.
 */
export const FOREST_ROWS = 300;
export const TABLE_ROWS = 2_000;
const SECTION_BYTES = 6_000_000;
/** Failures listed at most, each with the tail of its output (up to 4,000 characters). */
export const FAILURES = 50;

const CSS = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--band:#eef1f4;--ci:#cfe2ff;
--reg:#cf222e;--imp:#1a7f37;--inc:#9a6700;--unc:#59636e;--base:#0969da;--head:#bc4c00;--ratio:#6639ba;--card:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--band:#21262d;--ci:#1f3a5f;
--reg:#ff7b72;--imp:#3fb950;--inc:#d29922;--unc:#9198a1;--base:#58a6ff;--head:#ffa657;--ratio:#bc8cff;--card:#161b22}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1000px;padding:16px;background:var(--bg);color:var(--fg);font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;border-bottom:1px solid var(--line);padding-bottom:.2em;margin-top:1.6em}h3{font-size:1.1em;margin:0 0 .4em}
code,pre{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
pre{background:var(--card);padding:10px;border-radius:6px;overflow-x:auto;white-space:pre}
.muted{color:var(--muted)}.summary{font-size:1.1em}
.note{border-left:4px solid var(--line);padding:2px 10px;margin:.5em 0}.note.warning{border-left-color:var(--inc)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}td.num,th.num{text-align:right;white-space:nowrap}
.verdict{white-space:nowrap;font-weight:600}
.k-regression{color:var(--reg)}.k-failed{color:var(--reg)}.k-improvement{color:var(--imp)}.k-inconclusive{color:var(--inc)}.k-unchanged{color:var(--unc)}
section.bench{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px;margin:14px 0}
ul.diag{margin:.2em 0 .6em;padding-left:1.2em}
svg.plot{display:block;max-width:100%;height:auto;margin:6px 0}
svg text{fill:var(--fg);font-size:12px}svg text.axis{fill:var(--muted);font-size:11px}
svg .band{fill:var(--band)}svg .ci{fill:var(--ci)}svg .zero{stroke:var(--muted);stroke-dasharray:3 3}
svg .interval{stroke:var(--fg);stroke-width:2.5}svg .estimate{fill:var(--fg)}
svg .row.regression .interval{stroke:var(--reg)}svg .row.regression .estimate{fill:var(--reg)}
svg .row.improvement .interval{stroke:var(--imp)}svg .row.improvement .estimate{fill:var(--imp)}
svg .row.inconclusive .interval{stroke:var(--inc)}svg .row.inconclusive .estimate{fill:var(--inc)}
svg .clip{fill:var(--fg)}svg .estimate-line{stroke:var(--fg);stroke-width:2}
svg .pair{fill:var(--ratio);fill-opacity:.75}svg .flagged{fill:none;stroke:var(--ratio);stroke-width:1.5}svg .outlier{stroke:var(--reg);stroke-width:2;fill:none}
svg .base{fill:var(--base)}svg .head{fill:var(--head)}svg .base-line{stroke:var(--base);fill:none;stroke-opacity:.5}svg .head-line{stroke:var(--head);fill:none;stroke-opacity:.5}
svg .ratio{fill:var(--ratio)}svg .ratio-line{stroke:var(--ratio);fill:none;stroke-opacity:.6}
svg .bar{fill:var(--ratio);fill-opacity:.75}svg .base-range{stroke:var(--base);stroke-opacity:.4}svg .head-range{stroke:var(--head);stroke-opacity:.4}svg .ratio-range{stroke:var(--ratio);stroke-opacity:.4}
svg .run{fill:transparent}svg .run:hover{fill:var(--fg);fill-opacity:.08}
a{color:var(--base)}
`;


const esc = (s: string) => escapeHtml(stripControls(s));

/** HTML: every string from the results file escaped. */
const HTML: Markup = {
  text: (s, max) => esc(cutText(s, max)),
  code: (s, max) => `<code>${esc(cutText(s, max))}</code>`,
  strong: (s) => `<strong>${s}</strong>`,
  em: (s) => `<em>${s}</em>`,
};

/** The last `max` UTF-16 units of `text`, never starting on the low half of a surrogate pair. */
function tailText(text: string, max: number): string {
  if (text.length <= max) return text;
  const c = text.charCodeAt(text.length - max);
  return text.slice(text.length - max + (c >= 0xdc00 && c <= 0xdfff ? 1 : 0));
}

function sideCell(b: BenchmarkResult, side: 'base' | 'head'): string {
  const s = b[side];
  return s && Number.isFinite(s.median) ? `${esc(formatValue(s.median, b.unit))} <span class="muted">${esc(formatSpread(s))}</span>` : '—';
}

/** The change with its interval, and the interval's own level where the caption's is not it. */
function changeCell(b: BenchmarkResult, header: string): string {
  const absolute = absoluteChange(b);
  return b.change ? `${esc(formatChange(b.change.estimate))} <span class="muted">${esc(formatChangeInterval(b.change.ci))}${esc(rowLevelText(b, header))}${absolute ? ` (${esc(absolute)})` : ''}</span>` : esc(changeFromZero(b) ?? '—');
}

function tableRow(r: Row, derived: boolean, header: string): string {
  const b = r.result;
  const excluded = b.outliers?.length ?? 0;
  return `<tr><td class="verdict k-${r.kind}">${esc(KIND_LABEL[r.kind])}</td><td>${derived ? '↳ ' : ''}${derived ? '' : `<a href="#b-${slug(b.name)}">${esc(r.name)}</a>`}</td><td>${esc(r.metric)}</td><td class="num">${changeCell(b, header)}</td><td class="num">${sideCell(b, 'base')}</td><td class="num">${sideCell(b, 'head')}</td><td class="num">${b.pairedMad !== undefined && Number.isFinite(b.pairedMad) ? esc(formatCv(b.pairedMad)) : '—'}</td><td class="num">${b.change ? esc(formatP(b.change.pAdjusted ?? b.change.pValue)) : '—'}</td><td class="num">${b.pairs.length}${excluded ? ` <span class="muted">(${excluded} excl.)</span>` : ''}${b.oneSidedPairs?.length ? ` <span class="muted">(+${b.oneSidedPairs.length} with a 0)</span>` : ''}</td></tr>`;
}

/** A stable id for a benchmark's section (the name may hold anything). */
function slug(name: string): string {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
  const readable = name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return `${readable || 'benchmark'}-${h.toString(36)}`;
}

function benchSection(r: Row, notes: readonly RowNote[], threshold: number, confidence: string, index: number): string {
  const b = r.result;
  const thr = b.threshold ?? threshold;
  // the row's notes as the model decides and words them, under the benchmark's own heading
  const diags = notes
    .map((n) => {
      const w = wordRowNote(n, 'action', HTML);
      return `<li>${esc(w.icon)} ${w.about}</li>`;
    })
    .join('');
  const facts = [
    b.change ? `change ${esc(formatChange(b.change.estimate))} ${esc(formatChangeInterval(b.change.ci))}${esc(rowLevelText(b, confidence))}, adjusted p ${esc(formatP(b.change.pAdjusted ?? b.change.pValue))}` : changeFromZero(b) ? `change ${esc(changeFromZero(b)!)}` : 'no change estimate',
    `threshold ±${esc(formatThreshold(thr))}`,
    `${b.pairs.length.toLocaleString('en-US')} pairs, ${(b.outliers?.length ?? 0).toLocaleString('en-US')} excluded${b.oneSidedPairs?.length ? `, ${b.oneSidedPairs.length.toLocaleString('en-US')} more with one side at 0` : ''}`,
    b.direction === 'higher-is-better' ? 'higher is better' : 'lower is better',
    b.failure ? `failed on ${b.failure.side}: ${esc(cutText(b.failure.message, 300))}` : null,
  ].filter(Boolean);
  const oneSided = b.oneSidedPairs?.length ?? 0;
  const none = oneSided > 0 ? `<p class="muted">No pair formed a ratio: in each of the ${oneSided.toLocaleString('en-US')}, one side printed 0 (base ${esc(formatValue(b.base?.median ?? Number.NaN, b.unit))}, head ${esc(formatValue(b.head?.median ?? Number.NaN, b.unit))} by the median), so there is nothing to plot; the values are in the results file (oneSidedPairs).</p>` : '<p class="muted">No pairs were measured.</p>';
  const plots = b.pairs.length > 0 ? `${ratiosSvg(b, { id: `r${index}`, threshold: thr, confidence })}${timelineSvg(b, { id: `t${index}` })}` : none;
  return `<section class="bench" id="b-${slug(b.name)}" aria-labelledby="h-${index}"><h3 id="h-${index}"><span class="k-${r.kind}">${esc(KIND_LABEL[r.kind])}</span> · ${esc(r.name)} <span class="muted">${esc(r.metric)}</span></h3><p class="muted">${facts.join(' · ')}</p>${diags ? `<ul class="diag">${diags}</ul>` : ''}${plots}</section>`;
}

/** The HTML report of a results file (see {@link htmlReport}). */
export function renderHtml(results: Results, ctx: HtmlContext = {}): string {
  return htmlReport(reportModel(results, ctx), ctx);
}

/** The HTML report of the report model. */
export function htmlReport(model: ReportModel, ctx: Omit<HtmlContext, keyof ModelOptions> = {}): string {
  const { results, groups, threshold } = model;
  const confidence = model.interval.label;
  const levelNote = model.interval.note;
  const designs = model.designs;
  const title = model.title;
  const parts = countParts(model.counts).map((p) => `<span class="k-${p.kind}">${esc(p.emoji)} ${esc(p.words)}</span>`);
  const none = nothingCounted(model);
  // a comparison of nothing says so before any count (results/gate.ts)
  const nothing = nothingComparedText(model, HTML);
  const nothingPlain = nothingComparedText(model, PLAIN);
  const summary = `<p class="summary">${summaryText(model, HTML)}</p>`;
  const notes = model.notes
    .map((n) => {
      const w = wordNote(n, 'action', HTML);
      return `<p class="note${w.warning ? ' warning' : ''}">${esc(w.icon)} ${w.text}</p>`;
    })
    .join('');
  // what many benchmarks share, once for all of them, as the comment and the terminal say it (the
  // undecided ones are in the notes above); each benchmark's section below keeps its own findings
  const shared = model.shared.items
    .filter((f) => f.code !== 'settle')
    .map((f) => {
      const w = wordShared(f, 'action', HTML);
      return `<p class="note${w.warning ? ' warning' : ''}">${w.warning ? '⚠️' : 'ℹ️'} ${w.text}</p>`;
    })
    .join('');
  const rows = model.forest.rows;
  const summaryRow = model.forest.summary;
  const maxForest = ctx.maxForestRows ?? FOREST_ROWS;
  const forestMore = rows.length > maxForest ? ` The first ${maxForest.toLocaleString('en-US')} rows, changed ones first, are drawn; the table below has the other ${(rows.length - maxForest).toLocaleString('en-US')}.` : '';
  const forest = rows.length > 0 ? `<h2>Changes</h2><p class="muted">Each benchmark's change with its ${esc(confidence)} interval; the shaded band is ±threshold, worse is to the right.${forestMore}</p><div class="scroll">${forestSvg(rows.slice(0, maxForest), { id: 'forest', confidence, summary: summaryRow })}</div>` : '';
  const maxTable = ctx.maxTableRows ?? TABLE_ROWS;
  const shownRows: string[] = [];
  let hiddenRows = 0;
  const addRow = (r: Row, derived: boolean) => {
    if (shownRows.length < maxTable) shownRows.push(tableRow(r, derived, confidence));
    else hiddenRows++;
  };
  for (const g of groups) {
    addRow(g.primary, false);
    for (const d of g.derived) addRow(d, true);
  }
  const tableRows = shownRows.join('');
  const tableMore = hiddenRows > 0 ? `<p class="muted">${maxTable.toLocaleString('en-US')} rows are shown, changed ones first; the other ${hiddenRows.toLocaleString('en-US')} are in the results file (<code>pairbench report</code> lists every one).</p>` : '';
  const table = `<h2>All benchmarks</h2><div class="scroll"><table><caption class="muted">Medians ± ${spreadName(results.benchmarks) === 'MAD' ? 'MAD (× 1.4826, relative to the median)' : 'coefficient of variation'}; change of head against base with its ${esc(confidence)} interval.${levelNote ? ` ${esc(levelNote)}.` : ''}${designs ? ` ${esc(designs)}.` : ''}</caption><thead><tr><th scope="col">verdict</th><th scope="col">benchmark</th><th scope="col">metric</th><th scope="col" class="num">change</th><th scope="col" class="num">base</th><th scope="col" class="num">head</th><th scope="col" class="num" title="MAD × 1.4826 of head/base across pairs, relative: what pairing leaves of the noise">paired ±</th><th scope="col" class="num">p (adj.)</th><th scope="col" class="num">pairs</th></tr></thead><tbody>${tableRows}</tbody></table></div>${tableMore}`;
  const max = ctx.maxSections ?? 200;
  const all = groups.flatMap((g) => [g.primary, ...g.derived]);
  const sections: string[] = [];
  const notesOf = new Map<string, RowNote[]>();
  for (const n of model.rowNotes) notesOf.set(n.name, [...(notesOf.get(n.name) ?? []), n]);
  let sectionBytes = 0;
  for (const r of all) {
    if (sections.length >= max || sectionBytes >= (ctx.maxSectionBytes ?? SECTION_BYTES)) break;
    const section = benchSection(r, notesOf.get(r.result.name) ?? [], threshold, confidence, sections.length);
    sections.push(section);
    sectionBytes += section.length;
  }
  const more = all.length > sections.length ? `<p class="muted">The plots of ${(all.length - sections.length).toLocaleString('en-US')} more results are left out, to keep this report small; the table above has their figures, and the results file every pair.</p>` : '';
  const allFailures = results.failures ?? [];
  const failures = allFailures.slice(0, FAILURES).map((f) => `<li><strong>${esc(f.side)}</strong>${f.benchmark ? ` (${esc(f.benchmark)})` : ''}: ${esc(cutText(f.message, 500))}${f.stderrTail ? `<pre>${esc(tailText(f.stderrTail, 4000))}</pre>` : ''}</li>`);
  const replay = replayLines(results, ctx.replay);
  const env = results.environment;
  const about = [
    `<li>base: <code>${esc(results.base.sha ?? results.base.ref ?? results.base.dir ?? 'unknown')}</code>, head: <code>${esc(results.head.sha ?? results.head.ref ?? results.head.dir ?? 'unknown')}</code></li>`,
    env ? `<li>environment: ${esc([env.os, env.cpu, env.cores !== undefined ? `${env.cores} cores` : undefined, env.node ? `Node ${env.node}` : undefined].filter(Boolean).join(', '))}</li>` : '',
    ...measuredHow(results).map((h) => `<li>${esc(h.label)}: <code>${esc(h.value)}</code>, ${esc(h.meaning)}</li>`),
    results.stoppedBecause ? `<li>stopped because: ${esc(results.stoppedBecause)}</li>` : '',
    results.tool ? `<li>${esc(results.tool.name)} ${esc(results.tool.version)}</li>` : '',
  ].join('');
  const run = ctx.runUrl && /^https?:\/\//.test(ctx.runUrl) ? `<p><a href="${escapeHtml(ctx.runUrl)}">Workflow run</a></p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}: ${nothingPlain ? `${esc(nothingPlain)}: ` : ''}${parts.length ? parts.map((p) => p.replace(/<[^>]+>/g, '')).join(', ') : esc(none.words)}</title>
<style>${CSS}</style></head>
<body><main>
<h1>${nothing ? `⛔ ${nothing}: ` : ''}${parts.join(', ') || esc(`${none.emoji ? `${none.emoji} ` : ''}${none.words}`)} <span class="muted">· ${esc(title)}</span></h1>
${summary}${notes}${shared}${run}
${forest}
${table}
${notRunHtml(results)}
${failures.length ? `<h2>Failures</h2><ul>${failures.join('')}</ul>${allFailures.length > failures.length ? `<p class="muted">${(allFailures.length - failures.length).toLocaleString('en-US')} more failures are in the results file.</p>` : ''}` : ''}
<h2>Each benchmark</h2>
<p class="muted">The distribution of the paired ratios (head/base − 1, one dot per pair) and the pairs in measuring order: drift of the machine moves base and head together and cancels in their ratio. Past ${MAX_DRAWN_PAIRS} pairs a benchmark's plots draw bins (a histogram; the median, min and max of each run of pairs), as each plot says.</p>
${sections.join('\n')}${more}
<h2>How this was measured</h2><ul>${about}</ul>
<p>Replay this comparison:</p><pre>${esc(replay.replay)}</pre>${replay.replayNote ? `<p class="muted">${esc(replay.replayNote.replace(/`/g, ''))}</p>` : ''}
<p>Judge the saved results again:</p><pre>${esc(replay.rejudge)}</pre>
</main></body></html>
`;
}
