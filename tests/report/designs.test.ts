/**
 * How the runs were designed, and why undecided benchmarks stopped early, said once per comparison
 * on every surface (report/designs-note.ts): the terminal, the Markdown comment and the HTML report.
 */
import { describe, expect, it } from 'vitest';
import { designSummary, futilitySummary, paceOf } from '../../src/report/designs-note.ts';
import { designWords } from '../../src/results/design-words.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

function bench(name: string, design: { repetitions: number; lengthMs: number; warmup?: number } | null, opts: { change?: number; noise?: number; futile?: boolean; pairs?: number } = {}): BenchmarkResult {
  const rng = mulberry32(name.length * 31 + 7);
  const n = opts.pairs ?? 40;
  return {
    name,
    unit: 'ns',
    direction: 'lower-is-better',
    pairs: Array.from({ length: n }, () => {
      const base = 100 * (1 + (rng() - 0.5) * 0.01);
      return { base, head: base * (1 + (opts.change ?? 0)) * (1 + (rng() - 0.5) * (opts.noise ?? 0.004)), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
    }),
    ...(design ? { design: { ...design, pilotPairs: 12, pilot: { repetitions: 3, lengthsMs: [10, 40] }, chosen: true, components: { betweenSd: 0.04, withinSd: 0.02, repetitionMs: 10, lengthExponent: 0.6, processMs: 21 } } } : {}),
    ...(opts.futile ? { stoppedBecause: 'futile', futility: { need: 480, affordable: 90 } } : {}),
  };
}

function results(benchmarks: BenchmarkResult[]): Results {
  const r: Results = { schemaVersion: 1, base: { ref: 'main', sha: 'a'.repeat(40) }, head: { ref: 'pr', sha: 'b'.repeat(40) }, settings: { alpha: 0.05, threshold: 0.02 }, status: 'complete', benchmarks };
  return judgeResults(r, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });
}

describe('the design of the runs, said once', () => {
  it('names the designs from the most common, counting benchmarks (not their extra metric rows)', () => {
    const bs = [
      bench('BenchmarkA', { repetitions: 1, lengthMs: 10 }),
      bench('BenchmarkA (B/op)', { repetitions: 1, lengthMs: 10 }),
      bench('BenchmarkB', { repetitions: 1, lengthMs: 10 }),
      bench('BenchmarkC', { repetitions: 3, lengthMs: 5 }),
      bench('BenchmarkD', null),
    ];
    expect(designSummary(bs)).toBe("Runs designed from the noise of each benchmark's first 12 pairs: 1 repetition of 10 ms per process (2 benchmarks), 3 repetitions of 5 ms (1 benchmark)");
    expect(designSummary([bench('x', null)])).toBeNull();
    expect(designWords(1, 2.5)).toBe('1 repetition of 2.5 ms');
    expect(designWords(5, 1250)).toBe('5 repetitions of 1.25 s');
  });

  it('a design that runs a warm-up repetition first says so, and counts apart from the same design without it', () => {
    const bs = [
      bench('BenchmarkA', { repetitions: 3, lengthMs: 10, warmup: 1 }),
      bench('BenchmarkB', { repetitions: 3, lengthMs: 10, warmup: 1 }),
      bench('BenchmarkC', { repetitions: 3, lengthMs: 10 }),
    ];
    expect(designSummary(bs)).toBe("Runs designed from the noise of each benchmark's first 12 pairs: a warm-up and 3 repetitions of 10 ms per process (2 benchmarks), 3 repetitions of 10 ms (1 benchmark)");
    expect(designWords(1, 20, 1)).toBe('a warm-up and 1 repetition of 20 ms');
    expect(designWords(1, 20, 2)).toBe('2 warm-ups and 1 repetition of 20 ms');
  });

  it('every surface says it: terminal, comment, HTML', () => {
    const r = results([bench('BenchmarkA', { repetitions: 1, lengthMs: 10 }), bench('BenchmarkB', { repetitions: 1, lengthMs: 20 })]);
    const line = "Runs designed from the noise of each benchmark's first 12 pairs: 1 repetition of 10 ms per process (1 benchmark), 1 repetition of 20 ms (1 benchmark)";
    expect(renderTerminal(r, { color: false })).toContain(`${line} (--design command runs them as the command says).`);
    expect(renderMarkdown(r, { commentId: 'x' })).toContain(`<sub>${line} (\`design: command\` runs them as the command says).</sub>`);
    expect(renderHtml(r)).toContain(line.replace("'", '&#39;'));
  });

  it('benchmarks given no more pairs (futile): why, with the pairs they needed, in the comment and the terminal', () => {
    const r = results([bench('BenchmarkA', null), bench('BenchmarkNoisy', null, { noise: 0.5, futile: true, pairs: 14 })]);
    expect(r.benchmarks[1]!.verdict).toBe('inconclusive');
    const f = futilitySummary(r.benchmarks)!;
    expect(f.count).toBe(1);
    expect(f.text).toBe('1 benchmark got no more pairs once it could not be decided within the budget left: at its spread it needed about 480 pairs, and the budget went to the benchmarks nearer a verdict');
    expect(renderMarkdown(r, { commentId: 'x' })).toContain(`> ⏱️ ${f.text}. Raise \`max-time\`, or run on a quieter runner.`);
    expect(renderTerminal(r, { color: false })).toContain('BenchmarkNoisy: inconclusive after 14 pairs (no more pairs: it needed about 480, the budget left gave at most 90)');
  });

  it("turns the pairs the futile benchmarks needed into time at the comparison's own pace, on every surface", () => {
    // 40 + 14 pairs in 54 s: a second a pair; the futile one needed 480 − 14 = 466 more, about 8 minutes
    const r = { ...results([bench('BenchmarkA', null), bench('BenchmarkNoisy', null, { noise: 0.5, futile: true, pairs: 14 })]), startedAt: '2026-11-28T10:00:00.000Z', finishedAt: '2026-11-28T10:00:54.000Z' };
    expect(paceOf(r)).toEqual({ wallMs: 54_000, pairs: 54 });
    const f = futilitySummary(r.benchmarks, paceOf(r))!;
    expect(f.text).toBe("1 benchmark got no more pairs once it could not be decided within the budget left: at its spread it needed about 480 pairs (about 8 more minutes at this comparison's pace, 1.0 s a pair), and the budget went to the benchmarks nearer a verdict");
    expect(renderMarkdown(r, { commentId: 'x' })).toContain(`> ⏱️ ${f.text}. Raise \`max-time\`, or run on a quieter runner.`);
    expect(renderTerminal(r, { color: false })).toContain(f.text);
    expect(renderHtml(r)).toContain(f.text.replaceAll("'", '&#39;'));
    // without both times, or under a minute's worth
    expect(paceOf({ ...r, finishedAt: null })).toBeNull();
    expect(futilitySummary(r.benchmarks, { wallMs: 54, pairs: 54 })!.text).toContain('(less than a minute more at this comparison\'s pace, 0.0010 s a pair)');
    expect(futilitySummary(r.benchmarks, { wallMs: 54_000 * 3600, pairs: 54 })!.text).toContain('(about 466.0 more hours at this comparison\'s pace, 3.6e+3 s a pair)');
    // a forged file's figures: no false precision
    expect(futilitySummary(r.benchmarks, { wallMs: 1e15, pairs: 54 })!.text).toContain('(more than a thousand more hours at this comparison');
  });
});
