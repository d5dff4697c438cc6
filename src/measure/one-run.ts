/**
 * One run: the user's command through a shell (or split into words and executed directly, with
 * `--shell none`: argv.ts), in a revision's directory, with its figures.
 *
 * The command runs in a process group of its own, so that a timeout, a cancel or the end of the
 * run kills the whole tree (background children included), never just the shell; with the run
 * helper on Linux, also what left the group (S10).
 *
 * This is the measuring loop's hot path. With the run helper (helper.ts), runs go to a helper
 * process started once and kept (run-served.ts); without it, runs are spawned and timed by Node
 * (run-spawned.ts). Either way the output comes back redacted (output.ts).
 */
import { commandArgv } from './argv.ts';
import { measuringTimer } from './helper.ts';
import { countsInside, wrapForCounting } from './instructions.ts';
import type { RunRequest } from './request.ts';
import { cancelledResult, skippedResult, type RunResult } from './result.ts';
import { runServed } from './run-served.ts';
import { runSpawned } from './run-spawned.ts';

export type { RunRequest } from './request.ts';
export type { RunResult } from './result.ts';

export async function runCommand(req: RunRequest): Promise<RunResult> {
  return (await runCommands([req]))[0]!;
}

/**
 * Runs one command after the other and returns their results in order. With the run helper the
 * runs go in one request, so they follow each other with no round trip through Node in between
 * (the two runs of a pair); after a run with `stopOnFailure` that fails, the rest are `skipped`.
 * Instruction counting wraps a run in perf or valgrind and reads a file after it: such runs go
 * one by one.
 */
export async function runCommands(reqs: readonly RunRequest[]): Promise<RunResult[]> {
  const timer = await measuringTimer();
  const helper = timer.kind === 'helper' ? timer.path : null;
  // bound to CPUs (`--cpus`), the command runs under taskset, which execs it: its children inherit the binding
  const argvOf = (r: RunRequest): string[] => (r.cpus ? ['taskset', '-c', r.cpus, ...commandArgv(r.command, r.shell)] : commandArgv(r.command, r.shell));
  if (helper && reqs.length > 0 && reqs.every((r) => !r.countInstructions)) {
    return runServed(
      helper,
      reqs.map((r) => ({ req: r, argv: argvOf(r) })),
    );
  }
  const out: RunResult[] = [];
  let skipping = false;
  for (const req of reqs) {
    if (skipping) {
      out.push(skippedResult());
      continue;
    }
    // Cancelled before it started: it never starts (as with the helper, which is killed first).
    if (req.signal?.aborted) {
      out.push(cancelledResult());
      continue;
    }
    const inside = req.countInside && (req.shell ?? 'sh') === 'sh' && countsInside(req.command) ? { command: req.command, argvOf: (command: string) => argvOf({ ...req, command }) } : undefined;
    const counting = req.countInstructions ? wrapForCounting(req.countInstructions, argvOf(req), inside) : null;
    const argv = counting ? counting.argv : argvOf(req);
    const result = helper ? (await runServed(helper, [{ req, argv }]))[0]! : await runSpawned(argv, req);
    if (counting) result.instructions = counting.read();
    out.push(result);
    if (req.stopOnFailure && result.outcome !== 'ok') skipping = true;
  }
  return out;
}
