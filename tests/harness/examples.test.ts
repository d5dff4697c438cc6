/**
 * The examples under examples/<x>/: each README's GitHub workflow step names the build, run and
 * format; this test runs exactly those commands once in a copy of base/ and of head/ and checks
 * that the parser finds the same benchmarks on both sides (pairbench's compare engine pairs them
 * by name). An example with an end-to-end test (tests/examples/) is built and run there, from
 * the same README step, and only checked here. A toolchain that is missing fails its example under CI=true and skips it elsewhere,
 * saying what to install (tests/support/require-tool.ts; scripts/setup-ci.sh installs them all).
 *
 * rust compiles criterion (minutes, the first time); .ci/run keeps cargo's target directory
 * in the user's cache folder, so that later runs reuse the compiled dependencies.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isHarnessFormat, parseHarness } from '../../src/harness/index.ts';
import { selectBenchmarks, selectionBlocker, wholeSuite } from '../../src/harness/select.ts';
import { workflowStep, type Step } from '../support/examples.ts';
import { TOOLS, requireTools, type ToolSpec } from '../support/require-tool.ts';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const BUILD_OUTPUTS = new Set(['target', 'build', '.benchmarks', '__pycache__', '.pytest_cache', 'node_modules']);

function sh(command: string, cwd: string, timeoutMs = 600_000, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/**
 * Criterion keeps its estimates under $CARGO_TARGET_DIR/criterion, shared in CI with the other
 * tests that run this example at the same moment; each copy here keeps its own.
 */
function ownCriterionHome(dir: string): Record<string, string> {
  return { CRITERION_HOME: join(dir, 'criterion-home') };
}

/** Copies <example>/<side> without build outputs, builds and runs it once, and parses its output. */
function runSide(example: string, side: 'base' | 'head', step: Step): string[] {
  const dir = mkdtempSync(join(tmpdir(), `pairbench-${example}-${side}-`));
  scratch.push(dir);
  cpSync(join(EXAMPLES, example, side), dir, {
    recursive: true,
    filter: (src) => !BUILD_OUTPUTS.has(src.split(/[\\/]/).pop() ?? ''),
  });
  // a JavaScript example's npm packages are installed once, beside base/ and head/
  const packages = join(EXAMPLES, example, 'node_modules');
  if (existsSync(packages)) symlinkSync(packages, join(dir, 'node_modules'));
  if (step.build) {
    const b = sh(step.build, dir);
    expect(b.status, `${example}/${side} build failed:\n${b.stderr.slice(-3000)}`).toBe(0);
  }
  // the whole suite, as pairbench's listing run has it: a {filter} selects everything, {benchmark} nothing
  if (!isHarnessFormat(step.format)) throw new Error(`${example}: format ${step.format} is not a harness format`);
  const whole = wholeSuite(step.run, step.format);
  const r = sh(whole.command, dir, 600_000, { ...whole.env, ...ownCriterionHome(dir) });
  expect(r.status, `${example}/${side} run failed:\n${r.stderr.slice(-3000)}`).toBe(0);
  return parseHarness(step.format, r.stdout).map((s) => s.name);
}

/** Runs one benchmark of <example>/<side> as pairbench selects it (the side was built by runSide). */
function runOne(example: string, step: Step, name: string): string[] {
  const dir = scratch.find((d) => d.includes(`pairbench-${example}-base-`))!;
  if (!isHarnessFormat(step.format)) throw new Error(`${example}: format ${step.format} is not a harness format`);
  expect(selectionBlocker(step.run, step.format, [name])).toBeNull();
  const sel = selectBenchmarks(step.run, step.format, [name]);
  const r = sh(sel.command, dir, 600_000, { ...sel.env, ...ownCriterionHome(dir) });
  expect(r.status, `${example} run of ${name} failed:\n${r.stderr.slice(-3000)}`).toBe(0);
  return parseHarness(step.format, r.stdout).map((s) => s.name);
}

/**
 * `endToEnd`: the test that runs the example's README step through `pairbench compare` (which
 * builds both sides, lists the suite and runs each benchmark alone); its build and runs are not
 * repeated here.
 */
