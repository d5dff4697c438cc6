/** The rules of each parser, on small hand-written inputs: names, statistics, units, errors. */
import { describe, expect, it } from 'vitest';
import {
  HARNESS_FORMATS,
  HARNESS_PARSERS,
  HarnessParseError,
  isHarnessFormat,
  parseHarness,
  type HarnessFormat,
  type HarnessParser,
  type Sample,
} from '../../src/harness/index.ts';
import { harnessOf } from '../../src/harness/registry.ts';

function values(samples: Sample[]): Record<string, number> {
  return Object.fromEntries(samples.map((s) => [s.name, s.value]));
}

/** Runs `fn`, expects a HarnessParseError, and returns it. */
function parseError(format: HarnessFormat, text: string): HarnessParseError {
  try {
    parseHarness(format, text);
  } catch (err) {
    expect(err).toBeInstanceOf(HarnessParseError);
    const e = err as HarnessParseError;
    expect(e.format).toBe(format);
    expect(e.message.startsWith(`${format} output`)).toBe(true);
    return e;
  }
  throw new Error(`expected ${format} to refuse ${JSON.stringify(text.slice(0, 80))}`);
}

describe('parseHarness', () => {
  it('knows every format', () => {
    expect([...HARNESS_FORMATS].sort()).toEqual(Object.keys(HARNESS_PARSERS).sort());
    for (const f of HARNESS_FORMATS) expect(isHarnessFormat(f)).toBe(true);
    expect(isHarnessFormat('time')).toBe(false);
    expect(isHarnessFormat('__proto__')).toBe(false);
  });

  it.each(HARNESS_FORMATS)('%s: empty or blank output is an error that asks about --format', (format) => {
    for (const text of ['', '\n', '   \n\t\n']) {
      const e = parseError(format, text);
      expect(e.message).toMatch(/format|expected/);
    }
  });

  it.each(HARNESS_FORMATS)('%s: text of no benchmark harness at all is an error', (format) => {
    parseError(format, 'PASS\nok  \texample.com/x\t0.01s\n');
    parseError(format, 'hello world');
  });

  it('an unknown format is a HarnessParseError too', () => {
    expect(() => parseHarness('nope' as HarnessFormat, 'x')).toThrow(HarnessParseError);
  });

  it('turns an unexpected exception of a parser into a HarnessParseError', () => {
    const go = harnessOf('go') as { parse: HarnessParser };
    const original = go.parse;
    go.parse = () => {
      throw new TypeError('boom');
    };
    try {
      const e = parseError('go', 'x');
      expect(e.message).toContain('boom');
    } finally {
      go.parse = original;
    }
  });
});

