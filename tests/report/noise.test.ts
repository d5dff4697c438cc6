/**
 * The report of `pairbench noise` in Markdown: each benchmark judged against its own threshold,
 * with its own suggested settings, and nothing said twice.
 */
import { describe, expect, it } from 'vitest';
import { withNoiseFloors } from '../../src/noise-run.ts';
import { renderNoiseMarkdown } from '../../src/report/noise-report.ts';
import { bench, results } from './markdown-fixtures.ts';

/** An A/A run: two benchmarks with the same noise, one configured at 5%, the other at the 2% default. */
function aa() {
  const r = results([bench('parse', 'unchanged', 0, { n: 60 }), bench('startup', 'unchanged', 0, { n: 60, threshold: 0.05 })], { settings: { alpha: 0.05, threshold: 0.02, maxPairs: 60 } });
  // the fixture's pairs carry ±0.5% of noise: make it ±15%, so that 2% needs more pairs than 5%
  for (const b of r.benchmarks) b.pairs = b.pairs.map((p, i) => ({ ...p, head: p.base * (1 + (((i * 7919) % 101) / 100 - 0.5) * 0.3) }));
  return withNoiseFloors(r, { alpha: 0.05, threshold: 0.02, maxPairs: 60 });
}

describe('pairbench noise, in Markdown', () => {
  it("counts the pairs each benchmark needs for its own threshold", () => {
    const [parse, startup] = aa().benchmarks;
    expect(startup!.noise!.pairedLogSd).toBeCloseTo(parse!.noise!.pairedLogSd, 12);
    expect(startup!.noise!.pairsForThreshold).toBeLessThan(parse!.noise!.pairsForThreshold / 4);
  });

  it("subtracts pairbench's per-run overhead before the floor, as compare does when it judges", () => {
    const r = aa();
    const withOverhead = results(r.benchmarks.map((b) => ({ ...b, overhead: { ms: 30, samples: [29, 30, 31] } })), { settings: r.settings });
    const [raw] = withNoiseFloors(r, { alpha: 0.05, threshold: 0.02, maxPairs: 60 }).benchmarks;
    const [corrected] = withNoiseFloors(withOverhead, { alpha: 0.05, threshold: 0.02, maxPairs: 60 }).benchmarks;
    // 30 ms of a ~50 ms run is the shell's: the benchmark's own spread is about 50/20 times the raw one
    expect(corrected!.noise!.pairedLogSd / raw!.noise!.pairedLogSd).toBeGreaterThan(2);
    expect(corrected!.noise!.pairsForThreshold).toBeGreaterThan(raw!.noise!.pairsForThreshold);
  });

  it('gives each benchmark its threshold and suggested settings, in one table, and says nothing twice', () => {
    const md = renderNoiseMarkdown(aa());
    const row = (name: string) => md.split('\n').find((l) => l.startsWith(`| ${name} |`))!;
    expect(row('parse')).toMatch(/\| 2% \| about \d+ \| /);
    expect(row('startup')).toMatch(/\| 5% \| about \d+ \| /);
    expect(md).toContain('```yaml');
    expect(md).toMatch(/- name: "startup"\n {4}threshold: \d+(\.\d+)?%/);
    // no sentence appears twice
    const sentences = md.split(/(?<=[.:])\s+/).filter((s) => s.length > 30);
    expect(new Set(sentences).size).toBe(sentences.length);
  });
});
