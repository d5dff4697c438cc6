/**
 * Instruction counts per benchmark of the Python formats (harness/python-counting.ts): the counted
 * runs' sizing, run for real, calls the benchmark exactly N times (pyperf) or N + 2 times
 * (pytest-benchmark), for N and for M, whatever the command's own options and however fast the
 * benchmark; and end to end through the CLI under valgrind, a pyperf benchmark whose pure loop does
 * 10% more rounds counts 10% more instructions per iteration, less the call's own share
 * (tests/fixtures/python-counting).
 * Nothing depends on timing: the calls are counted in a file, and the counts are properties of
 * the interpreter and the loop.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { countingRule } from '../../src/harness/registry.ts';
import { selectBenchmarks } from '../../src/harness/select.ts';
import { countedRuns } from '../../src/schedule/count-runs.ts';
import { ROOT, pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { TOOLS, requireTools } from '../support/require-tool.ts';

const FIXTURE = join(ROOT, 'tests/fixtures/python-counting');
const pyperf = requireTools(TOOLS.pyperf);
const pytest = requireTools(TOOLS.pytestBenchmark);
const counted = requireTools(TOOLS.pyperf, TOOLS.valgrind);

/**
 * The interpreter itself, not a version manager's shim (pyenv's `python3` is a shell script that
 * starts a dozen processes, which valgrind would count too, at ten times the cost of the run).
 */
const python = (): string => execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/** Runs `command` in `cwd` as pairbench runs a counted run (sh -c, its environment), without a counter; how many calls the benchmark made, and the run's stdout. */
function callsOf(cwd: string, command: string, env: Record<string, string | undefined>): { calls: number; stdout: string } {
  const calls = join(cwd, 'calls.txt');
  rmSync(calls, { force: true });
  const res = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env: { ...process.env, ...env, CALLS_FILE: calls } });
  expect(res.status, res.stdout + res.stderr).toBe(0);
  return { calls: existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0, stdout: res.stdout };
}

describe('the counted runs of the Python formats, run for real', () => {
  pyperf.it('pyperf: exactly N calls in one worker, whatever the command asks (3 processes of 5 values after 2 warm-ups), and the command goes on after its flags', () => {
    const dir = tempDir();
    cpSync(FIXTURE, dir, { recursive: true });
    const command = `rm -f out.json && ${python()} bench.py --quiet --processes 3 --values 5 --warmups 2 --loops 4 --output out.json {benchmark} >&2 && cat out.json`;
    const runs = countedRuns(countingRule('pyperf')!, 'valgrind', command, (c) => selectBenchmarks(c, 'pyperf', ['work']), {}, 7)!;
    expect(runs.map((r) => callsOf(dir, r.command, r.env).calls)).toEqual([7, 1]);
    // what came after the flags ran: the JSON the worker wrote, one run of one value of 7 loops
    const out = JSON.parse(callsOf(dir, runs[0]!.command, runs[0]!.env).stdout) as { benchmarks: Array<{ runs: Array<{ values?: number[] }> }>; metadata: { loops: number } };
    expect(out.benchmarks[0]!.runs.map((r) => r.values?.length)).toEqual([1]);
    expect(out.metadata.loops).toBe(7);
  }, 30_000);

  pytest.it('pytest-benchmark: N + 2 calls (N rounds of one, the calibration\'s round, the test\'s own), one call a round even for a function far faster than the clock, over a --benchmark-disable and the command\'s own rounds', () => {
    const dir = tempDir();
    cpSync(FIXTURE, dir, { recursive: true });
    // a benchmark of nothing: by default pytest-benchmark calibrates it to hundreds of calls a round
    writeFileSync(join(dir, 'test_fast.py'), 'def test_fast(benchmark):\n    benchmark(lambda: None)\n');
    const command = `${python()} -m pytest -q -p no:cacheprovider {benchmark} --benchmark-disable --benchmark-min-rounds=5 --benchmark-json=out.json >&2 && cat out.json`;
    const rule = countingRule('pytest-benchmark')!;
    const runs = countedRuns(rule, 'valgrind', command, (c) => selectBenchmarks(c, 'pytest-benchmark', ['test_work.py::test_work']), {}, 7)!;
    expect(runs.map((r) => callsOf(dir, r.command, r.env).calls)).toEqual([7 + 2, 1 + 2]);
    const fast = countedRuns(rule, 'valgrind', command, (c) => selectBenchmarks(c, 'pytest-benchmark', ['test_fast.py::test_fast']), {}, 50)!;
    const stats = (JSON.parse(callsOf(dir, fast[0]!.command, fast[0]!.env).stdout) as { benchmarks: Array<{ stats: { rounds: number; iterations: number } }> }).benchmarks[0]!.stats;
    expect([stats.rounds, stats.iterations]).toEqual([50, 1]);
  }, 30_000);
});

counted.describe('pyperf instruction counts per benchmark, end to end under valgrind', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    for (const [side, rounds] of [['base', 2000], ['head', 2200]] as const) {
      cpSync(FIXTURE, join(dir, side), { recursive: true });
      writeFileSync(join(dir, side, 'rounds.txt'), `${rounds}\n`);
    }
  });

  it('a loop of 10% more rounds counts 10% more per iteration, less the call\'s own 0.2%, with the worker\'s start and pyperf\'s set-up subtracted', () => {
    const file = join(dir, 'counts.json');
    const run = `rm -f out.json && ${python()} bench.py --quiet --processes 1 --values 1 --warmups 0 --output out.json {benchmark} >&2 && cat out.json`;
    const res = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', run, '--format', 'pyperf', '--metric', 'instructions', '--count-work', '5ms', '--min-pairs', '1', '--max-pairs', '1', '--warmup', '0', '--out', file, '--quiet'], {
      env: { PAIRBENCH_INSTRUCTIONS: 'valgrind' },
    });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const work = readResults(file).benchmarks.find((b) => b.name === 'work (instructions)')!;
    expect(work.unit).toBe('instructions');
    // about 300 instructions a round (CPython 3.11: 299): the worker's start (340 million) is gone
    expect(work.base!.median).toBeGreaterThan(2000 * 100);
    expect(work.base!.median).toBeLessThan(2000 * 1000);
    // the rounds are 10% more, the call around them (about 1,200 of some 600,000 instructions) the
    // same: (2200 × 299 + 1200) / (2000 × 299 + 1200) − 1 = +9.98%. Matched to 0.1 of a percentage
    // point: the iterations counted follow --count-work's 5 ms, so what is left of the worker's
    // start after subtracting it varies a little with the machine (+9.98% to +10.002% measured); a
    // loop whose rounds allocate (range's ints past 256) would show +10.3%, outside
    const known = (2200 * 299 + 1200) / (2000 * 299 + 1200) - 1;
    expect(Math.abs(work.change!.estimate - known), String(work.change!.estimate)).toBeLessThanOrEqual(0.001);
  }, 120_000);
});
