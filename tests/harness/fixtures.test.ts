/**
 * Real outputs of the real tools (tests/fixtures/harness/<format>/, each with the command that
 * produced it in <name>.cmd; scripts/capture-fixtures.sh captures them again). The expected
 * values are read off the fixture files by hand: after re-capturing, update them here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_FORMATS, parseHarness, type HarnessFormat, type Sample } from '../../src/harness/index.ts';
import { fixtureOptions } from '../support/fixture-options.ts';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'harness');
const FIXTURE = /\.(txt|json|jsonl|xml)$/;

/** A fixture's samples, parsed as pairbench parses that run (a quick Criterion run: tests/support/fixture-options.ts). */
function fixture(format: HarnessFormat, file: string): Sample[] {
  return parseHarness(format, readFileSync(join(ROOT, format, file), 'utf8'), fixtureOptions(join(ROOT, format), file));
}

type Expected = Record<string, [value: number, unit: string, direction?: 'higher-is-better']>;

/** Checks the exact list of names (in order), and each value, unit and direction. */
function expectSamples(samples: Sample[], expected: Expected): void {
  expect(samples.map((s) => s.name)).toEqual(Object.keys(expected));
  for (const s of samples) {
    const [value, unit, direction] = expected[s.name] as Expected[string];
    if (value === 0) expect(s.value, s.name).toBe(0);
    else expect(s.value / value, s.name).toBeCloseTo(1, 9);
    expect(s.unit, s.name).toBe(unit);
    expect(s.direction, s.name).toBe(direction ?? 'lower-is-better');
  }
}

describe('every fixture', () => {
  const all = HARNESS_FORMATS.flatMap((format) =>
    existsSync(join(ROOT, format))
      ? readdirSync(join(ROOT, format))
          .filter((f) => FIXTURE.test(f))
          .map((file) => ({ format, file }))
      : [],
  );

  it('covers every format', () => {
    expect(new Set(all.map((f) => f.format))).toEqual(new Set(HARNESS_FORMATS));
  });

  it.each(all)('$format/$file records its command and parses to valid samples', ({ format, file }) => {
    const cmd = readFileSync(join(ROOT, format, file.replace(FIXTURE, '.cmd')), 'utf8').split('\n');
    expect(cmd[0]).toMatch(/^cd \S+$/);
    expect((cmd[1] ?? '').length).toBeGreaterThan(0);
    const samples = fixture(format, file);
    expect(samples.length).toBeGreaterThan(0);
    for (const s of samples) {
      expect(s.name.trim()).toBe(s.name);
      expect(s.name.length).toBeGreaterThan(0);
      // a count may be 0 (Go's `0 allocs/op`); a time never is (harness/common.ts)
      expect(Number.isFinite(s.value) && (s.value > 0 || (s.value === 0 && s.unit !== 'ns'))).toBe(true);
    }
    expect(new Set(samples.map((s) => s.name)).size).toBe(samples.length);
  });
});