describe('go', () => {
  const header = 'goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: AMD EPYC\n';

  it('strips a -GOMAXPROCS suffix that every line shares', () => {
    const out = parseHarness('go', `${header}BenchmarkA-8   \t 100\t 10.5 ns/op\nBenchmarkB/n=5-8 \t 100\t 20 ns/op\nPASS\n`);
    expect(values(out)).toEqual({ BenchmarkA: 10.5, 'BenchmarkB/n=5': 20 });
  });

  it('keeps names as printed when the suffixes differ (-cpu 1,2 or GOMAXPROCS=1)', () => {
    expect(Object.keys(values(parseHarness('go', 'BenchmarkA \t 1\t 1 ns/op\nBenchmarkA-2 \t 1\t 2 ns/op\n')))).toEqual([
      'BenchmarkA',
      'BenchmarkA-2',
    ]);
    expect(Object.keys(values(parseHarness('go', 'BenchmarkA/size-10 1 1 ns/op\nBenchmarkA/size-20 1 2 ns/op\n')))).toEqual([
      'BenchmarkA/size-10',
      'BenchmarkA/size-20',
    ]);
  });

  it('combines the times of -count N by their least, and the MB/s Go computes from them by their greatest (the same repetition)', () => {
    // another process taking a core for a while only adds to a repetition's time
    const odd = parseHarness('go', 'BenchmarkA-2 1 30 ns/op\nBenchmarkA-2 1 10 ns/op\nBenchmarkA-2 1 20 ns/op\n');
    expect(values(odd)).toEqual({ BenchmarkA: 10 });
    const even = parseHarness('go', 'BenchmarkA-2 1 30 ns/op\nBenchmarkA-2 1 1000 ns/op\nBenchmarkA-2 1 20 ns/op\nBenchmarkA-2 1 25 ns/op\n');
    expect(values(even)).toEqual({ BenchmarkA: 20 });
    const throughput = parseHarness('go', 'BenchmarkT-2 9 40 ns/op 25.00 MB/s\nBenchmarkT-2 9 20 ns/op 50.00 MB/s\nBenchmarkT-2 9 25 ns/op 40.00 MB/s\n');
    expect(throughput).toEqual([
      { name: 'BenchmarkT', value: 20, unit: 'ns', direction: 'lower-is-better', repetitions: [40, 20, 25], combine: 'min' },
      { name: 'BenchmarkT (MB/s)', value: 50e6, unit: 'B/s', direction: 'higher-is-better', repetitions: [25e6, 50e6, 40e6], reciprocalOf: 'BenchmarkT', combine: 'max' },
    ]);
    // a throughput the harness does not compute from the time (no ns/op beside it) keeps the median
    expect(values(parseHarness('go', 'BenchmarkU-2 9 5 ns/op 3 things/s\nBenchmarkU-2 9 5 ns/op 9 things/s\nBenchmarkU-2 9 5 ns/op 4 things/s\n'))).toMatchObject({ 'BenchmarkU (things/s)': 4 });
  });

  it('combines the B/op and allocs/op of -count N by their minimum, every repetition kept', () => {
    // a pool refilled after a collection adds bytes to some repetitions, never takes them away
    const out = parseHarness('go', 'BenchmarkV-2 14 30 ns/op 92 B/op 2 allocs/op\nBenchmarkV-2 14 10 ns/op 57 B/op 1 allocs/op\nBenchmarkV-2 14 20 ns/op 88 B/op 1 allocs/op\n');
    expect(out).toEqual([
      { name: 'BenchmarkV', value: 10, unit: 'ns', direction: 'lower-is-better', repetitions: [30, 10, 20], combine: 'min' },
      { name: 'BenchmarkV (B/op)', value: 57, unit: 'B', direction: 'lower-is-better', repetitions: [92, 57, 88], combine: 'min' },
      { name: 'BenchmarkV (allocs/op)', value: 1, unit: 'allocs/op', direction: 'lower-is-better', repetitions: [2, 1, 1], combine: 'min' },
    ]);
    // a custom metric keeps the median: nothing says its noise only adds
    expect(values(parseHarness('go', 'BenchmarkW-2 1 5 ns/op 3 widgets/op\nBenchmarkW-2 1 5 ns/op 9 widgets/op\nBenchmarkW-2 1 5 ns/op 4 widgets/op\n'))).toMatchObject({ 'BenchmarkW (widgets/op)': 4 });
  });

  it('names extra metrics "<name> (<unit>)" and normalises their units', () => {
    const out = parseHarness('go', 'BenchmarkA-2  1000  1234 ns/op  56 B/op  3 allocs/op  7.5 MB/s  12.5 widgets/op  4 things/s\n');
    expect(out).toEqual([
      { name: 'BenchmarkA', value: 1234, unit: 'ns', direction: 'lower-is-better' },
      { name: 'BenchmarkA (B/op)', value: 56, unit: 'B', direction: 'lower-is-better' },
      { name: 'BenchmarkA (allocs/op)', value: 3, unit: 'allocs/op', direction: 'lower-is-better' },
      { name: 'BenchmarkA (MB/s)', value: 7.5e6, unit: 'B/s', direction: 'higher-is-better', reciprocalOf: 'BenchmarkA' },
      { name: 'BenchmarkA (widgets/op)', value: 12.5, unit: 'widgets/op', direction: 'lower-is-better' },
      { name: 'BenchmarkA (things/s)', value: 4, unit: 'things/s', direction: 'higher-is-better' },
    ]);
  });

  it('keeps zero counters, leaves out a time of 0, and refuses output where every value is 0', () => {
    expect(values(parseHarness('go', 'BenchmarkA-2 1 5 ns/op 0 B/op 0 allocs/op\n'))).toEqual({ BenchmarkA: 5, 'BenchmarkA (B/op)': 0, 'BenchmarkA (allocs/op)': 0 });
    expect(values(parseHarness('go', 'BenchmarkA-2 1 0 ns/op 3 B/op\n'))).toEqual({ 'BenchmarkA (B/op)': 3 });
    expect(parseError('go', 'BenchmarkA-2 1 0 ns/op 0 B/op\n').message).toContain('every benchmark value is 0');
  });

  it('qualifies a name that two packages share', () => {
    const out = parseHarness('go', 'pkg: ex/a\nBenchmarkX-2 1 1 ns/op\nBenchmarkY-2 1 3 ns/op\npkg: ex/b\nBenchmarkX-2 1 2 ns/op\n');
    expect(values(out)).toEqual({ 'ex/a.BenchmarkX': 1, BenchmarkY: 3, 'ex/b.BenchmarkX': 2 });
  });

  it('skips what is not a result line', () => {
    const text = [
      'BenchmarkA', // -v prints the bare name first
      'Benchmarking is fun', // lower-case after "Benchmark": not a benchmark name (Go's rule)
      '    BenchmarkA-2 1 1 ns/op', // indented: log output
      'BenchmarkA-2 \tsome output the benchmark printed',
      '--- BENCH: BenchmarkA-2',
      'BenchmarkA-2 \t 10\t 7 ns/op',
      'PASS',
    ].join('\r\n');
    expect(values(parseHarness('go', text))).toEqual({ BenchmarkA: 7 });
  });

  it('reads go test -json, joining the pieces of a line and naming the event line of an error', () => {
    const ev = (pkg: string, output: string): string => JSON.stringify({ Action: 'output', Package: pkg, Output: output });
    const text = [
      JSON.stringify({ Action: 'start', Package: 'ex/a' }),
      ev('ex/a', 'pkg: ex/a\n'),
      ev('ex/a', 'BenchmarkA-2 \t'),
      ev('ex/b', 'BenchmarkB-2 \t 10\t 3 ns/op\n'),
      ev('ex/a', ' 100\t 7 ns/op\n'),
      JSON.stringify({ Action: 'pass', Package: 'ex/a' }),
    ].join('\n');
    expect(values(parseHarness('go', text))).toEqual({ BenchmarkA: 7, BenchmarkB: 3 });
    const broken = [ev('ex/a', 'BenchmarkA-2 \t'), ev('ex/a', ' 100\t x ns/op\n')].join('\n');
    expect(parseError('go', broken).line).toBe(1);
  });

  it('refuses a result line with a broken value-unit pair, naming the line', () => {
    let e = parseError('go', `${header}BenchmarkA-2 100 abc ns/op\n`);
    expect(e.line).toBe(5);
    expect(e.message).toContain('go output line 5: BenchmarkA-2: expected a number followed by a unit');
    e = parseError('go', 'BenchmarkA-2 100 12 ns/op 5\n');
    expect(e.message).toContain('odd number');
    e = parseError('go', 'BenchmarkA-2 100\n');
    expect(e.message).toContain('expected value-unit pairs');
    e = parseError('go', 'BenchmarkA-2 100 -5 ns/op\n');
    expect(e.message).toContain('≥ 0');
    e = parseError('go', 'BenchmarkA-2 100 1e999 ns/op\n');
    expect(e.message).toContain('finite');
  });
});

