/**
 * A Mermaid `xychart-beta` of the change of every benchmark: a bar for the estimate, a line through
 * the lower and upper ends of its interval (95% at the default alpha), and a line at +threshold and -threshold (each
 * benchmark's own threshold). GitHub renders Mermaid in comments and job summaries.
 *
 * Mermaid has no escaping inside labels, so names are reduced to a safe set of characters, cut, and
 * made unique; the chart never carries untrusted text verbatim.
 */
import type { BenchmarkResult } from '../results/schema.ts';

/** Colours of the series, in the order they are declared (bar, interval low, interval high, +band, -band). */
export const CHART_COLOURS = ['#4c78a8', '#e45756', '#e45756', '#9d9d9d', '#9d9d9d'] as const;

export interface ChartOptions {
  /** the comparison's threshold (relative), for benchmarks without their own */
  threshold: number;
  /** at most this many bars (the first ones given: callers pass the most important first) */
  maxBars?: number;
  /** the interval's confidence as labelled ("95%") */
  confidence?: string;
}

export interface Chart {
  /** the Mermaid source, without the surrounding code fence */
  source: string;
  /** how many benchmarks are drawn and how many had a change to draw */
  shown: number;
  total: number;
}

/** A label Mermaid can parse: letters, digits, `_ . - / ~`, at most 24 characters, unique. */
export function chartLabels(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let label = name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_./-]+/g, '_')
      .replace(/^_+|_+$/g, '');
    if (label === '') label = 'benchmark';
    if (label.length > 24) label = `${label.slice(0, 11)}...${label.slice(-10)}`;
    let unique = label;
    for (let n = 2; used.has(unique); n++) unique = `${label.slice(0, 18)}~${n}`;
    used.add(unique);
    return unique;
  });
}

/** A percentage with two decimals, as Mermaid wants plain numbers. */
function pct(x: number): string {
  const v = Math.round(x * 10_000) / 100;
  return Object.is(v, -0) ? '0' : String(v);
}

/**
 * The chart of the benchmarks that have a change estimate, or null when none has.
 * `benchmarks` should come in report order (most important first); past `maxBars` the rest are left out.
 */
export function renderChart(benchmarks: readonly BenchmarkResult[], opts: ChartOptions): Chart | null {
  const withChange = benchmarks.filter((b) => b.change && Number.isFinite(b.change.estimate));
  if (withChange.length === 0) return null;
  const drawn = withChange.slice(0, opts.maxBars ?? 25);
  const labels = chartLabels(drawn.map((b) => b.name));
  const est = drawn.map((b) => b.change!.estimate);
  const lo = drawn.map((b) => b.change!.ci[0]);
  const hi = drawn.map((b) => b.change!.ci[1]);
  const thr = drawn.map((b) => b.threshold ?? opts.threshold);
  const all = [...est, ...lo, ...hi, ...thr, ...thr.map((t) => -t)].filter(Number.isFinite);
  const top = Math.max(...all, 0);
  const bottom = Math.min(...all, 0);
  const pad = Math.max((top - bottom) * 0.1, 0.005);
  const yMax = Math.ceil((top + pad) * 100);
  const yMin = Math.floor((bottom - pad) * 100);
  const list = (xs: number[]) => `[${xs.map(pct).join(', ')}]`;
  const palette = CHART_COLOURS.join(', ');
  const source = [
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
    'xychart-beta',
    `    title "Change of head against base (%), with ${opts.confidence ?? '95%'} interval and threshold band"`,
    `    x-axis [${labels.map((l) => `"${l}"`).join(', ')}]`,
    `    y-axis "change (%)" ${yMin} --> ${yMax}`,
    `    bar ${list(est)}`,
    `    line ${list(lo)}`,
    `    line ${list(hi)}`,
    `    line ${list(thr)}`,
    `    line ${list(thr.map((t) => -t))}`,
  ].join('\n');
  return { source, shown: drawn.length, total: withChange.length };
}

/** The sentence under the chart that says what each series is (Mermaid's xychart has no legend). */
export function chartLegend(confidence = '95%'): string {
  return `Blue bars: estimated change of head against base. Red lines: the ends of its ${confidence} interval. Grey lines: +threshold and −threshold. A change is significant when its whole interval lies on one side of 0; significant with the bar beyond the grey band, it is a regression or an improvement.`;
}
