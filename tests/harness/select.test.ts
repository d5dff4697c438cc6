/**
 * Selecting benchmarks of a suite (src/harness/select.ts): the filter each format reads, where the
 * selection goes in the command, and that a benchmark name never becomes shell text.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommands } from '../../src/measure/run.ts';
import { filterFor, filterMatches, selectBenchmarks, selectionBlocker, wholeSuite } from '../../src/harness/select.ts';
import { tempDir } from '../support/repo.ts';

describe('filters', () => {
  it('Go: one anchored pattern per level, so a sub-benchmark is selected on its own', () => {
    expect(filterFor('go', ['BenchmarkParse'])).toBe('^BenchmarkParse$');
    expect(filterFor('go', ['BenchmarkSort/n=100'])).toBe('^BenchmarkSort$/^n=100$');
    expect(filterFor('go', ['BenchmarkA/x', 'BenchmarkB/y'])).toBe('^(BenchmarkA|BenchmarkB)$/^(x|y)$');
    expect(filterFor('go', ['BenchmarkRe/a.b(c)'])).toBe('^BenchmarkRe$/^a\\.b\\(c\\)$');
  });

  it('Google Benchmark and Criterion: one anchored alternation over full names, metacharacters escaped', () => {
    expect(filterFor('google-benchmark', ['BM_Sort/1000'])).toBe('^BM_Sort/1000$');
    expect(filterFor('criterion', ['kernels/sort_1000', 'kernels/checksum'])).toBe('^(kernels/sort_1000|kernels/checksum)$');
    expect(filterFor('google-benchmark', ['BM_x<int>/8/real_time'])).toBe('^BM_x<int>/8/real_time$');
    expect(new RegExp(filterFor('criterion', ['a+b [1]'])).test('a+b [1]')).toBe(true);
  });

  it("Go: a filter in benchstat's form, with the -GOMAXPROCS suffix, matches the stripped name", () => {
    expect(filterMatches('go', /^BenchmarkParse-8$/, 'BenchmarkParse', { GOMAXPROCS: '8' })).toBe(true);
    expect(filterMatches('go', /^BenchmarkParse$/, 'BenchmarkParse', { GOMAXPROCS: '8' })).toBe(true);
    expect(filterMatches('go', /^BenchmarkParse-4$/, 'BenchmarkParse', { GOMAXPROCS: '8' })).toBe(false);
    expect(filterMatches('google-benchmark', /^BM_A-8$/, 'BM_A', { GOMAXPROCS: '8' })).toBe(false);
  });
});

describe('where the selection goes', () => {
  it('{filter} and {benchmark} become quoted variables; the names travel in the environment', () => {
    const go = selectBenchmarks('./b.test -test.bench {filter} -test.benchtime 100ms', 'go', ['BenchmarkA']);
    expect(go).toEqual({ command: './b.test -test.bench "$PAIRBENCH_FILTER" -test.benchtime 100ms', env: { PAIRBENCH_FILTER: '^BenchmarkA$', PAIRBENCH_BENCHMARK_1: 'BenchmarkA' } });
    const py = selectBenchmarks("pytest '{benchmark}' --benchmark-json=o.json >&2 && cat o.json", 'pytest-benchmark', ['t.py::a[1]', 't.py::b']);
    expect(py.command).toBe('pytest "$PAIRBENCH_BENCHMARK_1" "$PAIRBENCH_BENCHMARK_2" --benchmark-json=o.json >&2 && cat o.json');
  });

  it('adds the filter flag to a simple Go or Google Benchmark command, never to a pipeline', () => {
    expect(selectBenchmarks('go test -run ^$ -bench . ./pkg', 'go', ['BenchmarkA']).command).toBe('go test -run ^$ -bench . ./pkg -bench="$PAIRBENCH_FILTER"');
    expect(selectBenchmarks('./bench --benchmark_format=json', 'google-benchmark', ['BM_A']).command).toBe('./bench --benchmark_format=json --benchmark_filter="$PAIRBENCH_FILTER"');
    expect(selectionBlocker('./b.test -test.bench . | tee o', 'go', ['BenchmarkA'])).toContain('{filter}');
    expect(selectionBlocker("pytest --benchmark-json=o.json >&2 && cat o.json", 'pytest-benchmark', ['t.py::a'])).toContain('{benchmark}');
    expect(selectionBlocker('./b.test -test.bench "a|b"', 'go', ['BenchmarkA'])).toBeNull();
  });

  it('refuses names it cannot select safely: a leading dash, a control character, a package-qualified Go name', () => {
    expect(selectionBlocker('pytest {benchmark}', 'pytest-benchmark', ['--co'])).toContain('option');
    expect(selectionBlocker('pytest {benchmark}', 'pytest-benchmark', ['a\nb'])).toContain('control');
    expect(selectionBlocker('./b.test -test.bench {filter}', 'go', ['example.com/m/a.BenchmarkX'])).toContain('package');
    expect(selectionBlocker('hyperfine {benchmark}', 'hyperfine', ['x'])).toContain('hyperfine');
  });

  it('a whole-suite run selects everything', () => {
    expect(wholeSuite('./b.test -test.bench {filter}')).toEqual({ command: './b.test -test.bench "$PAIRBENCH_FILTER"', env: { PAIRBENCH_FILTER: '.' } });
    expect(wholeSuite('pytest {benchmark} -q')).toEqual({ command: 'pytest  -q', env: { PAIRBENCH_FILTER: '.' } });
  });
});

describe('S3: benchmark names never become shell text', () => {
  it.each(['$(touch pwned)', '`touch pwned`', "x'; touch pwned; '", 'a" ; touch pwned ; "', 'a b;touch pwned'])('S3: a benchmark named %s reaches the command as one argument and runs nothing', async (name) => {
    const dir = tempDir();
    const sel = selectBenchmarks("printf '<%s>' {benchmark} {filter}", 'json', [name]);
    const [run] = await runCommands([{ command: sel.command, cwd: dir, env: { ...process.env, ...sel.env }, timeoutMs: 10_000, captureStdout: true }]);
    expect(run!.outcome).toBe('ok');
    expect(run!.stdout).toBe(`<${name}><${filterFor('json', [name])}>`);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
