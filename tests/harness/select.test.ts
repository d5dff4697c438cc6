/**
 * Selecting benchmarks of a suite (src/harness/select.ts): the filter each format reads, where the
 * selection goes in the command, and that a benchmark name never becomes shell text.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommands } from '../../src/measure/one-run.ts';
import { canSize, filterFor, filterMatches, selectBenchmarks, selectionBlocker, wholeSuite } from '../../src/harness/select.ts';
import { harnessOf } from '../../src/harness/registry.ts';
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

describe('filters of the JavaScript, Catch2 and pyperf formats', () => {
  it("vitest: -t's RegExp matches the test's full name, joined by ' > ' (vitest 5) or a space (vitest 4), and no other test", () => {
    const re = new RegExp(filterFor('vitest', ['a/parse.bench.ts > parse > compare (a|b)* > n=10 > slice']));
    expect(re.test('parse > compare (a|b)*')).toBe(true);
    expect(re.test('parse compare (a|b)*')).toBe(true);
    expect(re.test('parse > compare (a|b)* > x')).toBe(false);
    expect(re.test('parse > compare ab')).toBe(false);
    expect(re.test('other > parse > compare (a|b)*')).toBe(false);
    // vitest 4: the bench is the test
    expect(new RegExp(filterFor('vitest', ['parse.bench.ts > parse > slice'])).test('parse slice')).toBe(true);
  });

  it('vitest: {file} becomes the file names, one argument each, so files of one name are all selected', () => {
    const sel = selectBenchmarks('npx vitest bench --run {file} -t {filter}', 'vitest', ['a/parse.bench.ts > t > x', 'b/parse.bench.ts > t > x', 'k.bench.ts > u > y']);
    expect(sel.command).toBe('npx vitest bench --run "$PAIRBENCH_FILE_1" "$PAIRBENCH_FILE_2" -t "$PAIRBENCH_FILTER"');
    expect(sel.env).toMatchObject({ PAIRBENCH_FILE_1: 'parse.bench.ts', PAIRBENCH_FILE_2: 'k.bench.ts' });
    expect(wholeSuite('npx vitest bench --run {file} -t {filter}', 'vitest')).toEqual({ command: 'npx vitest bench --run  -t "$PAIRBENCH_FILTER"', env: { PAIRBENCH_FILTER: '.' } });
    expect(selectionBlocker('node bench.mjs {file} {filter}', 'mitata', ['a'])).toContain('only --format vitest');
    expect(selectionBlocker('npx vitest bench --run {file} -t {filter}', 'vitest', ['a > b'])).toBeNull();
  });

  it("mitata: the bench()'s name, after its group, or a template of .args() whose text before its $ begins the name", () => {
    const re = new RegExp(filterFor('mitata', ['strings > repeat 10', 'checksum (a+b)']));
    for (const name of ['repeat 10', 'repeat $n', 'rep$x', '$n', 'strings > repeat 10', 'checksum (a+b)']) expect(re.test(name), name).toBe(true);
    for (const name of ['repeat 100', 'repeat', 'slice', 'checksum', 'x repeat 10', 'checksum (aab)']) expect(re.test(name), name).toBe(false);
    // a run told apart by its arguments (`fill [n=8]`) was made by the template `fill`
    expect(new RegExp(filterFor('mitata', ['g > fill [n=8]'])).test('fill')).toBe(true);
  });

  it("node-bench: --bench-name-pattern over the name path joined by spaces, the file and params left out; the runner selects that path alone", () => {
    const re = new RegExp(filterFor('node-bench', ['a/parse.bench.mjs > parse > json > array [size=10]', 'k.bench.mjs > checksum 64 KiB (x+y)']));
    for (const name of ['parse json array', 'parse > json > array', 'checksum 64 KiB (x+y)']) expect(re.test(name), name).toBe(true);
    for (const name of ['parse json', 'json array', 'parse json array2', 'checksum 64 KiB (xxy)', 'k.bench.mjs checksum 64 KiB (x+y)']) expect(re.test(name), name).toBe(false);
    expect(selectionBlocker("node --experimental-bench --bench --bench-reporter=json --bench-name-pattern={filter} 'bench/*.mjs'", 'node-bench', ['k.bench.mjs > a'])).toBeNull();
  });

  it("Catch2: a test spec of the test case's names, separated by ',', Catch2's special characters escaped", () => {
    expect(filterFor('catch2', ['checksum > checksum 64 KiB'])).toBe('checksum');
    expect(filterFor('catch2', ['strings, <a & b>* > copy', 'vector > sum > accumulate'])).toBe('strings\\, <a & b>\\*,vector,vector > sum');
    expect(filterFor('catch2', ['~[x] "q" \\ > b'])).toBe('\\~\\[x\\] \\"q\\" \\\\');
    expect(wholeSuite('./build/bench {filter} -r xml', 'catch2')).toEqual({ command: './build/bench "$PAIRBENCH_FILTER" -r xml', env: { PAIRBENCH_FILTER: '*,[.]' } });
  });

  it('benchmark.js and pyperf: the names themselves, an anchored RegExp or one argument each', () => {
    expect(filterFor('benchmarkjs', ['sort 1000', 'a.b'])).toBe('^(sort 1000|a\\.b)$');
    expect(selectBenchmarks('python3 bench.py {benchmark}', 'pyperf', ['sort_10000']).command).toBe('python3 bench.py "$PAIRBENCH_BENCHMARK_1"');
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

  it("pyperf: a designed run's flags end the simple command of the selection, before the shell's redirection, and win over the command's own", () => {
    const run = 'rm -f build/bench.json && python3 bench.py --quiet --processes 3 --values 3 --output build/bench.json {benchmark} >&2 && cat build/bench.json';
    const designed = selectBenchmarks(run, 'pyperf', ['sort_10000'], { iterations: 64, repetitions: 5, warmup: 1 });
    expect(designed.command).toBe(
      'rm -f build/bench.json && python3 bench.py --quiet --processes 3 --values 3 --output build/bench.json "$PAIRBENCH_BENCHMARK_1" --worker --loops "$PAIRBENCH_LOOPS" --warmups 0 --values "$PAIRBENCH_VALUES" >&2 && cat build/bench.json',
    );
    // the design's warm-up is one of pyperf's values, left out by pairbench (measure/samples.ts, afterWarmup)
    expect(designed.env).toMatchObject({ PAIRBENCH_LOOPS: '64', PAIRBENCH_VALUES: '6' });
    // the listing run: one worker, one value of about 10 ms after a warm-up, loops calibrated by pyperf
    const listing = wholeSuite(run, 'pyperf', { minTimeMs: 10 });
    expect(listing.command).toBe('rm -f build/bench.json && python3 bench.py --quiet --processes 3 --values 3 --output build/bench.json  --processes 1 --values 1 --warmups 1 --min-time "$PAIRBENCH_MIN_TIME" >&2 && cat build/bench.json');
    expect(listing.env).toEqual({ PAIRBENCH_FILTER: '.', PAIRBENCH_MIN_TIME: '0.01' });
    expect(canSize(run, 'pyperf')).toBe(true);
    // runs as the command says: no placeholder to put the flags at; --fast and --debug-single-value set the values themselves
    expect(canSize('python3 bench.py --output o.json >&2 && cat o.json', 'pyperf')).toBe(false);
    expect(canSize(run.replace('--quiet', '--quiet --fast'), 'pyperf')).toBe(false);
    expect(canSize(run.replace('--quiet', '--debug-single-value'), 'pyperf')).toBe(false);
    expect(selectBenchmarks(run.replace('--quiet', '--fast'), 'pyperf', ['sort_10000'], { iterations: 64, repetitions: 5 }).command).not.toContain('--worker');
    // the command's own length of a value: its --min-time, else pyperf's 100 ms
    expect(harnessOf('pyperf').design!.commandLengthMs(run)).toBe(100);
    expect(harnessOf('pyperf').design!.commandLengthMs(run.replace('--quiet', '--quiet --min-time 0.02'))).toBe(20);
  });

  it('Go and Google Benchmark: the sizing flags after the whole command, as before', () => {
    expect(selectBenchmarks('go test -run ^$ -bench . ./pkg', 'go', ['BenchmarkA'], { iterations: 100, repetitions: 3 }).command).toBe(
      'go test -run ^$ -bench . ./pkg -bench="$PAIRBENCH_FILTER" -benchtime="$PAIRBENCH_BENCHTIME" -count="$PAIRBENCH_COUNT"',
    );
    expect(wholeSuite('./bench {filter}', 'google-benchmark', { minTimeMs: 10 }).command).toBe('./bench "$PAIRBENCH_FILTER" --benchmark_min_time="$PAIRBENCH_MIN_TIME"');
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

  it.each(['$(touch pwned)', '`touch pwned`', "x'; touch pwned; '"])('S3: a vitest test file and test named %s reach the command as arguments and run nothing', async (hostile) => {
    const dir = tempDir();
    const sel = selectBenchmarks("printf '<%s>' {file} {filter}", 'vitest', [`${hostile} > ${hostile} > b`]);
    const [run] = await runCommands([{ command: sel.command, cwd: dir, env: { ...process.env, ...sel.env }, timeoutMs: 10_000, captureStdout: true }]);
    expect(run!.outcome).toBe('ok');
    expect(run!.stdout).toBe(`<${hostile}><${filterFor('vitest', [`${hostile} > ${hostile} > b`])}>`);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
