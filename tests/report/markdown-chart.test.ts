/**
 * The Mermaid chart stays valid `xychart-beta` whatever the benchmark names: every line follows
 * the grammar (checked here line by line; the same output was checked once with mermaid 11's own
 * `mermaid.parse`), labels are quoted from a safe character set, and series have one value per label.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartLabels, renderChart } from '../../src/report/chart.ts';
import { bench } from './markdown-fixtures.ts';

const LINE_GRAMMAR = [
  /^%%\{init: \{"themeVariables": \{"xyChart": \{"plotColorPalette": "(#[0-9a-f]{6}, ){4}#[0-9a-f]{6}"\}\}\}\}%%$/,
  /^xychart-beta$/,
  /^ {4}title "[^"]+"$/,
  /^ {4}x-axis \[("[A-Za-z0-9_./~-]{1,24}", )*"[A-Za-z0-9_./~-]{1,24}"\]$/,
  /^ {4}y-axis "change \(%\)" -?\d+ --> -?\d+$/,
  /^ {4}bar \[(-?\d+(\.\d+)?, )*-?\d+(\.\d+)?\]$/,
  /^ {4}line \[(-?\d+(\.\d+)?, )*-?\d+(\.\d+)?\]$/,
  /^ {4}line \[(-?\d+(\.\d+)?, )*-?\d+(\.\d+)?\]$/,
  /^ {4}line \[(-?\d+(\.\d+)?, )*-?\d+(\.\d+)?\]$/,
  /^ {4}line \[(-?\d+(\.\d+)?, )*-?\d+(\.\d+)?\]$/,
];

function checkChart(source: string, count: number): void {
  const lines = source.split('\n');
  expect(lines).toHaveLength(LINE_GRAMMAR.length);
  lines.forEach((line, i) => expect(line).toMatch(LINE_GRAMMAR[i]!));
  const series = lines.slice(5).map((l) => l.slice(l.indexOf('[') + 1, -1).split(', ').length);
  expect(series).toEqual(Array(5).fill(count));
  const labels = lines[3]!.slice(lines[3]!.indexOf('[') + 1, -1).split(', ');
  expect(labels).toHaveLength(count);
  expect(new Set(labels).size).toBe(count);
  const [, lo, hi] = /(-?\d+) --> (-?\d+)$/.exec(lines[4]!)!.map(Number);
  for (const l of lines.slice(5)) for (const v of l.slice(l.indexOf('[') + 1, -1).split(', ').map(Number)) expect(v >= lo! && v <= hi!).toBe(true);
}

describe('renderChart', () => {
  it('draws the estimate, its interval and the ±threshold band of each benchmark', () => {
    const chart = renderChart([bench('parse', 'regression', 0.05), bench('emit', 'unchanged', 0.001, { threshold: 0.05 })], { threshold: 0.02 })!;
    expect(chart.source).toContain('x-axis ["parse", "emit"]');
    expect(chart.source).toContain('bar [5, 0.1]');
    expect(chart.source).toContain('line [4.2, -0.7]');
    expect(chart.source).toContain('line [5.8, 0.9]');
    expect(chart.source).toContain('line [2, 5]');
    expect(chart.source).toContain('line [-2, -5]');
    checkChart(chart.source, 2);
  });

  it('is null when no benchmark has a change, and keeps at most maxBars', () => {
    expect(renderChart([bench('a', 'inconclusive', 0, { change: null })], { threshold: 0.02 })).toBeNull();
    const chart = renderChart(Array.from({ length: 40 }, (_, i) => bench(`b${i}`, 'unchanged', 0)), { threshold: 0.02, maxBars: 25 })!;
    expect([chart.shown, chart.total]).toEqual([25, 40]);
    checkChart(chart.source, 25);
  });

  it('stays valid for any names', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80, unit: 'grapheme' }), { minLength: 1, maxLength: 30 }), fc.double({ min: -0.9, max: 3, noNaN: true }), (names, change) => {
        const chart = renderChart(names.map((n) => bench(n.length ? n : ' ', 'regression', change)), { threshold: 0.02 })!;
        checkChart(chart.source, names.length);
      }),
      { numRuns: 300 },
    );
  });

  it('labels are unique even when names collide after cleaning', () => {
    expect(chartLabels(['a b', 'a_b', 'a?b', 'é'])).toEqual(['a_b', 'a_b~2', 'a_b~3', 'e']);
  });
});
