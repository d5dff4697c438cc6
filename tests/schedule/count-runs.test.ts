/** N for a counted run, the count per iteration, and the two counted runs of a benchmark (src/schedule/count-runs.ts). */
import { describe, expect, it } from 'vitest';
import { countingRule, harnessOf } from '../../src/harness/registry.ts';
import { appendToSelected, selectBenchmarks } from '../../src/harness/select.ts';
import { countedRuns, countIterations, perIteration } from '../../src/schedule/count-runs.ts';

describe('countIterations', () => {
  it('is M plus about 20 ms of work under valgrind, 50 ms under perf', () => {
    expect(countIterations('valgrind', 2, 100_000)).toBe(2 + 200);
    expect(countIterations('perf', 2, 100_000)).toBe(2 + 500);
  });
  it('adds at least 10 and at most 1e8 iterations; an unknown time gives the fewest', () => {
    expect(countIterations('valgrind', 1, 50e6)).toBe(11);
    expect(countIterations('valgrind', 2, 0.01)).toBe(2 + 1e8);
    expect(countIterations('valgrind', 2, null)).toBe(12);
  });
});

describe('perIteration', () => {
  it('is the difference of the counts over the difference of the iterations', () => {
    expect(perIteration(2_818_322, 818_226, 12, 2)).toBeCloseTo(200_009.6, 6);
  });
  it('is null when more iterations did not count more', () => {
    expect(perIteration(100, 100, 12, 2)).toBeNull();
    expect(perIteration(100, 200, 12, 2)).toBeNull();
    expect(perIteration(200, 100, 2, 2)).toBeNull();
  });
});

