/**
 * The notes under the terminal table: one count of pairs per benchmark, and a note that most
 * benchmarks of a suite share said once for the suite, not once per benchmark.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { Results } from '../../src/results/schema.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/schedule/random.ts';

function suite(noisy: number, quiet: number): Results {
  const rng = mulberry32(5);
  const pairs = (sd: number) => Array.from({ length: 20 }, () => ({ base: 100 * (1 + (rng() - 0.5) * sd), head: 100 * (1 + (rng() - 0.5) * sd), order: 'base-first' as const }));
  const bench = (name: string, sd: number) => ({ name, unit: 'ns', direction: 'lower-is-better' as const, stoppedBecause: 'max-pairs' as const, pairs: pairs(sd) });
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { seed: 1 },
    status: 'complete',
    benchmarks: [...Array.from({ length: noisy }, (_, i) => bench(`BenchmarkNoisy${i}`, 1)), ...Array.from({ length: quiet }, (_, i) => bench(`BenchmarkQuiet${i}`, 0.001))],
  };
}

const render = (r: Results) => renderTerminal(judgeResults(r, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }), { color: false });

describe('terminal notes', () => {
  it('says "noisy even in pairs" and the pairs that would settle once for a suite where most benchmarks share them', () => {
    const text = render(suite(6, 1));
    expect(text.match(/noisy even in pairs/gi)).toHaveLength(1);
    expect(text).toContain('6 of 7 benchmarks are noisy even in pairs (BenchmarkNoisy0, BenchmarkNoisy1, BenchmarkNoisy2, and 3 more)');
    expect(text.match(/would likely settle/g)).toHaveLength(1);
    expect(text).toMatch(/6 benchmarks are inconclusive .*: about \d+ pairs each \(\d+-\d+\)/);
    expect(text).not.toMatch(/pairs would bring/);
    // a file without rounds: whole runs may have been paired, so pairing each benchmark is advice
    expect(text).toContain('or pair each benchmark on its own (--interleave benchmark)');
  });

  it('advises pairing each benchmark on its own only where whole runs of the suite were paired', () => {
    const perBenchmark = { ...suite(6, 1), settings: { seed: 1, benchmarks: [{ name: 'go-suite' }] } };
    perBenchmark.rounds = [perBenchmark.benchmarks.map((b) => b.name)];
    const text = render(perBenchmark);
    expect(text).toContain('6 of 7 benchmarks are noisy even in pairs');
    expect(text).toContain('run on a quieter machine (a dedicated runner, no parallel jobs) or make one run do more work.');
    expect(text).not.toContain('--interleave benchmark');
    const whole = { ...perBenchmark, rounds: [['go-suite'], ['go-suite']] };
    expect(render(whole)).toContain('or pair each benchmark on its own (--interleave benchmark)');
  });

  it('keeps the notes per benchmark when only one or two share them, each with one count of pairs', () => {
    const text = render(suite(2, 3));
    const noisy = text.split('\n').filter((l) => l.startsWith('BenchmarkNoisy'));
    expect(noisy.filter((l) => /Noisy even in pairs/.test(l))).toHaveLength(2);
    const settle = noisy.filter((l) => /inconclusive after 20 pairs \(stopped by max-pairs\); about \d+ pairs in all would likely settle it/.test(l));
    expect(settle).toHaveLength(2);
    for (const l of noisy) expect(l.match(/\d+ pairs (in all|would)/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it('does not call an extra metric new or removed when its benchmark ran on both sides: the other side printed no such metric', () => {
    const r = suite(0, 2);
    r.benchmarks.push(
      { name: 'BenchmarkQuiet0 (allocs/op)', unit: 'allocs', direction: 'lower-is-better', presence: 'added', pairs: [] },
      { name: 'BenchmarkQuiet1 (B/op)', unit: 'B', direction: 'lower-is-better', presence: 'removed', pairs: [] },
      { name: 'BenchmarkNew', unit: 'ns', direction: 'lower-is-better', presence: 'added', pairs: [] },
      { name: 'BenchmarkNew (allocs/op)', unit: 'allocs', direction: 'lower-is-better', presence: 'added', pairs: [] },
    );
    const text = render(r);
    expect(text).toContain("BenchmarkQuiet0 (allocs/op): printed by head's runs only (base's print no such metric): not judged");
    expect(text).toContain("BenchmarkQuiet1 (B/op): printed by base's runs only (head's print no such metric): not judged");
    expect(text).not.toContain('BenchmarkQuiet0 (allocs/op): only in head (new benchmark)');
    // a benchmark new in head, and its own metrics, are new
    expect(text).toContain('BenchmarkNew: only in head (new benchmark)');
    expect(text).toContain('BenchmarkNew (allocs/op): only in head (new benchmark)');
  });
});