describe('go', () => {
  it('example suite: strips -2, MB/s to B/s, B/op and allocs/op as extras', () => {
    expectSamples(fixture('go', 'example-suite.txt'), {
      BenchmarkChecksum: [93132, 'ns'],
      'BenchmarkChecksum (MB/s)': [703.69e6, 'B/s', 'higher-is-better'],
      'BenchmarkSort/n=100': [1081, 'ns'],
      'BenchmarkSort/n=100 (B/op)': [896, 'B'],
      'BenchmarkSort/n=100 (allocs/op)': [1, 'allocs/op'],
      'BenchmarkSort/n=1000': [19057, 'ns'],
      'BenchmarkSort/n=1000 (B/op)': [8193, 'B'],
      'BenchmarkSort/n=1000 (allocs/op)': [1, 'allocs/op'],
    });
  });

  it('-count 3 -benchmem ./...: the least time and count, the greatest MB/s, the median custom metric, zero counters kept, namesakes qualified', () => {
    expectSamples(fixture('go', 'benchmem-count3.txt'), {
      'example.com/pairbench/gofixture/codec.BenchmarkShared': [906, 'ns'],
      'example.com/pairbench/gofixture/codec.BenchmarkShared (B/op)': [1024, 'B'],
      'example.com/pairbench/gofixture/codec.BenchmarkShared (allocs/op)': [2, 'allocs/op'],
      BenchmarkAtoi: [7.404, 'ns'],
      'BenchmarkAtoi (B/op)': [0, 'B'],
      'BenchmarkAtoi (allocs/op)': [0, 'allocs/op'],
      'BenchmarkSplit/fields-10': [196.6, 'ns'],
      'BenchmarkSplit/fields-10 (MB/s)': [305.16e6, 'B/s', 'higher-is-better'],
      'BenchmarkSplit/fields-10 (fields/op)': [10, 'fields/op'],
      'BenchmarkSplit/fields-10 (B/op)': [176, 'B'],
      'BenchmarkSplit/fields-10 (allocs/op)': [1, 'allocs/op'],
      'BenchmarkSplit/fields-100': [2225, 'ns'],
      'BenchmarkSplit/fields-100 (MB/s)': [269.67e6, 'B/s', 'higher-is-better'],
      'BenchmarkSplit/fields-100 (fields/op)': [100, 'fields/op'],
      'BenchmarkSplit/fields-100 (B/op)': [1792, 'B'],
      'BenchmarkSplit/fields-100 (allocs/op)': [1, 'allocs/op'],
      'example.com/pairbench/gofixture/parse.BenchmarkShared': [23.13, 'ns'],
      'example.com/pairbench/gofixture/parse.BenchmarkShared (B/op)': [7, 'B'],
      'example.com/pairbench/gofixture/parse.BenchmarkShared (allocs/op)': [0, 'allocs/op'],
      'BenchmarkNames/with_space': [1.606, 'ns'],
      'BenchmarkNames/with_space (B/op)': [0, 'B'],
      'BenchmarkNames/with_space (allocs/op)': [0, 'allocs/op'],
    });
  });

  it('-cpu 1,2: mixed suffixes keep the names as printed', () => {
    expectSamples(fixture('go', 'cpu-list.txt'), {
      BenchmarkShared: [65.54, 'ns'],
      'BenchmarkShared-2': [44.79, 'ns'],
      'BenchmarkNames/with_space': [2.919, 'ns'],
      'BenchmarkNames/with_space-2': [2.432, 'ns'],
    });
  });

  it('go test -json: output events joined per package, a result line split over two events', () => {
    expectSamples(fixture('go', 'test2json.txt'), {
      'example.com/pairbench/gofixture/codec.BenchmarkShared': [2619, 'ns'],
      'example.com/pairbench/gofixture/codec.BenchmarkShared (B/op)': [1024, 'B'],
      'example.com/pairbench/gofixture/codec.BenchmarkShared (allocs/op)': [2, 'allocs/op'],
      BenchmarkAtoi: [20.22, 'ns'],
      'BenchmarkAtoi (B/op)': [0, 'B'],
      'BenchmarkAtoi (allocs/op)': [0, 'allocs/op'],
      'BenchmarkSplit/fields-10': [434.2, 'ns'],
      'BenchmarkSplit/fields-10 (MB/s)': [138.19e6, 'B/s', 'higher-is-better'],
      'BenchmarkSplit/fields-10 (fields/op)': [10, 'fields/op'],
      'BenchmarkSplit/fields-10 (B/op)': [176, 'B'],
      'BenchmarkSplit/fields-10 (allocs/op)': [1, 'allocs/op'],
      'BenchmarkSplit/fields-100': [9517, 'ns'],
      'BenchmarkSplit/fields-100 (MB/s)': [63.04e6, 'B/s', 'higher-is-better'],
      'BenchmarkSplit/fields-100 (fields/op)': [100, 'fields/op'],
      'BenchmarkSplit/fields-100 (B/op)': [1792, 'B'],
      'BenchmarkSplit/fields-100 (allocs/op)': [1, 'allocs/op'],
      'example.com/pairbench/gofixture/parse.BenchmarkShared': [106.4, 'ns'],
      'example.com/pairbench/gofixture/parse.BenchmarkShared (B/op)': [7, 'B'],
      'example.com/pairbench/gofixture/parse.BenchmarkShared (allocs/op)': [0, 'allocs/op'],
      'BenchmarkNames/with_space': [2.104, 'ns'],
      'BenchmarkNames/with_space (B/op)': [0, 'B'],
      'BenchmarkNames/with_space (allocs/op)': [0, 'allocs/op'],
    });
  });

  it('-v: the bare name lines are skipped', () => {
    const samples = fixture('go', 'verbose.txt');
    expect(samples.filter((s) => s.unit === 'ns').map((s) => [s.name, s.value])).toEqual([
      ['BenchmarkSplit/fields-10', 401.3],
      ['BenchmarkSplit/fields-100', 2586],
    ]);
  });
});

