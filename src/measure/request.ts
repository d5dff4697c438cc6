/**
 * What one run is asked to do. Its own module, so that the two ways of running it (run-served.ts,
 * run-spawned.ts) read it without importing one-run.ts, which chooses between them.
 */
import type { ShellMode } from '../config/command.ts';
import type { InstructionCounter } from './instructions.ts';

export interface RunRequest {
  command: string;
  /** `sh` (default): `/bin/sh -c command`; `none`: the command's words, executed directly */
  shell?: ShellMode;
  /** `--cpus`: run under `taskset -c <cpus>`, bound to these CPUs (a checked cpuset list) */
  cpus?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** keep stdout (harness formats parse it); otherwise it is drained and dropped */
  captureStdout: boolean;
  /** aborts the run: the tree is killed and the result says `cancelled` */
  signal?: AbortSignal;
  /** count the instructions of the run with this counter */
  countInstructions?: InstructionCounter;
  /** the counter may run inside the shell, before the command (a simple command: measure/instructions.ts, `countsInside`) */
  countInside?: boolean;
  /** in `runCommands`: if this run fails, the runs after it are skipped */
  stopOnFailure?: boolean;
}
