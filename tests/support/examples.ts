/**
 * What the end-to-end tests of the example projects share (tests/examples/*.test.ts): a fresh copy
 * of an example, its slowed benchmark made slower still, the checks every run must pass whatever
 * the machine does, and the comparison of a suite whose every benchmark is paired on its own.
 *
 * The example projects end to end through `pairbench compare`, as a user runs them (the commands
 * of each README's workflow step): the build, the runs, the parser, the pairing, the judgement, the
 * results file and the reports. Go, Python (pytest-benchmark and pyperf), vitest, mitata,
 * benchmark.js and Catch2 run in CI (`.ci/run` installs what they need); a missing toolchain fails
 * under CI=true and skips elsewhere, saying what to install.
 *
 * These are the only tests that time real runs, and CI runs them beside whatever else the machine
 * does. So they assert only what holds however busy it is:
 *
 * - the run ends with exit 1 and writes a results file that `pairbench report` reads, and the
 *   Markdown report;
 * - the slowed benchmark is a `regression`, its change at least 25%: every test runs it with
 *   twice the work in head (`slowFurther`; the Python, Catch2 and benchmark.js examples already
 *   do twice the work, the others 15%, which their READMEs show), Catch2 four times (its mean
 *   follows a slowed stretch of a process: tests/examples/catch2.test.ts). On a busy 2-core machine the
 *   pairs spread by a few percent, single pairs now and then land 15-45% off, and a CPython
 *   process can run a whole session 1.7 times slower than the next: a pair in which head, doing
 *   twice the work, runs faster than base needs base slowed by more than that, and the slowed
 *   benchmark is decided from seven such pairs;
 * - no untouched benchmark is claimed to have changed by 50% or more (`expectNoHugeClaim`).
 *
 * What they do not assert: that an untouched benchmark is `unchanged`, or within some interval, or
 * decided within some number of pairs. Each of those depends on the noise: a Go sort ended
 * `inconclusive` after 200 pairs at a 13% spread of its pairs when the machine was busy, and an
 * untouched benchmark is flagged in up to alpha of the runs (Holm keeps the family's false alarms
 * within 5% at alpha 0.05, not within none), or for real where the change moves its code (an
 * untouched benchmark.js sort ran +4.9% [+1.9%, +8.2%] in head, its file differing in one constant
 * of another function). How often the untouched benchmarks of real suites reach `unchanged` at 2%,
 * and how often one is flagged, is measured in bench/ (bench:suites, bench:calibration) and
 * committed in bench/results. The stopping rules and these verdicts are tested on the scripted
 * runner with seeded noise (tests/schedule/, tests/cli/debug-mode.test.ts,
 * tests/cli/debug-verdicts.test.ts).
 *
 * The budgets are the fewest pairs that can decide the slowed benchmark at alpha 0.05 after Holm's
 * correction for the benchmarks of the run, with room for a few disturbed pairs: seven at least
 * (for two benchmarks, 2/2^7 = 0.016 is the sign-flip test's smallest p, 0.031 after Holm) and ten
 * at most (Go's twelve: its pilot takes eight), fourteen where the outlier screen judges the pairs
 * (benchmark.js, Catch2, node:bench, pyperf): the screen sets pairs aside, never more than leave the
 * seven an interval at Holm's level needs (judge.ts, `minKeptFor`), and a disturbed core can turn a
 * few pairs around; time only guards against a hung run
 * (`EXAMPLE_LIMITS`). Each example test file runs bound to the core its worker is given (`ownCore`), as each
 * would have a runner of its own in a project's CI.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { BenchmarkResult } from '../../src/results/schema.ts';
import { parseCpuList } from '../../src/config/cpus.ts';
import { ROOT, pairbench, readResults } from './cli.ts';
import { tempDir } from './repo.ts';
import { strictAboutTools, works } from './require-tool.ts';

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

/**
 * The CPUs a cpuset list names (`0-3,6`, as Linux writes Cpus_allowed_list), in order; an empty
 * list for an empty or malformed one (read as `--cpus` reads it: src/config/cpus.ts).
 */
export function cpuList(text: string): number[] {
  return parseCpuList(text.trim()) ?? [];
}

/**
 * The core an example test measures on: one of the CPUs this process may use, chosen by the
 * vitest worker's pool id (1, 2, 3: never the same for two test files running at once), in turn
 * over the CPUs, so that examples measuring at once share a core only when more of them run than
 * there are CPUs. Unbound, a process of one example and one of another's often moved onto one core
 * for a while, and the untouched benchmarks' pairs spread by ±3-12% (benchmark.js, Catch2, pyperf)
 * where, each on its own core, they spread by ±0.1-1.8%, as on a runner of one's own. Nothing the
 * tests assert depends on it (see above); it keeps the examples' runs as a user's CI would have
 * them. null where there is nothing to choose: one CPU, or an operating system without CPU
 * affinity (macOS). Under CI=true a Linux machine without `taskset` (util-linux) fails, as any
 * missing tool does.
 */
