/**
 * bench/suites.ts reads benchstat's verdicts from its CSV (a real benchstat output in
 * tests/fixtures/bench, with the command that made it beside it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchstatCsv, parsePytestCompare } from '../../bench/suites.ts';

const csv = readFileSync(join(import.meta.dirname, '../fixtures/bench/benchstat.csv'), 'utf8');

describe('benchstat CSV', () => {
  it("reads the sec/op table only, with Go's names as pairbench has them, and flags a significant change beyond 2%", () => {
    expect(parseBenchstatCsv(csv)).toEqual([
      { name: 'BenchmarkParse/small', flagged: 'regression', verdict: 'significant +10.45%', estimate: 0.1045 },
      { name: 'BenchmarkSort', flagged: null, verdict: 'not significant', estimate: null },
    ]);
  });
});

describe('pytest-benchmark --benchmark-compare-fail', () => {
  it("flags the benchmarks named in its failure lines, by their full pytest ids", () => {
    const dir = join(import.meta.dirname, '../fixtures/bench');
    const output = readFileSync(join(dir, 'pytest-benchmark-compare-fail.txt'), 'utf8');
    const head = readFileSync(join(dir, 'pytest-benchmark-compare-head.json'), 'utf8');
    expect(parsePytestCompare(output, head)).toEqual([
      { name: 'test_kernels.py::test_checksum', flagged: 'regression', verdict: 'median failed', estimate: null },
      { name: 'test_kernels.py::test_sort[1000]', flagged: null, verdict: 'passed', estimate: null },
      { name: 'test_kernels.py::test_sort[10000]', flagged: null, verdict: 'passed', estimate: null },
    ]);
  });
});
