/**
 * Subtracting pairbench's recorded per-run overhead before the paired ratios: a fixed cost c
 * turns head/base into (h + c) / (b + c); judging a results file that records c must give the
 * change of (h − c) / (b − c), keep the raw pairs as measured, and say what it did.
 */
import { describe, expect, it } from 'vitest';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { judgeResults } from '../../src/results/judge-file.ts';
import { ResultsSchema, type Results } from '../../src/results/schema.ts';
import { hodgesLehmann, logRatios } from '../../src/stats/index.ts';
import { MAX_SHARE, overheadEstimate, subtractOverhead } from '../../src/stats/overhead-estimate.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

const OPTS = { alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const, correction: 'holm' as const };

/** Pairs whose true times x (base) and 1.05·x (head) each carry a fixed overhead c. */
function withOverhead(c: number, n = 30, seed = 7) {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const x = 4 * (1 + rng() * 0.3);
    const h = x * (1.05 + (rng() - 0.5) * 0.004);
    return { base: x + c, head: h + c, order: i % 2 ? ('base-first' as const) : ('head-first' as const) };
  });
}

function file(pairs: Results['benchmarks'][number]['pairs'], overhead?: Results['benchmarks'][number]['overhead']): Results {
  return {
    schemaVersion: 1,
    base: { ref: 'main' },
    head: { ref: 'pr' },
    benchmarks: [{ name: 'prog', unit: 'ms', direction: 'lower-is-better', metric: 'wall', pairs, ...(overhead ? { overhead } : {}) }],
  };
}

describe('overhead subtraction when judging', () => {
  it('a recorded overhead is subtracted from both sides of every pair before the ratios', () => {
    const c = 1.5;
    const pairs = withOverhead(c);
    const judged = judgeResults(file(pairs, { ms: c, n: 3, method: 'test', samples: [1.4, 1.5, 1.9] }), OPTS).benchmarks[0]!;
    const expected = Math.expm1(hodgesLehmann(logRatios(pairs.map((p) => ({ ...p, base: p.base - c, head: p.head - c })))).estimate);
    expect(judged.change!.estimate).toBeCloseTo(expected, 12);
    expect(judged.change!.estimate).toBeGreaterThan(0.045);
    // the raw pairs stay as measured
    expect(judged.pairs).toEqual(pairs);
    expect(judged.diagnostics!.map((d) => d.code)).toContain('overhead');
  });

  it('without a recorded overhead the change is shrunk towards zero by it', () => {
    const pairs = withOverhead(1.5);
    const plain = judgeResults(file(pairs), OPTS).benchmarks[0]!;
    const corrected = judgeResults(file(pairs, { ms: 1.5 }), OPTS).benchmarks[0]!;
    expect(plain.change!.estimate).toBeLessThan(corrected.change!.estimate - 0.005);
  });

  it('the median of the raw samples is the overhead (a slow outlier does not move it), the recorded ms only without samples', () => {
    expect(overheadEstimate({ ms: 9, samples: [1, 1.2, 50] })).toBe(1.2);
    expect(overheadEstimate({ ms: 0.8 })).toBe(0.8);
    expect(overheadEstimate({ samples: [] })).toBe(0);
  });

  it('runs short against the overhead get the short-run warning that says what to do', () => {
    const judged = judgeResults(file(withOverhead(1.5), { ms: 1.5 }), OPTS).benchmarks[0]!;
    const warning = judged.diagnostics!.find((d) => d.code === 'short-run');
    expect(warning?.severity).toBe('warning');
    expect(wordDiagnostic(warning!, 'cli')).toMatch(/short against pairbench's overhead of 1\.50 ms.*--shell none/);
    const long = judgeResults(file(withOverhead(1.5).map((p) => ({ ...p, base: p.base * 20, head: p.head * 20 })), { ms: 1.5 }), OPTS).benchmarks[0]!;
    expect(long.diagnostics!.map((d) => d.code)).not.toContain('short-run');
  });

  it('a corrected time never reaches 0: an overhead as large as the fastest run is capped, and said', () => {
    const pairs = [
      { base: 1, head: 1.1, order: 'base-first' as const },
      { base: 3, head: 3.2, order: 'head-first' as const },
    ];
    const c = subtractOverhead(pairs, 2);
    expect(c.capped).toBe(true);
    expect(c.subtracted).toBeCloseTo(MAX_SHARE * 1, 12);
    expect(Math.min(...c.pairs.flatMap((p) => [p.base, p.head]))).toBeGreaterThan(0);
    const judged = judgeResults(file([...pairs, ...pairs, ...pairs], { ms: 2 }), OPTS).benchmarks[0]!;
    expect(judged.change).not.toBeNull();
    expect(wordDiagnostic(judged.diagnostics!.find((d) => d.code === 'short-run')!, 'cli')).toMatch(/cannot be trusted/);
  });

  it('the results file accepts the overhead record and refuses a negative one', () => {
    const good = file(withOverhead(1), { ms: 1, n: 2, method: 'm', samples: [1, 1] });
    expect(ResultsSchema.safeParse(good).success).toBe(true);
    expect(ResultsSchema.safeParse(file(withOverhead(1), { ms: -1 })).success).toBe(false);
  });
});