const cases: Array<{ example: string; needs: ToolSpec[]; expected: string[]; selects?: boolean; timeoutMs?: number; endToEnd?: string }> = [
  {
    example: 'go-suite',
    endToEnd: 'tests/examples/go.test.ts',
    selects: true,
    needs: [TOOLS.go],
    expected: ['BenchmarkChecksum', 'BenchmarkSort/n=100', 'BenchmarkSort/n=1000'],
  },
  {
    example: 'python-pytest',
    endToEnd: 'tests/examples/python-pytest.test.ts',
    selects: true,
    needs: [TOOLS.pytestBenchmark],
    expected: ['test_kernels.py::test_checksum', 'test_kernels.py::test_sort[1000]', 'test_kernels.py::test_sort[10000]'],
  },
  {
    example: 'node-suite',
    needs: [],
    expected: ['checksum', 'sort_1000'],
  },
  {
    example: 'cpp-google-benchmark',
    selects: true,
    needs: [TOOLS.googleBenchmark],
    expected: ['BM_Checksum', 'BM_Sort/1000', 'BM_Sort/10000'],
  },
  {
    example: 'vitest-suite',
    endToEnd: 'tests/examples/vitest.test.ts',
    selects: true,
    needs: [TOOLS['vitest-suite']],
    expected: ['kernels.bench.mjs > kernels > checksum > checksum 64 KiB', 'kernels.bench.mjs > kernels > sort > sort 1000'],
  },
  {
    example: 'mitata-suite',
    endToEnd: 'tests/examples/mitata.test.ts',
    selects: true,
    needs: [TOOLS['mitata-suite']],
    expected: ['checksum 64 KiB', 'sort 1000'],
  },
  {
    example: 'node-bench-suite',
    endToEnd: 'tests/examples/node-bench.test.ts',
    selects: true,
    needs: [TOOLS.node26],
    expected: ['kernels.bench.mjs > checksum 64 KiB', 'kernels.bench.mjs > sort 1000'],
  },
  {
    example: 'benchmarkjs-suite',
    endToEnd: 'tests/examples/benchmarkjs.test.ts',
    selects: true,
    needs: [TOOLS['benchmarkjs-suite']],
    expected: ['checksum 64 KiB', 'sort 1000'],
  },
  {
    example: 'catch2-suite',
    endToEnd: 'tests/examples/catch2.test.ts',
    selects: true,
    needs: [TOOLS.catch2],
    expected: ['checksum > checksum 64 KiB', 'sort > sort 10000'],
  },
  {
    example: 'pyperf-suite',
    endToEnd: 'tests/examples/pyperf.test.ts',
    selects: true,
    needs: [TOOLS.pyperf],
    expected: ['checksum_4k', 'sort_10000'],
  },
  {
    example: 'rust-criterion',
    selects: true,
    needs: [TOOLS.cargo],
    expected: ['kernels/checksum', 'kernels/sort_1000'],
    timeoutMs: 900_000,
  },
];

describe.each(cases)('examples/$example', ({ example, needs, expected, selects, timeoutMs, endToEnd }) => {
  it('README: the compare command and the workflow step name the same run and format', () => {
    const { readme, step } = workflowStep(example);
    expect(readme).toContain(`--run '${step.run}'`);
    expect(readme).toContain(`--format ${step.format}`);
    if (step.build) expect(readme).toContain(`--build '${step.build}'`);
    expect(readme).toContain(`--base-dir examples/${example}/base --head-dir examples/${example}/head`);
  });

  it('base and head differ only in the slowed code', () => {
    const diff = spawnSync('diff', ['-rq', ...[...BUILD_OUTPUTS].flatMap((d) => ['-x', d]), 'base', 'head'], {
      cwd: join(EXAMPLES, example),
      encoding: 'utf8',
    });
    const changed = diff.stdout.trim().split('\n');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^Files base\/\S+ and head\/\S+ differ$/);
  });

  it('the run command can select each benchmark alone, or says why not', () => {
    const { step } = workflowStep(example);
    if (!isHarnessFormat(step.format)) throw new Error(`${example}: format ${step.format} is not a harness format`);
    if (selects) for (const name of expected) expect(selectionBlocker(step.run, step.format, [name]), name).toBeNull();
    else expect(selectionBlocker(step.run, step.format, [expected[0]!])).not.toBeNull();
  });

  if (endToEnd) {
    it(`runs end to end from its README step in ${endToEnd}, with its benchmarks named there`, () => {
      const test = readFileSync(join(EXAMPLES, '..', endToEnd), 'utf8');
      expect(test).toMatch(new RegExp(`(perBenchmark|workflowStep)\\('${example}'`));
    });
    return;
  }

  requireTools(...needs).it(`runs once on each side and finds the same benchmarks${selects ? ', and runs one benchmark alone' : ''}`, () => {
    const { step } = workflowStep(example);
    const base = runSide(example, 'base', step);
    const head = runSide(example, 'head', step);
    expect(base.filter((n) => !n.includes(' ('))).toEqual(expected);
    expect(head).toEqual(base);
    if (selects) {
      // each benchmark on its own, as benchmark-level interleaving runs it: that one alone
      const one = expected[expected.length - 1]!;
      expect(runOne(example, step, one).filter((n) => !n.includes(' ('))).toEqual([one]);
    }
  }, timeoutMs ?? 300_000);
});
