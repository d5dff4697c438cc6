/**
 * S20: the HTML report scales. A benchmark of a million pairs (the results file's cap) gives a
 * report of a bounded number of marks, its plots binned and saying so; a suite of 100,000
 * benchmarks gives a report of a few megabytes; titles are cut on code points. The report in a
 * real browser, from `pairbench report --html` of a file of a million pairs, is in
 * tests/browser/scale.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FAILURES, FOREST_ROWS, renderHtml, TABLE_ROWS } from '../../src/report/html.ts';
import { cutText, HISTOGRAM_BINS, MAX_DRAWN_PAIRS, TIMELINE_BINS } from '../../src/report/html-plots.ts';
import type { BenchmarkResult } from '../../src/results/schema.ts';
import { bench, results } from './markdown-fixtures.ts';

/** `n` pairs of a +3% change that drift slowly, with one pair in 100,003 three times as slow. */
function manyPairs(name: string, n: number): BenchmarkResult {
  const pairs: BenchmarkResult['pairs'] = new Array(n);
  for (let i = 0; i < n; i++) {
    const base = 10 * (1 + 0.1 * Math.sin((i / n) * 6.28)) * (i % 100_003 === 7 ? 3 : 1) * (1 + ((i * 7919) % 101) / 10_000);
    pairs[i] = { base, head: base * 1.03 * (1 + ((i * 104_729) % 97) / 100_000), order: i % 2 ? 'base-first' : 'head-first' };
  }
  return bench(name, 'regression', 0.03, { pairs, outliers: [7, 100_010, n - 1], outliersKept: [11] });
}

function section(html: string, name: string): string {
  const start = html.indexOf(`· ${name} `);
  return html.slice(start, html.indexOf('</section>', start));
}

const marks = (svg: string) => (svg.match(/<(circle|rect|path|line)\b/g) ?? []).length;

