/**
 * One run: the user's command through a shell, in a revision's directory, with its figures.
 *
 * The command runs in a process group of its own, so that a timeout, a cancel or the end of the
 * run kills the whole tree (background children included), never just the shell.
 *
 * This is the measuring loop's hot path, so it uses `child_process.spawn` directly (one process,
 * an exit event and four pipes) rather than execa, which the rest of pairbench uses.
 */
import { spawn } from 'node:child_process';
import { runHelper } from './helper.ts';
import { wrapForCounting, type InstructionCounter } from './instructions.ts';

export interface RunRequest {
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** keep stdout (harness formats parse it); otherwise it is drained and dropped */
  captureStdout: boolean;
  /** aborts the run: the tree is killed and the result says `cancelled` */
  signal?: AbortSignal;
  /** count the instructions of the run with this counter */
  countInstructions?: InstructionCounter;
}

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
  outcome: 'ok' | 'exit' | 'timeout' | 'signal' | 'cancelled' | 'spawn';
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  /** the last STDERR_TAIL bytes of stderr (and of stdout when not captured), for failure reports */
  outputTail: string;
}

/** Output beyond this is not kept: a run that prints gigabytes must not take pairbench down. */
export const STDOUT_CAP = 64 * 1024 * 1024;
export const OUTPUT_TAIL = 4096;

class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.cap && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
  }
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.cap)).toString('utf8');
  }
}

/**
 * Kills the run's process group. `running` says the run's own process has not exited yet: then, if
 * the group does not exist (the instant before the helper's setpgid), the process itself is killed.
 * After the exit its pid may already belong to someone else, so only the group is killed.
 */
function killGroup(pid: number | undefined, running: boolean): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    if (!running) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function runCommand(req: RunRequest): Promise<RunResult> {
  const helper = await runHelper();
  const counting = req.countInstructions ? wrapForCounting(req.countInstructions, ['/bin/sh', '-c', req.command]) : null;
  const argv = counting ? counting.argv : ['/bin/sh', '-c', req.command];
  const file = helper ?? argv[0]!;
  const args = helper ? argv : argv.slice(1);
  const started = process.hrtime.bigint();
  const sub = spawn(file, args, {
    cwd: req.cwd,
    env: req.env,
    // With the helper, the helper makes its own process group (same session); without it, Node's
    // `detached` (setsid) is the only way to get one.
    detached: helper === null,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const pid = sub.pid;
  const stdout: Buffer[] = [];
  let stdoutSize = 0;
  let stdoutCut = false;
  const tail = new Tail(OUTPUT_TAIL);
  const report: Buffer[] = [];
  sub.stdout?.on('data', (c: Buffer) => {
    if (req.captureStdout && stdoutSize + c.length <= STDOUT_CAP) {
      stdout.push(c);
      stdoutSize += c.length;
    } else {
      if (req.captureStdout) stdoutCut = true;
      tail.push(c);
    }
  });
  sub.stderr?.on('data', (c: Buffer) => tail.push(c));
  const fd3 = sub.stdio[3] as NodeJS.ReadableStream | undefined;
  fd3?.on('data', (c: Buffer) => report.push(c));

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

  // The run is over when the helper (or shell) exits; anything it left behind is killed so that
  // no background process outlives its run or holds its pipes open.
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    sub.once('exit', (code, signal) => resolve({ code, signal }));
    sub.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  const ended = process.hrtime.bigint();
  clearTimeout(timer);
  req.signal?.removeEventListener('abort', onAbort);
  killGroup(pid, false);
  await drained([sub.stdout, sub.stderr, fd3]);

  const nodeWallMs = Number(ended - started) / 1e6;
  let figures: RunFigures = { wallMs: nodeWallMs, cpuMs: null, maxRssBytes: null };
  let exitCode = exit.code;
  let termSignal: string | null = exit.signal;
  const reportText = Buffer.concat(report).toString('utf8').trim();
  if (helper && reportText) {
    try {
      const r = JSON.parse(reportText) as { wallMs: number; userMs: number; sysMs: number; maxRssBytes: number; exitCode: number; signal: number };
      figures = { wallMs: r.wallMs, cpuMs: r.userMs + r.sysMs, maxRssBytes: r.maxRssBytes };
      exitCode = r.exitCode >= 0 ? r.exitCode : null;
      if (r.signal) termSignal = signalName(r.signal);
    } catch {
      // keep Node's figures
    }
  }
  if (counting) figures.instructions = counting.read();
  const outputTail = tail.text() + (stdoutCut ? `\n[stdout beyond ${STDOUT_CAP} bytes was not kept]` : '');
  const base = { ...figures, stdout: Buffer.concat(stdout).toString('utf8'), outputTail };
  if (exit.error) return { ...base, outcome: 'spawn', exitCode: null, signal: null, outputTail: `${exit.error.message}\n${outputTail}` };
  if (cancelled) return { ...base, outcome: 'cancelled', exitCode, signal: termSignal };
  if (timedOut) return { ...base, outcome: 'timeout', exitCode, signal: termSignal };
  if (termSignal) return { ...base, outcome: 'signal', exitCode, signal: termSignal };
  if (exitCode !== 0) return { ...base, outcome: 'exit', exitCode, signal: null };
  return { ...base, outcome: 'ok', exitCode: 0, signal: null };
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

const SIGNALS: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM' };
function signalName(n: number): string {
  return SIGNALS[n] ?? `signal ${n}`;
}