describe('bencher', () => {
  it('reads libtest lines with separators, decimals and MB/s', () => {
    const text = [
      'running 3 tests',
      'test a::b ... bench:       1,234 ns/iter (+/- 56)',
      'test c    ... bench:   1,234,567.50 ns/iter (+/- 1,000.25) = 830 MB/s',
      'test d ... ignored',
      'test result: ok. 0 passed; 0 failed; 1 ignored; 2 measured',
    ].join('\n');
    expect(parseHarness('bencher', text)).toEqual([
      { name: 'a::b', value: 1234, unit: 'ns', direction: 'lower-is-better' },
      { name: 'c', value: 1234567.5, unit: 'ns', direction: 'lower-is-better' },
      { name: 'c (MB/s)', value: 830e6, unit: 'B/s', direction: 'higher-is-better', reciprocalOf: 'c' },
    ]);
  });

  it('tolerates the progress marks of -q and leaves out 0 ns/iter', () => {
    const out = parseHarness('bencher', 'i.test a ... bench: 10 ns/iter (+/- 1)\ntest zero ... bench: 0 ns/iter (+/- 0)\n');
    expect(values(out)).toEqual({ a: 10 });
  });

  it('refuses a bench line it cannot read', () => {
    const e = parseError('bencher', 'running 1 test\ntest a ... bench: fast\n');
    expect(e.line).toBe(2);
    expect(e.message).toContain('expected "bench: <number> ns/iter (+/- <number>)"');
    expect(parseError('bencher', 'test a ... bench: 10 widgets/iter (+/- 1)\n').message).toContain('time per iteration');
    expect(parseError('bencher', 'test a ... bench: 12,34 ns/iter (+/- 1)\n').line).toBe(1);
  });

  it("refuses a result without its name, as Criterion's --quick prints it, naming the flag", () => {
    // the output of a Criterion 0.4 bench executable run with --output-format bencher --quick
    const e = parseError('bencher', 'bench:          49 ns/iter (+/- 0)\n\nbench:         210 ns/iter (+/- 4)\n');
    expect(e.line).toBe(1);
    expect(e.message).toContain("no benchmark's name");
    expect(e.message).toContain('--quick');
    // libtest's summary and a benchmark's own name ending in "bench:" are not such lines
    expect(values(parseHarness('bencher', 'test bench: ... bench: 5 ns/iter (+/- 1)\ntest result: ok. 0 passed; 0 failed; 0 ignored; 1 measured\n'))).toEqual({ 'bench:': 5 });
  });

  it('gives a result the name of the benchmark left open on the line before it, and only that one', () => {
    // Criterion's debug note ends the `test <name> ... ` line; the result follows on its own
    expect(values(parseHarness('bencher', 'test a ... \nCompleted 9 iterations in 90 nanoseconds\nbench:          10 ns/iter (+/- 1)\ntest b ... bench: 20 ns/iter (+/- 1)\n'))).toEqual({ a: 10, b: 20 });
    // a name is used once: a second result without one is refused
    expect(parseError('bencher', 'test a ... Criterion.rs ERROR: x\nbench: 10 ns/iter (+/- 1)\nbench: 11 ns/iter (+/- 1)\n').line).toBe(3);
    // a test that passed or was ignored is not a benchmark left open
    expect(parseError('bencher', 'test t ... ok\nbench: 10 ns/iter (+/- 1)\n').message).toContain('--quick');
    expect(parseError('bencher', 'test t ... ignored, slow\nbench: 10 ns/iter (+/- 1)\n').line).toBe(2);
    // the split result is read as strictly as a whole line
    expect(parseError('bencher', 'test a ... Criterion.rs ERROR: x\nbench: fast\n').message).toContain('a: expected "bench: <number> ns/iter');
  });
});

describe('criterion', () => {
  const message = (id: string, median: number, extra: object = {}): string =>
    JSON.stringify({ reason: 'benchmark-complete', id, unit: 'ns', median: { estimate: median, unit: 'ns' }, ...extra });

  it('reads benchmark-complete messages and skips the rest', () => {
    const text = [
      '   Compiling x v0.1.0',
      message('g/a', 1500, { throughput: [{ per_iteration: 3000, unit: 'bytes' }] }),
      JSON.stringify({ reason: 'group-complete', group_name: 'g', benchmarks: ['g/a'] }),
      '[1, 2]',
      message('g/b', 2.5, { throughput: null }),
    ].join('\n');
    expect(parseHarness('criterion', text)).toEqual([
      { name: 'g/a', value: 1500, unit: 'ns', direction: 'lower-is-better' },
      { name: 'g/a (bytes/s)', value: 2e9, unit: 'B/s', direction: 'higher-is-better', reciprocalOf: 'g/a' },
      { name: 'g/b', value: 2.5, unit: 'ns', direction: 'lower-is-better' },
    ]);
  });

  it('refuses a broken JSON line and a benchmark-complete message without a median', () => {
    let e = parseError('criterion', `${message('a', 1)}\n{"reason": "benchmark-complete", "id": \n`);
    expect(e.line).toBe(2);
    expect(e.message).toContain('expected one cargo-criterion JSON message per line');
    e = parseError('criterion', JSON.stringify({ reason: 'benchmark-complete', id: 'a', unit: 'ns' }));
    expect(e.message).toContain('median');
    e = parseError('criterion', JSON.stringify({ reason: 'group-complete' }));
    expect(e.message).toContain('no benchmark');
  });
});

