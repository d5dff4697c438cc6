/**
 * A harness is a value (src/harness/harness.ts): every format is one object of the one registry
 * (src/harness/registry.ts), which owns its parser, its selection, its design and its advice. The
 * formats are listed from the registry alone, and every list pairbench shows of them (the option
 * table, `--help`, the option's parser, action.yml) is that list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionLine } from '../../src/cli/args.ts';
import { UsageError } from '../../src/config/errors.ts';
import { COMPARE_OPTIONS, RUN_FORMATS } from '../../src/config/options.ts';
import { parseOptionValue } from '../../src/config/spec.ts';
import { HARNESS_PACKAGES } from '../../src/harness/failure.ts';
import type { NoisyBenchmark } from '../../src/harness/harness.ts';
import { HARNESS_FORMATS as INDEX_FORMATS, parseHarness } from '../../src/harness/index.ts';
import { HARNESSES, HARNESS_FORMATS, harnessOf, isHarnessFormat } from '../../src/harness/registry.ts';
import { selectBenchmarks, selectionBlocker } from '../../src/harness/select.ts';
import { toolsFor } from '../../src/measure/environment.ts';
import { fixtureOptions } from '../support/fixture-options.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'harness');
const FIXTURE = /\.(txt|json|jsonl|xml)$/;

/** The registry's formats: the one list everything else is compared with. */
const FORMATS = HARNESSES.map((h) => h.format);

/** The fixtures of a format: real outputs of the real tool (tests/fixtures/harness/<format>/). */
const fixtures = (format: string): string[] => readdirSync(join(FIXTURES, format)).filter((f) => FIXTURE.test(f));

/** A noisy benchmark's facts, as results/advice.ts reads them from a results file. */
function noisy(facts: { run?: string; bound: boolean; batched: boolean; allocs?: number[] }): NoisyBenchmark {
  return { run: facts.run ?? 'go test -bench .', boundToOneCpu: facts.bound, batched: () => facts.batched, metric: (m) => (m === 'allocs/op' ? (facts.allocs ?? null) : null) };
}

