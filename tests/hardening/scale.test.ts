/**
 * S20: huge suites. A run that prints 100,000 benchmarks is parsed in every harness format, measured,
 * written, judged and reported (terminal, Markdown within the S8 limits), and its results file is
 * read back by `pairbench report` (S2's caps never refuse what `compare` wrote).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_FORMATS, parseHarness, type HarnessFormat } from '../../src/harness/index.ts';
import { REPORT_LIMITS, renderMarkdown } from '../../src/report/markdown.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { binomialTwoSidedHalf } from '../../src/stats/outliers.ts';
import { judgeResults } from '../../src/results/judge.ts';
import { readResultsFile } from '../../src/results/read.ts';
import { LIMITS, type BenchmarkResult, type Results } from '../../src/results/schema.ts';
import { estimateFileBytes, writeResultsFile } from '../../src/results/writer.ts';
import { utf8Bytes } from '../../src/report/escape.ts';
import { CLI, ROOT, readResults, type CliRun, resultsOf } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const HUGE = 100_000;

/** The CLI, with room for the output of a huge suite (spawnSync keeps 1 MiB by default). */
function pairbench(args: string[]): CliRun {
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1024 * 1024 * 1024, timeout: 900_000 });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** A deterministic pseudo-random stream. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `n` copies of a JSON entry template, each with its own name; `key` names the field that holds the name. */
function entries(template: Record<string, unknown>, key: string, n: number, name: (i: number) => string = (i) => `bench_${i}`): string {
  const tpl = JSON.stringify({ ...template, [key]: '\u0000' });
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(tpl.replace('"\\u0000"', JSON.stringify(name(i))));
  return out.join(',\n');
}

const fixture = (path: string): string => readFileSync(join(ROOT, 'tests/fixtures/harness', path), 'utf8');

