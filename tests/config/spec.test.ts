/** The Spec is built the same way from flags, action inputs and a config file. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/config/errors.ts';
import { actionNaming, buildSpec, cliNaming } from '../../src/config/spec.ts';
import { parseDuration, parsePercent } from '../../src/config/values.ts';

describe('value parsers', () => {
  it.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['10m', 600_000],
    ['1.5h', 5_400_000],
    ['30', 30_000],
  ])('duration %s is %d ms', (text, ms) => expect(parseDuration('--max-time', text)).toBe(ms));

  it.each([
    ['2%', 0.02],
    ['0.02', 0.02],
    ['0.5%', 0.005],
    ['.1', 0.1],
  ])('percentage %s is %d', (text, f) => expect(parsePercent('--threshold', text)).toBeCloseTo(f, 12));

  it('refuses negative and empty values', () => {
    expect(() => parsePercent('--threshold', '-2%')).toThrow(UsageError);
    expect(() => parseDuration('--timeout', '0s')).toThrow(UsageError);
    expect(() => parseDuration('--timeout', '')).toThrow(UsageError);
  });
});

describe('buildSpec', () => {
  it('fills the defaults of product.md', () => {
    const spec = buildSpec({ run: './bench' }, { cwd: '/repo', naming: cliNaming });
    expect(spec).toMatchObject({
      base: { kind: 'git', rev: null },
      head: { kind: 'git', rev: 'HEAD' },
      minPairs: 10,
      maxPairs: 200,
      maxTimeMs: 600_000,
      precision: null, // a quarter of each benchmark's threshold (stats/stop.ts, defaultPrecision)
      warmup: 1,
      threshold: 0.02,
      alpha: 0.05,
      outliers: 'tukey',
      correction: 'holm',
      timeoutMs: 600_000,
      out: 'pairbench-results.json',
      failOn: 'regression',
      shard: { index: 1, count: 1 },
    });
    expect(spec.benchmarks).toEqual([{ name: './bench', run: './bench', format: 'time', metrics: ['wall'], prepare: null, filter: null }]);
    expect(spec.seedGiven).toBe(false);
    expect(Number.isInteger(spec.seed)).toBe(true);
  });

  it('names action inputs as inputs in messages', () => {
    expect(() => buildSpec({ run: 'x', 'max-pairs': 'many' }, { cwd: '/', naming: actionNaming })).toThrow(/^input max-pairs: got "many"; expected a whole number/);
  });

  it('reads a config file: defaults at the top, benchmarks below, flags win', () => {
    const text = [
      'build: make -j2',
      'max-time: 8m',
      'threshold: 3%',
      'benchmarks:',
      '  - name: parse-large',
      '    run: ./bin/parse testdata/large.json',
      '    threshold: 5%',
      '    metric: [wall, cpu]',
      '  - name: go-suite',
      "    run: go test -run '^$' -bench . ./...",
      '    format: go',
      '    filter: ^BenchmarkParse',
    ].join('\n');
    const spec = buildSpec({ 'max-time': '2m' }, { cwd: '/repo', naming: cliNaming, config: { path: 'pairbench.yml', text } });
    expect(spec.build).toBe('make -j2');
    expect(spec.maxTimeMs).toBe(120_000);
    expect(spec.threshold).toBeCloseTo(0.03, 12);
    expect(spec.benchmarks).toHaveLength(2);
    expect(spec.benchmarks[0]).toMatchObject({ name: 'parse-large', metrics: ['wall', 'cpu'], threshold: 0.05, format: 'time' });
    expect(spec.benchmarks[1]).toMatchObject({ name: 'go-suite', format: 'go', filter: '^BenchmarkParse' });
  });

  it('sets the gate per metric: a threshold for each metric of a benchmark', () => {
    const text = ['benchmarks:', '  - name: parse', '    run: ./parse', '    metric: [wall, instructions]', '    threshold: { wall: 5%, instructions: 0.5% }'].join('\n');
    const spec = buildSpec({}, { cwd: '/', naming: cliNaming, config: { path: 'c.yml', text } });
    expect(spec.benchmarks[0]!.thresholds).toEqual({ wall: 0.05, instructions: 0.005 });
    expect(() => buildSpec({}, { cwd: '/', naming: cliNaming, config: { path: 'c.yml', text: text.replace('0.5%', 'tiny') } })).toThrow(/benchmarks\[0\]\.threshold\.instructions: got "tiny"/);
    expect(() => buildSpec({}, { cwd: '/', naming: cliNaming, config: { path: 'c.yml', text: text.replace('wall: 5%', 'joules: 5%') } })).toThrow(/benchmarks\[0\]\.threshold/);
  });

  it.each([
    ['benchmarks: []', /benchmarks: must list at least one benchmark/],
    ['benchmarks:\n  - name: a', /benchmarks\[0\]\.run/],
    ['benchmarks:\n  - name: a\n    run: x\n    format: xml', /benchmarks\[0\]\.format/],
    ['benchmarks:\n  - name: a\n    run: x\n  - name: a\n    run: y', /"a" is used twice/],
    ['max-pears: 3\nbenchmarks:\n  - name: a\n    run: x', /unknown key "max-pears"/],
    ['threshold: lots\nbenchmarks:\n  - name: a\n    run: x', /threshold: got "lots"/],
    ['benchmarks: [', /not valid YAML/],
    ['benchmarks:\n  - name: a\n    run: x\n    filter: "(["', /filter of a: got "\(\["; expected a valid regular expression/],
    // a metric named twice would count every pair twice: refused, not deduplicated, so the file says what runs
    ['benchmarks:\n  - name: a\n    run: x\n    metric: [wall, cpu, wall]', /^--config c\.yml: benchmarks\[0\]\.metric: got "wall,cpu,wall", which names wall twice; expected each metric once$/],
    ['metric: [cpu, cpu]\nbenchmarks:\n  - name: a\n    run: x', /^--config c\.yml: metric: got "cpu,cpu", which names cpu twice; expected each metric once$/],
    // --batch is bounded alike wherever it is set: the flag, the config's top level, a benchmark, a results file
    ['batch: 1001\nbenchmarks:\n  - name: a\n    run: x', /^--config c\.yml: batch: got "1001"; expected a whole number from 1 to 1000$/],
    ['batch: 0\nbenchmarks:\n  - name: a\n    run: x', /^--config c\.yml: batch: got "0"; expected a whole number from 1 to 1000$/],
    ['benchmarks:\n  - name: a\n    run: x\n    batch: 1001', /benchmarks\[0\]\.batch/],
  ])('refuses a bad config file: %s', (text, message) => {
    expect(() => buildSpec({}, { cwd: '/', naming: cliNaming, config: { path: 'c.yml', text } })).toThrow(message);
  });
});

describe('a repeated metric', () => {
  it('is refused on the command line and from an action input, in one line naming it', () => {
    expect(() => buildSpec({ run: './b', metric: 'wall,wall' }, { cwd: '/', naming: cliNaming })).toThrow(/^--metric: got "wall,wall", which names wall twice; expected each metric once$/);
    expect(() => buildSpec({ run: './b', metric: 'wall,cpu,cpu' }, { cwd: '/', naming: actionNaming })).toThrow(/^input metric: got "wall,cpu,cpu", which names cpu twice; expected each metric once$/);
    expect(buildSpec({ run: './b', metric: 'wall,cpu' }, { cwd: '/', naming: cliNaming }).benchmarks[0]!.metrics).toEqual(['wall', 'cpu']);
  });
});

describe('--batch', () => {
  it('has one range, 1 to 1000, on the command line as in a config file and a results file', () => {
    for (const bad of ['0', '1001', '99999999999999999999']) {
      expect(() => buildSpec({ run: './b', batch: bad }, { cwd: '/', naming: cliNaming })).toThrow(new RegExp(`^--batch: got "${bad}"; expected a whole number from 1 to 1000$`));
    }
    expect(buildSpec({ run: './b', batch: '1000' }, { cwd: '/', naming: cliNaming }).benchmarks[0]!.batch).toBe(1000);
  });

  it('is 6 for a timed pytest-benchmark suite under --design auto, 5 for vitest, unless --batch, --design command, --interleave suite or instruction counts say otherwise; no other format gets one', () => {
    const batchOf = (flags: Record<string, string>) => buildSpec({ run: 'python3 -m pytest {benchmark}', format: 'pytest-benchmark', ...flags }, { cwd: '/', naming: cliNaming }).benchmarks[0]!.batch;
    expect(batchOf({})).toBe(6);
    expect(batchOf({ batch: '1' })).toBe(1);
    expect(batchOf({ batch: '3' })).toBe(3);
    expect(batchOf({ design: 'command' })).toBeUndefined();
    expect(batchOf({ interleave: 'suite' })).toBeUndefined();
    expect(batchOf({ metric: 'wall,instructions' })).toBeUndefined();
    expect(buildSpec({ run: 'npx vitest bench --run {file} -t {filter}', format: 'vitest' }, { cwd: '/', naming: cliNaming }).benchmarks[0]!.batch).toBe(5);
    expect(buildSpec({ run: 'npx vitest bench --run {file} -t {filter}', format: 'vitest', design: 'command' }, { cwd: '/', naming: cliNaming }).benchmarks[0]!.batch).toBeUndefined();
    for (const format of ['time', 'go', 'pyperf', 'mitata', 'google-benchmark', 'bencher']) {
      expect(buildSpec({ run: './b {filter}', format }, { cwd: '/', naming: cliNaming }).benchmarks[0]!.batch, format).toBeUndefined();
    }
    // a config file's benchmark: its own batch, the flag's, or the format's
    const text = 'benchmarks:\n  - name: a\n    run: python3 -m pytest {benchmark}\n    format: pytest-benchmark\n  - name: b\n    run: python3 -m pytest {benchmark}\n    format: pytest-benchmark\n    batch: 2\n';
    const fromConfig = buildSpec({}, { cwd: '/', naming: cliNaming, config: { path: 'c.yml', text } }).benchmarks;
    expect(fromConfig.map((b) => b.batch)).toEqual([6, 2]);
  });
});
