/**
 * A vitest bench run's workers without V8's background threads (`--design auto`; the `vitest`
 * format).
 *
 * V8 compiles optimised code and collects garbage on threads beside the one running the code
 * (its concurrent compiler and its parallel and concurrent collectors), and `--single-threaded`
 * turns them off: each is then done on the main thread, at the point the code asks for it (V8's
 * flag definitions, `single_threaded`: "disable the use of background tasks",
 * https://github.com/v8/v8/blob/main/src/flags/flag-definitions.h). On a small shared runner, when
 * a background compile finishes, and whether the collector's helpers get a core, depends on
 * what else runs at that moment, so a process's iterations settle on faster or slower code from
 * one process to the next: a JavaScript benchmark's noise is mostly between processes (the
 * between-process level of Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time",
 * ISMM), which pairing cancels little of. Single-threaded, that level shrinks: docs/measuring.md,
 * "vitest", gives the measured effect. The values are those of single-threaded V8, on both sides
 * alike: a benchmark that relies on the collector's helper threads or a background compile is
 * measured without them (`--design command` runs the command as written).
 *
 * vitest passes `--execArgv` to the processes it forks for its test files; a worker thread refuses
 * a V8 flag (`ERR_WORKER_INVALID_EXEC_ARGV`), so the run also gets `--pool=forks`, vitest's
 * default pool, which overrides a config's `threads` or `vmThreads`. A command that chooses
 * another pool on its command line, or already asks for `--single-threaded`, is left as written,
 * and so is one that does not run `vitest bench` itself (`npm run bench`, whose arguments npm
 * would read). The flags end the simple command that holds `vitest bench`.
 */
import type { RunTrim } from './harness.ts';
import { appendToSimpleCommand } from './simple-command.ts';

/** V8's flag for a process without background threads. */
export const V8_SINGLE_THREADED = '--single-threaded';

const VITEST_BENCH = /(?:^|[\s/])vitest\s+bench(?=\s|$|[|&;<>)])/;
const SETS_POOL = /(?:^|\s)--pool(?:=|\s+)['"]?([\w-]+)/;

/** `command` with vitest's workers single-threaded, and the flags added; null when it is left as written. */
export function vitestTrim(command: string): RunTrim | null {
  const at = VITEST_BENCH.exec(command);
  if (at === null || command.includes(V8_SINGLE_THREADED)) return null;
  const pool = SETS_POOL.exec(command)?.[1];
  if (pool !== undefined && pool !== 'forks') return null;
  const added = `${pool === undefined ? '--pool=forks ' : ''}--execArgv=${V8_SINGLE_THREADED}`;
  return {
    command: appendToSimpleCommand(command, at.index + at[0].length, ` ${added}`),
    added,
    why: "for V8 without its background threads in the benchmark's process (it compiles and collects garbage on the code's own thread), which keeps runs steadier from one process to the next; the values are those of single-threaded V8, on both sides",
  };
}