describe('pytest-benchmark', () => {
  const doc = (benchmarks: unknown[]): string => JSON.stringify({ machine_info: {}, benchmarks, version: '5.1.0' }, null, 2);

  it('takes stats.median, in ns, named by fullname', () => {
    const out = parseHarness(
      'pytest-benchmark',
      doc([
        { name: 'test_a', fullname: 'tests/t.py::test_a', stats: { median: 0.0015, mean: 0.1 } },
        { name: 'test_a', fullname: 'tests/u.py::test_a', stats: { median: 2e-6, mean: 0.1 } },
      ]),
    );
    expect(values(out)).toEqual({ 'tests/t.py::test_a': 1.5e6, 'tests/u.py::test_a': 2000 });
  });

  it('names the path of what is missing, and the line of a JSON syntax error', () => {
    expect(parseError('pytest-benchmark', doc([{ fullname: 'x', stats: {} }])).message).toContain('benchmarks[0].stats.median');
    expect(parseError('pytest-benchmark', doc([{ fullname: 7, stats: { median: 1 } }])).message).toContain('benchmarks[0].fullname');
    expect(parseError('pytest-benchmark', doc([])).message).toContain('no benchmarks in the document');
    const e = parseError('pytest-benchmark', '{\n  "benchmarks": [\n    {,\n  ]\n}');
    expect(e.line).toBe(3);
    expect(e.message).toContain('not valid JSON');
  });
});

describe('google-benchmark', () => {
  const run = (name: string, real: number, extra: object = {}): object => ({
    name,
    run_name: name,
    run_type: 'iteration',
    real_time: real,
    cpu_time: real / 2,
    time_unit: 'ns',
    ...extra,
  });
  const agg = (runName: string, aggregate: string, real: number, extra: object = {}): object => ({
    name: `${runName}_${aggregate}`,
    run_name: runName,
    run_type: 'aggregate',
    aggregate_name: aggregate,
    real_time: real,
    time_unit: 'ns',
    ...extra,
  });
  const doc = (benchmarks: object[]): string => JSON.stringify({ context: {}, benchmarks });

  it('takes the median real_time of the repetitions and ignores the aggregates', () => {
    const out = parseHarness(
      'google-benchmark',
      doc([
        run('BM_A', 10, { items_per_second: 100 }),
        run('BM_A', 30, { items_per_second: 300 }),
        run('BM_A', 20, { items_per_second: 200 }),
        agg('BM_A', 'mean', 999),
        agg('BM_A', 'median', 999),
        agg('BM_A', 'stddev', 5),
        { name: 'BM_A_BigO', run_name: 'BM_A', run_type: 'aggregate', aggregate_name: 'BigO', cpu_coefficient: 1, big_o: 'N' },
      ]),
    );
    // every repetition is kept beside the median (the design of the runs reads their spread)
    expect(out).toEqual([
      { name: 'BM_A', value: 20, unit: 'ns', direction: 'lower-is-better', repetitions: [10, 30, 20] },
      { name: 'BM_A (items_per_second)', value: 200, unit: 'items/s', direction: 'higher-is-better', repetitions: [100, 300, 200] },
    ]);
  });

  it('falls back on the median aggregate, then the mean; honours time_unit', () => {
    const out = parseHarness(
      'google-benchmark',
      doc([
        agg('BM_A', 'mean', 2, { time_unit: 'ms' }),
        agg('BM_A', 'median', 1.5, { time_unit: 'ms', bytes_per_second: 1e9 }),
        agg('BM_B', 'mean', 3, { time_unit: 's' }),
        agg('BM_B', 'stddev', 1, { time_unit: 's' }),
      ]),
    );
    expect(values(out)).toEqual({ BM_A: 1.5e6, 'BM_A (bytes_per_second)': 1e9, BM_B: 3e9 });
  });

  it('leaves out benchmarks that reported an error', () => {
    const out = parseHarness(
      'google-benchmark',
      doc([run('BM_A', 5), { name: 'BM_Err', run_name: 'BM_Err', run_type: 'iteration', error_occurred: true, error_message: 'x' }]),
    );
    expect(values(out)).toEqual({ BM_A: 5 });
    expect(parseError('google-benchmark', doc([{ name: 'BM_Err', error_occurred: true }])).message).toContain('no benchmarks');
  });

  it('refuses an unknown time unit and a run without real_time', () => {
    expect(parseError('google-benchmark', doc([run('BM_A', 5, { time_unit: 'fortnights' })])).message).toContain('time_unit');
    expect(parseError('google-benchmark', doc([{ name: 'BM_A', run_type: 'iteration' }])).message).toContain('real_time');
    expect(parseError('google-benchmark', JSON.stringify({ context: {} })).message).toContain('benchmarks');
  });
});

describe('hyperfine', () => {
  const doc = (results: object[]): string => JSON.stringify({ results });

  it('takes the median of times, else median, else mean', () => {
    const out = parseHarness(
      'hyperfine',
      doc([
        { command: 'a', mean: 9, times: [0.3, 0.1, 0.2] },
        { command: 'b', mean: 9, median: 0.5 },
        { command: 'c', mean: 0.25 },
      ]),
    );
    expect(values(out)).toEqual({ a: 0.2e9, b: 0.5e9, c: 0.25e9 });
  });

  it('appends parameters only when needed, and refuses two results with one name', () => {
    const out = parseHarness(
      'hyperfine',
      doc([
        { command: 'run', mean: 1, parameters: { n: '1' } },
        { command: 'run', mean: 2, parameters: { n: '2' } },
        { command: 'solo 3', mean: 3, parameters: { n: '3' } },
      ]),
    );
    expect(Object.keys(values(out))).toEqual(['run [n=1]', 'run [n=2]', 'solo 3']);
    expect(parseError('hyperfine', doc([{ command: 'x', mean: 1 }, { command: 'x', mean: 2 }])).message).toContain('--command-name');
    expect(parseError('hyperfine', doc([{ command: 'x' }])).message).toContain('expected times, median or mean');
  });
});