describe('criterion', () => {
  it('cargo criterion --message-format=json: median estimate and throughputs', () => {
    expectSamples(fixture('criterion', 'example-kernels.jsonl'), {
      'kernels/checksum': [75362.03020361991, 'ns'],
      'kernels/checksum (bytes/s)': [(65536 * 1e9) / 75362.03020361991, 'B/s', 'higher-is-better'],
      'kernels/sort_1000': [5887.974131944445, 'ns'],
      'kernels/sort_1000 (elements/s)': [(1000 * 1e9) / 5887.974131944445, 'elements/s', 'higher-is-better'],
    });
  });
});

describe('bencher', () => {
  it("Criterion's --output-format bencher", () => {
    expectSamples(fixture('bencher', 'criterion-bencher.txt'), {
      'kernels/checksum': [72718, 'ns'],
      'kernels/sort_1000': [6498, 'ns'],
    });
  });

  it("Criterion's --quick: one result without its name, given the one benchmark the run selected; without that, an error", () => {
    expectSamples(fixture('bencher', 'criterion-quick.txt'), { 'kernels/checksum': [72041, 'ns'] });
    expect(() => parseHarness('bencher', readFileSync(join(ROOT, 'bencher', 'criterion-quick.txt'), 'utf8'))).toThrow(/no benchmark's name \(Criterion's --quick/);
  });

  it("Criterion's bencher lines split by its own error about a saved baseline it could not read", () => {
    expectSamples(fixture('bencher', 'criterion-bencher-error.txt'), {
      'kernels/checksum': [73610, 'ns'],
      'kernels/sort_1000': [6218, 'ns'],
    });
  });

  it('libtest #[bench], with thousands separators, decimals and MB/s; ignored tests skipped', () => {
    expectSamples(fixture('bencher', 'libtest.txt'), {
      checksum_64k: [73521.95, 'ns'],
      'checksum_64k (MB/s)': [891e6, 'B/s', 'higher-is-better'],
      optimised_away: [0.31, 'ns'],
      sort_1000: [5919.13, 'ns'],
    });
  });

  it('libtest -q: progress marks before "test" are tolerated', () => {
    expectSamples(fixture('bencher', 'libtest-quiet.txt'), {
      checksum_64k: [73632.69, 'ns'],
      'checksum_64k (MB/s)': [890e6, 'B/s', 'higher-is-better'],
      optimised_away: [0.27, 'ns'],
      sort_1000: [5824.48, 'ns'],
    });
  });
});

describe('pytest-benchmark', () => {
  it('--benchmark-json: stats.median by fullname', () => {
    expectSamples(fixture('pytest-benchmark', 'example-kernels.json'), {
      'test_kernels.py::test_checksum': [364390.0000724898, 'ns'],
      'test_kernels.py::test_sort[1000]': [38998.000036372105, 'ns'],
      'test_kernels.py::test_sort[10000]': [423172.50006362883, 'ns'],
    });
  });
});

