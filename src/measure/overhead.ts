/**
 * Calibrating pairbench's own overhead per run: the fork of `/bin/sh -c` and the shell's start
 * (about 1–2 ms), which every `--format time` run includes. A constant c added to both sides does
 * not cancel in a ratio: (h + c) / (b + c) is closer to 1 than h / b, so a change of +5% on a
 * 10 ms program would read about +4.3%. As hyperfine does (its shell spawning time), the empty
 * command `sh -c ''` is timed through the same path as the runs (same spawn, directory and
 * environment), and its median is subtracted when the pairs are judged (stats/overhead-estimate.ts).
 *
 * Unlike hyperfine's one calibration before the benchmarks, one calibration run follows every
 * pair in the same request to the run helper, so the calibration shares the machine's moment
 * with the pairs it corrects (a loaded machine slows the shell's start too). With `--shell none`
 * there is no shell to subtract: as under hyperfine's `-N`, nothing is calibrated.
 */
import type { BenchmarkSpec } from '../config/spec.ts';
import type { Metric } from '../config/options.ts';
import { overheadEstimate } from '../stats/overhead-estimate.ts';
import type { RunRequest, RunResult } from './one-run.ts';

/** The samples of one benchmark's calibration runs, per metric that is corrected. */
export interface Calibration {
  wall: number[];
  cpu: number[];
}

/** How the recorded overhead was measured, in the results file. */
const CALIBRATION_METHOD = "median of `sh -c ''` runs, one after each pair, subtracted from both sides of every pair";

/** The metrics whose samples carry the shell's cost: wall time and CPU time (not peak memory, not instructions, which are counted separately). */
export function calibratedMetric(metric: Metric | string | undefined): metric is 'wall' | 'cpu' {
  return metric === 'wall' || metric === 'cpu';
}

/** Whether a benchmark's pairs get a calibration run: its command is timed through a shell, in a wall or cpu metric. */
export function calibrates(bench: BenchmarkSpec): boolean {
  return bench.format === 'time' && (bench.shell ?? 'sh') === 'sh' && bench.metrics.some(calibratedMetric);
}

/** The empty command, run as a benchmark's run is (same directory, environment and timeout). */
export function calibrationRequest(like: RunRequest): RunRequest {
  return {
    command: '',
    cwd: like.cwd,
    env: like.env,
    timeoutMs: like.timeoutMs,
    captureStdout: false,
    shell: 'sh',
    // bound as the runs are (`--cpus`): taskset's exec is then part of the overhead subtracted
    ...(like.cpus ? { cpus: like.cpus } : {}),
    ...(like.signal ? { signal: like.signal } : {}),
  };
}

/** Adds one calibration run's figures (a failed or skipped one is left out). */
export function addCalibration(into: Calibration, run: RunResult): void {
  if (run.outcome !== 'ok' || !(run.wallMs > 0)) return;
  into.wall.push(run.wallMs);
  if (run.cpuMs !== null && run.cpuMs >= 0) into.cpu.push(run.cpuMs);
}

/** A row's overhead as the results file keeps it: the estimate, how it was made, and the raw samples it was made from. */
export function overheadRecord(samples: readonly number[]): { ms: number; n: number; method: string; samples: number[] } {
  // rounded like the helper's figures: the file stays readable, the estimate is unchanged to a nanosecond
  const raw = samples.map((v) => Math.round(v * 1e6) / 1e6);
  return { ms: overheadEstimate({ samples: raw }), n: raw.length, method: CALIBRATION_METHOD, samples: raw };
}
