/**
 * The SVG plots of the HTML report, written by hand: a forest plot of every benchmark, and for one
 * benchmark the distribution of its paired ratios and the timeline of its pairs. Each is a few
 * dozen lines of SVG with no script, so the report stays self-contained, small, and readable
 * without JavaScript; a plotting library (Observable Plot, Vega-Lite) would add a bundled runtime
 * of several hundred kilobytes and a DOM to render into, for three plot types.
 *
 * Accessibility: every plot is `role="img"` with a `<title>` and a `<desc>` that says in words
 * what it shows; marks differ by shape as well as colour (base ○, head □, excluded outlier ×).
 * Colours come from CSS variables, so light and dark themes both apply.
 */
import type { BenchmarkResult } from '../results/schema.ts';
import { forestRange, type ForestRow } from './forest.ts';
import { formatChange, formatValue } from './format.ts';

/** Escapes text for HTML and SVG text and attribute values. */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const n = (x: number) => (Math.round(x * 10) / 10).toString();

function svgOpen(id: string, width: number, height: number, title: string, desc: string, kind: string): string {
  return `<svg class="plot ${kind}" data-plot="${kind}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg"><title id="${id}-t">${escapeHtml(title)}</title><desc id="${id}-d">${escapeHtml(desc)}</desc>`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const KIND_CLASS: Record<string, string> = { regression: 'regression', improvement: 'improvement', inconclusive: 'inconclusive', unchanged: 'unchanged' };

/** The forest plot: one row per benchmark; estimate ●, interval bar, zero line, ±threshold band; worse to the right. */
export function forestSvg(rows: readonly ForestRow[], opts: { id: string; confidence: string; summary?: ForestRow | null }): string {
  const all = opts.summary ? [...rows, opts.summary] : [...rows];
  const range = forestRange(all);
  // room for the longest label (about 7 px a character at 12 px), at most 38 characters
  const labelW = Math.min(280, Math.max(90, 16 + 7 * Math.max(...all.map((r) => Math.min(38, r.label.length)))));
  const plotW = 420;
  const right = 110;
  const rowH = 24;
  const top = 34;
  const height = top + all.length * rowH + (opts.summary ? 8 : 0) + 14;
  const width = labelW + plotW + right;
  const x = (v: number) => labelW + ((Math.max(-range, Math.min(range, v)) + range) / (2 * range)) * plotW;
  const out: string[] = [];
  const regressions = rows.filter((r) => r.kind === 'regression').length;
  out.push(
    svgOpen(
      opts.id,
      width,
      height,
      `Forest plot: change of head against base, ${opts.confidence} intervals`,
      `${rows.length} benchmark${rows.length === 1 ? '' : 's'} on one axis from ${formatChange(-range)} to ${formatChange(range)}, worse to the right; ${regressions} regression${regressions === 1 ? '' : 's'}. Each row: the estimate as a dot, its interval as a bar, the ±threshold band shaded around zero.`,
      'forest',
    ),
  );
  out.push(`<text class="axis" x="${labelW}" y="12">better ←</text><text class="axis" x="${labelW + plotW}" y="12" text-anchor="end">→ worse</text>`);
  for (const t of [-range, -range / 2, 0, range / 2, range]) {
    out.push(`<text class="axis" x="${n(x(t))}" y="28" text-anchor="middle">${escapeHtml(t === 0 ? '0' : formatChange(t))}</text>`);
  }
  all.forEach((r, i) => {
    const y = top + i * rowH + (r === opts.summary ? 8 : 0) + rowH / 2;
    const thr = Math.min(r.threshold, range);
    const cls = KIND_CLASS[r.kind] ?? 'other';
    out.push(`<g class="row ${cls}" data-row="${escapeHtml(r.label)}">`);
    out.push(`<text class="label" x="${labelW - 8}" y="${n(y + 4)}" text-anchor="end">${escapeHtml(cut(r.label, 38))}</text>`);
    out.push(`<rect class="band" x="${n(x(-thr))}" y="${n(y - rowH / 2 + 2)}" width="${n(x(thr) - x(-thr))}" height="${rowH - 4}"/>`);
    out.push(`<line class="zero" x1="${n(x(0))}" x2="${n(x(0))}" y1="${n(y - rowH / 2)}" y2="${n(y + rowH / 2)}"/>`);
    out.push(`<line class="interval" x1="${n(x(r.ci[0]))}" x2="${n(x(r.ci[1]))}" y1="${n(y)}" y2="${n(y)}"/>`);
    if (r.ci[0] < -range) out.push(`<path class="clip" d="M${n(x(-range))} ${n(y)} l6 -5 v10 z"/>`);
    if (r.ci[1] > range) out.push(`<path class="clip" d="M${n(x(range))} ${n(y)} l-6 -5 v10 z"/>`);
    out.push(`<circle class="estimate" cx="${n(x(r.estimate))}" cy="${n(y)}" r="5"/>`);
    out.push(`<text class="value" x="${labelW + plotW + 8}" y="${n(y + 4)}">${escapeHtml(formatChange(r.shown))}</text>`);
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('');
}

/** Quantile of sorted values (linear interpolation). */
function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

/**
 * The paired ratios of one benchmark as a dot strip: each pair's head/base as a change, the kept
 * ones as dots, excluded outliers as ×, flagged-but-kept as hollow dots; the estimate and its
 * interval, zero and the ±threshold band behind.
 */
export function ratiosSvg(b: BenchmarkResult, opts: { id: string; threshold: number; confidence: string }): string {
  const width = 760;
  const height = 120;
  const left = 20;
  const plotW = width - 2 * left;
  const changes = b.pairs.map((p) => p.head / p.base - 1);
  const excluded = new Set(b.outliers ?? []);
  const flagged = new Set(b.outliersKept ?? []);
  const sorted = [...changes].sort((a, c) => a - c);
  const ci = b.change?.ci ?? [0, 0];
  const lo = Math.min(quantile(sorted, 0), -opts.threshold * 1.2, ci[0]);
  const hi = Math.max(quantile(sorted, 1), opts.threshold * 1.2, ci[1]);
  const pad = (hi - lo) * 0.05 || 0.01;
  const x = (v: number) => left + ((v - (lo - pad)) / (hi - lo + 2 * pad)) * plotW;
  const out: string[] = [];
  out.push(
    svgOpen(
      opts.id,
      width,
      height,
      `Paired ratios of ${cut(b.name, 80)}`,
      `${b.pairs.length} pairs, each as head/base − 1 from ${formatChange(sorted[0] ?? 0)} to ${formatChange(sorted.at(-1) ?? 0)}; ${excluded.size} excluded as outliers (marked ×). Estimate ${b.change ? formatChange(b.change.estimate) : 'none'}, ${opts.confidence} interval shaded.`,
      'ratios',
    ),
  );
  const mid = 60;
  out.push(`<rect class="band" x="${n(x(-opts.threshold))}" y="20" width="${n(x(opts.threshold) - x(-opts.threshold))}" height="80"/>`);
  if (b.change) out.push(`<rect class="ci" x="${n(x(ci[0]))}" y="24" width="${n(Math.max(1, x(ci[1]) - x(ci[0])))}" height="72"/>`);
  out.push(`<line class="zero" x1="${n(x(0))}" x2="${n(x(0))}" y1="16" y2="104"/>`);
  if (b.change) out.push(`<line class="estimate-line" x1="${n(x(b.change.estimate))}" x2="${n(x(b.change.estimate))}" y1="20" y2="100"/>`);
  changes.forEach((c, i) => {
    // a fixed jitter from the pair's index, so the plot is the same on every render
    const y = mid + (((i * 37) % 17) - 8) * 3.5;
    const cx = n(x(c));
    if (excluded.has(i)) out.push(`<path class="outlier" data-pair="${i}" d="M${n(x(c) - 4)} ${n(y - 4)}l8 8m0 -8l-8 8"><title>pair ${i + 1}: ${escapeHtml(formatChange(c))}, excluded as an outlier</title></path>`);
    else out.push(`<circle class="${flagged.has(i) ? 'flagged' : 'pair'}" data-pair="${i}" cx="${cx}" cy="${n(y)}" r="3.5"><title>pair ${i + 1}: ${escapeHtml(formatChange(c))}${flagged.has(i) ? ', flagged but kept' : ''}</title></circle>`);
  });
  for (const t of [lo, 0, hi]) out.push(`<text class="axis" x="${n(x(t))}" y="116" text-anchor="middle">${escapeHtml(t === 0 ? '0' : formatChange(t))}</text>`);
  out.push(`<text class="axis" x="${left}" y="12">head/base − 1 per pair (● kept, ○ flagged but kept, × excluded)</text>`);
  out.push('</svg>');
  return out.join('');
}

/**
 * The pairs in measuring order: base ○ and head □ per pair (top), and their ratio (bottom). Drift
 * of the machine moves both sides together, and the ratio stays flat: this is what pairing buys.
 */
export function timelineSvg(b: BenchmarkResult, opts: { id: string }): string {
  const width = 760;
  const height = 230;
  const left = 70;
  const right = 12;
  const plotW = width - left - right;
  const k = b.pairs.length;
  const values = b.pairs.flatMap((p) => [p.base, p.head]);
  const vMin = Math.min(...values);
  const vMax = Math.max(...values);
  const vPad = (vMax - vMin) * 0.08 || vMax * 0.01 || 1;
  const ratios = b.pairs.map((p) => p.head / p.base - 1);
  const rMin = Math.min(...ratios, 0);
  const rMax = Math.max(...ratios, 0);
  const rPad = (rMax - rMin) * 0.1 || 0.01;
  const x = (i: number) => left + (k <= 1 ? plotW / 2 : (i / (k - 1)) * plotW);
  const yv = (v: number) => 20 + (1 - (v - (vMin - vPad)) / (vMax - vMin + 2 * vPad)) * 110;
  const yr = (v: number) => 160 + (1 - (v - (rMin - rPad)) / (rMax - rMin + 2 * rPad)) * 50;
  const excluded = new Set(b.outliers ?? []);
  const out: string[] = [];
  out.push(
    svgOpen(
      opts.id,
      width,
      height,
      `Timeline of the pairs of ${cut(b.name, 80)}`,
      `${k} pairs in measuring order. Top: base (circles) and head (squares) from ${formatValue(vMin, b.unit)} to ${formatValue(vMax, b.unit)}. Bottom: head/base − 1 of each pair; drift that moves both sides cancels in it.`,
      'timeline',
    ),
  );
  const path = (pts: [number, number][]) => pts.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${n(px)} ${n(py)}`).join('');
  out.push(`<path class="base-line" d="${path(b.pairs.map((p, i) => [x(i), yv(p.base)]))}"/>`);
  out.push(`<path class="head-line" d="${path(b.pairs.map((p, i) => [x(i), yv(p.head)]))}"/>`);
  b.pairs.forEach((p, i) => {
    out.push(`<circle class="base" data-pair="${i}" cx="${n(x(i))}" cy="${n(yv(p.base))}" r="3"><title>pair ${i + 1} base: ${escapeHtml(formatValue(p.base, b.unit))}</title></circle>`);
    out.push(`<rect class="head" data-pair="${i}" x="${n(x(i) - 3)}" y="${n(yv(p.head) - 3)}" width="6" height="6"><title>pair ${i + 1} head: ${escapeHtml(formatValue(p.head, b.unit))} (${p.order})</title></rect>`);
  });
  out.push(`<line class="zero" x1="${left}" x2="${left + plotW}" y1="${n(yr(0))}" y2="${n(yr(0))}"/>`);
  out.push(`<path class="ratio-line" d="${path(ratios.map((r, i) => [x(i), yr(r)]))}"/>`);
  ratios.forEach((r, i) => {
    if (excluded.has(i)) out.push(`<path class="outlier" data-pair="${i}" d="M${n(x(i) - 3)} ${n(yr(r) - 3)}l6 6m0 -6l-6 6"/>`);
    else out.push(`<circle class="ratio" data-pair="${i}" cx="${n(x(i))}" cy="${n(yr(r))}" r="2.5"/>`);
  });
  out.push(`<text class="axis" x="${left - 6}" y="${n(yv(vMax) + 4)}" text-anchor="end">${escapeHtml(formatValue(vMax, b.unit))}</text>`);
  out.push(`<text class="axis" x="${left - 6}" y="${n(yv(vMin) + 4)}" text-anchor="end">${escapeHtml(formatValue(vMin, b.unit))}</text>`);
  out.push(`<text class="axis" x="${left - 6}" y="${n(yr(rMax) + 4)}" text-anchor="end">${escapeHtml(formatChange(rMax))}</text>`);
  out.push(`<text class="axis" x="${left - 6}" y="${n(yr(0) + 4)}" text-anchor="end">0</text>`);
  out.push(`<text class="axis" x="${left}" y="12">○ base  □ head, per pair in measuring order</text>`);
  out.push(`<text class="axis" x="${left}" y="150">head/base − 1 (× excluded)</text>`);
  out.push(`<text class="axis" x="${left + plotW}" y="226" text-anchor="end">pair ${k}</text><text class="axis" x="${left}" y="226">pair 1</text>`);
  out.push('</svg>');
  return out.join('');
}
