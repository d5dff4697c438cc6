/**
 * A Criterion run of one benchmark in its quick mode (src/harness/criterion-quick.ts, `quickRun`
 * in src/harness/select.ts): `--quick` after `--output-format bencher`, in the simple command that
 * holds it; never for a command that chose its own mode or a baseline, never where the run's saved
 * medians are not read (the user's CRITERION_HOME, `--design command`), never for libtest; a real
 * quick run's nameless line and saved median (tests/fixtures/harness/bencher/criterion-quick*); and
 * Criterion 0.3's refusal of the flag read as such.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { criterionEstimates, refineFromEstimates } from '../../src/harness/criterion-estimates.ts';
import { criterionQuick, quickRefused } from '../../src/harness/criterion-quick.ts';
import { parseHarness } from '../../src/harness/index.ts';
import { quickRun, trimmedRun } from '../../src/harness/select.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'harness', 'bencher');

describe("Criterion's quick mode for a run of one benchmark", () => {
  it('adds --quick at the end of the simple command that prints bencher lines', () => {
    expect(criterionQuick('./build/kernels --bench --output-format bencher {filter}')).toEqual({ command: './build/kernels --bench --output-format bencher {filter} --quick', added: '--quick' });
    expect(criterionQuick('cargo bench --bench k -- --output-format=bencher {filter} 2>/dev/null | tee out.txt')?.command).toBe('cargo bench --bench k -- --output-format=bencher {filter} --quick 2>/dev/null | tee out.txt');
    expect(criterionQuick('F={filter}; ./build/b --bench --output-format bencher "$F" && echo done')?.command).toBe('F={filter}; ./build/b --bench --output-format bencher "$F" --quick && echo done');
  });

  it('leaves a command that chose its own mode or a baseline, and one that prints no bencher lines', () => {
    for (const flag of ['--quick', '--profile-time 5', '--profile-time=5', '--list', '--test', '--baseline main', '--save-baseline=x', '--load-baseline x', '--discard-baseline']) {
      expect(criterionQuick(`./build/k --bench --output-format bencher ${flag} {filter}`), flag).toBeNull();
    }
    expect(criterionQuick('cargo bench --bench k -- {filter} --exact')).toBeNull();
    expect(criterionQuick('./build/k --bench --output-format json {filter}')).toBeNull();
  });

  it('only under --design auto, for the bencher format, and where the saved medians are read', () => {
    const run = './build/k --bench --output-format bencher {filter}';
    const trimmed = trimmedRun(run, 'bencher', 'auto');
    expect(quickRun(trimmed, run, 'bencher', undefined, {})?.command).toBe(`${run} --nresamples 1000 --quick`);
    expect(quickRun(trimmed, run, 'bencher', 'auto', {})?.command).toBe(`${run} --nresamples 1000 --quick`);
    expect(quickRun(run, run, 'bencher', 'command', {})).toBeNull();
    // the user's own CRITERION_HOME: the printed values are read, and a quick run's line has no name
    expect(quickRun(trimmed, run, 'bencher', 'auto', { CRITERION_HOME: '/tmp/mine' })).toBeNull();
    expect(quickRun(run, run, 'criterion', 'auto', {})).toBeNull();
    expect(quickRun(run, run, 'time', 'auto', {})).toBeNull();
    const withBaseline = `${run} --baseline main`;
    expect(quickRun(trimmedRun(withBaseline, 'bencher', 'auto'), withBaseline, 'bencher', 'auto', {})).toBeNull();
  });

  it("reads a real quick run: the nameless line as the selected benchmark's, its value the median it saved", () => {
    const text = readFileSync(join(FIXTURES, 'criterion-quick.txt'), 'utf8');
    expect(text.trim()).toMatch(/^bench:\s+72,041 ns\/iter/);
    const printed = parseHarness('bencher', text, { unnamed: 'kernels/checksum' });
    expect(printed.map((s) => [s.name, s.value])).toEqual([['kernels/checksum', 72041]]);
    const home = join(FIXTURES, 'criterion-quick');
    const files = new Map<string, string>();
    for (const name of readdirSync(home, { recursive: true, encoding: 'utf8' })) {
      const path = relative(home, join(home, name));
      if (criterionEstimates.wanted(path)) files.set(path, readFileSync(join(home, name), 'utf8'));
    }
    expect(refineFromEstimates(printed, files).map((s) => [s.name, s.value])).toEqual([['kernels/checksum', 72041.63720703125]]);
    // a median saved under another name is not this run's: the printed value stays
    expect(refineFromEstimates(parseHarness('bencher', text, { unnamed: 'kernels/sort_1000' }), files).map((s) => s.value)).toEqual([72041]);
  });

  it('a named line keeps its own name: unnamed only names a result printed without one', () => {
    const text = 'test kernels/sort ... bench:       6,218 ns/iter (+/- 9)\n';
    expect(parseHarness('bencher', text, { unnamed: 'kernels/checksum' }).map((s) => s.name)).toEqual(['kernels/sort']);
  });

  it("reads Criterion 0.3's refusal of the flag, and nothing else, as a refusal", () => {
    expect(quickRefused("error: Found argument '--quick' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    benchmarks-1a2b [FLAGS] [OPTIONS] [FILTER]")).toBe(true);
    expect(quickRefused("error: unexpected argument '--quick' found")).toBe(true);
    expect(quickRefused('thread main panicked at src/lib.rs:10: index out of bounds')).toBe(false);
    expect(quickRefused('error: Invalid filter: ^(x$')).toBe(false);
  });
});