/** One run of a 100,000-benchmark suite as each harness prints it. */
const OUTPUTS: Record<HarnessFormat, (n: number) => string> = {
  go: (n) => {
    const lines = ['goos: linux', 'goarch: amd64', 'pkg: example.com/huge', 'cpu: AMD EPYC'];
    for (let i = 0; i < n; i++) lines.push(`BenchmarkCase${i}-2   \t 1000\t ${1000 + (i % 97)} ns/op`);
    lines.push('PASS', 'ok  \texample.com/huge\t12.3s');
    return lines.join('\n');
  },
  criterion: (n) => {
    const first = JSON.parse(fixture('criterion/example-kernels.jsonl').split('\n')[0]!) as Record<string, unknown>;
    const { measured_values: _m, iteration_count: _i, ...small } = first;
    return entries({ ...small, throughput: [] }, 'id', n, (i) => `group/case_${i}`).replace(/,\n/g, '\n');
  },
  bencher: (n) => {
    const lines = [`running ${n} tests`];
    for (let i = 0; i < n; i++) lines.push(`test case_${i} ... bench:       ${(1000 + (i % 97)).toLocaleString('en-US')} ns/iter (+/- 5)`);
    lines.push('', `test result: ok. 0 passed; 0 failed; 0 ignored; ${n} measured; 0 filtered out`);
    return lines.join('\n');
  },
  'pytest-benchmark': (n) => {
    const doc = JSON.parse(fixture('pytest-benchmark/example-kernels.json')) as { benchmarks: Array<Record<string, unknown> & { stats: Record<string, unknown> }> };
    const b = doc.benchmarks[0]!;
    const { data: _d, ...stats } = b.stats;
    return `{"machine_info": {}, "benchmarks": [${entries({ ...b, stats }, 'fullname', n, (i) => `test_huge.py::test_case_${i}`)}], "version": "5.1.0"}`;
  },
  'google-benchmark': (n) => {
    const doc = JSON.parse(fixture('google-benchmark/single.json')) as { context: unknown; benchmarks: Array<Record<string, unknown>> };
    const b = doc.benchmarks[0]!;
    const tpl = JSON.stringify({ ...b, name: '\u0000', run_name: '\u0000' });
    const list: string[] = [];
    for (let i = 0; i < n; i++) list.push(tpl.replaceAll('"\\u0000"', JSON.stringify(`BM_Case/${i}`)));
    return `{"context": ${JSON.stringify(doc.context)}, "benchmarks": [${list.join(',\n')}]}`;
  },
  hyperfine: (n) => {
    const doc = JSON.parse(fixture('hyperfine/commands.json')) as { results: Array<Record<string, unknown>> };
    return `{"results": [${entries(doc.results[0]!, 'command', n, (i) => `./case ${i}`)}]}`;
  },
  jmh: (n) => {
    const doc = JSON.parse(fixture('jmh/kernels.json')) as Array<Record<string, unknown> & { primaryMetric: Record<string, unknown> }>;
    const { rawData: _r, ...primaryMetric } = doc[0]!.primaryMetric;
    return `[${entries({ ...doc[0]!, primaryMetric, secondaryMetrics: {} }, 'benchmark', n, (i) => `org.example.Huge.case${i}`)}]`;
  },
  json: (n) => {
    const list: string[] = [];
    for (let i = 0; i < n; i++) list.push(`{"name":"case/${i}","value":${1000 + (i % 97)},"unit":"ns"}`);
    return `[${list.join(',')}]`;
  },
  vitest: (n) => {
    const doc = JSON.parse(fixture('vitest/groups-no-samples.json')) as { testResults: Array<{ name: string; assertionResults: Array<Record<string, unknown> & { benchmarks: Array<{ tasks: unknown[] }> }> }> };
    const test = doc.testResults[0]!.assertionResults[0]!;
    const task = test.benchmarks[0]!.tasks[0]!;
    const tests = entries({ ...test, benchmarks: [{ name: 'x', tasks: [task] }] }, 'title', n, (i) => `case ${i}`);
    return `{"testResults": [{"name": "/repo/huge.bench.ts", "assertionResults": [${tests}]}]}`;
  },
  mitata: (n) => {
    const doc = JSON.parse(fixture('mitata/example-suite.json')) as { layout: unknown; benchmarks: Array<{ runs: Array<Record<string, unknown>> }> };
    const b = doc.benchmarks[0]!;
    const list: string[] = [];
    const tpl = JSON.stringify({ ...b, alias: '\u0000', runs: [{ ...b.runs[0]!, name: '\u0000' }] });
    for (let i = 0; i < n; i++) list.push(tpl.replaceAll('"\\u0000"', JSON.stringify(`case ${i}`)));
    return `{"layout": ${JSON.stringify(doc.layout)}, "benchmarks": [${list.join(',\n')}], "context": {}}`;
  },
  benchmarkjs: (n) => {
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`case ${i} x ${(10000 + (i % 97)).toLocaleString('en-US')} ops/sec \u00b11.23% (89 runs sampled)`);
    return lines.join('\n');
  },
  catch2: (n) => {
    const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<Catch2TestRun name="bench">', '  <TestCase name="huge">'];
    for (let i = 0; i < n; i++) lines.push(`    <BenchmarkResults name="case ${i}" samples="100"><mean value="${1000 + (i % 97)}" lowerBound="1" upperBound="2" ci="0.95"/></BenchmarkResults>`);
    lines.push('  </TestCase>', '</Catch2TestRun>');
    return lines.join('\n');
  },
  pyperf: (n) => {
    const doc = JSON.parse(fixture('pyperf/example-suite.json')) as { benchmarks: Array<{ metadata: Record<string, unknown>; runs: unknown[] }> };
    const b = doc.benchmarks[0]!;
    const list: string[] = [];
    for (let i = 0; i < n; i++) list.push(JSON.stringify({ ...b, metadata: { ...b.metadata, name: `case_${i}` } }));
    return `{"version": "1.0", "metadata": {"unit": "second"}, "benchmarks": [${list.join(',\n')}]}`;
  },
  'node-bench': (n) => {
    const record = fixture('node-bench/example-suite.jsonl')
      .split('\n')
      .map((l) => (l.startsWith('{') ? (JSON.parse(l) as { type: string; data: Record<string, unknown> }) : null))
      .find((r) => r?.type === 'bench:complete')!;
    const tpl = JSON.stringify({ ...record, data: { ...record.data, namePath: ['\u0000'] } });
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(tpl.replace('"\\u0000"', JSON.stringify(`case ${i}`)));
    return lines.join('\n');
  },
};