describe('countedRuns', () => {
  const command = './build/bench.test -test.run "^$"';
  it('Go: -test.benchtime=Nx and one count, for N and for M = 2; under valgrind no asynchronous preemption and one P, the run\'s own GODEBUG kept', () => {
    const rule = countingRule('go')!;
    const runs = countedRuns(rule, 'valgrind', command, (c) => selectBenchmarks(c, 'go', ['BenchmarkSort/n=100']), { GODEBUG: 'madvdontneed=1' }, 502)!;
    expect(runs.map((r) => r.iterations)).toEqual([502, 2]);
    expect(runs[0]!.command).toBe(`${command} -test.bench="$PAIRBENCH_FILTER" -test.benchtime="$PAIRBENCH_BENCHTIME" -test.count="$PAIRBENCH_COUNT"`);
    expect(runs[0]!.env).toMatchObject({ PAIRBENCH_FILTER: '^BenchmarkSort$/^n=100$', PAIRBENCH_BENCHTIME: '502x', PAIRBENCH_COUNT: '1', GODEBUG: 'madvdontneed=1,asyncpreemptoff=1', GOMAXPROCS: '1' });
    expect(runs[1]!.env).toMatchObject({ PAIRBENCH_BENCHTIME: '2x' });
    // under perf the run's environment is its own
    const perf = countedRuns(rule, 'perf', command, (c) => selectBenchmarks(c, 'go', ['BenchmarkSort']), { GOMAXPROCS: '4' }, 12)!;
    expect(perf[0]!.env.GODEBUG).toBeUndefined();
    expect(perf[0]!.env.GOMAXPROCS).toBe('4');
  });
  it('Google Benchmark: --benchmark_min_time=<N>x and one repetition, M = 1', () => {
    const runs = countedRuns(countingRule('google-benchmark')!, 'valgrind', './bench', (c) => selectBenchmarks(c, 'google-benchmark', ['BM_Sort/1000']), {}, 21)!;
    expect(runs.map((r) => r.iterations)).toEqual([21, 1]);
    expect(runs[0]!.command).toBe('./bench --benchmark_filter="$PAIRBENCH_FILTER" --benchmark_min_time="$PAIRBENCH_MIN_TIME" --benchmark_repetitions=1');
    expect(runs[0]!.env.PAIRBENCH_MIN_TIME).toBe('21x');
  });
  it('a command that is not one simple command cannot be counted', () => {
    expect(countedRuns(countingRule('go')!, 'valgrind', 'cd x && ./b.test', (c) => ({ command: c, env: {} }), {}, 12)).toBeNull();
  });
  it('pyperf: its worker alone, --loops N once with no warm-up, ending the simple command that holds {benchmark}, so the command may go on; under valgrind a fixed hash seed, unless the run sets its own', () => {
    const cmd = "rm -f build/bench.json && python3 bench.py --quiet --output build/bench.json '{benchmark}' >&2 && cat build/bench.json";
    const runs = countedRuns(countingRule('pyperf')!, 'valgrind', cmd, (c) => selectBenchmarks(c, 'pyperf', ['sort_10000']), {}, 41)!;
    expect(runs.map((r) => r.iterations)).toEqual([41, 1]);
    expect(runs[0]!.command).toBe('rm -f build/bench.json && python3 bench.py --quiet --output build/bench.json "$PAIRBENCH_BENCHMARK_1" --worker --loops "$PAIRBENCH_LOOPS" --warmups 0 --values 1 >&2 && cat build/bench.json');
    expect(runs[0]!.env).toMatchObject({ PAIRBENCH_BENCHMARK_1: 'sort_10000', PAIRBENCH_LOOPS: '41', PYTHONHASHSEED: '0' });
    expect(runs[1]!.env.PAIRBENCH_LOOPS).toBe('1');
    expect(countedRuns(countingRule('pyperf')!, 'valgrind', cmd, (c) => selectBenchmarks(c, 'pyperf', ['x']), { PYTHONHASHSEED: '7' }, 41)![0]!.env.PYTHONHASHSEED).toBe('7');
    expect(countedRuns(countingRule('pyperf')!, 'perf', cmd, (c) => selectBenchmarks(c, 'pyperf', ['x']), {}, 41)![0]!.env.PYTHONHASHSEED).toBeUndefined();
  });
  it('pytest-benchmark: N rounds of one call, no time limit, no warm-up, a calibration that cannot ask for more, M = 1', () => {
    const cmd = 'python3 -m pytest -q {benchmark} --benchmark-json=.benchmarks/run.json >&2 && cat .benchmarks/run.json';
    const runs = countedRuns(countingRule('pytest-benchmark')!, 'valgrind', cmd, (c) => selectBenchmarks(c, 'pytest-benchmark', ['test_k.py::test_sort']), {}, 30)!;
    expect(runs.map((r) => r.iterations)).toEqual([30, 1]);
    expect(runs[0]!.command).toBe(
      'python3 -m pytest -q "$PAIRBENCH_BENCHMARK_1" --benchmark-json=.benchmarks/run.json --benchmark-enable --benchmark-min-rounds="$PAIRBENCH_ROUNDS" --benchmark-max-time=0 --benchmark-min-time=0 --benchmark-calibration-precision=-1 --benchmark-warmup=off --benchmark-timer=time.perf_counter >&2 && cat .benchmarks/run.json',
    );
    expect(runs[0]!.env).toMatchObject({ PAIRBENCH_ROUNDS: '30', PYTHONHASHSEED: '0' });
  });
  it('flags that follow the selection need a placeholder', () => {
    expect(countedRuns(countingRule('pyperf')!, 'valgrind', 'python3 bench.py', (c) => ({ command: c, env: {} }), {}, 12)).toBeNull();
  });
  it('the other formats have no rule, and each says why in its own terms', () => {
    for (const f of ['criterion', 'bencher', 'catch2', 'vitest', 'mitata', 'benchmarkjs', 'node-bench', 'hyperfine', 'jmh', 'json'] as const) {
      expect(countingRule(f)).toBeNull();
      const counting = harnessOf(f).counting;
      expect('uncounted' in counting && /expected --/.test(counting.uncounted), f).toBe(true);
    }
  });
});

describe('appendToSelected', () => {
  it('ends the simple command that holds the placeholder, before the next operator or redirection, quotes and descriptors minded', () => {
    expect(appendToSelected('python3 b.py {benchmark}', ' -x')).toBe('python3 b.py {benchmark} -x');
    expect(appendToSelected("python3 b.py '{benchmark}' --loops 4 >&2 && cat o.json", ' -x')).toBe("python3 b.py '{benchmark}' --loops 4 -x >&2 && cat o.json");
    expect(appendToSelected('pytest {benchmark} -k "a && b | c > d" 2>err.txt; echo', ' -x')).toBe('pytest {benchmark} -k "a && b | c > d" -x 2>err.txt; echo');
    expect(appendToSelected('pytest {benchmark} --name=a\\;b|tee o', ' -x')).toBe('pytest {benchmark} --name=a\\;b -x |tee o');
    expect(appendToSelected('cd x && pytest {benchmark} --out f2>x', ' -x')).toBe('cd x && pytest {benchmark} --out f2 -x >x');
    expect(appendToSelected('python3 b.py', ' -x')).toBeNull();
  });
});
