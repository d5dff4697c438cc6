/**
 * The terminal report of a results file that another tool wrote with only what the schema
 * requires (no status, no seed, no stop reason): nothing reads "undefined".
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import { renderTerminal } from '../../src/report/terminal.ts';

describe("terminal report of another tool's file", () => {
  it('says nothing about a status the file does not have', () => {
    const pairs = Array.from({ length: 12 }, (_, i) => ({ base: 100 + (i % 3), head: 100 + ((i + 1) % 3), order: i % 2 ? ('base-first' as const) : ('head-first' as const) }));
    const r = judgeResults(
      { schemaVersion: 1, base: { ref: 'a' }, head: { ref: 'b' }, benchmarks: [{ name: 'x', unit: 'ms', direction: 'lower-is-better', pairs }] },
      { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' },
    );
    const text = renderTerminal(r, { color: false });
    expect(text).not.toContain('undefined');
    expect(text).toMatch(/^(UNCHANGED|INCONCLUSIVE): 1 (unchanged|inconclusive)$/m);
  });
});
