/**
 * The comment's diagnostics fold: what many benchmarks share is said once for all of them, on the
 * comment as in the terminal (report/shared.ts), and the rest is gathered by finding. A Go suite's
 * comment had listed the same paragraph of Go advice ten times among about a hundred items.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import type { BenchmarkResult } from '../../src/results/schema.ts';
import { HOSTILE_NAMES, bench, results } from './markdown-fixtures.ts';

const NOISY = { code: 'high-noise', severity: 'warning', figures: { pairedCv: 0.1, pairs: 20, detectable: 0.07, pairsForThreshold: 400, threshold: 0.02, metric: null } } as const;
const GO = { code: 'go-noise', severity: 'info', figures: { allocsPerOp: 3, oneThread: false } } as const;
const kept = (i: number) => ({ code: 'outliers-kept', severity: 'info', figures: { above: 1, below: 0, excluded: 0, kept: [i], balanceP: 1 } }) as const;

/** `n` Go benchmarks, each noisy, each with the Go levers and a pair kept outside the fences. */
function goSuite(n: number, name = (i: number) => `BenchmarkParse/case${i}`): BenchmarkResult[] {
  return Array.from({ length: n }, (_, i) =>
    bench(name(i), 'inconclusive', 0.01, { diagnostics: [{ ...NOISY, figures: { ...NOISY.figures, pairedCv: 0.05 + i / 100 } }, GO, kept(i)] }),
  );
}

/** The text inside the Diagnostics fold. */
function diagnosticsOf(md: string): string {
  const start = md.indexOf('<details><summary>Diagnostics (');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = md.indexOf('<details><summary>How this was measured');
  return md.slice(start, end);
}

describe('the comment says what many benchmarks share once', () => {
  it('one line for the noise of ten benchmarks, one for their Go levers, one fold for the pairs they kept', () => {
    const md = renderMarkdown(results(goSuite(10)), { commentId: 'perf' });
    const diag = diagnosticsOf(md);
    expect(diag.match(/noisy even in pairs/gi)).toHaveLength(1);
    expect(diag).toContain('**10 of 10 benchmarks are noisy even in pairs**');
    // the range of their spreads, from the lowest to the highest
    expect(diag).toContain('varies by 5.0% to 14.0% (CV)');
    expect(diag.match(/add -test\.cpu 1 to/g)).toHaveLength(1);
    expect(diag).toContain('**10 of the noisy benchmarks are Go benchmarks whose own code or command can cut their noise**');
    // worded for a workflow: action inputs, never flags
    expect(diag).toContain('the input cpus: 1');
    expect(diag).not.toContain('--cpus');
    // every kept-pairs note, each with its own figures, in one fold of its own
    expect(diag.match(/<summary>ℹ️ 10 benchmarks: outlying pairs kept on one side, a split within chance<\/summary>/g)).toHaveLength(1);
    for (let i = 0; i < 10; i++) expect(diag).toContain(`  - **BenchmarkParse/case${i}**: 1 pair fell outside the outlier fences (1 above, 0 below);`);
    expect(diag).toContain(`(pair ${10})`);
    expect(md).toContain('<details><summary>Diagnostics (3)</summary>');
  });

  it('the terminal says the same once, in flags', () => {
    const text = renderTerminal(results(goSuite(10)), { color: false });
    expect(text.match(/noisy even in pairs/gi)).toHaveLength(1);
    expect(text).toContain('warning: 10 of 10 benchmarks are noisy even in pairs (BenchmarkParse/case0, BenchmarkParse/case1, BenchmarkParse/case2, and 7 more): the ratio head/base varies by 5.0% to 14.0% (CV)');
    expect(text.match(/add -test\.cpu 1 to --run/g)).toHaveLength(1);
  });

  it('counts benchmarks, not their rows: a Go benchmark with its MB/s, B/op and allocs/op rows is one, as the summary counts it', () => {
    // three benchmarks, each with three derived rows, every row noisy and inconclusive; one more benchmark, quiet
    const rows = (i: number, pairsToSettle: number): BenchmarkResult[] =>
      ['', ' (MB/s)', ' (B/op)', ' (allocs/op)'].map((suffix, k) =>
        bench(`BenchmarkParse/case${i}${suffix}`, 'inconclusive', 0.01, { pairsToSettle: pairsToSettle + k, stoppedBecause: 'max-time', diagnostics: [{ ...NOISY, figures: { ...NOISY.figures, pairedCv: 0.05 + i / 100 } }, GO] }),
      );
    const all = [...rows(0, 100), ...rows(1, 200), ...rows(2, 300), bench('BenchmarkQuiet', 'unchanged', 0)];
    const md = renderMarkdown(results(all), { commentId: 'perf' });
    const diag = diagnosticsOf(md);
    expect(diag).toContain('**3 of 4 benchmarks are noisy even in pairs** (`BenchmarkParse/case0`, `BenchmarkParse/case1`, `BenchmarkParse/case2`)');
    expect(diag).toContain('**3 of the noisy benchmarks are Go benchmarks');
    const text = renderTerminal(results(all), { color: false });
    expect(text).toContain('warning: 3 of 4 benchmarks are noisy even in pairs (BenchmarkParse/case0, BenchmarkParse/case1, BenchmarkParse/case2):');
    // the pairs a benchmark needs are those its last row needs: its verdict is the worst of its rows'
    expect(text).toContain('3 benchmarks are inconclusive (BenchmarkParse/case0, BenchmarkParse/case1, BenchmarkParse/case2), stopped by max-time: about 203 pairs each (103-303)');
    // as the summary line counts them
    expect(text).toContain('3 inconclusive, 1 unchanged');
  });

  it('keeps each note with its benchmark when only two share it', () => {
    const md = renderMarkdown(results(goSuite(2)), { commentId: 'perf' });
    const diag = diagnosticsOf(md);
    expect(diag.match(/Noisy even in pairs/g)).toHaveLength(2);
    expect(diag.match(/add -test\.cpu 1 to/g)).toHaveLength(2);
    expect(diag).not.toContain('<summary>ℹ️');
    expect(diag).toContain('- ⚠️ **BenchmarkParse/case0**: Noisy even in pairs');
    expect(md).toContain('<details><summary>Diagnostics (6)</summary>');
  });

  it('lists warnings before notes, and escapes every name it lists (S6)', () => {
    const names = HOSTILE_NAMES.filter((n) => !n.includes('\n'));
    const md = renderMarkdown(results(goSuite(names.length, (i) => names[i]!)), { commentId: 'perf' });
    const diag = diagnosticsOf(md);
    expect(diag.indexOf('noisy even in pairs')).toBeLessThan(diag.indexOf('outlying pairs kept'));
    expect(diag).not.toContain('<img');
    expect(diag).not.toContain('@octocat');
    expect(diag).not.toMatch(/<!-- pairbench/);
  });
});