describe('the registry', () => {
  it('lists each format once, each harness under its own name', () => {
    expect(FORMATS.length).toBeGreaterThan(0);
    expect(new Set(FORMATS).size).toBe(FORMATS.length);
    expect(HARNESS_FORMATS).toEqual(FORMATS);
    expect(INDEX_FORMATS).toEqual(FORMATS);
    for (const f of FORMATS) {
      expect(isHarnessFormat(f)).toBe(true);
      expect(harnessOf(f)!.format).toBe(f);
    }
    expect(isHarnessFormat('time')).toBe(false);
    expect(harnessOf('time')).toBeUndefined();
    // not an inherited property of an object
    expect(isHarnessFormat('toString')).toBe(false);
  });

  it.each(HARNESSES.map((h) => ({ format: h.format, h })))('$format has parse, select, design, advice and failure', ({ h }) => {
    expect(typeof h.parse).toBe('function');
    expect(h).toHaveProperty('select');
    expect(h).toHaveProperty('design');
    expect(typeof h.advice).toBe('function');
    expect(h).toHaveProperty('failure');
    if (h.select !== null) {
      expect(typeof h.select.filter).toBe('function');
      expect(typeof h.select.autoFlag).toBe('function');
      expect(h.select.all.length).toBeGreaterThan(0);
    }
    if (h.design !== null) {
      expect(typeof h.design.sizingFlags).toBe('function');
      expect(typeof h.design.commandLengthMs).toBe('function');
      expect(['min', 'median']).toContain(h.design.summary);
    }
  });

  it.each(FORMATS)("%s parses every real output of its tool into samples, and selects each of their benchmarks", (format) => {
    const h = harnessOf(format);
    const files = fixtures(format);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(join(FIXTURES, format, file), 'utf8');
      const options = fixtureOptions(join(FIXTURES, format), file);
      const samples = h.parse(text, options);
      expect(samples.length, file).toBeGreaterThan(0);
      expect(parseHarness(format, text, options)).toEqual(samples);
      for (const s of samples) expect(Number.isFinite(s.value) && s.value >= 0, `${file}: ${s.name}`).toBe(true);
      if (h.select === null) {
        expect(selectionBlocker('run {filter}', format, [])).toBe(`--format ${format} has no way to run one benchmark`);
        continue;
      }
      // the benchmarks (not their extra metrics) of a plain name, as a run selects them
      const names = samples.map((s) => s.name).filter((n) => !/ \([^()]*\)$/.test(n) && /^Benchmark/.test(n) === (format === 'go'));
      if (names.length === 0) continue; // a Go fixture of packages' qualified names selects none
      const filter = h.select.filter(names);
      expect(filter.length, file).toBeGreaterThan(0);
      expect(selectBenchmarks('run {filter}', format, names).env.PAIRBENCH_FILTER).toBe(filter);
    }
  });

  it('has no selection only where no run can be narrowed (hyperfine times whole commands), and sizes runs only of Go, Google Benchmark and pyperf', () => {
    expect(HARNESSES.filter((h) => h.select === null).map((h) => h.format)).toEqual(['hyperfine']);
    expect(HARNESSES.filter((h) => h.design !== null).map((h) => h.format)).toEqual(['go', 'google-benchmark', 'pyperf']);
    expect(harnessOf('go').design!.summary).toBe('min');
    expect(harnessOf('google-benchmark').design!.summary).toBe('median');
    expect(harnessOf('pyperf').design).toMatchObject({ summary: 'median', lengthBy: 'iterations', flagsAt: 'selection' });
  });

  it('advises on a noisy benchmark only where its harness has a lever: Go its allocations and threads, JavaScript --batch and --cpus', () => {
    const loose = noisy({ bound: false, batched: false, allocs: [3, 3, 3] });
    const advised = Object.fromEntries(HARNESSES.map((h) => [h.format, h.advice(loose).map((f) => f.code)]));
    expect(advised).toEqual(Object.fromEntries(FORMATS.map((f) => [f, f === 'go' ? ['go-noise'] : ['vitest', 'mitata', 'benchmarkjs'].includes(f) ? ['js-noise'] : []])));
    expect(harnessOf('go').advice(loose)).toEqual([{ code: 'go-noise', severity: 'info', figures: { allocsPerOp: 3, oneThread: false } }]);
    // bound to one CPU and several benchmarks to a process: nothing left to advise
    const tight = noisy({ run: 'go test -bench . -test.cpu 1', bound: true, batched: true });
    for (const h of HARNESSES) expect(h.advice(tight), h.format).toEqual([]);
  });

  it('reads the report of a failed run only where the harness writes its errors there (JavaScript), and names the package whose Node.js it needs', () => {
    expect(HARNESSES.filter((h) => h.failure !== null).map((h) => h.format)).toEqual(['vitest', 'mitata', 'benchmarkjs', 'node-bench']);
    expect(HARNESS_PACKAGES).toEqual({ vitest: 'vitest', mitata: 'mitata', benchmarkjs: 'benchmark' });
  });

  it("names the toolchains of each harness's benchmarks as the environment asks them", () => {
    for (const h of HARNESSES) {
      if (h.toolchains === null) expect(toolsFor([h.format]).length, h.format).toBeGreaterThan(1);
      else expect(toolsFor([h.format]), h.format).toEqual(h.toolchains);
    }
  });
});

describe('every list of the formats is the registry', () => {
  const format = COMPARE_OPTIONS.find((o) => o.name === 'format')!;

  it('the option table: its choices, its doc and its --help line', () => {
    expect(RUN_FORMATS).toEqual(['time', ...FORMATS]);
    expect(format.choices).toEqual(['time', ...FORMATS]);
    expect(format.doc).toContain(`a harness output to parse: ${FORMATS.join(', ')}.`);
    expect(optionLine(format, { choices: true })).toContain(`[${['time', ...FORMATS].join(', ')}]`);
  });

  it('the option parser: it takes each format and refuses any other name with one line that lists them', () => {
    for (const f of ['time', ...FORMATS]) expect(parseOptionValue('format', '--format', f)).toBe(f);
    let error: unknown;
    try {
      parseOptionValue('format', '--format', 'benchstat');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(['time', ...FORMATS].join(', '));
  });

  it("action.yml's description of the format input", () => {
    const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    const description = /^ {2}format:\n {4}description: '([^']*)'/m.exec(action)?.[1];
    expect(description).toContain(`a harness output to parse: ${FORMATS.join(', ')}.`);
  });
});
