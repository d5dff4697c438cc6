/**
 * Runs timed in Node, without the run helper (no C compiler, a cache folder that cannot run
 * programs, or `PAIRBENCH_NO_HELPER=1`): `child_process.spawn` of the shell in a new session (its
 * own process group), wall time from Node's clock around spawn and exit; no CPU time or memory.
 *
 * What differs from the helper, and is said in SECURITY.md (S10): Node cannot make itself a child
 * subreaper, so at the end of a run only the run's process group is killed; a process that left
 * it (setsid, a daemon) is not found.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { Output } from './output.ts';
import { killGroup } from './process-group.ts';
import { outcomeOf, type RunFigures, type RunResult } from './result.ts';
import type { RunRequest } from './request.ts';

/** Says why a directory cannot be entered, in the words of the run helper (`cannot enter <dir>: ...`), or null. */
function cannotEnter(cwd: string): string | null {
  if (!existsSync(cwd)) return `pairbench: cannot enter ${cwd}: No such file or directory`;
  if (!statSync(cwd).isDirectory()) return `pairbench: cannot enter ${cwd}: Not a directory`;
  return null;
}

export async function runSpawned(argv: readonly string[], req: RunRequest): Promise<RunResult> {
  const started = process.hrtime.bigint();
  const sub = spawn(argv[0]!, argv.slice(1), { cwd: req.cwd, env: req.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = sub.pid;
  const output = new Output(req.captureStdout);
  sub.stdout?.on('data', (c: Buffer) => output.out(c));
  sub.stderr?.on('data', (c: Buffer) => output.err(c));
  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(pid, true);
  }, req.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    killGroup(pid, true);
  };
  req.signal?.addEventListener('abort', onAbort, { once: true });
  if (req.signal?.aborted) onAbort();

  // The run is over when the shell exits; anything it left in its group is killed so that no
  // background process outlives its run or holds its pipes open.
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    sub.once('exit', (code, signal) => resolve({ code, signal }));
    sub.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  const ended = process.hrtime.bigint();
  clearTimeout(timer);
  req.signal?.removeEventListener('abort', onAbort);
  killGroup(pid, false);
  await drained([sub.stdout, sub.stderr]);
  const figures: RunFigures = { wallMs: Number(ended - started) / 1e6, cpuMs: null, maxRssBytes: null };
  if (exit.error) {
    // A directory that cannot be entered fails the run as it does under the helper: exit 127, named.
    const why = cannotEnter(req.cwd);
    if (why) {
      output.err(Buffer.from(`${why}\n`));
      return outcomeOf({ ...figures, ...output.result() }, { exitCode: 127, signal: null, cancelled, timedOut });
    }
  }
  return outcomeOf(
    { ...figures, ...output.result() },
    { exitCode: exit.code, signal: exit.signal, cancelled, timedOut, ...(exit.error ? { error: exit.error.message } : {}) },
  );
}

/** Waits until the pipes are closed (all output read), at most 2 s: a process that left the group may hold them. */
function drained(streams: (NodeJS.ReadableStream | null | undefined)[]): Promise<void> {
  const open = streams.filter((s): s is NodeJS.ReadableStream & { destroy(): void; closed?: boolean } => !!s && !(s as { closed?: boolean }).closed);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = open.length;
    const timer = setTimeout(() => {
      for (const s of open) s.destroy();
      resolve();
    }, 2000);
    for (const s of open) {
      s.once('close', () => {
        if (--left === 0) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  });
}