describe('S20: the HTML report of huge benchmarks', () => {
  it('S20: a benchmark of 1,000,000 pairs renders with a bounded number of marks, binned plots that say so', () => {
    const html = renderHtml(results([manyPairs('huge', 1_000_000)]));
    expect(html.length).toBeLessThan(500_000);
    const own = section(html, 'huge');
    const ratios = own.slice(own.indexOf('<svg class="plot ratios"'), own.indexOf('</svg>', own.indexOf('<svg class="plot ratios"')));
    const timeline = own.slice(own.indexOf('<svg class="plot timeline"'));
    expect(ratios).toContain('head/base − 1: 1,000,000 pairs in 120 bins');
    expect(ratios).toContain('drawn as a histogram of 120 bins');
    expect(marks(ratios)).toBeLessThanOrEqual(2 * HISTOGRAM_BINS + 6);
    expect(ratios).not.toContain('data-pair=');
    expect(timeline).toContain(`median of each run of 5,000 pairs, whiskers min to max`);
    expect(timeline).toContain('1,000,000 pairs in measuring order, drawn as median, min and max of each of 200 runs');
    expect(marks(timeline)).toBeLessThanOrEqual(TIMELINE_BINS + 12);
    // the one slow pair in 100,003 still shows: the top of the value axis is its 30 ms, not the medians' 10 ms
    expect(timeline).toMatch(/text-anchor="end">3[0-4]\.\d ms<\/text>/);
    // the excluded pairs are marked: the runs that hold them get a ×, and their hover titles count them
    expect(timeline.match(/, 1 excluded</g)).toHaveLength(3);
  });

  it(`S20: up to ${MAX_DRAWN_PAIRS} pairs every pair is its own mark; one more, and the plots bin`, () => {
    const at = renderHtml(results([bench('at', 'regression', 0.05, { n: MAX_DRAWN_PAIRS })]));
    expect(section(at, 'at').match(/<circle class="base" data-pair=/g)).toHaveLength(MAX_DRAWN_PAIRS);
    const over = renderHtml(results([bench('over', 'regression', 0.05, { n: MAX_DRAWN_PAIRS + 1 })]));
    expect(section(over, 'over')).not.toContain('data-pair=');
    expect(section(over, 'over')).toContain(`${MAX_DRAWN_PAIRS + 1} pairs in 120 bins`);
  });

  it('S20: 100,000 benchmarks give a report of a few megabytes, the rows of most change first, and say how many more the results file has', () => {
    const bs = Array.from({ length: 100_000 }, (_, i) => bench(`suite/BenchmarkCase/size=${i}`, i % 1000 === 0 ? 'regression' : 'unchanged', i % 1000 === 0 ? 0.05 : 0.001, { n: 15 }));
    const html = renderHtml(results(bs));
    expect(html.length).toBeLessThan(8_000_000);
    expect(html.match(/<g class="row /g)).toHaveLength(FOREST_ROWS + 1);
    expect(html).toContain(`the table below has the other ${(100_000 - FOREST_ROWS).toLocaleString('en-US')}`);
    expect(html.match(/<tr><td class="verdict/g)).toHaveLength(TABLE_ROWS);
    expect(html).toContain(`the other ${(100_000 - TABLE_ROWS).toLocaleString('en-US')} are in the results file`);
    // the 100 regressions lead both
    const rows = [...html.matchAll(/<tr><td class="verdict k-(\w+)">/g)].map((m) => m[1]);
    expect(rows.slice(0, 100).every((k) => k === 'regression')).toBe(true);
    expect(rows[100]).toBe('unchanged');
  });
});

/** No lone half of a surrogate pair (what a cut in the middle of an emoji leaves). */
const wellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('S20: the HTML report at its largest', () => {
  it('S20: 5,000 benchmarks of 200 pairs each (every pair a mark), with 512-character names and 100,000 failures, make a report under 10 MB', () => {
    const tail = 'x'.repeat(4000);
    const name = (i: number) => `${String(i).padStart(5, '0')}/${'n'.repeat(506)}`;
    const bs = Array.from({ length: 5000 }, (_, i) => bench(name(i), i % 10 === 0 ? 'regression' : 'unchanged', i % 10 === 0 ? 0.05 : 0.001, { n: 200 }));
    const failures = Array.from({ length: 100_000 }, () => ({ side: 'head' as const, kind: 'exit' as const, exitCode: 1, message: 'm'.repeat(500), stderrTail: tail }));
    const html = renderHtml(results(bs, { failures }));
    expect(Buffer.byteLength(html)).toBeLessThan(10 * 1024 * 1024);
    expect(html.match(/<pre>x{4000}<\/pre>/g)).toHaveLength(FAILURES);
    expect(html).toContain(`${(100_000 - FAILURES).toLocaleString('en-US')} more failures are in the results file`);
    const sections = html.match(/<section class="bench"/g)!.length;
    expect(sections).toBeGreaterThan(20);
    expect(sections).toBeLessThan(200);
    expect(html).toContain(`The plots of ${(5000 - sections).toLocaleString('en-US')} more results are left out, to keep this report small`);
  });
});

describe('plot titles cut on code points', () => {
  it('never splits a surrogate pair (an emoji is one character, whole or gone)', () => {
    const name = `${'a'.repeat(78)}😀😀😀 and more`;
    const cut = cutText(name, 80);
    expect(cut).toBe(`${'a'.repeat(78)}😀…`);
    expect(wellFormed(cut)).toBe(true);
    for (let max = 1; max <= 90; max++) expect(wellFormed(cutText(name, max))).toBe(true);
    // a text of exactly `max` code points (more UTF-16 units) is not cut
    expect(cutText('😀'.repeat(5), 5)).toBe('😀'.repeat(5));
    expect(cutText('😀'.repeat(6), 5)).toBe(`${'😀'.repeat(4)}…`);
  });

  it('the SVG titles of a benchmark whose 79th character is an emoji are well-formed', () => {
    const name = `${'x'.repeat(78)}😀 tail`;
    const html = renderHtml(results([bench(name, 'regression', 0.05, { n: 20 })]));
    const titles = [...html.matchAll(/<title id="[^"]+">([^<]*)<\/title>/g)].map((m) => m[1]!);
    expect(titles.filter((t) => t.startsWith('Paired ratios of') || t.startsWith('Timeline of'))).toEqual([`Paired ratios of ${'x'.repeat(78)}😀…`, `Timeline of the pairs of ${'x'.repeat(78)}😀…`]);
    for (const t of titles) expect(wellFormed(t)).toBe(true);
  });
});
