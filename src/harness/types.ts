/**
 * A harness parser turns the text a benchmark suite printed into samples: one value per
 * benchmark (and per metric) for that run. Text in, samples out; no I/O.
 */
import type { Direction } from '../stats/types.ts';
import type { HarnessFormat } from './registry.ts';

/** The `--format` names of the harnesses: one per harness of the registry (registry.ts). */
export type { HarnessFormat };

/**
 * One measured value of one benchmark in one run of the suite.
 * Units are normalised: times in `ns`, memory in `B`, throughput in `ops/s` (or `B/s`);
 * other counters keep the harness's own unit (for example `allocs/op`).
 */
export interface Sample {
  name: string;
  value: number;
  unit: string;
  direction: Direction;
  /**
   * when the run printed the benchmark several times (Go's `-test.count`, Google Benchmark's
   * repetitions): every value, in the order printed; `value` is their median (their minimum for
   * a Go time or allocation count: `combine`), or that of those after a design's warm-up
   * (measure/samples.ts, `afterWarmup`). The design of the runs reads the spread inside a process
   * from them (schedule/choose-design.ts).
   */
  repetitions?: number[];
  /**
   * how a run's repetitions make its value: `min` for a Go time and allocation count per operation
   * (`ns/op`, `B/op`, `allocs/op`), `max` for the throughput Go computes from that time (`MB/s`,
   * the same repetition's), the median otherwise (absent). What disturbs a repetition of a Go
   * benchmark only ever adds: to its time, another process or a collector's worker taking a core
   * for a while (a `b.RunParallel` benchmark keeps every core busy, so any other work on the machine
   * slows it); to its allocations, what the runtime allocates around the loop (a pool refilled
   * after a collection). The smallest repetition is then the one nearest the operation's own cost
   * (Chen & Revels 2016, "Robust benchmarking in noisy environments", arXiv:1608.04295: with
   * noise that only adds, the minimum is the robust estimator; compared with the median on recorded
   * processes in docs/measuring.md, "How runs are designed"). Where the level of a whole process differs (its heap, its code's layout), neither helps: that
   * part of a pair's spread is the same for both.
   */
  combine?: 'min' | 'max';
  /**
   * the name of the sample whose reciprocal, times a constant of the benchmark, this one is in
   * every run: a throughput the harness computes from the time it prints beside it (Go's `MB/s`
   * from `b.SetBytes` and `ns/op`, libtest's `MB/s`, criterion's throughput). Such a row tests the
   * same hypothesis as its time, so it is judged from it (stats/judge.ts, `reciprocalRows`).
   */
  reciprocalOf?: string;
  /**
   * how many of `value` make one iteration as pairbench sizes a run (harness.ts, `Sizing.iterations`)
   * where the harness divides its time further: pyperf's inner loops (`bench_func(..., inner_loops=N)`,
   * `pyperf timeit --duplicate N`), whose value is per inner loop while `--loops` counts outer ones.
   * Absent: one.
   */
  iterationScale?: number;
}

/** Malformed harness output: names the format, the line (1-based, when known) and what was expected. */
export class HarnessParseError extends Error {
  readonly format: HarnessFormat;
  readonly line: number | null;
  constructor(format: HarnessFormat, line: number | null, detail: string) {
    super(`${format} output${line === null ? '' : ` line ${line}`}: ${detail}`);
    this.name = 'HarnessParseError';
    this.format = format;
    this.line = line;
  }
}

export type HarnessParser = (text: string) => Sample[];