describe('google-benchmark', () => {
  it('one run each: real_time in its time_unit, bytes and items per second', () => {
    expectSamples(fixture('google-benchmark', 'single.json'), {
      BM_Checksum: [72345.53846147453, 'ns'],
      'BM_Checksum (bytes_per_second)': [908581740.5305928, 'B/s', 'higher-is-better'],
      'BM_Sort/1000': [7263.915563818548, 'ns'],
      'BM_Sort/1000 (items_per_second)': [138108250.49443975, 'items/s', 'higher-is-better'],
      'BM_Sort/10000': [272938.92913386424, 'ns'],
      'BM_Sort/10000 (items_per_second)': [37696422.664401256, 'items/s', 'higher-is-better'],
    });
  });

  it('repetitions: the median of the per-repetition real_time, aggregates ignored', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'google-benchmark', 'repetitions.json'), 'utf8')) as {
      benchmarks: Array<{ run_name: string; run_type: string; aggregate_name?: string; real_time: number; time_unit: string }>;
    };
    const runs = doc.benchmarks.filter((b) => b.run_name === 'BM_Sort/10000' && b.run_type === 'iteration');
    expect(runs).toHaveLength(3);
    const sorted = runs.map((b) => b.real_time).sort((a, b) => a - b);
    const samples = fixture('google-benchmark', 'repetitions.json');
    expect(samples.find((s) => s.name === 'BM_Sort/10000')?.value).toBeCloseTo(sorted[1] as number, 6);
    expectSamples(samples, {
      BM_Checksum: [72193.4031415727, 'ns'],
      'BM_Checksum (bytes_per_second)': [910617637.6689456, 'B/s', 'higher-is-better'],
      'BM_Sort/1000': [6976.223419914269, 'ns'],
      'BM_Sort/1000 (items_per_second)': [143330191.67972803, 'items/s', 'higher-is-better'],
      'BM_Sort/10000': [261005.45121968337, 'ns'],
      'BM_Sort/10000 (items_per_second)': [38378367.92994993, 'items/s', 'higher-is-better'],
    });
  });

  it('--benchmark_report_aggregates_only: the median aggregate', () => {
    expectSamples(fixture('google-benchmark', 'aggregates-only.json'), {
      BM_Checksum: [82424.6071428489, 'ns'],
      'BM_Checksum (bytes_per_second)': [911814958.5200539, 'B/s', 'higher-is-better'],
      'BM_Sort/1000': [8164.324213407376, 'ns'],
      'BM_Sort/1000 (items_per_second)': [124654722.61834526, 'items/s', 'higher-is-better'],
      'BM_Sort/10000': [287295.7500002826, 'ns'],
      'BM_Sort/10000 (items_per_second)': [34905744.01942437, 'items/s', 'higher-is-better'],
    });
  });
});

describe('hyperfine', () => {
  it('--export-json: the median of times, by command', () => {
    expectSamples(fixture('hyperfine', 'commands.json'), {
      'seq 200000': [3069881, 'ns'],
      'sort --version': [877886.5, 'ns'],
    });
  });

  it('a parameter scan under one --command-name: parameters appended', () => {
    expectSamples(fixture('hyperfine', 'parameters.json'), {
      'seq [n=1]': [1718518, 'ns'],
      'seq [n=2]': [3053857, 'ns'],
      'seq [n=3]': [5060541, 'ns'],
    });
  });
});

describe('jmh', () => {
  it('-rf json: median iteration score; thrpt in ops/s, avgt and sample in ns', () => {
    expectSamples(fixture('jmh', 'kernels.json'), {
      'pairbench.Kernels.checksum[size=1000]': [899408.6431974075, 'ops/s', 'higher-is-better'],
      'pairbench.Kernels.checksum[size=10000]': [90427.34051891816, 'ops/s', 'higher-is-better'],
      'pairbench.Kernels.sortCopy[size=1000]': [14261.771729837561, 'ns'],
      'pairbench.Kernels.sortCopy[size=10000]': [335488.810720268, 'ns'],
      'pairbench.Kernels.copy[size=1000]': [2152, 'ns'],
      'pairbench.Kernels.copy[size=10000]': [3252, 'ns'],
    });
  });

  it('-bm thrpt,avgt -prof gc: modes apart, gc.alloc.rate.norm as an extra in B', () => {
    expectSamples(fixture('jmh', 'modes-gc.json'), {
      'pairbench.Kernels.sortCopy[size=1000]:thrpt': [67838.67881411879, 'ops/s', 'higher-is-better'],
      'pairbench.Kernels.sortCopy[size=1000]:thrpt (gc.alloc.rate.norm)': [4016.444855996278, 'B'],
      'pairbench.Kernels.sortCopy[size=1000]:avgt': [16487.466519137775, 'ns'],
      'pairbench.Kernels.sortCopy[size=1000]:avgt (gc.alloc.rate.norm)': [4016.5454107974347, 'B'],
    });
  });
});

describe('json', () => {
  it("the node-suite example's output", () => {
    expectSamples(fixture('json', 'node-suite.json'), {
      checksum: [88942, 'ns'],
      sort_1000: [39264.89928057554, 'ns'],
    });
  });
});

