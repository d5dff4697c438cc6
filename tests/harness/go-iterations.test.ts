/**
 * Fixed iteration counts for Go (harness/go-iterations.ts): reading the command's -test.benchtime
 * as Go's flag package does, and the count that fills it.
 */
import { describe, expect, it } from 'vitest';
import { commandBenchtime, iterationsFor, MAX_ITERATIONS, parseGoDuration } from '../../src/harness/go-iterations.ts';

describe('Go durations (time.ParseDuration)', () => {
  it('reads single and compound durations in every unit', () => {
    expect(parseGoDuration('100ms')).toBe(100e6);
    expect(parseGoDuration('1.5s')).toBe(1.5e9);
    expect(parseGoDuration('1m30s')).toBe(90e9);
    expect(parseGoDuration('250us')).toBe(250e3);
    expect(parseGoDuration('250µs')).toBe(250e3);
    expect(parseGoDuration('2h')).toBe(7200e9);
  });
  it('refuses what is not a duration', () => {
    for (const text of ['', '100', 'ms', '100x', '1s-', '$T', '1 s']) expect(parseGoDuration(text), text).toBeNull();
  });
});

describe("the command's -test.benchtime", () => {
  it('takes the last one, in either spelling, and Go\'s default 1s when none', () => {
    expect(commandBenchtime('./bench.test -test.run "^$"')).toEqual({ ns: 1e9 });
    expect(commandBenchtime('./bench.test -test.benchtime 100ms')).toEqual({ ns: 100e6 });
    expect(commandBenchtime('./bench.test -test.benchtime=2s -test.benchtime 300ms')).toEqual({ ns: 300e6 });
    expect(commandBenchtime("go test -bench . -benchtime='500ms'")).toEqual({ ns: 500e6 });
    expect(commandBenchtime('go test -bench . --benchtime=1m')).toEqual({ ns: 60e9 });
  });
  it('a fixed count is a count; what cannot be read is null', () => {
    expect(commandBenchtime('./bench.test -test.benchtime 5000x')).toEqual({ count: 5000 });
    expect(commandBenchtime('./bench.test -test.benchtime "$BT"')).toBeNull();
  });
});

describe('the iteration count', () => {
  it('fills the benchtime at the measured ns/op, at least 1 and at most MAX_ITERATIONS', () => {
    expect(iterationsFor(100e6, 1000)).toBe(100000);
    expect(iterationsFor(100e6, 3e6)).toBe(34);
    expect(iterationsFor(100e6, 2e8)).toBe(1);
    expect(iterationsFor(3600e9, 0.5)).toBe(MAX_ITERATIONS);
    expect(iterationsFor(100e6, 0)).toBe(1);
    expect(iterationsFor(100e6, Number.NaN)).toBe(1);
  });
});
