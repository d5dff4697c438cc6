/**
 * The comment of a typical change stays short and whole: the demo (one benchmark) and a Go suite
 * run with `-benchmem` (11 results from 4 benchmarks: one 10% slower, one 10% faster, two unchanged).
 */
import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../src/report/escape.ts';
import { countVerdicts, renderMarkdown } from '../../src/report/markdown.ts';
import { bench, goSuite, results } from './markdown-fixtures.ts';

const ns = { unit: 'ns', n: 200 } as const;

describe('the comment of a typical change', () => {
  it('the demo: one benchmark, under 10 KB, not cut, no raw pairs', () => {
    const md = renderMarkdown(results([bench('demo (work.c)', 'regression', 0.1, ns)]), { commentId: 'perf' });
    expect(utf8Bytes(md)).toBeLessThan(10_000);
    expect(md).not.toMatch(/cut to fit/i);
    expect(md).toContain('### 🔴 1 regression · pairbench');
    expect(md).toMatch(/\*\*\+10\.0%\*\* \[\+9\.\d%, \+10\.\d%\] change of demo \(work\.c\)/);
  });

  it('one benchmark stopped early: the headline interval is the one in its row', () => {
    // an early stop computes the interval at a raised fixed-sample level that keeps 95% coverage
    const b = bench('demo', 'regression', 0.097, { ...ns, change: { estimate: 0.097, ci: [0.094, 0.1], confidence: 0.95, level: 0.975, pValue: 1e-6, pAdjusted: 1e-6, method: 'exact' } });
    const md = renderMarkdown(results([b]));
    expect(md).toContain('**+9.7%** [+9.4%, +10.0%] change of demo');
    expect(md).toContain('| **+9.7% [+9.4%, +10.0%]** |');
  });

  it('one benchmark judged at a raised level (ciLevel, as judging records it): the headline shows its row\'s interval and level', () => {
    const b = bench('demo', 'regression', 0.097, { ...ns, change: { estimate: 0.097, ci: [0.05, 0.15], confidence: 0.95, level: 0.975, ciLevel: 0.975, pValue: 1e-6, pAdjusted: 1e-6, method: 'exact' } as never });
    const md = renderMarkdown(results([b]));
    expect(md).toContain('**+9.7%** [+5.0%, +15.0%] change of demo, 97.5% interval');
    expect(md).toContain('| change [97.5% interval] |');
    expect(md).toContain('| **+9.7% [+5.0%, +15.0%]** |');
  });

  it('a Go suite of 11 rows from 4 benchmarks: under 10 KB, not cut, the changed benchmarks first, one regression counted once', () => {
    const r = goSuite();
    expect(r.benchmarks).toHaveLength(11);
    const md = renderMarkdown(r, { commentId: 'perf' });
    expect(utf8Bytes(md)).toBeLessThan(10_000);
    expect(md).not.toMatch(/cut to fit/i);
    expect(countVerdicts(r)).toMatchObject({ regression: 1, improvement: 1, unchanged: 2 });
    expect(md.split('\n')[1]).toBe('### 🔴 1 regression, 🟢 1 improvement, ⚪ 2 unchanged · pairbench');
    const table = md.split('\n').filter((l) => /^\| (🔴|🟢|⚪|🟡)/.test(l));
    expect(table.map((l) => l.split(' | ').slice(0, 3).join(' | '))).toEqual([
      '| 🔴 regression | **go/BenchmarkParse** | time (ns)',
      '| 🔴 regression | ↳ | MB/s',
      '| 🟢 improvement | **go/BenchmarkSort** | time (ns)',
    ]);
    // the unchanged benchmarks and the unchanged metrics of the changed ones are in the fold
    const fold = md.slice(md.indexOf('<details><summary>⚪ 2 unchanged benchmarks and unchanged metrics'));
    for (const name of ['go/BenchmarkChecksum', 'go/BenchmarkHash']) expect(fold).toContain(`| ${name} |`);
    expect(fold).toContain('| allocs/op |');
  });
});
