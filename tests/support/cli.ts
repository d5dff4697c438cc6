/**
 * Runs the real CLI, on the pinned Node 24, as a separate process: the bundle of the sources that
 * tests/support/global-setup.ts makes once per test run (the package's `bin`, as users run it).
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { parseResults, readResultsFile } from '../../src/results/read.ts';
import type { Results } from '../../src/results/schema.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The CLI (the bundle's cli.js, whose entry is src/bin.ts) and the action (index.js, from src/action.ts). */
export const CLI = join(inject('bundle'), 'cli.js');
export const ACTION = join(inject('bundle'), 'index.js');
/**
 * The environment every spawned CLI gets beside the test's own: Node's compile cache in the bundle's
 * folder (NODE_COMPILE_CACHE), so that the hundreds of runs of the CLI in one test run compile its
 * modules once instead of each time (0.10 s of CPU a start against 0.14 s on the project's machine).
 */
export const CLI_ENV: Readonly<Record<string, string>> = { NODE_COMPILE_CACHE: join(inject('bundle'), 'compile-cache') };

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `timeoutMs`: how long the process may take before it is killed (status null), 540 s unless told:
 * within the tests' own limit (vitest.config.ts), so that a hung run shows its output.
 * `core`: the CPU the CLI and every process it starts are bound to (`taskset -c`), as the
 * example tests measure (tests/support/examples.ts, `ownCore`).
 */
export function pairbench(args: string[], opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; core?: number | null; nice?: number } = {}): CliRun {
  const bound = cliCommand(args, opts.core ?? null);
  // a run whose verdicts do not rest on its timings (instruction counts) yields its core to the
  // examples measuring time on it: `nice` lowers its share when both want the core
  const command = opts.nice === undefined ? bound : ['nice', '-n', String(opts.nice), ...bound];
  const res = spawnSync(command[0]!, command.slice(1), {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...CLI_ENV, NO_COLOR: '1', ...opts.env },
    timeout: opts.timeoutMs ?? 540_000,
    killSignal: 'SIGKILL',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** The command line that runs the CLI with `args`, bound to `core` (`taskset`) unless it is null. */
export function cliCommand(args: string[], core: number | null): string[] {
  const command = [process.execPath, CLI, ...args];
  return core === null ? command : ['taskset', '--cpu-list', String(core), ...command];
}

/** A results file pairbench wrote (of either version), read by pairbench's own reader into the model the code works on. */
export function readResults(path: string): Results {
  return readResultsFile(path);
}

/** A results file pairbench printed (`--json`), read as `readResults` reads a file. */
export function resultsOf(text: string): Results {
  return parseResults(text, 'the printed results');
}
