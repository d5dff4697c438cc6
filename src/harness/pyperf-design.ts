/**
 * How pairbench sizes the runs of a pyperf benchmark paired on its own (`--design auto`;
 * schedule/choose-design.ts chooses the design, harness.ts says what a `RunDesign` is).
 *
 * pyperf's own design is many worker processes (20 by default), each calibrating its loop count
 * and then timing a warm-up and three values (pyperf's documentation, "Runner CLI" and "Analyze
 * benchmark results": https://pyperf.readthedocs.io/en/latest/runner.html). pairbench already
 * spreads a benchmark over many processes, its pairs, so a designed run is one worker process
 * (`--worker`: "Worker process, run the benchmark", no manager and no worker of its own), with a
 * loop count pairbench fixes from the listing run, the same on both sides of every pair
 * (`--loops N`, no calibration), and as many values as the design's repetitions, its warm-up among
 * them (`--warmups 0 --values K`: pyperf's own warm-ups are left out of the JSON's values, while a
 * design's warm-up is left out by pairbench, which still sees it: measure/samples.ts,
 * `afterWarmup`). A run then costs one interpreter's start and the design's repetitions, where
 * `--processes 1` alone costs two starts, a calibration and pyperf's warm-up and three values of
 * 100 ms each.
 *
 * The listing run times one value of about PILOT_LENGTH_MS after one warm-up, in one worker whose
 * loops pyperf calibrates (`--processes 1 --values 1 --warmups 1 --min-time`).
 *
 * Python's argparse, which pyperf reads its flags with, takes the last of a flag: the flags end the
 * simple command that holds the `{benchmark}` placeholder (`flagsAt: 'selection'`), before what the
 * shell does next (`>&2 && cat build/bench.json`). A command without a placeholder, or one whose
 * options would override the sizing (`--fast` sets the values itself; `--debug-single-value` one
 * loop of one value), is not sized: it runs as the command says.
 */
import type { RunDesign, Selection, Sizing } from './harness.ts';

/** pyperf's default `--min-time`, the least length of a value, ms. */
const DEFAULT_MIN_TIME_MS = 100;

const PLACEHOLDER = /\{(?:benchmark|filter)\}/;
/** pyperf options that set the values, warm-ups or loops themselves, whatever `--values` or `--loops` say. */
const OVERRIDES_SIZING = /(?:^|\s)--(?:fast|debug-single-value)(?=\s|$)/;

/**
 * `--worker --loops N --warmups 0 --values K` (K the design's repetitions and its warm-up) for a
 * designed run; `--processes 1 --values 1 --warmups 1 --min-time T` for the listing run.
 */
function sizingFlags(command: string, sizing: Sizing): Selection | null {
  if (!PLACEHOLDER.test(command) || OVERRIDES_SIZING.test(command)) return null;
  if (sizing.iterations !== undefined) {
    return {
      command: ' --worker --loops "$PAIRBENCH_LOOPS" --warmups 0 --values "$PAIRBENCH_VALUES"',
      env: { PAIRBENCH_LOOPS: String(sizing.iterations), PAIRBENCH_VALUES: String((sizing.repetitions ?? 1) + (sizing.warmup ?? 0)) },
    };
  }
  if (sizing.minTimeMs !== undefined) {
    return { command: ' --processes 1 --values 1 --warmups 1 --min-time "$PAIRBENCH_MIN_TIME"', env: { PAIRBENCH_MIN_TIME: String(Number((sizing.minTimeMs / 1000).toPrecision(6))) } };
  }
  return { command: '', env: {} };
}

/** The command's own length of a value: its `--min-time` (seconds), else pyperf's default 100 ms. */
function commandLengthMs(command: string): number {
  const m = /--min-time(?:=|\s+)['"]?(\d+(?:\.\d*)?|\.\d+)['"]?(?=\s|$)/.exec(command);
  return m ? Number(m[1]) * 1000 : DEFAULT_MIN_TIME_MS;
}

export const pyperfDesign: RunDesign = {
  sizingFlags,
  flagsAt: 'selection',
  commandLengthMs,
  // pairbench's pyperf value is the median of a run's values (pyperf.ts)
  summary: 'median',
  lengthBy: 'iterations',
  // a worker runs only its values' loops (no calibration: --loops is given)
  iterationsBeforeRepetition: 0,
  // pyperf's own default: one warm-up value per worker, which the design weighs against none
  pilotWarmup: 1,
  coldStart: null,
  fixedIterations: null,
};