export function ownCore(env: NodeJS.ProcessEnv = process.env): number | null {
  if (process.platform !== 'linux') return null;
  const status = readFileSync('/proc/self/status', 'utf8');
  const cpus = cpuList(/^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? '');
  if (cpus.length < 2) return null;
  if (!works('taskset', ['--version'])) {
    const message = 'taskset is missing: sudo apt-get install -y util-linux (the example tests bind each to its own core)';
    if (strictAboutTools(env)) throw new Error(`CI=true and ${message}`);
    console.warn(`${message}; measuring without it`);
    return null;
  }
  const pool = Number(env['VITEST_POOL_ID'] ?? '1');
  return cpus[((Number.isInteger(pool) && pool > 0 ? pool : 1) - 1) % cpus.length]!;
}

/**
 * Build products of an example that hold none of its benchmarked code and are the same in base and
 * head: Catch2 v2's implementation and main (`catch_main.cc`, header-only Catch2 compiled into one
 * object), whose compilation took 18 s of CPU per revision, more than the test's measuring. Each is
 * compiled once per machine by the example's own Makefile, kept in the user's cache folder under
 * the hash of what it is made from (as `.ci/run` keeps cargo's target folder), and put into both
 * copies, newer than its source, so that the build (`make`) still links every revision but does
 * not compile it again.
 */
const PREBUILT: Readonly<Record<string, ReadonlyArray<{ source: string; product: string }>>> = {
  'catch2-suite': [{ source: 'catch_main.cc', product: 'build/catch_main.o' }],
};

/** The cached product of `source` for the example's `side` folder, compiled there by `make <product>` when not yet cached. */
function prebuilt(side: string, source: string, product: string): string {
  const compiler = spawnSync('sh', ['-c', '${CXX:-g++} --version; pkg-config --modversion catch2-with-main 2>/dev/null'], { encoding: 'utf8' }).stdout;
  const key = createHash('sha256').update(readFileSync(join(side, source))).update(readFileSync(join(side, 'Makefile'))).update(compiler).digest('hex').slice(0, 16);
  const cached = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'pairbench', 'test-prebuilt', key, basename(product));
  if (existsSync(cached)) return cached;
  const work = tempDir();
  cpSync(side, work, { recursive: true });
  const made = spawnSync('make', [product], { cwd: work, encoding: 'utf8' });
  expect(made.status, `make ${product}: ${made.stdout}${made.stderr}`).toBe(0);
  mkdirSync(dirname(cached), { recursive: true });
  // renamed into place whole, so that a test running at once never reads half a file
  const partial = `${cached}.${process.pid}`;
  cpSync(join(work, product), partial);
  renameSync(partial, cached);
  return cached;
}

/** A fresh copy of an example, so builds never write into the repository. */
export function copyExample(name: string): { base: string; head: string; dir: string } {
  const dir = tempDir();
  cpSync(join(ROOT, 'examples', name, 'base'), join(dir, 'base'), { recursive: true, filter: (src) => !/\/(build|\.benchmarks|__pycache__)$/.test(src) });
  cpSync(join(ROOT, 'examples', name, 'head'), join(dir, 'head'), { recursive: true, filter: (src) => !/\/(build|\.benchmarks|__pycache__)$/.test(src) });
  for (const { source, product } of PREBUILT[name] ?? []) {
    const cached = prebuilt(join(dir, 'base'), source, product);
    const past = new Date(Date.now() - 60_000);
    for (const side of [join(dir, 'base'), join(dir, 'head')]) {
      expect(readFileSync(join(side, source)).equals(readFileSync(join(dir, 'base', source))), `${name}: ${source} differs between base and head`).toBe(true);
      mkdirSync(dirname(join(side, product)), { recursive: true });
      cpSync(cached, join(side, product));
      utimesSync(join(side, source), past, past);
    }
  }
  // a JavaScript example's npm packages are installed once, beside base/ and head/
  const packages = join(ROOT, 'examples', name, 'node_modules');
  if (existsSync(packages)) symlinkSync(packages, join(dir, 'node_modules'));
  return { base: join(dir, 'base'), head: join(dir, 'head'), dir };
}

/**
 * How long an example test may take. Its budget is a count of pairs, the same amount of work
 * whatever the machine does; time only guards against a hung run, and a busy machine must not reach
 * the guard: `--max-time` ended mitata's comparison after 6 of its 7 pairs when the machine ran
 * fifteen processes for its two cores, its doubled checksum `inconclusive` at +100.7%. The three
 * limits: `--max-time` (pairbench's measuring budget), the process's, and the test's, each above
 * the one before so that the one that ends a run shows what it measured.
 */
export const EXAMPLE_LIMITS = { maxTime: '30m', processMs: 35 * 60_000, testMs: 40 * 60_000 } as const;

/**
 * Makes the copied head's slowed benchmark slower still: `from` (the example's slowdown) becomes
 * `to` in `file`, and it fails if `from` is not there, so that a change to the example cannot leave
 * the test measuring its smaller slowdown unnoticed.
 */
