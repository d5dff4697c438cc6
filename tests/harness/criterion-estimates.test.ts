/**
 * Criterion's saved medians (src/harness/criterion-estimates.ts): a real run's bencher lines and the
 * files it saved under its CRITERION_HOME (tests/fixtures/harness/bencher/criterion-home*), and the
 * cases where the printed value stays: a file that is not the run's, a name saved twice, a file that
 * does not read, a sample that is not a time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { criterionEstimates, refineFromEstimates, savedMedians } from '../../src/harness/criterion-estimates.ts';
import { withoutZeroTimes } from '../../src/harness/common.ts';
import { parseHarness } from '../../src/harness/index.ts';
import type { Sample } from '../../src/harness/types.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'harness', 'bencher');
const HOME = join(FIXTURES, 'criterion-home');

/** The fixture folder's files that the reading wants, by relative path, as measure/run-files.ts reads them. */
function homeFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(HOME, { recursive: true, encoding: 'utf8' })) {
    const path = relative(HOME, join(HOME, name));
    if (criterionEstimates.wanted(path)) out.set(path, readFileSync(join(HOME, name), 'utf8'));
  }
  return out;
}

const printed = (): Sample[] => parseHarness('bencher', readFileSync(join(FIXTURES, 'criterion-home.txt'), 'utf8'));
const time = (name: string, value: number): Sample => ({ name, value, unit: 'ns', direction: 'lower-is-better' });
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
const saved = (title: string, median: unknown) => ({ [`${title}/new/benchmark.json`]: JSON.stringify({ title }), [`${title}/new/estimates.json`]: JSON.stringify({ median: { point_estimate: median } }) });

describe("Criterion's saved medians", () => {
  it('replace the whole nanoseconds of a real run with the medians it saved', () => {
    const before = printed();
    expect(before.map((s) => [s.name, s.value])).toEqual([
      ['kernels/checksum', 73636],
      ['kernels/sort_1000', 6218],
    ]);
    const after = refineFromEstimates(before, homeFiles());
    expect(after.map((s) => [s.name, s.value])).toEqual([
      ['kernels/checksum', 73636.68399758454],
      ['kernels/sort_1000', 6218.366625207297],
    ]);
    expect(after.every((s) => s.unit === 'ns' && s.direction === 'lower-is-better')).toBe(true);
  });

  it('want only the two files of each benchmark\'s last run', () => {
    expect([...homeFiles().keys()].sort()).toEqual(['kernels/checksum/new/benchmark.json', 'kernels/checksum/new/estimates.json', 'kernels/sort_1000/new/benchmark.json', 'kernels/sort_1000/new/estimates.json']);
    for (const other of ['kernels/checksum/base/estimates.json', 'kernels/checksum/new/sample.json', 'kernels/checksum/new/tukey.json', 'report/index.html']) expect(criterionEstimates.wanted(other)).toBe(false);
  });

  it('leave a printed value that the saved median does not cut to: a file that is not this run\'s', () => {
    const out = refineFromEstimates([time('a', 45), time('b', 45)], files({ ...saved('a', 45.62), ...saved('b', 46.1) }));
    expect(out.map((s) => s.value)).toEqual([45.62, 45]);
  });

  it('leave a name saved in two folders, an unreadable file, a median that is not a positive number, and a missing estimate', () => {
    const twice = { 'x/new/benchmark.json': JSON.stringify({ title: 'a' }), 'x/new/estimates.json': JSON.stringify({ median: { point_estimate: 45.2 } }), ...saved('a', 45.7) };
    expect(savedMedians(files(twice)).has('a')).toBe(false);
    expect(refineFromEstimates([time('a', 45)], files(twice))[0]!.value).toBe(45);
    const broken = { 'b/new/benchmark.json': '{"title":"b"', 'b/new/estimates.json': JSON.stringify({ median: { point_estimate: 45.2 } }), ...saved('c', -1), ...saved('d', 'x'), 'e/new/benchmark.json': JSON.stringify({ title: 'e' }) };
    expect(savedMedians(files(broken)).size).toBe(0);
  });

  it('leave what is not a time of its own: another unit, repetitions, a throughput computed from the time', () => {
    const f = files({ ...saved('a', 45.5), ...saved('b', 45.5), ...saved('c', 45.5) });
    const samples: Sample[] = [{ ...time('a', 45), unit: 'B/s', direction: 'higher-is-better' }, { ...time('b', 45), repetitions: [45, 46] }, { ...time('c', 45), reciprocalOf: 'x' }];
    expect(refineFromEstimates(samples, f)).toEqual(samples);
  });

  it('replace a median under 1 ns, which the bencher line prints as 0 ns, where the run is parsed to keep it; a time still 0 is left out', () => {
    const text = 'test r/standard ... bench:           0 ns/iter (+/- 0)\ntest r/const ... bench:           2 ns/iter (+/- 0)\ntest r/none ... bench:           0 ns/iter (+/- 0)\n';
    // as printed, a time of 0 is left out
    expect(parseHarness('bencher', text).map((s) => s.name)).toEqual(['r/const']);
    const kept = parseHarness('bencher', text, { keepZeroTimes: true });
    expect(kept.map((s) => [s.name, s.value])).toEqual([['r/standard', 0], ['r/const', 2], ['r/none', 0]]);
    const refined = withoutZeroTimes('bencher', refineFromEstimates(kept, files({ ...saved('r/standard', 0.987), ...saved('r/const', 2.141) })));
    expect(refined.map((s) => [s.name, s.value])).toEqual([['r/standard', 0.987], ['r/const', 2.141]]);
    // every value still 0 once the files said what they could: the error a printed run gets
    const zeros = parseHarness('bencher', 'test r/none ... bench:           0 ns/iter (+/- 0)\n', { keepZeroTimes: true });
    expect(() => parseHarness('bencher', 'test r/none ... bench:           0 ns/iter (+/- 0)\n')).toThrow(/every benchmark value is 0/);
    expect(() => withoutZeroTimes('bencher', refineFromEstimates(zeros, files({})))).toThrow(/every benchmark value is 0/);
  });

  it("apply to a Criterion run's bencher output, and not where it names a baseline", () => {
    expect(criterionEstimates.variable).toBe('CRITERION_HOME');
    expect(criterionEstimates.applies('./build/kernels --bench --output-format bencher')).toBe(true);
    expect(criterionEstimates.applies('cargo bench --bench k -- --output-format=bencher --nresamples 1000 | tee out.txt')).toBe(true);
    expect(criterionEstimates.applies('cargo +nightly bench')).toBe(false);
    for (const flag of ['--baseline main', '--load-baseline main', '--save-baseline main', '--discard-baseline', '--baseline=main']) {
      expect(criterionEstimates.applies(`cargo bench -- --output-format bencher ${flag}`), flag).toBe(false);
    }
  });
});
