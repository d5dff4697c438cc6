/** The CLI as a live process, for tests that signal or kill it mid-run. */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI, CLI_ENV, readResults } from './cli.ts';

export interface LiveRun {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export function startCli(args: string[], cwd: string): LiveRun {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...CLI_ENV, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, stderr: () => err };
}

/** Pairs in a results file being written, or -1 while it is absent. Every read must parse. */
export function pairsSoFar(file: string): number {
  if (!existsSync(file)) return -1;
  const doc = readResults(file) as { benchmarks: { pairs: unknown[] }[] };
  return doc.benchmarks.reduce((s, b) => s + b.pairs.length, 0);
}

export async function waitFor(cond: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Processes whose command line contains `marker` (the bracket keeps pgrep from finding itself). */
export function processesWith(marker: string): string {
  return execFileSync('sh', ['-c', `pgrep -f "[${marker[0]}]${marker.slice(1)}" || true`], { encoding: 'utf8' }).trim();
}

/**
 * Waits until no process's command line contains `marker`, and fails after `limitMs`. A process
 * sent SIGKILL is gone only once the kernel has run it to its exit, on a busy machine a moment after
 * the kill, so a look right after the kill can still find it; one never killed (the tests' markers
 * sleep 100 s or more) still fails this.
 */
export async function gone(marker: string, what: string, limitMs = 5_000): Promise<void> {
  await waitFor(() => processesWith(marker) === '', what, limitMs);
}
