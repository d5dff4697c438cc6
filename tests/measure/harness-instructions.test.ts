/**
 * Instruction counts per benchmark of a harness suite (`--metric wall,instructions --format go`),
 * end to end through the CLI on a compiled C program that behaves like a Go test binary
 * (tests/fixtures/programs/go-format-bench.c) and whose instructions per iteration are known
 * exactly. No assertion depends on timing: the counts are properties of the program, and the
 * ns/op it prints is fixed, so N is the same in every run.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { TOOLS, requireTools } from '../support/require-tool.ts';

const tools = requireTools(TOOLS.cc, TOOLS.valgrind);
const SOURCE = join(ROOT, 'tests/fixtures/programs/go-format-bench.c');

function build(dir: string, work: number, nsPerOp = 2_000_000): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('cc', ['-O2', `-DWORK=${work}`, `-DNS_PER_OP=${nsPerOp}`, '-o', join(dir, 'bench.test'), SOURCE]);
}

tools.describe('instruction counts per benchmark of a harness suite', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    build(join(dir, 'base'), 100_000);
    build(join(dir, 'head'), 101_000);
    // the same work, and a time 20 times the base's: a wall row as noisy as a runner can make it
    build(join(dir, 'slow-clock'), 100_000, 40_000_000);
  });

  it('counts each benchmark per iteration with the set-up subtracted: 1% more work is +1.0% (to 0.1%), the same work unchanged, unsteady counts never unchanged', () => {
    const file = join(dir, 'counts.json');
    const res = pairbench(
      ['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', './bench.test -test.run "^$" -test.bench {filter}', '--format', 'go', '--metric', 'wall,instructions', '--threshold', '0.5%', '--min-pairs', '7', '--max-pairs', '7', '--out', file, '--quiet'],
      { env: { PAIRBENCH_INSTRUCTIONS: 'valgrind' } },
    );
    expect([0, 1], res.stdout + res.stderr).toContain(res.status);
    const byName = new Map(readResults(file).benchmarks.map((b) => [b.name, b]));
    const work = byName.get('BenchmarkWork (instructions)')!;
    expect(work.unit).toBe('instructions');
    // 2 instructions a round, 100,000 and 101,000 rounds, and the loop around them: the set-up (process start, the b.N = 1 run) cancels
    expect(work.base!.median).toBeGreaterThan(200_000);
    expect(work.base!.median).toBeLessThan(200_100);
    expect(Math.abs(work.change!.estimate - 0.01)).toBeLessThan(0.001);
    expect(work.verdict).toBe('regression');
    const steady = byName.get('BenchmarkSteady (instructions)')!;
    expect(steady.verdict).toBe('unchanged');
    expect(steady.diagnostics!.map((d) => d.code)).not.toContain('unsteady-counts');
    // work that depends on the process id: its counts vary between runs of one side
    const unsteady = byName.get('BenchmarkUnsteady (instructions)')!;
    expect(unsteady.verdict).not.toBe('unchanged');
    const note = unsteady.diagnostics!.find((d) => d.code === 'unsteady-counts');
    expect(note, JSON.stringify(unsteady.diagnostics)).toBeDefined();
    expect(Math.max(Number(note!.figures!['base']), Number(note!.figures!['head']))).toBeGreaterThan(0.0025);
    // the wall rows beside them, one per benchmark; the report shows both lenses
    expect(byName.get('BenchmarkWork')!.unit).toBe('ns');
    expect(res.stdout).toContain('BenchmarkWork (instructions)');
    expect(res.stdout).toContain('instruction counts vary between runs of one side');
  }, 180_000);

  it('a child forked without exec after the benchmark is not counted again: valgrind starts it from its parent\'s count, so the count per iteration would double', () => {
    const file = join(dir, 'fork.json');
    const res = pairbench(
      ['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', './bench.test -test.run "^$" -test.bench {filter}', '--format', 'go', '--metric', 'instructions', '--threshold', '0.5%', '--min-pairs', '3', '--max-pairs', '3', '--out', file, '--quiet'],
      { env: { PAIRBENCH_INSTRUCTIONS: 'valgrind', ONLY: 'BenchmarkWork', FORK_AFTER: '1' } },
    );
    expect([0, 1], res.stdout + res.stderr).toContain(res.status);
    const work = new Map(readResults(file).benchmarks.map((b) => [b.name, b])).get('BenchmarkWork (instructions)')!;
    // 2 instructions a round, 100,000 rounds: the parent's alone, as without the fork
    expect(work.base!.median).toBeGreaterThan(200_000);
    expect(work.base!.median).toBeLessThan(200_100);
    expect(Math.abs(work.change!.estimate - 0.01)).toBeLessThan(0.001);
  }, 180_000);

  it('gate-metric instructions: a wall row 20 times slower does not fail the gate, unchanged counts pass it, and the summary says so', () => {
    const file = join(dir, 'gate.json');
    const args = ['--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'slow-clock'), '--run', './bench.test -test.run "^$" -test.bench {filter}', '--format', 'go', '--metric', 'wall,instructions', '--threshold', '0.5%', '--min-pairs', '7', '--max-pairs', '7'];
    const res = pairbench(['compare', ...args, '--gate-metric', 'instructions', '--out', file, '--quiet'], { env: { PAIRBENCH_INSTRUCTIONS: 'valgrind', ONLY: 'BenchmarkSteady' } });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const byName = new Map(readResults(file).benchmarks.map((b) => [b.name, b]));
    expect(byName.get('BenchmarkSteady')!.verdict).toBe('regression');
    expect(byName.get('BenchmarkSteady')!.change!.estimate).toBeCloseTo(19, 6);
    expect(byName.get('BenchmarkSteady (instructions)')!.verdict).toBe('unchanged');
    expect(readResults(file).settings!['gateMetric']).toBe('instructions');
    expect(res.stdout).toContain('gated on instruction counts only');
    // judged again under the gate over every row, the wall row fails it
    expect(pairbench(['report', file]).status).toBe(1);
    expect(pairbench(['report', file, '--gate-metric', 'instructions']).status).toBe(0);
  }, 180_000);
});

describe('instruction counts per benchmark: refusals', () => {
  it('a format whose benchmarks cannot be counted one by one is refused with one line, exit 2, that names the format and says why in its terms', () => {
    const why: Record<string, RegExp> = {
      criterion: /Criterion sizes every run by time .*iai-callgrind, now gungraun/,
      bencher: /libtest's #\[bench\] and Criterion \(its --output-format bencher\) size every run by time/,
      catch2: /Catch2 sizes a benchmark's iterations from the clock's resolution/,
      vitest: /vitest's bench \(tinybench\) runs each benchmark for a time.*node --single-threaded --predictable/,
      mitata: /mitata runs each benchmark for a time/,
      benchmarkjs: /benchmark\.js runs each benchmark for a time/,
      'node-bench': /node:bench fixes a run's samples only with options of node itself/,
      jmh: /the JVM compiles a benchmark in background threads/,
      hyperfine: /hyperfine times whole commands.*--format time --metric instructions/,
      json: /cannot tell a program of its own format/,
    };
    for (const [format, reason] of Object.entries(why)) {
      const res = pairbench(['compare', '--base-dir', '.', '--head-dir', '.', '--run', './bench {filter}', '--format', format, '--metric', 'wall,instructions', '--quiet']);
      expect(res.status, format).toBe(2);
      expect(res.stderr.trim().split('\n'), format).toHaveLength(1);
      expect(res.stderr, format).toContain(`--format ${format}, whose benchmarks cannot be counted one by one: `);
      expect(res.stderr, format).toMatch(reason);
      expect(res.stderr, format).toMatch(/expected --metric wall/);
    }
  }, 60_000);

  tools.it('a Google Benchmark older than 1.8, which does not read --benchmark_min_time=<N>x, is refused with one line that says so', () => {
    // an older Google Benchmark, as it answers: its results for a plain run, an unrecognized flag for <N>x
    const dir = tempDir();
    for (const side of ['base', 'head']) {
      mkdirSync(join(dir, side));
      copyFileSync(join(ROOT, 'tests/fixtures/harness/google-benchmark/single.json'), join(dir, side, 'out.json'));
      writeFileSync(join(dir, side, 'bench'), '#!/bin/sh\nfor a in "$@"; do case "$a" in --benchmark_min_time=*x) echo "$0: error: unrecognized command-line flag: $a" >&2; exit 1;; esac; done\ncat "$(dirname "$0")/out.json"\n');
      chmodSync(join(dir, side, 'bench'), 0o755);
    }
    const file = join(dir, 'gb.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', './bench --benchmark_format=json', '--format', 'google-benchmark', '--metric', 'instructions', '--design', 'command', '--min-pairs', '6', '--max-pairs', '6', '--out', file, '--quiet'], { env: { PAIRBENCH_INSTRUCTIONS: 'valgrind' } });
    expect(res.status, res.stdout + res.stderr).toBe(3);
    const refusal = res.stderr.split('\n').filter((l) => l.includes('Google Benchmark 1.8 or later'));
    expect(refusal, res.stderr).toHaveLength(1);
    expect(refusal[0]).toContain('--benchmark_min_time=<N>x runs exactly N iterations');
    expect(readResults(file).status).toBe('failed');
  }, 120_000);

  it('cpu or rss with a harness format is still refused', () => {
    const res = pairbench(['compare', '--base-dir', '.', '--head-dir', '.', '--run', 'go test -bench .', '--format', 'go', '--metric', 'cpu', '--quiet']);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('applies to --format time only');
  });
});
