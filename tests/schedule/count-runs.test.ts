/** N for a counted run, the count per iteration, and the two counted runs of a benchmark (src/schedule/count-runs.ts). */
import { describe, expect, it } from 'vitest';
import { harnessOf } from '../../src/harness/registry.ts';
import { selectBenchmarks } from '../../src/harness/select.ts';
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
    const rule = harnessOf('go').counting!;
    const runs = countedRuns(rule, 'valgrind', command, selectBenchmarks(command, 'go', ['BenchmarkSort/n=100']), { GODEBUG: 'madvdontneed=1' }, 502)!;
    expect(runs.map((r) => r.iterations)).toEqual([502, 2]);
    expect(runs[0]!.command).toBe(`${command} -test.bench="$PAIRBENCH_FILTER" -test.benchtime="$PAIRBENCH_BENCHTIME" -test.count="$PAIRBENCH_COUNT"`);
    expect(runs[0]!.env).toMatchObject({ PAIRBENCH_FILTER: '^BenchmarkSort$/^n=100$', PAIRBENCH_BENCHTIME: '502x', PAIRBENCH_COUNT: '1', GODEBUG: 'madvdontneed=1,asyncpreemptoff=1', GOMAXPROCS: '1' });
    expect(runs[1]!.env).toMatchObject({ PAIRBENCH_BENCHTIME: '2x' });
    // under perf the run's environment is its own
    const perf = countedRuns(rule, 'perf', command, selectBenchmarks(command, 'go', ['BenchmarkSort']), { GOMAXPROCS: '4' }, 12)!;
    expect(perf[0]!.env.GODEBUG).toBeUndefined();
    expect(perf[0]!.env.GOMAXPROCS).toBe('4');
  });
  it('Google Benchmark: --benchmark_min_time=<N>x and one repetition, M = 1', () => {
    const runs = countedRuns(harnessOf('google-benchmark').counting!, 'valgrind', './bench', selectBenchmarks('./bench', 'google-benchmark', ['BM_Sort/1000']), {}, 21)!;
    expect(runs.map((r) => r.iterations)).toEqual([21, 1]);
    expect(runs[0]!.command).toBe('./bench --benchmark_filter="$PAIRBENCH_FILTER" --benchmark_min_time="$PAIRBENCH_MIN_TIME" --benchmark_repetitions=1');
    expect(runs[0]!.env.PAIRBENCH_MIN_TIME).toBe('21x');
  });
  it('a command that is not one simple command cannot be counted', () => {
    expect(countedRuns(harnessOf('go').counting!, 'valgrind', 'cd x && ./b.test', { command: 'cd x && ./b.test', env: {} }, {}, 12)).toBeNull();
  });
  it('the formats without a rule have none', () => {
    for (const f of ['criterion', 'pytest-benchmark', 'pyperf', 'catch2', 'vitest', 'mitata', 'json'] as const) expect(harnessOf(f).counting).toBeNull();
  });
});
