/**
 * The spread next to a median is a robust one (MAD × 1.4826 relative to the median), named in the
 * header, with the spread of head/base across pairs beside it: one run that took 100 ms among
 * runs of 319 µs must not print "319 µs ±500%".
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { Results } from '../../src/results/schema.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

/** Unscaled MAD and median by sorting, independent of the code under test. */
function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
function mad(v: number[]): number {
  const m = median(v);
  return median(v.map((x) => Math.abs(x - m)));
}

function results(): Results {
  const rng = mulberry32(21);
  const pairs = Array.from({ length: 40 }, (_, i) => {
    // the machine moves both runs of a pair by up to ±5%; single runs also by ±1%
    const machine = 1 + (rng() - 0.5) * 0.1;
    const base = i === 17 ? 100_000 : 319 * machine * (1 + (rng() - 0.5) * 0.02);
    return { base, head: 319 * machine * (1 + (rng() - 0.5) * 0.02), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
  });
  return judgeResults(
    { schemaVersion: 1, base: { ref: 'main' }, head: { ref: 'pr' }, settings: { alpha: 0.05, threshold: 0.02 }, benchmarks: [{ name: 'tiny', unit: 'us', direction: 'lower-is-better', pairs }] },
    { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' },
  );
}

describe('robust spread in the reports', () => {
  const r = results();
  const b = r.benchmarks[0]!;

  it('the results file has the MAD of each side and of the pairs; the CV stays as it was', () => {
    expect(b.base!.cv).toBeGreaterThan(4);
    const bases = b.pairs.map((p) => p.base);
    expect(b.base!.mad).toBeCloseTo(1.4826 * mad(bases), 9);
    expect(b.base!.mad! / b.base!.median).toBeLessThan(0.05);
    const ratios = b.pairs.map((p) => p.head / p.base);
    expect(b.pairedMad).toBeCloseTo((1.4826 * mad(ratios)) / median(ratios), 9);
    // pairing removes the machine's share: the paired spread is below the single runs'
    expect(b.pairedMad!).toBeLessThan(b.head!.mad! / b.head!.median);
  });

  it('terminal: median ±MAD of single runs and the paired spread, named in the header', () => {
    const t = renderTerminal(r, { color: false });
    const [header, row] = t.split('\n') as [string, string];
    expect(header).toMatch(/base \(median ±MAD\)\s+head \(median ±MAD\)\s+paired ±MAD/);
    expect(row).not.toContain('±5');
    // the change cell left out: a change or an interval end that rounds to zero at one decimal reads ±0.0%
    const spreads = [...row.replace(/\S+ \[[^\]]*\]/, '').matchAll(/±(\d+(?:\.\d+)?)%/g)].map((m) => Number(m[1]));
    expect(spreads).toHaveLength(3);
    expect(spreads[0]).toBeCloseTo((100 * b.base!.mad!) / b.base!.median, 1);
    expect(spreads[2]).toBeCloseTo(100 * b.pairedMad!, 1);
  });

  it('HTML report: the same spreads, named in the caption, with the paired column', () => {
    const html = renderHtml(r);
    expect(html).toContain('Medians ± MAD (× 1.4826, relative to the median)');
    expect(html).toContain('>paired ±</th>');
    const row = html.split('<tr>').find((l) => l.includes('>tiny</a>'))!;
    expect(row).not.toMatch(/±[1-9]\d\d+%/);
    // the comment shows medians only: no spread column that one wild run could blow up
    expect(renderMarkdown(r, { commentId: 'x' })).not.toMatch(/±[1-9]\d\d+%/);
  });
});
