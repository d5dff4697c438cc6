/**
 * What the end-to-end tests of the example projects share (tests/examples/*.test.ts): a fresh copy
 * of an example, the check that an untouched benchmark raised no alarm, and the comparison of a
 * suite whose every benchmark is paired on its own.
 *
 * The example projects end to end through `pairbench compare`, as a user runs them: the benchmark
 * slowed in head is a regression, the untouched ones are not. Go, Python (pytest-benchmark and
 * pyperf), vitest, mitata, benchmark.js and Catch2 run in CI (`.ci/run` installs what they need); a
 * missing toolchain fails under CI=true and skips elsewhere, saying what to install.
 *
 * Each benchmark is paired on its own (the run commands carry `{filter}` and `{benchmark}`): one
 * process per benchmark and side, so a run takes longer than one of the whole suite; the time
 * limits say so.
 *
 * These are the only tests whose verdicts come from real timings, so `npm test` runs them on their
 * own, after every other test (`npm run test:examples`), never beside them; one file per example,
 * two at a time (each measures one process at a time, so each has a core of this 2-core machine).
 * The effect is many times the paired noise and the threshold is 5%, so the slowed benchmark is a regression however
 * busy the machine is: Go's checksum does 15% more work (paired CV about 1-3%); Python's does twice
 * the work, because one CPython process can run a whole session up to 1.7x slower than the next
 * (paired CV 15-35%), where a 15% change needed about 60 pairs. Python is judged as its README
 * says, with every pair kept (`--outliers none`: trimming such pairs tilts the test), and at alpha
 * 0.01, so that a false alarm on the untouched sorts, 5% at most at 0.05, is 1% at most here, with
 * 20 pairs at most: a CPython process on a busy machine lands in a slow mode (1.7x) now and then,
 * and with 12 pairs two such runs on one side moved an untouched sort's estimate past +5% (one
 * false alarm in CI, the 1% the level allows). An
 * untouched benchmark must never
 * be flagged (no false alarm): `unchanged` on a quiet machine, `inconclusive` when a busy machine
 * leaves its interval wider than the threshold.
 */
import { cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { BenchmarkResult } from '../../src/results/schema.ts';
import { ROOT, pairbench, readResults } from './cli.ts';
import { tempDir } from './repo.ts';

/** The `with:` of a workflow step: what the action builds, runs and parses. */
export interface Step {
  build?: string;
  run: string;
  format: string;
}

/**
 * The `with:` of the `uses: pairbench/pairbench@v1` step in an example's README: the end-to-end
 * tests run exactly the commands a user copies from it.
 */
export function workflowStep(example: string): { readme: string; step: Step } {
  const readme = readFileSync(join(ROOT, 'examples', example, 'README.md'), 'utf8');
  for (const block of readme.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const steps = parseYaml(block[1] as string) as unknown;
    if (!Array.isArray(steps)) continue;
    for (const s of steps as Array<{ uses?: string; with?: Step }>) {
      if (s.uses === 'pairbench/pairbench@v1' && s.with) return { readme, step: s.with };
    }
  }
  throw new Error(`${example}/README.md has no workflow step using pairbench/pairbench@v1`);
}

/** A fresh copy of an example, so builds never write into the repository. */
export function copyExample(name: string): { base: string; head: string; dir: string } {
  const dir = tempDir();
  cpSync(join(ROOT, 'examples', name, 'base'), join(dir, 'base'), { recursive: true, filter: (src) => !/\/(build|\.benchmarks|__pycache__)$/.test(src) });
  cpSync(join(ROOT, 'examples', name, 'head'), join(dir, 'head'), { recursive: true, filter: (src) => !/\/(build|\.benchmarks|__pycache__)$/.test(src) });
  // a JavaScript example's npm packages are installed once, beside base/ and head/
  const packages = join(ROOT, 'examples', name, 'node_modules');
  if (existsSync(packages)) symlinkSync(packages, join(dir, 'node_modules'));
  return { base: join(dir, 'base'), head: join(dir, 'head'), dir };
}

/** An untouched benchmark: `unchanged` on a quiet machine, `inconclusive` when a busy one leaves its interval wider than the threshold, never a regression or an improvement. */
export function expectNoAlarm(b: BenchmarkResult): void {
  expect(['unchanged', 'inconclusive'], b.name).toContain(b.verdict);
}

/**
 * The JavaScript, Catch2 and pyperf examples, each benchmark paired on its own: the slowed
 * checksum is a regression, the untouched benchmark never an alarm. Threshold 5%, as for the Go
 * and C++ examples: on this project's 2-core machine with other tests running, the untouched
 * benchmark moved by 4-38% between the runs of a pair under benchmark.js, mitata and pyperf (only
 * vitest's stayed within 1%). Measuring is bounded by pairs, not time, since a busy machine
 * slows every run (a vitest run took 2 s quiet and 4-5 s busy): seven pairs at least, the fewest
 * at which a change can be significant at alpha 0.05 after Holm's correction for two benchmarks,
 * and ten at most (Catch2 twelve), so that pairs set aside by the outlier screen can be made up:
 * with ten, a fourth pair set aside leaves six, too few at 0.05 over two benchmarks. mitata gets
 * seven, every one kept (--outliers none), because each of its processes spends 2.5 s of CPU
 * before any benchmark (README, "JavaScript and TypeScript"); pyperf twelve, since a busy machine
 * slows whole runs of its worker processes (the medians of three runs of one side: 503, 781,
 * 764 µs). --max-time only guards against a hung run.
 *
 * vitest's per-run medians are so steady (±0.02% between runs) that Tukey's fences set aside
 * ordinary pairs (4 of 10 once, leaving too few to decide): it keeps every pair (--outliers
 * none). Its untouched sort is required to be `unchanged`: with another example measuring beside
 * it its pairs spread by ±1.5% and it was settled after 9 pairs, +0.0% [−0.9%, +1.7%]; the others'
 * untouched benchmarks spread by ±8-12% a pair there (benchmark.js: +2.0% [−3.8%, +8.7%] after 20
 * pairs, inconclusive), and need more pairs than a CI test can give them. benchmark.js's untouched sort moved by +3-4% in some comparisons (a pair-to-pair spread
 * of 8% with another example measuring beside it; once beyond +5%, an alarm at 0.05): it is
 * judged at alpha 0.01 with 12 pairs at most, as the Python example is, and with every pair kept
 * (--outliers none): at alpha 0.01 over two benchmarks the exact test needs 8 pairs at least, and
 * with another example measuring beside it Tukey's fences once set aside 4 of 12 pairs of the
 * halved checksum (each within a few percent of −50%), leaving 8: p = 0.039 after Holm's
 * correction, inconclusive, where all 12 give p < 0.001.
 */
export function perBenchmark(example: string, slowed: string, untouched: string, budget: { pairs: number; outliers?: string; alpha?: string; untouched?: 'unchanged' | 'no-alarm' } = { pairs: 10 }): void {
  const { step } = workflowStep(example);
  const build = step.build ?? null;
  const { run, format } = step;
  const ex = copyExample(example);
  const file = join(ex.dir, 'results.json');
  const limits = ['--min-pairs', '7', '--max-pairs', String(budget.pairs), '--max-time', '4m', ...(budget.outliers ? ['--outliers', budget.outliers] : []), ...(budget.alpha ? ['--alpha', budget.alpha] : [])];
  const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, ...(build ? ['--build', build] : []), '--run', run, '--format', format, '--threshold', '5%', ...limits, '--out', file, '--quiet'], { timeoutMs: 330_000 });
  expect(res.status, res.stdout + res.stderr).toBe(1);
  const results = readResults(file);
  const byName = new Map(results.benchmarks.map((b) => [b.name, b]));
  expect(byName.get(slowed)!.verdict, res.stdout).toBe('regression');
  const quiet = byName.get(untouched)!;
  if (budget.untouched === 'unchanged') {
    // where the untouched benchmark's pairs are steady enough to settle within the pairs given:
    // `unchanged`, with the equivalence interval that decided it within ±5%
    expect(quiet.verdict, res.stdout).toBe('unchanged');
    expect(quiet.change!.basis).toBe('equivalence');
    expect(Math.max(-quiet.change!.ci[0], quiet.change!.ci[1])).toBeLessThanOrEqual(0.05);
  } else expectNoAlarm(quiet);
  // each benchmark is paired on its own: a round lists benchmarks, not the suite
  expect([...results.rounds![0]!].sort()).toEqual([slowed, untouched].sort());
}