export function slowFurther(head: string, file: string, from: string, to: string): void {
  const path = join(head, file);
  const text = readFileSync(path, 'utf8');
  expect(text, `${file} of the example's head`).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

/** The slowed benchmark, with twice the work in head: a `regression`, its change 25% or more (higher-is-better figures fall, to about -50%). */
export function expectFound(b: BenchmarkResult | undefined, output: string): void {
  expect(b, output).toBeDefined();
  expect(b!.verdict, `${b!.name}\n${output}`).toBe('regression');
  expect(Math.abs(b!.change!.estimate), b!.name).toBeGreaterThanOrEqual(0.25);
}

/** A claimed change that no noise of a busy machine makes from paired runs of the same code: 50%. */
const HUGE = 0.5;

/**
 * An untouched benchmark: measured, and not claimed to have changed by {@link HUGE} or more.
 * Whether it is `unchanged`, `inconclusive` or even flagged by a few percent depends on the noise
 * (see above); a claim of 50% is a wrong pairing, a mixed-up benchmark or a broken judgement. A
 * failure shows each pair's change (head/base − 1).
 */
export function expectNoHugeClaim(b: BenchmarkResult | undefined, output: string): void {
  expect(b, output).toBeDefined();
  expect(b!.pairs.length, b!.name).toBeGreaterThan(0);
  const pairs = b!.pairs.map((p) => `${(100 * (p.head / p.base - 1)).toFixed(1)}%`).join(' ');
  if (b!.change) expect(Math.abs(b!.change.estimate), `${b!.name} (${b!.verdict}) pairs: ${pairs}`).toBeLessThan(HUGE);
  else expect(['unchanged', 'inconclusive'], `${b!.name} pairs: ${pairs}`).toContain(b!.verdict);
}

/** The pipeline's outputs: a results file that `pairbench report` reads and judges a regression again (exit 1), and a Markdown report that says so. */
export function expectOutputs(resultsFile: string, markdownFile: string): void {
  const report = pairbench(['report', resultsFile]);
  expect(report.status, report.stderr).toBe(1);
  expect(readFileSync(markdownFile, 'utf8')).toMatch(/regression/i);
}

/**
 * The JavaScript, Catch2 and pyperf examples, each benchmark paired on its own (the run commands
 * carry `{filter}`): the slowed benchmark is found, the untouched one raises no huge claim, and a
 * round lists benchmarks, not the suite. `pairs`: the most pairs (seven at least: see above);
 * `outliers`, as the example's README judges it (vitest and mitata keep every pair: their per-run
 * figures are so steady that Tukey's fences set ordinary pairs aside); `batch`, both benchmarks
 * in each process (`--batch 2`, still paired back to back) where a process's start costs more than
 * its benchmark; `slower`, the head's file and the change that doubles its slowed benchmark's
 * work (`slowFurther`); `env`, what the measured program needs beyond this process's environment
 * (the node:bench example's Node.js 26 first on PATH).
 */
export function perBenchmark(
  example: string,
  slowed: string,
  untouched: string,
  budget: { pairs: number; outliers?: string; batch?: number; slower?: { file: string; from: string; to: string }; env?: Record<string, string>; check?: (results: ReturnType<typeof readResults>) => void } = { pairs: 10 },
): void {
  const { step } = workflowStep(example);
  const build = step.build ?? null;
  const { run, format } = step;
  const ex = copyExample(example);
  if (budget.slower) slowFurther(ex.head, budget.slower.file, budget.slower.from, budget.slower.to);
  const file = join(ex.dir, 'results.json');
  const markdown = join(ex.dir, 'report.md');
  const limits = ['--min-pairs', '7', '--max-pairs', String(budget.pairs), '--max-time', EXAMPLE_LIMITS.maxTime, ...(budget.outliers ? ['--outliers', budget.outliers] : []), ...(budget.batch ? ['--batch', String(budget.batch)] : [])];
  const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, ...(build ? ['--build', build] : []), '--run', run, '--format', format, '--threshold', '5%', ...limits, '--out', file, '--markdown', markdown, '--quiet'], { timeoutMs: EXAMPLE_LIMITS.processMs, core: ownCore(), ...(budget.env ? { env: budget.env } : {}) });
  expect(res.status, res.stdout + res.stderr).toBe(1);
  const results = readResults(file);
  const byName = new Map(results.benchmarks.map((b) => [b.name, b]));
  expectFound(byName.get(slowed), res.stdout);
  expectNoHugeClaim(byName.get(untouched), res.stdout);
  expectOutputs(file, markdown);
  // each benchmark is paired on its own: a round lists benchmarks (a batch by its benchmarks' names,
  // joined by ", "), not the suite
  expect(results.rounds![0]!.flatMap((unit) => (budget.batch ? unit.split(', ') : [unit])).sort()).toEqual([slowed, untouched].sort());
  if (budget.batch) expect(results.rounds![0]!).toHaveLength(1);
  budget.check?.(results);
}
