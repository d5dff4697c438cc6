/** What one run gives back: its figures, its outcome, its (redacted) output. */

export interface RunFigures {
  /** wall time, milliseconds */
  wallMs: number;
  /** user + system CPU time of the process tree, milliseconds; null without the run helper */
  cpuMs: number | null;
  /** peak resident memory of the largest process of the tree, bytes; null without the run helper */
  maxRssBytes: number | null;
  /** instructions retired in user space, when counted (`--metric instructions`) */
  instructions?: number | null;
}

export interface RunResult extends RunFigures {
  /** `skipped`: in `runCommands`, not run because an earlier run with `stopOnFailure` failed */
  outcome: 'ok' | 'exit' | 'timeout' | 'signal' | 'cancelled' | 'spawn' | 'skipped';
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  /** the last OUTPUT_TAIL bytes of stderr (and of stdout when not captured), for failure reports */
  outputTail: string;
}

export function skippedResult(): RunResult {
  return { outcome: 'skipped', exitCode: null, signal: null, wallMs: NaN, cpuMs: null, maxRssBytes: null, stdout: '', outputTail: '' };
}

/** A run not started because the comparison was cancelled before it. */
export function cancelledResult(): RunResult {
  return { outcome: 'cancelled', exitCode: null, signal: null, wallMs: NaN, cpuMs: null, maxRssBytes: null, stdout: '', outputTail: '' };
}

/** How a run ended, from its exit status, in order: could not start, cancelled, timed out, killed by a signal, exit code. */
export function outcomeOf(
  base: RunFigures & { stdout: string; outputTail: string },
  s: { exitCode: number | null; signal: string | null; cancelled: boolean; timedOut: boolean; error?: string },
): RunResult {
  if (s.error !== undefined) return { ...base, outcome: 'spawn', exitCode: null, signal: null, outputTail: `${s.error}\n${base.outputTail}` };
  if (s.cancelled) return { ...base, outcome: 'cancelled', exitCode: s.exitCode, signal: s.signal };
  if (s.timedOut) return { ...base, outcome: 'timeout', exitCode: s.exitCode, signal: s.signal };
  if (s.signal) return { ...base, outcome: 'signal', exitCode: s.exitCode, signal: s.signal };
  if (s.exitCode !== 0) return { ...base, outcome: 'exit', exitCode: s.exitCode, signal: null };
  return { ...base, outcome: 'ok', exitCode: 0, signal: null };
}