describe('vitest', () => {
  it("vitest 5's JSON reporter (the example): latency.p50 in ms, named file > describe > test > bench", () => {
    expectSamples(fixture('vitest', 'example-suite.json'), {
      'kernels.bench.mjs > kernels > checksum > checksum 64 KiB': [0.08093200000007528e6, 'ns'],
      'kernels.bench.mjs > kernels > sort > sort 1000': [0.029616000000032727e6, 'ns'],
    });
  });

  it('groups of bench.compare named by their name option; two files of one name told apart by their folders', () => {
    expectSamples(fixture('vitest', 'groups-no-samples.json'), {
      'a/parse.bench.mjs > parse > json > small > JSON.parse': [0.0006510000000048421e6, 'ns'],
      'a/parse.bench.mjs > parse > compare (a|b)* > substring': [0.00004899999998997373e6, 'ns'],
      'a/parse.bench.mjs > parse > compare (a|b)* > slice': [0.00004899999998997373e6, 'ns'],
      'a/parse.bench.mjs > parse > sizes > n=10 > padEnd': [0.00009000000000014552e6, 'ns'],
      'a/parse.bench.mjs > parse > sizes > n=10 > repeat': [0.00009000000000014552e6, 'ns'],
      'a/parse.bench.mjs > parse > sizes > n=100 > padEnd': [0.00011000000000649379e6, 'ns'],
      'a/parse.bench.mjs > parse > sizes > n=100 > repeat': [0.00009000000000014552e6, 'ns'],
      'b/parse.bench.mjs > parse > json > small > JSON.parse': [0.00046099999997295527e6, 'ns'],
    });
  });

  it('benchmark.retainSamples: the median of the samples (not the mean)', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'vitest', 'groups-samples.json'), 'utf8')) as {
      testResults: Array<{ assertionResults: Array<{ benchmarks: Array<{ tasks: Array<{ latency: { samples: number[]; mean: number } }> }> }> }>;
    };
    const latency = doc.testResults[0]!.assertionResults[0]!.benchmarks[0]!.tasks[0]!.latency;
    const sorted = [...latency.samples].sort((a, b) => a - b);
    expect(sorted.length % 2).toBe(1);
    const med = sorted[sorted.length >> 1]!;
    expect(med).not.toBeCloseTo(latency.mean, 6);
    const samples = fixture('vitest', 'groups-samples.json');
    expect(samples.map((s) => s.name)).toEqual(['a/parse.bench.mjs > parse > json > small > JSON.parse', 'b/parse.bench.mjs > parse > json > small > JSON.parse']);
    expect(samples[0]!.value / (med * 1e6)).toBeCloseTo(1, 9);
  });

  it("vitest 4's --outputJson: the median, named by the group's fullName (relative path > describe)", () => {
    expectSamples(fixture('vitest', 'v4-outputjson.json'), {
      'kernels.bench.mjs > top level': [4.999999998744897e-5 * 1e6, 'ns'],
      'kernels.bench.mjs > parse > JSON.parse': [0.0004410000000234504e6, 'ns'],
      'kernels.bench.mjs > parse > strings > slice': [5.0999999984924216e-5 * 1e6, 'ns'],
    });
  });
});

describe('mitata', () => {
  it("run({ format: 'json' }) of the example: stats.p50 in ns", () => {
    expectSamples(fixture('mitata', 'example-suite.json'), {
      'checksum 64 KiB': [80952, 'ns'],
      'sort 1000': [34084.02978515625, 'ns'],
    });
  });

  it('named groups prefix their benchmarks; .args() runs by their printed names, or with their arguments; a benchmark that threw left out', () => {
    expectSamples(fixture('mitata', 'groups-args.json'), {
      'strings > slice': [10.975341796875, 'ns'],
      'strings > repeat 10': [50.85205078125, 'ns'],
      'strings > repeat 1000': [87.595947265625, 'ns'],
      'arrays > slice': [28.432373046875, 'ns'],
      'arrays > fill [n=8]': [46.86279296875, 'ns'],
      'arrays > fill [n=64]': [152.90161132835783, 'ns'],
    });
  });
});

describe('node-bench', () => {
  it('the json reporter on the example: the median of duration_ns / operations over the samples, named <file> > <bench>', () => {
    expectSamples(fixture('node-bench', 'example-suite.jsonl'), {
      'kernels.bench.mjs > checksum 64 KiB': [817883.5, 'ns'],
      'kernels.bench.mjs > sort 1000': [22817.17, 'ns'],
    });
  });

  it('suites in the name, params after it, files of one name told apart by their folder; the benchmark that threw, the skipped one and the printed line left out', () => {
    expectSamples(fixture('node-bench', 'suites-params-error.jsonl'), {
      'a/parse.bench.mjs > parse > json > array [size=10]': [1649.45, 'ns'],
      'a/parse.bench.mjs > parse > json > array [size=1000]': [13454.95, 'ns'],
      'b/parse.bench.mjs > number': [392.59, 'ns'],
    });
  });
});