/** A results file of `n` benchmarks with `pairs` pairs each; one in a thousand is a 20% regression measured with 30 pairs. */
function hugeResults(n: number, pairs: number): Results {
  const rnd = lcg(n + pairs);
  const benchmarks: BenchmarkResult[] = [];
  for (let i = 0; i < n; i++) {
    const shift = i % 1000 === 0 ? 1.2 : 1;
    const ps = [];
    for (let k = 0; k < (shift > 1 ? 30 : pairs); k++) {
      const base = 1000 * (1 + (rnd() - 0.5) * 0.02);
      ps.push({ base, head: base * shift * (1 + (rnd() - 0.5) * 0.02), order: k % 2 === 0 ? ('base-first' as const) : ('head-first' as const) });
    }
    benchmarks.push({ name: `suite/case_${i}_${'x'.repeat(i % 40)}`, unit: 'ns', direction: 'lower-is-better', presence: 'both', stoppedBecause: 'max-pairs', pairs: ps });
  }
  return {
    schemaVersion: 1,
    tool: { name: 'pairbench', version: '0.1.0' },
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'feature', sha: 'b'.repeat(40) },
    settings: { seed: 1, alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', minPairs: pairs, maxPairs: pairs },
    status: 'complete',
    stoppedBecause: 'max-pairs',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:05:00.000Z',
    benchmarks,
  };
}

