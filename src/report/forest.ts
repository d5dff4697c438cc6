/**
 * The forest plot: one row per benchmark with its estimated change, its interval, the line of no
 * change and its ±threshold band, on one shared axis, worse always to the right (a throughput that
 * drops is drawn as the cost it adds). A reader sees at once which intervals leave the band.
 *
 * Two renderings share the rows and the scale: a fixed-width text plot for the PR comment (plain
 * ASCII in a code block, so it renders the same in every GitHub view, e-mail and mobile app
 * included, for one benchmark as for fifty), and an SVG for the HTML report (html-plots.ts).
 */
import type { BenchmarkResult } from '../results/schema.ts';
import { formatChange } from './format.ts';
import { type Group, type RowKind, worseChange } from './rows.ts';

export interface ForestRow {
  label: string;
  kind: RowKind;
  /** relative change, + is worse: where the row is drawn */
  estimate: number;
  ci: [number, number];
  threshold: number;
  /** the change as measured (head/base − 1), printed beside the row; for a throughput it differs in sign from `estimate` */
  shown: number;
}

/** The rows of a forest plot: each group's own metric, and its other metrics that changed. */
export function forestRows(groups: readonly Group[], defaultThreshold: number): ForestRow[] {
  const rows: ForestRow[] = [];
  const add = (b: BenchmarkResult, label: string, kind: RowKind) => {
    const w = worseChange(b);
    if (!w || !Number.isFinite(w.ci[0]) || !Number.isFinite(w.ci[1])) return;
    rows.push({ label, kind, estimate: w.estimate, ci: w.ci, threshold: b.threshold ?? defaultThreshold, shown: b.change!.estimate });
  };
  for (const g of groups) {
    const m = g.primary.result.metric;
    add(g.primary.result, m && m !== 'wall' ? `${g.primary.name} [${m}]` : g.primary.name, g.primary.kind);
    for (const d of g.derived) if (d.kind !== 'unchanged') add(d.result, `${d.name} ${d.metric}`, d.kind);
  }
  return rows;
}

/**
 * The half-width of the shared axis: every interval and band fits, with a margin. One extreme
 * benchmark must not squash the others flat, so past ten times the largest threshold (or 50%) the
 * axis stops and the ends beyond it are drawn as arrows.
 */
export function forestRange(rows: readonly ForestRow[]): number {
  // loops, not Math.max(...rows): a suite may have 100,000 rows, past what a call's arguments hold
  let thr = 0.01;
  let reach = -Infinity;
  for (const r of rows) {
    thr = Math.max(thr, r.threshold);
    reach = Math.max(reach, Math.abs(r.ci[0]), Math.abs(r.ci[1]), Math.abs(r.estimate), r.threshold * 1.5);
  }
  const cap = Math.max(thr * 10, 0.5);
  const r = Math.min(Math.max(reach * 1.1, thr * 2), cap);
  // a round number of percent, so the axis labels read cleanly
  const pct = r * 100;
  const step = pct <= 5 ? 1 : pct <= 20 ? 2 : pct <= 50 ? 5 : 10;
  return (Math.ceil(pct / step) * step) / 100;
}

const PLOT_WIDTH = 33;
const LABEL_WIDTH = 40;
/** where the label starts: plot, change, verdict word */
export const FOREST_LABEL_COLUMN = PLOT_WIDTH + 1 + 7 + 2 + 12 + 2;
const VERDICT_WORD: Record<RowKind, string> = {
  regression: 'regression',
  improvement: 'improvement',
  unchanged: 'unchanged',
  inconclusive: 'inconclusive',
  failed: 'failed',
  added: 'added',
  removed: 'removed',
  'no-data': '',
};

/** Characters a text plot may carry from a benchmark name: printable ASCII (one column each). */
function plainLabel(text: string, width: number): string {
  const ascii = text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '?');
  return ascii.length <= width ? ascii : `${ascii.slice(0, width - 3)}...`;
}

function column(x: number, range: number): number {
  const c = Math.round(((x + range) / (2 * range)) * (PLOT_WIDTH - 1));
  return Math.min(PLOT_WIDTH - 1, Math.max(0, c));
}

/** One row of the text plot: band `:`, zero `|`, interval `[---]`, estimate `o`, ends past the axis `<` `>`. */
function plotLine(row: ForestRow, range: number): string {
  const cells = Array.from({ length: PLOT_WIDTH }, () => ' ');
  const t = Math.min(row.threshold, range);
  cells[column(-t, range)] = ':';
  cells[column(t, range)] = ':';
  cells[column(0, range)] = '|';
  const lo = column(row.ci[0], range);
  const hi = column(row.ci[1], range);
  for (let c = lo; c <= hi; c++) cells[c] = '-';
  cells[lo] = row.ci[0] < -range ? '<' : '[';
  cells[hi] = row.ci[1] > range ? '>' : ']';
  const e = column(row.estimate, range);
  cells[e] = row.estimate < -range ? '<' : row.estimate > range ? '>' : 'o';
  return cells.join('');
}

function axisPct(x: number): string {
  const v = Math.round(x * 1000) / 10;
  return `${v > 0 ? '+' : v < 0 ? '-' : ''}${Math.abs(v)}%`;
}

/**
 * The text forest plot, for a code block: ASCII only, every line the same width. `more` rows left
 * out are counted on the last line.
 */
export function renderForestText(rows: readonly ForestRow[], opts: { confidence: string; more?: number; summary?: ForestRow | null }): string {
  const all = opts.summary ? [...rows, opts.summary] : [...rows];
  if (all.length === 0) return '';
  const range = forestRange(all);
  const left = axisPct(-range);
  const right = axisPct(range);
  const mid = column(0, range);
  const axis = `${left}${' '.repeat(Math.max(1, mid - left.length))}0${' '.repeat(Math.max(1, PLOT_WIDTH - mid - 1 - right.length))}${right}`;
  // the plot comes first, so that on a phone (about 42 columns) the plot and the change are on screen
  const lines = [`${'better <-'.padEnd(mid)}|${'-> worse'.padStart(PLOT_WIDTH - mid - 1)}`, axis];
  const line = (r: ForestRow) => `${plotLine(r, range)} ${formatChange(r.shown).replace('−', '-').padStart(7)}  ${VERDICT_WORD[r.kind].padEnd(12)}  ${plainLabel(r.label, LABEL_WIDTH)}`.trimEnd();
  for (const r of rows) lines.push(line(r));
  if (opts.summary) lines.push('.'.repeat(PLOT_WIDTH), line(opts.summary));
  if (opts.more) lines.push(`(${opts.more} more benchmark${opts.more === 1 ? '' : 's'} in the HTML report)`);
  lines.push('', `o estimate  [---] ${opts.confidence} interval`, '| no change  : ±threshold', 'Right is worse: slower, bigger,', 'or a lower throughput.');
  return lines.join('\n');
}