describe('benchmarkjs', () => {
  it('the cycle lines of the example, as ops/s', () => {
    expectSamples(fixture('benchmarkjs', 'example-suite.txt'), {
      'checksum 64 KiB': [8093, 'ops/s', 'higher-is-better'],
      'sort 1000': [31463, 'ops/s', 'higher-is-better'],
    });
  });

  it('a name holding " x ", decimals below 100 ops/sec, "1 run sampled"; an error line and "Fastest is" skipped', () => {
    expectSamples(fixture('benchmarkjs', 'errors.txt'), {
      'String#slice': [486600975, 'ops/s', 'higher-is-better'],
      '3 x 3 matrix': [36531747, 'ops/s', 'higher-is-better'],
      'busy 20 ms': [50.0, 'ops/s', 'higher-is-better'],
    });
  });
});

describe('catch2', () => {
  it('v2, -r xml and the console, of the example: the mean, test case > benchmark', () => {
    expectSamples(fixture('catch2', 'v2-example-xml.xml'), {
      'checksum > checksum 64 KiB': [85138.3, 'ns'],
      'sort > sort 10000': [433166, 'ns'],
    });
    expectSamples(fixture('catch2', 'v2-example-console.txt'), {
      'checksum > checksum 64 KiB': [84.9429e3, 'ns'],
      'sort > sort 10000': [430.937e3, 'ns'],
    });
  });

  it('v3 (<Catch2TestRun>, "est run time"): sections in the names, XML entities decoded, console names as printed', () => {
    const names = ['vector > sum > accumulate', 'vector > copy > copy', 'strings, <a & b>* > copy', 'strings, <a & b>* > find "y"'];
    expectSamples(fixture('catch2', 'v3-sections-xml.xml'), {
      [names[0]!]: [528.998, 'ns'],
      [names[1]!]: [106.407, 'ns'],
      [names[2]!]: [95.1333, 'ns'],
      [names[3]!]: [15.7232, 'ns'],
    });
    expect(fixture('catch2', 'v3-sections-console.txt').map((s) => s.name)).toEqual(names);
    expect(fixture('catch2', 'v2-sections-console.txt').map((s) => s.name)).toEqual(names);
    expect(fixture('catch2', 'v2-sections-xml.xml').map((s) => s.name)).toEqual(names);
    expect(fixture('catch2', 'v3-example-console.txt').map((s) => s.name)).toEqual(['checksum > checksum 64 KiB', 'sort > sort 10000']);
  });

  it('--benchmark-no-analysis: the plain mean', () => {
    expect(fixture('catch2', 'v2-no-analysis-xml.xml')[0]).toEqual({ name: 'vector > sum > accumulate', value: 758.92, unit: 'ns', direction: 'lower-is-better' });
  });
});

describe('pyperf', () => {
  it('a Runner script: the median of every value of every worker, by name', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'pyperf', 'example-suite.json'), 'utf8')) as { benchmarks: Array<{ metadata: { name: string }; runs: Array<{ values?: number[] }> }> };
    const expected: Expected = {};
    for (const b of doc.benchmarks) {
      const values = b.runs.flatMap((r) => r.values ?? []).sort((x, y) => x - y);
      expect(values).toHaveLength(9); // 3 processes x 3 values; the calibration runs hold none
      expected[b.metadata.name] = [values[4]! * 1e9, 'ns'];
    }
    expect(Object.keys(expected)).toEqual(['checksum_4k', 'sort_10000']);
    expectSamples(fixture('pyperf', 'example-suite.json'), expected);
  });

  it("one benchmark: its name in the document's metadata; timeit's --name", () => {
    expect(fixture('pyperf', 'one-benchmark.json').map((s) => s.name)).toEqual(['sort_10000']);
    expectSamples(fixture('pyperf', 'timeit.json'), { 'sorted(1000)': [9.833314209006794e-6 * 1e9, 'ns'] });
  });
});
