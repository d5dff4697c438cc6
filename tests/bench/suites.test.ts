/**
 * bench/suites.ts reads benchstat's verdicts from its CSV (a real benchstat output in
 * tests/fixtures/bench, with the command that made it beside it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchstatCsv } from '../../bench/suites.ts';

const csv = readFileSync(join(import.meta.dirname, '../fixtures/bench/benchstat.csv'), 'utf8');

describe('benchstat CSV', () => {
  it("reads the sec/op table only, with Go's names as pairbench has them, and flags a significant change beyond 2%", () => {
    expect(parseBenchstatCsv(csv)).toEqual([
      { name: 'BenchmarkParse/small', flagged: 'regression', verdict: 'significant +10.45%', estimate: 0.1045 },
      { name: 'BenchmarkSort', flagged: null, verdict: 'not significant', estimate: null },
    ]);
  });
});
