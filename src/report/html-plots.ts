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
 *
 * Size: a benchmark may hold a million pairs (the results file's cap). Up to
 * {@link MAX_DRAWN_PAIRS} pairs each is drawn as its own mark; above, the plots draw a bounded
 * number of bins, whatever the count (the distribution as a histogram, the timeline as min, median
 * and max per bin, so a spike stays visible), and say so on the plot. No array is spread into a
 * function call: `Math.min(...values)` overflows the stack past about 65,000 values.
 */
import type { BenchmarkResult } from '../results/schema.ts';
import { pairRatio } from '../stats/analysis.ts';
import { quantileSorted as quantile } from '../stats/describe.ts';
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

/**
 * `text` cut to at most `max` characters (code points, so a surrogate pair is never split into
 * halves that render as U+FFFD), with `…` when cut.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let points = 0;
  let cutAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // the low half of a surrogate pair is part of the code point its high half started
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    if (points === max - 1) cutAt = i;
    if (++points > max) return `${text.slice(0, cutAt)}…`;
  }
  return text;
}

const cut = cutText;

/** Pairs drawn one by one up to this many per benchmark; above, both plots draw bins. */
export const MAX_DRAWN_PAIRS = 200;
/** Bins of the timeline of a benchmark with more than {@link MAX_DRAWN_PAIRS} pairs. */
export const TIMELINE_BINS = 200;
/** Bins of the histogram of the paired ratios above {@link MAX_DRAWN_PAIRS} pairs. */
export const HISTOGRAM_BINS = 120;

/** Smallest and largest of `values`, in one loop (never `Math.min(...values)`). */
function extent(values: ArrayLike<number>, from = 0, to = values.length): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

const count = (k: number) => k.toLocaleString('en-US');

const KIND_CLASS: Record<string, string> = { regression: 'regression', improvement: 'improvement', inconclusive: 'inconclusive', unchanged: 'unchanged' };

/** The forest plot: one row per benchmark; estimate ●, interval bar, zero line, ±threshold band; worse to the right. */
export function forestSvg(rows: readonly ForestRow[], opts: { id: string; confidence: string; summary?: ForestRow | null }): string {
  const all = opts.summary ? [...rows, opts.summary] : [...rows];
  const range = forestRange(all);
  // room for the longest label (about 7 px a character at 12 px), at most 38 characters
  let longest = 0;
  for (const r of all) longest = Math.max(longest, Math.min(38, r.label.length));
  const labelW = Math.min(280, Math.max(90, 16 + 7 * longest));
  const plotW = 420;
  const right = 110;
  const rowH = 24;
  const top = 34;
  const height = top + all.length * rowH + (opts.summary ? 8 : 0) + 14;
  const width = labelW + plotW + right;
  const x = (v: number) => labelW + ((Math.max(-range, Math.min(range, v)) + range) / (2 * range)) * plotW;
  const out: string[] = [];
  // rows, not benchmarks: a benchmark's changed metric (MB/s) is a row of its own; the heading counts benchmarks
  const regressions = rows.filter((r) => r.kind === 'regression').length;
  out.push(
    svgOpen(
      opts.id,
      width,
      height,
      `Forest plot: change of head against base, ${opts.confidence} intervals`,
      `${rows.length} row${rows.length === 1 ? '' : 's'} (each benchmark's own metric, and its other metrics that changed) on one axis from ${formatChange(-range)} to ${formatChange(range)}, worse to the right; ${regressions} of them regressed. Each row: the estimate as a dot, its interval as a bar, the ±threshold band shaded around zero.`,
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


/** Each pair's head/base − 1, in measuring order. */
function pairChanges(b: BenchmarkResult): Float64Array {
  return Float64Array.from(b.pairs, (p) => pairRatio(p) - 1);
}

/**
 * The paired ratios of one benchmark: each pair's head/base as a change, with the estimate and its
 * interval, zero and the ±threshold band behind. Up to {@link MAX_DRAWN_PAIRS} pairs, a dot strip
 * (kept pairs as dots, excluded outliers as ×, flagged-but-kept as hollow dots); above, a histogram
 * of {@link HISTOGRAM_BINS} bins.
 */
export function ratiosSvg(b: BenchmarkResult, opts: { id: string; threshold: number; confidence: string }): string {
  const width = 760;
  const height = 120;
  const left = 20;
  const plotW = width - 2 * left;
  const changes = pairChanges(b);
  const excluded = new Set(b.outliers ?? []);
  const flagged = new Set(b.outliersKept ?? []);
  const binned = changes.length > MAX_DRAWN_PAIRS;
  const ci = b.change?.ci ?? [0, 0];
  const [first, last] = extent(changes);
  // binned, the axis spans the kept pairs: a few extreme outliers must not squash every bar into one
  let [lo, hi] = binned ? keptExtent(changes, excluded) : [first, last];
  lo = Math.min(lo, -opts.threshold * 1.2, ci[0]);
  hi = Math.max(hi, opts.threshold * 1.2, ci[1]);
  const pad = (hi - lo) * 0.05 || 0.01;
  const x = (v: number) => left + ((v - (lo - pad)) / (hi - lo + 2 * pad)) * plotW;
  const out: string[] = [];
  const shape = binned ? `a histogram of ${HISTOGRAM_BINS} bins (bar height: kept pairs in the bin; × above a bin that holds excluded pairs)` : 'one mark per pair';
  out.push(
    svgOpen(
      opts.id,
      width,
      height,
      `Paired ratios of ${cut(b.name, 80)}`,
      `${count(b.pairs.length)} pairs, each as head/base − 1 from ${formatChange(first)} to ${formatChange(last)}, drawn as ${shape}; ${count(excluded.size)} excluded as outliers (marked ×). Estimate ${b.change ? formatChange(b.change.estimate) : 'none'}, ${opts.confidence} interval shaded.`,
      'ratios',
    ),
  );
  out.push(`<rect class="band" x="${n(x(-opts.threshold))}" y="20" width="${n(x(opts.threshold) - x(-opts.threshold))}" height="80"/>`);
  if (b.change) out.push(`<rect class="ci" x="${n(x(ci[0]))}" y="24" width="${n(Math.max(1, x(ci[1]) - x(ci[0])))}" height="72"/>`);
  out.push(`<line class="zero" x1="${n(x(0))}" x2="${n(x(0))}" y1="16" y2="104"/>`);
  if (b.change) out.push(`<line class="estimate-line" x1="${n(x(b.change.estimate))}" x2="${n(x(b.change.estimate))}" y1="20" y2="100"/>`);
  if (binned) histogram(out, changes, excluded, { lo: lo - pad, hi: hi + pad, x });
  else {
    changes.forEach((c, i) => {
      // a fixed jitter from the pair's index, so the plot is the same on every render
      const y = 60 + (((i * 37) % 17) - 8) * 3.5;
      const cx = n(x(c));
      if (excluded.has(i)) out.push(`<path class="outlier" data-pair="${i}" d="M${n(x(c) - 4)} ${n(y - 4)}l8 8m0 -8l-8 8"><title>pair ${i + 1}: ${escapeHtml(formatChange(c))}, excluded as an outlier</title></path>`);
      else out.push(`<circle class="${flagged.has(i) ? 'flagged' : 'pair'}" data-pair="${i}" cx="${cx}" cy="${n(y)}" r="3.5"><title>pair ${i + 1}: ${escapeHtml(formatChange(c))}${flagged.has(i) ? ', flagged but kept' : ''}</title></circle>`);
    });
  }
  for (const t of [lo, 0, hi]) out.push(`<text class="axis" x="${n(x(t))}" y="116" text-anchor="middle">${escapeHtml(t === 0 ? '0' : formatChange(t))}</text>`);
  const legend = binned
    ? `head/base − 1: ${count(changes.length)} pairs in ${HISTOGRAM_BINS} bins (bars: kept pairs per bin, × excluded)`
    : 'head/base − 1 per pair (● kept, ○ flagged but kept, × excluded)';
  out.push(`<text class="axis" x="${left}" y="12">${escapeHtml(legend)}</text>`);
  out.push('</svg>');
  return out.join('');
}

/** Smallest and largest change of the kept pairs (of all pairs when every one was excluded). */
function keptExtent(changes: Float64Array, excluded: ReadonlySet<number>): [number, number] {
  if (excluded.size === 0 || excluded.size >= changes.length) return extent(changes);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < changes.length; i++) {
    if (excluded.has(i)) continue;
    const v = changes[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/**
 * The histogram of a binned ratios plot: one bar per bin of kept pairs (its height by the count,
 * the tallest bin full height), and a × above each bin that holds excluded pairs. Excluded pairs
 * beyond the axis are counted in its end bins, and their titles say so.
 */
function histogram(out: string[], changes: Float64Array, excluded: ReadonlySet<number>, axis: { lo: number; hi: number; x: (v: number) => number }): void {
  const kept = new Float64Array(HISTOGRAM_BINS);
  const dropped = new Float64Array(HISTOGRAM_BINS);
  const beyond = new Float64Array(HISTOGRAM_BINS);
  const step = (axis.hi - axis.lo) / HISTOGRAM_BINS;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const raw = Math.floor((c - axis.lo) / step);
    const j = Math.min(HISTOGRAM_BINS - 1, Math.max(0, Number.isFinite(raw) ? raw : 0));
    if (excluded.has(i)) {
      dropped[j]!++;
      if (raw !== j) beyond[j]!++;
    } else kept[j]!++;
  }
  const [, tallest] = extent(kept);
  for (let j = 0; j < HISTOGRAM_BINS; j++) {
    const from = axis.lo + j * step;
    const x0 = axis.x(from);
    const w = Math.max(0.5, axis.x(from + step) - x0 - 0.5);
    const range = `${formatChange(from)} to ${formatChange(from + step)}`;
    if (kept[j]! > 0) {
      const h = Math.max(1, (kept[j]! / tallest) * 66);
      out.push(`<rect class="bar" x="${n(x0)}" y="${n(98 - h)}" width="${n(w)}" height="${n(h)}"><title>${escapeHtml(`${range}: ${count(kept[j]!)} pairs`)}</title></rect>`);
    }
    if (dropped[j]! > 0) {
      const cx = x0 + w / 2;
      const note = beyond[j]! > 0 ? ` (${count(beyond[j]!)} beyond the axis)` : '';
      out.push(`<path class="outlier" d="M${n(cx - 4)} 22l8 8m0 -8l-8 8"><title>${escapeHtml(`${range}: ${count(dropped[j]!)} pairs excluded as outliers${note}`)}</title></path>`);
    }
  }
}

/**
 * The pairs in measuring order: base ○ and head □ per pair (top), and their ratio (bottom). Drift
 * of the machine moves both sides together, and the ratio stays flat: this is what pairing buys.
 * Above {@link MAX_DRAWN_PAIRS} pairs, the pairs are cut into {@link TIMELINE_BINS} runs of
 * consecutive pairs, each drawn as its median (the lines) and its range from min to max (the
 * whiskers), so a single slow pair still shows as a spike.
 */
export function timelineSvg(b: BenchmarkResult, opts: { id: string }): string {
  const width = 760;
  const height = 230;
  const left = 70;
  const right = 12;
  const plotW = width - left - right;
  const k = b.pairs.length;
  const base = Float64Array.from(b.pairs, (p) => p.base);
  const head = Float64Array.from(b.pairs, (p) => p.head);
  const ratios = pairChanges(b);
  const [bMin, bMax] = extent(base);
  const [hMin, hMax] = extent(head);
  const vMin = Math.min(bMin, hMin);
  const vMax = Math.max(bMax, hMax);
  const vPad = (vMax - vMin) * 0.08 || vMax * 0.01 || 1;
  const [r0, r1] = extent(ratios);
  const rMin = Math.min(r0, 0);
  const rMax = Math.max(r1, 0);
  const rPad = (rMax - rMin) * 0.1 || 0.01;
  const x = (i: number) => left + (k <= 1 ? plotW / 2 : (i / (k - 1)) * plotW);
  const yv = (v: number) => 20 + (1 - (v - (vMin - vPad)) / (vMax - vMin + 2 * vPad)) * 110;
  const yr = (v: number) => 160 + (1 - (v - (rMin - rPad)) / (rMax - rMin + 2 * rPad)) * 50;
  const excluded = new Set(b.outliers ?? []);
  const binned = k > MAX_DRAWN_PAIRS;
  const perBin = binned ? `median, min and max of each of ${TIMELINE_BINS} runs of about ${count(Math.round(k / TIMELINE_BINS))} consecutive pairs` : 'every pair';
  const out: string[] = [];
  out.push(
    svgOpen(
      opts.id,
      width,
      height,
      `Timeline of the pairs of ${cut(b.name, 80)}`,
      `${count(k)} pairs in measuring order, drawn as ${perBin}. Top: base (circles) and head (squares) from ${formatValue(vMin, b.unit)} to ${formatValue(vMax, b.unit)}. Bottom: head/base − 1 of each pair; drift that moves both sides cancels in it.`,
      'timeline',
    ),
  );
  const path = (pts: [number, number][]) => pts.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${n(px)} ${n(py)}`).join('');
  if (binned) binnedTimeline(out, { base, head, ratios, excluded, unit: b.unit, x, yv, yr, path, top: 20, bottom: 215 });
  else {
    out.push(`<path class="base-line" d="${path(b.pairs.map((p, i) => [x(i), yv(p.base)]))}"/>`);
    out.push(`<path class="head-line" d="${path(b.pairs.map((p, i) => [x(i), yv(p.head)]))}"/>`);
    b.pairs.forEach((p, i) => {
      out.push(`<circle class="base" data-pair="${i}" cx="${n(x(i))}" cy="${n(yv(p.base))}" r="3"><title>pair ${i + 1} base: ${escapeHtml(formatValue(p.base, b.unit))}</title></circle>`);
      out.push(`<rect class="head" data-pair="${i}" x="${n(x(i) - 3)}" y="${n(yv(p.head) - 3)}" width="6" height="6"><title>pair ${i + 1} head: ${escapeHtml(formatValue(p.head, b.unit))} (${p.order})</title></rect>`);
    });
    out.push(`<line class="zero" x1="${left}" x2="${left + plotW}" y1="${n(yr(0))}" y2="${n(yr(0))}"/>`);
    out.push(`<path class="ratio-line" d="${path(Array.from(ratios, (r, i) => [x(i), yr(r)]))}"/>`);
    ratios.forEach((r, i) => {
      if (excluded.has(i)) out.push(`<path class="outlier" data-pair="${i}" d="M${n(x(i) - 3)} ${n(yr(r) - 3)}l6 6m0 -6l-6 6"/>`);
      else out.push(`<circle class="ratio" data-pair="${i}" cx="${n(x(i))}" cy="${n(yr(r))}" r="2.5"/>`);
    });
  }
  out.push(`<text class="axis" x="${left - 6}" y="${n(yv(vMax) + 4)}" text-anchor="end">${escapeHtml(formatValue(vMax, b.unit))}</text>`);
  out.push(`<text class="axis" x="${left - 6}" y="${n(yv(vMin) + 4)}" text-anchor="end">${escapeHtml(formatValue(vMin, b.unit))}</text>`);
  out.push(`<text class="axis" x="${left - 6}" y="${n(yr(rMax) + 4)}" text-anchor="end">${escapeHtml(formatChange(rMax))}</text>`);
  out.push(`<text class="axis" x="${left - 6}" y="${n(yr(0) + 4)}" text-anchor="end">0</text>`);
  const legend = binned ? `○ base  □ head: median of each run of ${count(Math.round(k / TIMELINE_BINS))} pairs, whiskers min to max` : '○ base  □ head, per pair in measuring order';
  out.push(`<text class="axis" x="${left}" y="12">${escapeHtml(legend)}</text>`);
  out.push(`<text class="axis" x="${left}" y="150">${binned ? 'head/base − 1: median per run, whiskers min to max (× a run with excluded pairs)' : 'head/base − 1 (× excluded)'}</text>`);
  out.push(`<text class="axis" x="${left + plotW}" y="226" text-anchor="end">pair ${count(k)}</text><text class="axis" x="${left}" y="226">pair 1</text>`);
  out.push('</svg>');
  return out.join('');
}

interface TimelineData {
  base: Float64Array;
  head: Float64Array;
  ratios: Float64Array;
  excluded: ReadonlySet<number>;
  unit: string;
  x: (i: number) => number;
  yv: (v: number) => number;
  yr: (v: number) => number;
  path: (pts: [number, number][]) => string;
  top: number;
  bottom: number;
}

/** Min, median and max of `values[from, to)`, sorted in a copy. */
function spread(values: Float64Array, from: number, to: number): [number, number, number] {
  const s = values.slice(from, to).sort();
  return [s[0]!, quantile(s, 0.5), s[s.length - 1]!];
}

/**
 * The binned timeline: {@link TIMELINE_BINS} runs of consecutive pairs, each at the middle of its
 * pairs. Base and head: their medians joined by lines, with a ○ and a □ on them, and whiskers from
 * min to max beside each other. The ratio: its median line (of the run's kept pairs), whiskers over
 * every pair of the run, and a × at the most extreme excluded pair of a run that has one. Each
 * run has a hover title with its figures.
 */
function binnedTimeline(out: string[], d: TimelineData): void {
  const k = d.base.length;
  const bins: { from: number; to: number; base: [number, number, number]; head: [number, number, number]; ratio: [number, number, number]; keptMedian: number; worst: number | null; dropped: number }[] = [];
  for (let j = 0; j < TIMELINE_BINS; j++) {
    const from = Math.floor((j * k) / TIMELINE_BINS);
    const to = Math.floor(((j + 1) * k) / TIMELINE_BINS);
    if (to <= from) continue;
    const kept: number[] = [];
    let worst: number | null = null;
    let dropped = 0;
    for (let i = from; i < to; i++) {
      const r = d.ratios[i]!;
      if (!d.excluded.has(i)) kept.push(r);
      else {
        dropped++;
        if (worst === null || Math.abs(r) > Math.abs(worst)) worst = r;
      }
    }
    const ratio = spread(d.ratios, from, to);
    const keptMedian = kept.length > 0 ? quantile(Float64Array.from(kept).sort(), 0.5) : ratio[1];
    bins.push({ from, to, base: spread(d.base, from, to), head: spread(d.head, from, to), ratio, keptMedian, worst, dropped });
  }
  const mid = (bin: { from: number; to: number }) => d.x((bin.from + bin.to - 1) / 2);
  const whiskers = (pick: (bin: (typeof bins)[number]) => [number, number, number], y: (v: number) => number, dx: number) =>
    bins.map((bin) => `M${n(mid(bin) + dx)} ${n(y(pick(bin)[0]))}V${n(y(pick(bin)[2]))}`).join('');
  out.push(`<path class="base-range" d="${whiskers((bin) => bin.base, d.yv, -1.5)}"/>`);
  out.push(`<path class="head-range" d="${whiskers((bin) => bin.head, d.yv, 1.5)}"/>`);
  out.push(`<path class="base-line" d="${d.path(bins.map((bin) => [mid(bin), d.yv(bin.base[1])]))}"/>`);
  out.push(`<path class="head-line" d="${d.path(bins.map((bin) => [mid(bin), d.yv(bin.head[1])]))}"/>`);
  out.push(`<path class="base" d="${bins.map((bin) => `M${n(mid(bin) - 2)} ${n(d.yv(bin.base[1]))}a2 2 0 1 0 4 0a2 2 0 1 0 -4 0`).join('')}"/>`);
  out.push(`<path class="head" d="${bins.map((bin) => `M${n(mid(bin) - 2)} ${n(d.yv(bin.head[1]) - 2)}h4v4h-4z`).join('')}"/>`);
  const [x0, x1] = [d.x(0), d.x(k - 1)];
  out.push(`<line class="zero" x1="${n(x0)}" x2="${n(x1)}" y1="${n(d.yr(0))}" y2="${n(d.yr(0))}"/>`);
  out.push(`<path class="ratio-range" d="${whiskers((bin) => bin.ratio, d.yr, 0)}"/>`);
  out.push(`<path class="ratio-line" d="${d.path(bins.map((bin) => [mid(bin), d.yr(bin.keptMedian)]))}"/>`);
  const marks = bins.filter((bin) => bin.worst !== null).map((bin) => `M${n(mid(bin) - 3)} ${n(d.yr(bin.worst!) - 3)}l6 6m0 -6l-6 6`);
  if (marks.length > 0) out.push(`<path class="outlier" d="${marks.join('')}"/>`);
  // one transparent strip per run, for its figures on hover
  const w = Math.max(1, (x1 - x0) / bins.length);
  const v = (x: number) => formatValue(x, d.unit);
  for (const bin of bins) {
    const title = `pairs ${count(bin.from + 1)}-${count(bin.to)}: base ${v(bin.base[1])} (${v(bin.base[0])} to ${v(bin.base[2])}), head ${v(bin.head[1])} (${v(bin.head[0])} to ${v(bin.head[2])}), head/base − 1 ${formatChange(bin.keptMedian)} (${formatChange(bin.ratio[0])} to ${formatChange(bin.ratio[2])})${bin.dropped > 0 ? `, ${count(bin.dropped)} excluded` : ''}`;
    out.push(`<rect class="run" x="${n(mid(bin) - w / 2)}" y="${d.top}" width="${n(w)}" height="${d.bottom - d.top}"><title>${escapeHtml(title)}</title></rect>`);
  }
}
