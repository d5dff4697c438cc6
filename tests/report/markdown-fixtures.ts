/**
 * Hand-made results files for the report tests: what the engine writes, with chosen verdicts.
 */
import type { BenchmarkResult, Results } from '../../src/results/schema.ts';
import type { Verdict } from '../../src/stats/types.ts';

/** A deterministic pseudo-random stream, so pairs are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function bench(name: string, verdict: Verdict, change: number, opts: Partial<BenchmarkResult> & { n?: number } = {}): BenchmarkResult {
  const n = opts.n ?? 12;
  const rnd = lcg(name.length * 7919 + Math.round(change * 1000));
  const pairs = Array.from({ length: n }, (_, i) => {
    const base = 50 + rnd() * 2;
    return { base, head: base * (1 + change) * (1 + (rnd() - 0.5) * 0.01), order: i % 2 === 0 ? ('base-first' as const) : ('head-first' as const) };
  });
  const { n: _n, ...rest } = opts;
  return {
    name,
    unit: 'ms',
    direction: 'lower-is-better',
    verdict,
    pairs,
    outliers: [],
    outliersKept: [],
    base: { n, median: 51, mean: 51.1, min: 50, max: 52, cv: 0.012, iqr: 0.7 },
    head: { n, median: 51 * (1 + change), mean: 51.1 * (1 + change), min: 50 * (1 + change), max: 52 * (1 + change), cv: 0.011, iqr: 0.6 },
    change: { estimate: change, ci: [change - 0.008, change + 0.008], confidence: 0.95, pValue: verdict === 'unchanged' ? 0.4 : 1e-6, pAdjusted: verdict === 'unchanged' ? 0.8 : 3e-6, method: 'exact' },
    diagnostics: [],
    ...rest,
  };
}

export function results(benchmarks: BenchmarkResult[], opts: Partial<Results> = {}): Results {
  const order: Verdict[] = ['unchanged', 'improvement', 'inconclusive', 'regression'];
  const verdict = benchmarks.reduce<Verdict>((w, b) => (order.indexOf(b.verdict ?? 'inconclusive') > order.indexOf(w) ? (b.verdict ?? 'inconclusive') : w), 'unchanged');
  return {
    schemaVersion: 1,
    tool: { name: 'pairbench', version: '0.1.0' },
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'feature', sha: 'b'.repeat(40) },
    environment: { os: 'Linux 6.8 (linux)', cpu: 'AMD EPYC 7763', cores: 4, node: 'v24.1.0' },
    settings: { seed: 1234, alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', minPairs: 10, maxPairs: 200, benchmarks: [{ name: 'parse', run: './bin/parse big.json', format: 'time', metrics: ['wall'] }] },
    status: 'complete',
    stoppedBecause: 'precision',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:05:00.000Z',
    verdict,
    benchmarks,
    ...opts,
  };
}

/** The names of S6: each tries to ping, link, inject HTML, break the table or fake our marker. */
export const HOSTILE_NAMES = ['@octocat', 'a|b', '`x`', '<img src=x onerror=alert(1)>', '<!-- pairbench -->', '#1', '[click](javascript:alert(1))', '**bold** _it_ ~~s~~', 'line\nbreak', '<!-- pairbench:default -->'];

const N = 200;
const ns = { unit: 'ns', n: N } as const;
const bytes = { unit: 'B', n: N } as const;
const count = { unit: 'allocs/op', n: N } as const;
const rate = { unit: 'B/s', direction: 'higher-is-better', n: N } as const;

/** What the Go harness makes of `go test -bench . -benchmem` with b.SetBytes on two benchmarks. */
export function goSuite(): Results {
  return results([
    bench('go/BenchmarkChecksum', 'unchanged', 0.002, ns),
    bench('go/BenchmarkChecksum (MB/s)', 'unchanged', -0.002, rate),
    bench('go/BenchmarkParse', 'regression', 0.1, ns),
    bench('go/BenchmarkParse (MB/s)', 'regression', -0.091, rate),
    bench('go/BenchmarkParse (B/op)', 'unchanged', 0, bytes),
    bench('go/BenchmarkParse (allocs/op)', 'unchanged', 0, count),
    bench('go/BenchmarkSort', 'improvement', -0.1, ns),
    bench('go/BenchmarkSort (B/op)', 'unchanged', 0, bytes),
    bench('go/BenchmarkSort (allocs/op)', 'unchanged', 0, count),
    bench('go/BenchmarkHash', 'unchanged', -0.001, ns),
    bench('go/BenchmarkHash (B/op)', 'unchanged', 0, bytes),
  ]);
}