describe('jmh', () => {
  const entry = (benchmark: string, mode: string, score: number, unit: string, extra: object = {}): object => ({
    benchmark,
    mode,
    primaryMetric: { score, scoreUnit: unit },
    secondaryMetrics: {},
    ...extra,
  });

  it('normalises throughput to ops/s and times to ns; takes the median percentile when there is one', () => {
    const out = parseHarness(
      'jmh',
      JSON.stringify([
        entry('a.B.thr', 'thrpt', 5, 'ops/ms'),
        entry('a.B.avg', 'avgt', 2, 'us/op', { params: { size: '10', kind: 'x' } }),
        {
          benchmark: 'a.B.sample',
          mode: 'sample',
          primaryMetric: { score: 100, scorePercentiles: { '0.0': 1, '50.0': 40, '100.0': 900 }, scoreUnit: 'ns/op' },
        },
        entry('a.B.ss', 'ss', 1.5, 's/op'),
      ]),
    );
    expect(out).toEqual([
      { name: 'a.B.thr', value: 5000, unit: 'ops/s', direction: 'higher-is-better' },
      { name: 'a.B.avg[size=10,kind=x]', value: 2000, unit: 'ns', direction: 'lower-is-better' },
      { name: 'a.B.sample', value: 40, unit: 'ns', direction: 'lower-is-better' },
      { name: 'a.B.ss', value: 1.5e9, unit: 'ns', direction: 'lower-is-better' },
    ]);
  });

  it('tells modes apart and reports gc.alloc.rate.norm', () => {
    const gc = { secondaryMetrics: { '\u00b7gc.alloc.rate.norm': { score: 64, scoreUnit: 'B/op' }, 'gc.count': { score: 3, scoreUnit: 'counts' } } };
    const out = parseHarness('jmh', JSON.stringify([entry('a.B.x', 'thrpt', 5, 'ops/s', gc), entry('a.B.x', 'avgt', 2, 'ns/op')]));
    expect(values(out)).toEqual({ 'a.B.x:thrpt': 5, 'a.B.x:thrpt (gc.alloc.rate.norm)': 64, 'a.B.x:avgt': 2 });
  });

  it('refuses a document that is not a JMH result array', () => {
    expect(parseError('jmh', JSON.stringify({ benchmark: 'x' })).message).toContain('expected array');
    expect(parseError('jmh', JSON.stringify([{ benchmark: 'x', mode: 'thrpt' }])).message).toContain('[0].primaryMetric');
    expect(parseError('jmh', '[]').message).toContain('no benchmarks');
  });
});

describe('json', () => {
  it('reads the array form and the object form alike', () => {
    const results = [
      { name: 'a', value: 1.5, unit: 'ms' },
      { name: 'b', value: 2, unit: 'MB/s' },
      { name: 'c', value: 3, unit: 'score', direction: 'higher-is-better' },
      { name: 'd', value: 4, unit: 'KiB' },
      { name: 'e', value: 5, unit: 'ops/ms' },
      { name: 'f', value: 6, unit: 'widgets' },
    ];
    const expected: Sample[] = [
      { name: 'a', value: 1.5e6, unit: 'ns', direction: 'lower-is-better' },
      { name: 'b', value: 2e6, unit: 'B/s', direction: 'higher-is-better' },
      { name: 'c', value: 3, unit: 'score', direction: 'higher-is-better' },
      { name: 'd', value: 4096, unit: 'B', direction: 'lower-is-better' },
      { name: 'e', value: 5000, unit: 'ops/s', direction: 'higher-is-better' },
      { name: 'f', value: 6, unit: 'widgets', direction: 'lower-is-better' },
    ];
    expect(parseHarness('json', JSON.stringify(results))).toEqual(expected);
    expect(parseHarness('json', JSON.stringify({ tool: 'x', benchmarks: results }))).toEqual(expected);
  });

  it('combines entries of one name by their median, and refuses one name in two units', () => {
    const out = parseHarness('json', JSON.stringify([1, 5, 3].map((value) => ({ name: 'a', value, unit: 'ns' }))));
    expect(values(out)).toEqual({ a: 3 });
    const e = parseError('json', JSON.stringify([{ name: 'a', value: 1, unit: 'ns' }, { name: 'a', value: 1, unit: 'B' }]));
    expect(e.message).toContain('reported in B');
  });

  it('refuses bad entries, naming the path', () => {
    expect(parseError('json', JSON.stringify([{ name: '', value: 1, unit: 'ns' }])).message).toContain('[0].name');
    expect(parseError('json', JSON.stringify([{ name: 'a', value: -1, unit: 'ns' }])).message).toContain('[0].value');
    expect(parseError('json', JSON.stringify([{ name: 'a', value: '1', unit: 'ns' }])).message).toContain('[0].value');
    expect(parseError('json', JSON.stringify([{ name: 'a', value: 1 }])).message).toContain('[0].unit');
    expect(parseError('json', JSON.stringify([{ name: 'a', value: 1, unit: 'ns', direction: 'up' }])).message).toContain('[0].direction');
    expect(parseError('json', '[{"name": "a", "value": 1e999, "unit": "ns"}]').message).toContain('[0].value');
    expect(parseError('json', JSON.stringify({ results: [] })).message).toContain('"benchmarks" array');
    expect(parseError('json', '[]').message).toContain('no benchmarks');
  });

  it('takes a default direction for entries without one', () => {
    const text = JSON.stringify([
      { name: 'a', value: 1, unit: 'score' },
      { name: 'b', value: 1, unit: 'ms', direction: 'lower-is-better' },
    ]);
    expect(parseHarness('json', text, { defaultDirection: 'higher-is-better' }).map((s) => s.direction)).toEqual([
      'higher-is-better',
      'lower-is-better',
    ]);
    expect(parseHarness('json', text).map((s) => s.direction)).toEqual(['lower-is-better', 'lower-is-better']);
    expect(parseHarness('go', 'BenchmarkA 1 1 ns/op', { defaultDirection: 'higher-is-better' })[0]?.direction).toBe('lower-is-better');
  });

  it('explains the npm banner', () => {
    const e = parseError('json', '\n> bench@1.0.0 bench\n> node bench.mjs\n\n[{"name":"a","value":1,"unit":"ns"}]\n');
    expect(e.line).toBe(2);
    expect(e.message).toContain('npm run --silent');
  });
});

