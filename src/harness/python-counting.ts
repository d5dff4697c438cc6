/**
 * How a pyperf or pytest-benchmark benchmark runs a fixed number of iterations, so that its
 * instructions can be counted per iteration (`--metric instructions`; harness.ts, `CountingRule`;
 * docs/measuring.md, "Instruction counts per benchmark"). Both read their flags with Python's
 * argparse, which takes the last of a flag: the flags end the simple command that holds the
 * `{benchmark}` placeholder, before what the shell does next (`>&2 && cat build/bench.json`), and
 * override the command's own.
 */
import type { CountingRule } from './harness.ts';

/**
 * CPython randomises the hash of `str` and `bytes` in every process, and with it the order of
 * sets and the probing of dicts: the set-up of a run of N iterations and that of a run of M then
 * differ by more than the subtraction can cancel. A fixed seed (PYTHONHASHSEED=0; the run's own,
 * when it sets one) makes them the same process twice.
 */
const fixedHashSeed = (env: Record<string, string | undefined>): Record<string, string> => (env.PYTHONHASHSEED ? {} : { PYTHONHASHSEED: '0' });

/**
 * pyperf counts one benchmark in its worker process alone: `--worker --loops N --warmups 0
 * --values 1` runs the benchmark's function N times (pyperf's "loops"), once, with no calibration
 * and no worker processes of its own (pyperf's `--help`: "--worker: Worker process, run the
 * benchmark"); a pyperf run otherwise starts a worker per process, which under valgrind doubles a
 * counted run's cost. M = 1: on a 10,000-round pure loop, 1, 2, 3 and 5 loops count within 0.05% of
 * one straight line (docs/measuring.md).
 */
export const pyperfCounting: CountingRule = {
  setupIterations: 1,
  flagsAt: 'selection',
  runFor: (_command, iterations) => ({ command: ' --worker --loops "$PAIRBENCH_LOOPS" --warmups 0 --values 1', env: { PAIRBENCH_LOOPS: String(iterations) } }),
  valgrindEnv: fixedHashSeed,
};

/**
 * pytest-benchmark counts one benchmark by N rounds of one call each: `--benchmark-min-rounds=N
 * --benchmark-max-time=0` (rounds = max(⌈max-time ÷ a round⌉, min-rounds) = N), no warm-up, and
 * a calibration that settles on one call a round at its first try whatever the clock says: it stops
 * at the first round that lasts at least max(min-time, the timer's precision × the calibration
 * precision), which `--benchmark-min-time=0 --benchmark-calibration-precision=-1` makes 0, and a
 * monotonic timer's round never lasts less (pytest-benchmark's `_calibrate_timer`). A run then calls
 * the benchmark N + 2 times (the calibration's round, N rounds, and the call whose result the test
 * gets); `--benchmark-enable` overrides a `--benchmark-disable` of the project's configuration. M = 1.
 * Each round carries pytest-benchmark's own work around the call (its timer, twice, and the round's
 * statistics), which is counted with it, the same on both sides.
 */
export const pytestBenchmarkCounting: CountingRule = {
  setupIterations: 1,
  flagsAt: 'selection',
  runFor: (_command, iterations) => ({
    command: ' --benchmark-enable --benchmark-min-rounds="$PAIRBENCH_ROUNDS" --benchmark-max-time=0 --benchmark-min-time=0 --benchmark-calibration-precision=-1 --benchmark-warmup=off --benchmark-timer=time.perf_counter',
    env: { PAIRBENCH_ROUNDS: String(iterations) },
  }),
  valgrindEnv: fixedHashSeed,
};