describe('S20: huge suites', () => {
  it.each(HARNESS_FORMATS)('S20: --format %s reads a run of 100,000 benchmarks', (format) => {
    const samples = parseHarness(format, OUTPUTS[format](HUGE));
    const primary = samples.filter((s) => !/ \(.+\)$/.test(s.name));
    expect(primary.length).toBe(HUGE);
    expect(new Set(primary.map((s) => s.name)).size).toBe(HUGE);
    for (const s of samples) expect(s.value).toBeGreaterThan(0);
  });

  it('S20: go test -json output of 400,000 lines in one package is read', () => {
    const lines: string[] = [];
    const pkg = 'example.com/huge';
    for (let i = 0; i < 4 * HUGE; i++) lines.push(JSON.stringify({ Action: 'output', Package: pkg, Test: `BenchmarkCase${i}`, Output: `BenchmarkCase${i}-2   \t 1000\t ${1000 + (i % 97)} ns/op\n` }));
    const samples = parseHarness('go', lines.join('\n'));
    expect(samples.length).toBe(4 * HUGE);
  });

  it('S20: the sign test of the outlier screen takes a million pairs', () => {
    // 2 P(K <= 499,000 | m = 1,000,000, p = 1/2) = 0.0456083 (the exact sum with lgamma, Python's math module)
    expect(binomialTwoSidedHalf(499_000, 1_000_000)).toBeCloseTo(0.0456083, 6);
  });

  it('S20: 100,000 benchmarks are judged and rendered: the terminal table, and Markdown within the S8 limits', () => {
    const judged = judgeResults(hugeResults(HUGE, 6), { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });
    expect(judged.benchmarks.length).toBe(HUGE);
    expect(judged.benchmarks.filter((b) => b.verdict === 'regression').length).toBe(HUGE / 1000);

    const text = renderTerminal(judged, { color: false });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('suite/case_')).length).toBeGreaterThanOrEqual(HUGE);
    expect(text).toMatch(/REGRESSION: \d+ regressions?/);

    for (const [limit, max] of [
      ['comment', REPORT_LIMITS.comment],
      ['checkSummary', REPORT_LIMITS.checkSummary],
      ['jobSummary', REPORT_LIMITS.jobSummary],
    ] as const) {
      const md = renderMarkdown(judged, { maxLength: max, fullReportHint: 'See the results file.' });
      expect(utf8Bytes(md), limit).toBeLessThanOrEqual(max);
      expect(md, limit).toContain("Cut to fit GitHub's size limit");
      expect(md, limit).toContain('regression');
    }
  });

  it('S20: a 100,000-benchmark --format json suite compares, reports and re-reports (S2: report reads what compare wrote)', () => {
    const dir = tempDir();
    const script = join(dir, 'suite.mjs');
    // One run of the suite: 100,000 results with 1% noise; one in ten thousand is 20% slower on head.
    writeFileSync(
      script,
      `const head = process.cwd().endsWith('head'); const out = [];
for (let i = 0; i < ${HUGE}; i++) out.push('{"name":"case/' + i + '","value":' + (1000 * (head && i % 10000 === 0 ? 1.2 : 1) * (1 + (Math.random() - 0.5) * 0.02)).toFixed(3) + ',"unit":"ns"}');
process.stdout.write('[' + out.join(',') + ']');\n`,
    );
    for (const side of ['base', 'head']) mkdirSync(join(dir, side));
    const file = join(dir, 'results.json');
    const md = join(dir, 'report.md');
    const run = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
    const compared = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', run, '--format', 'json', '--min-pairs', '3', '--max-pairs', '3', '--warmup', '0', '--out', file, '--markdown', md, '--quiet']);
    expect(compared.stderr).not.toMatch(/\n\s+at |Maximum call stack/);
    expect([0, 1], compared.stderr).toContain(compared.status);
    expect(statSync(file).size).toBeLessThanOrEqual(LIMITS.fileBytes);
    const results = readResults(file);
    expect(results.benchmarks.length).toBe(HUGE);
    expect(results.benchmarks[0]!.pairs.length).toBe(3);
    expect(utf8Bytes(readFileSync(md, 'utf8'))).toBeLessThanOrEqual(REPORT_LIMITS.comment);
    expect(compared.stdout.split('\n').filter((l) => /^case\/\d+ .*(regression|improvement|unchanged|inconclusive)$/.test(l)).length).toBe(HUGE);

    const again = join(dir, 'again.json');
    const reported = pairbench(['report', file, '--out', again]);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(compared.status);
    const rereported = pairbench(['report', again, '--json']);
    expect(rereported.stderr).toBe('');
    expect(rereported.status).toBe(compared.status);
    expect(resultsOf(rereported.stdout).benchmarks.length).toBe(HUGE);
    // about a minute on two idle cores; far longer on a loaded machine
  }, 900_000);

  it('S2: the size that stops measuring (max-size) is an upper bound of the judged file compare writes', () => {
    for (const [n, pairs] of [
      [50, 200],
      [2000, 12],
      [20_000, 3],
    ] as const) {
      const judged = judgeResults(hugeResults(n, pairs), { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });
      const file = join(tempDir(), 'r.json');
      const bytes = writeResultsFile(file, judged);
      expect(bytes).toBe(statSync(file).size);
      expect(readResultsFile(file).benchmarks.length).toBe(n);
      const total = judged.benchmarks.reduce((s, b) => s + b.pairs.length, 0);
      const names = judged.benchmarks.reduce((s, b) => s + b.name.length, 0);
      const estimate = estimateFileBytes(n, total, names);
      expect(bytes, `${n} x ${pairs}`).toBeLessThanOrEqual(estimate);
      expect(bytes, `${n} x ${pairs}`).toBeGreaterThan(estimate / 3);
    }
  });

  /** A --format json suite that prints `count` results whose names are `name(i)`. */
  function suite(dir: string, count: number, name: string): string {
    const script = join(dir, 'suite.mjs');
    writeFileSync(script, `const out = []; for (let i = 0; i < ${count}; i++) out.push({ name: ${name}, value: 1000 * (1 + Math.random() * 0.01), unit: 'ns' }); process.stdout.write(JSON.stringify(out));\n`);
    return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
  }

  it('S2: a benchmark name longer than a results file holds stops compare with one clear message, and report reads the file it wrote', () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const run = suite(dir, 3, "i === 1 ? 'p'.repeat(600) : 'case/' + i");
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--format', 'json', '--warmup', '0', '--out', file, '--quiet']);
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/names a benchmark of 600 characters \("p{100,}\.\.\."\); a results file holds names of at most 512 characters, as many as pairbench report reads: shorten the name, or leave the benchmark out with filter/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const reported = pairbench(['report', file]);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(3);
    expect(reported.stdout).toContain('names a benchmark of 600 characters');
  });

  it(`S2: more benchmarks than a results file holds (${LIMITS.benchmarks}) stop compare with one clear message, and report reads the file it wrote`, () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const run = suite(dir, LIMITS.benchmarks + 1, "'case/' + i");
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--format', 'json', '--warmup', '0', '--out', file, '--quiet']);
    expect(res.status).toBe(3);
    expect(res.stderr).toContain(`output holds ${LIMITS.benchmarks + 1} benchmarks, ${LIMITS.benchmarks + 1} in the comparison; a results file holds at most ${LIMITS.benchmarks}, as many as pairbench report reads`);
    const reported = pairbench(['report', file]);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(3);
  });

  it('S2: --max-pairs beyond what a results file holds per benchmark is refused before anything runs', () => {
    const dir = tempDir();
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--max-pairs', String(LIMITS.pairsPerBenchmark + 1), '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).toBe(`pairbench: --max-pairs: got "${LIMITS.pairsPerBenchmark + 1}"; expected a whole number from 1 to ${LIMITS.pairsPerBenchmark}\n`);
  });
});