describe('vitest', () => {
  const task = (name: string, latency: Record<string, unknown>): unknown => ({ name, latency, throughput: {}, period: 1, totalTime: 1, rank: 1 });
  const v5 = (tests: unknown[], file = '/home/u/repo/bench/x.bench.ts'): string => JSON.stringify({ numTotalTests: 1, testResults: [{ name: file, assertionResults: tests }] }, null, 2);
  const test = (ancestorTitles: string[], title: string, benchmarks?: unknown[]): unknown => ({ ancestorTitles, title, fullName: [...ancestorTitles, title].join(' '), status: 'passed', ...(benchmarks ? { benchmarks } : {}) });

  it('vitest 5: the median of the samples, else p50, else the mean, in ms to ns; tests without benchmarks skipped', () => {
    const out = parseHarness(
      'vitest',
      v5([
        test(['d'], 't', [{ name: 'd > t', tasks: [task('a', { samples: [1, 9, 2], p50: 5, mean: 4 }), task('b', { p50: 0.5, mean: 4 }), task('c', { mean: 0.25 })] }]),
        test([], 'plain test'),
      ]),
    );
    expect(values(out)).toEqual({ 'x.bench.ts > d > t > a': 2e6, 'x.bench.ts > d > t > b': 0.5e6, 'x.bench.ts > d > t > c': 0.25e6 });
  });

  it("vitest 5: a group named otherwise than its test comes before the bench; one bench of two .run() calls is combined", () => {
    const out = parseHarness(
      'vitest',
      v5([test([], 't', [{ name: 'n=10', tasks: [task('a', { p50: 1, mean: 1 })] }, { name: 't', tasks: [task('a', { p50: 2, mean: 2 })] }, { name: 't', tasks: [task('a', { p50: 4, mean: 4 })] }])]),
    );
    expect(values(out)).toEqual({ 'x.bench.ts > t > n=10 > a': 1e6, 'x.bench.ts > t > a': 3e6 });
  });

  it('vitest 5: a stored baseline (bench.from, fromStore) is not a measurement of the run', () => {
    const stored = { ...(task('old', { p50: 9, mean: 9 }) as object), fromStore: true };
    expect(values(parseHarness('vitest', v5([test([], 't', [{ name: 't', tasks: [task('new', { p50: 1, mean: 1 }), stored] }])])))).toEqual({ 'x.bench.ts > t > new': 1e6 });
  });

  it('vitest 5: hostile names are kept as they are, never interpreted', () => {
    const name = '$(rm -rf ~) `x` "; --help \u00e9 > >';
    const out = parseHarness('vitest', v5([test([name], name, [{ name: 'g', tasks: [task(name, { p50: 1, mean: 1 })] }])]));
    expect(out.map((s) => s.name)).toEqual([`x.bench.ts > ${name} > ${name} > g > ${name}`]);
  });

  it('vitest 4 --outputJson: files[].groups[], the median, else the mean', () => {
    const doc = { files: [{ filepath: '/r/b.bench.ts', groups: [{ fullName: 'b.bench.ts > g', benchmarks: [{ name: 'x', median: 0.002, mean: 1, samples: [] }, { name: 'y', mean: 0.001 }] }] }] };
    expect(values(parseHarness('vitest', JSON.stringify(doc)))).toEqual({ 'b.bench.ts > g > x': 2000, 'b.bench.ts > g > y': 1000 });
  });

  it('refuses what is not a vitest document, naming the path', () => {
    expect(parseError('vitest', v5([test([], 't', [{ name: 't', tasks: [task('a', { p50: -1, mean: 1 })] }])])).message).toContain('latency.p50');
    expect(parseError('vitest', v5([test([], 't', [{ name: 't', tasks: [{ name: 'a' }] }])])).message).toContain('testResults[0].assertionResults[0].benchmarks[0].tasks[0].latency');
    expect(parseError('vitest', JSON.stringify({ files: [{ filepath: '/x', groups: [{ fullName: 'x', benchmarks: [{ name: 'a' }] }] }] })).message).toContain('files[0].groups[0].benchmarks[0].mean');
    expect(parseError('vitest', v5([test([], 't')])).message).toContain('no benchmarks in the document');
    expect(parseError('vitest', '{"testResults": [').line).toBe(1);
    expect(parseError('vitest', '[1, 2]').message).toContain('neither testResults nor files');
  });
});

