/**
 * The hidden debug mode of `pairbench compare` and `pairbench noise`: with
 * `PAIRBENCH_DEBUG_RUNNER=<script.json>` in the environment, the whole real command runs (spec,
 * revisions, schedule, stopping, judging, results file, reports) with the scripted runner and
 * clock of schedule/scripted-runner.ts instead of forked processes and real time, so that tests
 * assert the exact text it prints and its exit status (hyperfine's `--debug-mode` does the same
 * behind its real command line).
 *
 * An environment variable rather than a hidden flag: the flags are the contract (product.md),
 * listed in --help, read from config files and action inputs, and a flag not listed would be one a
 * user could find and pass by mistake. A variable with this long name is set by nobody by chance,
 * leaves the option parser and --help untouched, and matches pairbench's other switches for its
 * own development (PAIRBENCH_DEBUG, PAIRBENCH_NO_HELPER). When it is set, a warning says so first,
 * and the results file records the timer as `scripted`: such a run is never taken for a
 * measurement. A script that cannot be read or is not valid is a usage error (exit 2).
 */
import type { Spec } from '../config/spec.ts';
import type { EngineHooks } from '../engine.ts';
import type { CpuHost } from '../config/cpus.ts';
import { DEBUG_RUNNER_VARIABLE, SCRIPTED_HOST, readRunnerScript, scriptedRunner } from '../schedule/scripted-runner.ts';
import type { Io } from './io.ts';

export type DebugHooks = Required<Pick<EngineHooks, 'runner' | 'clock' | 'timer' | 'counter' | 'cpuLoad'>>;

/** The machine a comparison's `--cpus` and `--pair-runs` are chosen against: the scripted runner's when PAIRBENCH_DEBUG_RUNNER is set, else none given (this one). */
export function debugHost(env: Io['env']): { host?: CpuHost } {
  const path = env[DEBUG_RUNNER_VARIABLE];
  return path === undefined || path === '' ? {} : { host: SCRIPTED_HOST };
}

/** The scripted hooks when PAIRBENCH_DEBUG_RUNNER is set (warning on stderr that it is), else null. */
export function debugHooks(io: Io, spec: Spec, kind: 'compare' | 'noise'): DebugHooks | null {
  const path = io.env[DEBUG_RUNNER_VARIABLE];
  if (path === undefined || path === '') return null;
  const script = readRunnerScript(path, spec.cwd);
  const scripted = scriptedRunner(spec, script, {
    path,
    aa: kind === 'noise',
    // as a user's Ctrl-C: the command line's own handler (cli/run-comparison.ts) stops the comparison
    interrupt: () => process.kill(process.pid, 'SIGINT'),
  });
  io.stderr.write(`warning: ${DEBUG_RUNNER_VARIABLE} is set: no command is run, every run is answered from ${path}\n`);
  return scripted;
}