describe('mitata', () => {
  const doc = (benchmarks: unknown[], layout: unknown[] = [{ name: null, types: [] }]): string => JSON.stringify({ layout, benchmarks, context: {} });
  const run = (name: string, stats: unknown, extra: Record<string, unknown> = {}): unknown => ({ name, args: {}, stats, ...extra });

  it('stats.p50, else avg, in ns; a named group prefixes; runs of one printed name get their arguments; errors left out', () => {
    const out = parseHarness(
      'mitata',
      doc(
        [
          { alias: 'a', group: 0, runs: [run('a', { p50: 12, avg: 20 })] },
          { alias: 'b', group: 1, runs: [run('b', { avg: 7 })] },
          { alias: 'fill', group: 1, runs: [run('fill', { p50: 1, avg: 1 }, { args: { n: 8 } }), run('fill', { p50: 2, avg: 2 }, { args: { n: 'x' } })] },
          { alias: 'boom', group: 0, runs: [{ name: 'boom', args: {}, error: { message: 'x' } }] },
        ],
        [{ name: null }, { name: 'g' }],
      ),
    );
    expect(values(out)).toEqual({ a: 12, 'g > b': 7, 'g > fill [n=8]': 1, 'g > fill [n=x]': 2 });
  });

  it('refuses a document without layout or runs, and one where every benchmark failed', () => {
    expect(parseError('mitata', JSON.stringify({ benchmarks: [] })).message).toContain('layout');
    expect(parseError('mitata', doc([{ alias: 'a', group: 0, runs: [run('a', { p50: 'x', avg: 1 })] }])).message).toContain('benchmarks[0].runs[0].stats.p50');
    expect(parseError('mitata', doc([{ alias: 'a', group: 0, runs: [{ name: 'a', error: {} }] }])).message).toContain('no benchmarks in the document');
  });
});

describe('node-bench', () => {
  const complete = (file: string, namePath: string[], samples: Array<[number, string | number]>, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ type: 'bench:complete', data: { benchId: JSON.stringify([file, namePath, {}]), name: namePath[namePath.length - 1], namePath, file, params: {}, samples: samples.map(([operations, duration_ns]) => ({ operations, duration_ns })), ...extra } });

  it('the median of duration_ns / operations over the samples; other records and printed lines passed over', () => {
    const text = [
      'a line the program printed',
      JSON.stringify({ type: 'bench:plan', data: { name: 'x' } }),
      JSON.stringify({ type: 'bench:sample', data: { operations: 1, duration_ns: '999999' } }),
      complete('file:///r/base/k.bench.mjs', ['x'], [[10, '1000'], [10, '3000'], [5, '1000']]),
      complete('file:///r/base/k.bench.mjs', ['s', 'y'], [[2, 30]], { params: { n: 8, kind: 'big' } }),
      JSON.stringify({ type: 'bench:summary', data: { success: true } }),
      '',
    ].join('\n');
    expect(values(parseHarness('node-bench', text))).toEqual({ 'k.bench.mjs > x': 200, 'k.bench.mjs > s > y [n=8, kind=big]': 15 });
  });

  it('leaves out a benchmark that threw or was skipped, and refuses a run where none was measured', () => {
    const ok = complete('file:///r/k.bench.mjs', ['ok'], [[1, '5']]);
    const threw = complete('file:///r/k.bench.mjs', ['bad'], [], { error: { name: 'Error', message: 'boom' } });
    const skipped = complete('file:///r/k.bench.mjs', ['skip'], [], { skip: true });
    expect(values(parseHarness('node-bench', [threw, ok, skipped].join('\n')))).toEqual({ 'k.bench.mjs > ok': 5 });
    expect(parseError('node-bench', [threw, skipped].join('\n')).message).toContain('no measured benchmark');
    expect(parseError('node-bench', '  ✔ parse 1,234 ops/s\n').message).toContain('--bench-reporter=json');
  });

  it('refuses a broken record, naming its line and field', () => {
    const ok = complete('file:///r/k.bench.mjs', ['ok'], [[1, '5']]);
    expect(parseError('node-bench', `${ok}\n{"type":"bench:complete",`).line).toBe(2);
    const e = parseError('node-bench', `${ok}\n${complete('file:///r/k.bench.mjs', ['x'], [[1, '-5']])}`);
    expect(e.line).toBe(2);
    expect(e.message).toContain('samples[0].duration_ns');
    expect(parseError('node-bench', complete('file:///r/k.bench.mjs', ['x'], [[0, '5']])).message).toContain('samples[0].operations');
    expect(parseError('node-bench', complete('file:///r/k.bench.mjs', [], [[1, '5']])).message).toContain('namePath');
  });

  it('names by the file, never by the benchId (which holds the absolute path): base and head in other folders give the same names', () => {
    const at = (dir: string): string => complete(`file://${dir}/bench/k.bench.mjs`, ['x'], [[1, '7']]);
    expect(parseHarness('node-bench', at('/tmp/base')).map((s) => s.name)).toEqual(parseHarness('node-bench', at('/tmp/pr-head')).map((s) => s.name));
  });

  it('hostile names are kept as they are, never interpreted', () => {
    const name = '$(rm -rf ~) `x` "; --help \u00e9 > >';
    const out = parseHarness('node-bench', complete('file:///r/%24(x).mjs', [name, name], [[1, '3']], { params: { [name]: name } }));
    expect(out.map((s) => s.name)).toEqual([`$(x).mjs > ${name} > ${name} [${name}=${name}]`]);
  });
});

describe('benchmarkjs', () => {
  it('reads ops/sec with separators and decimals, higher is better; the last " x " splits the name', () => {
    const out = parseHarness('benchmarkjs', 'noise\nRegExp#test x 1,234,567 ops/sec \u00b11.50% (89 runs sampled)\nslow x 2 x 12.34 ops/sec \u00b10.00% (1 run sampled)\nbad: TypeError: x\nFastest is RegExp#test\n');
    expect(out).toEqual([
      { name: 'RegExp#test', value: 1234567, unit: 'ops/s', direction: 'higher-is-better' },
      { name: 'slow x 2', value: 12.34, unit: 'ops/s', direction: 'higher-is-better' },
    ]);
  });

  it('refuses a result line it cannot read, naming the line', () => {
    const e = parseError('benchmarkjs', 'a x 1 ops/sec \u00b11% (2 runs sampled)\nb x Infinity ops/sec \u00b10.00% (3 runs sampled)\n');
    expect(e.line).toBe(2);
    expect(e.message).toContain('"Infinity"');
    expect(parseError('benchmarkjs', 'c x 5 ops/sec \u00b1?% (lots)').line).toBe(1);
    expect(parseError('benchmarkjs', 'Fastest is nothing\n').message).toContain('no benchmark lines');
  });
});

describe('catch2', () => {
  const xml = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n<Catch2TestRun name="b">\n${body}\n</Catch2TestRun>\n`;
  const result = (name: string, mean: string): string => `<BenchmarkResults name="${name}" samples="5">\n<!-- All values in nano seconds -->\n<mean value="${mean}" lowerBound="1" upperBound="2" ci="0.95"/>\n</BenchmarkResults>`;

  it('XML: the mean in ns, named test case > sections > benchmark, entities decoded', () => {
    const out = parseHarness('catch2', xml(`<TestCase name="t &amp; &#x3c;u&#62;"><Section name="s">${result('a', '12.5')}</Section>${result('b &quot;q&quot;', '3e3')}</TestCase>`));
    expect(values(out)).toEqual({ 't & <u> > s > a': 12.5, 't & <u> > b "q"': 3000 });
  });

  it('XML: refuses a result without a mean, a broken mean, one outside a test case, another root, and a cut document, naming the line', () => {
    expect(parseError('catch2', xml('<TestCase name="t">\n<BenchmarkResults name="a">\n</BenchmarkResults></TestCase>')).message).toContain('expected a <mean value');
    const e = parseError('catch2', xml(`<TestCase name="t">\n${result('a', 'NaN')}</TestCase>`));
    expect(e.line).toBe(6);
    expect(e.message).toContain('"NaN"');
    expect(parseError('catch2', xml(result('a', '1'))).message).toContain('outside a <TestCase>');
    expect(parseError('catch2', '<?xml version="1.0"?>\n<testsuites/>').message).toContain('<testsuites>');
    expect(parseError('catch2', xml('<TestCase name="t"><BenchmarkResults name="a">')).message).toContain('ends inside');
    expect(parseError('catch2', xml('<TestCase name="t"></TestCase>')).message).toContain('no <BenchmarkResults>');
  });

  const RULE = '-'.repeat(79);
  const header = (...names: string[]): string[] => [RULE, ...names, RULE, 'bench.cc:3', '.'.repeat(79), '', 'benchmark name                       samples       iterations    estimated', '                                     mean          low mean      high mean', '                                     std dev       low std dev   high std dev', RULE];

  it('console: the mean and its unit, sections from the header, a wrapped long name joined with a space', () => {
    const text = [
      ...header('parse', '  large'),
      'json                                           100             1    1.2 ms ',
      '                                        1.5 us    1.4 us    1.6 us ',
      '                                        10 ns    9 ns    11 ns ',
      '                                                                               ',
      'a benchmark whose name is longer than',
      'the column',
      '                                               100             4    3.3 ms ',
      '                                        2.5 ms    2.4 ms    2.6 ms ',
      '                                        1 us    0.9 us    1.1 us ',
      '',
      '='.repeat(79),
    ].join('\n');
    expect(values(parseHarness('catch2', text))).toEqual({ 'parse > large > json': 1500, 'parse > large > a benchmark whose name is longer than the column': 2.5e6 });
  });

  it('console: refuses a result whose mean line is broken, naming the line', () => {
    const e = parseError('catch2', [...header('t'), 'x                                              100             1    1 ms ', '          garbage', ''].join('\n'));
    expect(e.line).toBe(12);
    expect(e.message).toContain('garbage');
  });
});

describe('pyperf', () => {
  const doc = (benchmarks: unknown[], metadata: Record<string, unknown> = { unit: 'second' }): string => JSON.stringify({ version: '1.0', metadata, benchmarks });

  it("the median of every run's values (calibration runs hold none), each value kept in order as a repetition; name and unit from either metadata", () => {
    const out = parseHarness(
      'pyperf',
      doc([
        { metadata: { name: 'a' }, runs: [{ warmups: [[1, 5]] }, { values: [1e-6, 3e-6] }, { values: [2e-6] }] },
        { metadata: { name: 'mem', unit: 'byte' }, runs: [{ values: [100, 300] }] },
      ]),
    );
    expect(out).toEqual([
      { name: 'a', value: 2000, unit: 'ns', direction: 'lower-is-better', repetitions: [1e-6 * 1e9, 3e-6 * 1e9, 2e-6 * 1e9] },
      { name: 'mem', value: 200, unit: 'B', direction: 'lower-is-better', repetitions: [100, 300] },
    ]);
    expect(values(parseHarness('pyperf', doc([{ runs: [{ values: [0.5] }] }], { name: 'only', unit: 'second' })))).toEqual({ only: 0.5e9 });
  });

  it('refuses a benchmark without a name, values or a known unit', () => {
    expect(parseError('pyperf', doc([{ runs: [{ values: [1] }] }])).message).toContain('benchmarks[0]: expected a name');
    expect(parseError('pyperf', doc([{ metadata: { name: 'a' }, runs: [{ warmups: [[1, 2]] }] }])).message).toContain('no run holds a value');
    expect(parseError('pyperf', doc([{ metadata: { name: 'a', unit: 'parsec' }, runs: [{ values: [1] }] }])).message).toContain('got "parsec"');
    expect(parseError('pyperf', doc([{ metadata: { name: 'a' }, runs: [{ values: [-1] }] }])).message).toContain('benchmarks[0].runs[0].values[0]');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('refuses the unit %s as any unknown unit, in one line: no lookup reaches the prototype', (unit) => {
    const e = parseError('pyperf', doc([{ metadata: { name: 'a', unit }, runs: [{ values: [1] }] }]));
    expect(e.message).toBe(`pyperf output: benchmarks[0] (a): expected unit second, byte or integer, got ${JSON.stringify(unit)}`);
  });
});
