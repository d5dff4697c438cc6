/**
 * One run: the user's command through a shell, in a revision's directory, with its figures.
 *
 * The command runs in a process group of its own, so that a timeout, a cancel or the end of the
 * run kills the whole tree (background children included), never just the shell.
 *
 * This is the measuring loop's hot path. With the run helper (helper.ts), runs go to a helper
 * process started once and kept (`pairbench-run --serve`): it forks the shell, measures, forwards
 * the output and reports, while Node only writes a request and reads frames. Node's own spawn
 * costs about 3 ms per run (it forks a large process) and keeps Node busy around the start of the
 * measured run; a served run costs the helper's fork of the shell. Without a C compiler, runs
 * are spawned from Node (`child_process.spawn` directly: one process, an exit event, two pipes)
 * and timed by Node's clock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
  /** in `runCommands`: if this run fails, the runs after it are skipped */
  stopOnFailure?: boolean;
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
  /** `skipped`: in `runCommands`, not run because an earlier run with `stopOnFailure` failed */
  outcome: 'ok' | 'exit' | 'timeout' | 'signal' | 'cancelled' | 'spawn' | 'skipped';
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
  const helper = await runHelper();
  if (helper && reqs.length > 0 && reqs.every((r) => !r.countInstructions)) {
    return runServed(
      helper,
      reqs.map((r) => ({ req: r, argv: ['/bin/sh', '-c', r.command] })),
    );
  }
  const out: RunResult[] = [];
  let skipping = false;
  for (const req of reqs) {
    if (skipping) {
      out.push(skippedResult());
      continue;
    }
    const counting = req.countInstructions ? wrapForCounting(req.countInstructions, ['/bin/sh', '-c', req.command]) : null;
    const argv = counting ? counting.argv : ['/bin/sh', '-c', req.command];
    const result = helper ? (await runServed(helper, [{ req, argv }]))[0]! : await runSpawned(argv, req);
    if (counting) result.instructions = counting.read();
    out.push(result);
    if (req.stopOnFailure && result.outcome !== 'ok') skipping = true;
  }
  return out;
}

function skippedResult(): RunResult {
  return { outcome: 'skipped', exitCode: null, signal: null, wallMs: NaN, cpuMs: null, maxRssBytes: null, stdout: '', outputTail: '' };
}

/** Collects a run's output: stdout kept up to STDOUT_CAP when asked, a tail of everything else. */
class Output {
  private readonly stdout: Buffer[] = [];
  private stdoutSize = 0;
  private stdoutCut = false;
  private readonly tail = new Tail(OUTPUT_TAIL);
  private readonly capture: boolean;
  constructor(capture: boolean) {
    this.capture = capture;
  }
  out(c: Buffer): void {
    if (this.capture && this.stdoutSize + c.length <= STDOUT_CAP) {
      this.stdout.push(c);
      this.stdoutSize += c.length;
    } else {
      if (this.capture) this.stdoutCut = true;
      this.tail.push(c);
    }
  }
  err(c: Buffer): void {
    this.tail.push(c);
  }
  result(): { stdout: string; outputTail: string } {
    return {
      stdout: Buffer.concat(this.stdout).toString('utf8'),
      outputTail: this.tail.text() + (this.stdoutCut ? `\n[stdout beyond ${STDOUT_CAP} bytes was not kept]` : ''),
    };
  }
}

function outcomeOf(
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

/** What the serving helper reports at the end of a run (helper.ts). */
interface ServedReport {
  wallMs: number;
  userMs: number;
  sysMs: number;
  maxRssBytes: number;
  exitCode: number;
  signal: number;
  timedOut: number;
  error?: string;
  skipped?: number;
}

interface ServedHandlers {
  pid(pid: number): void;
  out(c: Buffer): void;
  err(c: Buffer): void;
  done(r: ServedReport): void;
  /** the helper died or could not be started */
  failed(message: string): void;
}

/**
 * One serving helper process (`pairbench-run --serve`): a request at a time. Idle, it does not keep
 * pairbench alive (its process and pipes are unreferenced); at pairbench's exit its input closes
 * and it exits, killing a run in flight.
 */
class ServedHelper {
  private readonly sub: ChildProcess;
  /** handlers of the runs of the request in flight not yet reported, in order */
  private queue: ServedHandlers[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private readonly stderr = new Tail(OUTPUT_TAIL);
  /** not to be used again: exited, or being closed */
  dead = false;
  private exited = false;

  constructor(helper: string) {
    this.sub = spawn(helper, ['--serve'], { stdio: ['pipe', 'ignore', 'pipe', 'pipe'] });
    const frames = this.sub.stdio[3] as NodeJS.ReadableStream;
    frames.on('data', (c: Buffer) => this.onData(c));
    this.sub.stderr?.on('data', (c: Buffer) => this.stderr.push(c));
    this.sub.stdin?.on('error', () => {
      // the helper is gone; its exit event says so
    });
    const die = (why: string): void => {
      if (this.exited) return;
      this.exited = true;
      this.dead = true;
      const left = this.queue;
      this.queue = [];
      const detail = this.stderr.text().trim();
      for (const p of left) p.failed(`pairbench's run helper ${why}${detail ? `: ${detail}` : ''}`);
    };
    this.sub.once('error', (e) => die(`could not be started (${e.message})`));
    this.sub.once('exit', (code, signal) => die(`exited (${signal ?? `status ${code}`})`));
    this.idle();
  }

  private handles(): { unref?: () => void; ref?: () => void }[] {
    return [this.sub, this.sub.stdin, this.sub.stderr, this.sub.stdio[3]] as { unref?: () => void; ref?: () => void }[];
  }

  private idle(): void {
    for (const h of this.handles()) h?.unref?.();
  }

  /** Sends runs as one request; `handlers[i]` hears about run i, in order. */
  run(runs: readonly ServedRun[], handlers: ServedHandlers[]): void {
    if (this.dead) {
      for (const h of handlers) h.failed("pairbench's run helper is not running");
      return;
    }
    const fields: string[] = [String(runs.length)];
    for (const r of runs) {
      const envEntries = Object.entries(r.req.env)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => `${k}=${v}`);
      const timeout = Number.isFinite(r.req.timeoutMs) && r.req.timeoutMs > 0 ? Math.ceil(r.req.timeoutMs) : 0;
      fields.push(r.req.cwd, String(timeout), r.req.stopOnFailure ? '1' : '0', String(r.argv.length), ...r.argv, String(envEntries.length), ...envEntries);
    }
    if (fields.some((f) => f.includes('\0'))) {
      for (const h of handlers) h.failed('the command, its directory or its environment contains a NUL character');
      return;
    }
    for (const h of this.handles()) h?.ref?.();
    this.queue = [...handlers];
    const body = Buffer.from(fields.map((f) => `${f}\0`).join(''), 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(body.length, 0);
    this.sub.stdin!.write(Buffer.concat([head, body]));
  }

  private onData(c: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, c]) : c;
    while (this.buffer.length >= 5) {
      const len = this.buffer.readUInt32LE(1);
      if (this.buffer.length < 5 + len) break;
      const type = String.fromCharCode(this.buffer[0]!);
      const payload = this.buffer.subarray(5, 5 + len);
      this.buffer = this.buffer.subarray(5 + len);
      const p = this.queue[0];
      if (!p) continue;
      if (type === 'P') p.pid(Number(payload.toString('utf8')));
      else if (type === 'O') p.out(Buffer.from(payload));
      else if (type === 'E') p.err(Buffer.from(payload));
      else if (type === 'R') {
        this.queue.shift();
        if (this.queue.length === 0) this.idle();
        let report: ServedReport;
        try {
          report = JSON.parse(payload.toString('utf8')) as ServedReport;
        } catch {
          p.failed("pairbench's run helper sent a report it could not read");
          continue;
        }
        p.done(report);
      }
    }
  }

  /**
   * Kills the helper at once, so that it cannot start the next run of its request (closing its
   * input would only be seen after the run in flight); its exit fails the runs left. The caller
   * kills the run in flight's process group.
   */
  kill(): void {
    this.dead = true;
    this.sub.kill('SIGKILL');
  }
}

/** Idle serving helpers; runs at the same time (two builds) each get their own. */
const idleHelpers: ServedHelper[] = [];

interface ServedRun {
  req: RunRequest;
  argv: readonly string[];
}

async function runServed(helper: string, runs: readonly ServedRun[]): Promise<RunResult[]> {
  let server = idleHelpers.pop();
  while (server?.dead) server = idleHelpers.pop();
  server ??= new ServedHelper(helper);
  const served = server;
  // One state per run; `current` is the run in flight (the helper runs them in order).
  const states = runs.map((r) => ({ run: r, output: new Output(r.req.captureStdout), pid: undefined as number | undefined, report: undefined as ServedReport | undefined, error: undefined as string | undefined }));
  // Runs from this index on were cancelled (the one in flight and those not started).
  let cancelledFrom = Infinity;
  let current = 0;
  const signals = [...new Set(runs.map((r) => r.req.signal).filter((x): x is AbortSignal => x !== undefined))];
  const onAbort = (): void => {
    if (cancelledFrom !== Infinity) return;
    cancelledFrom = current;
    // The helper must not go on to the next run: it goes first, then the run in flight.
    served.kill();
    const pid = states[current]?.pid;
    if (pid !== undefined) killGroup(pid, true);
  };
  let backstop: NodeJS.Timeout | null = null;
  await new Promise<void>((resolve) => {
    for (const sig of signals) sig.addEventListener('abort', onAbort, { once: true });
    let left = states.length;
    const finish = (i: number): void => {
      current = i + 1;
      if (--left === 0) resolve();
    };
    served.run(
      runs,
      states.map((st, i) => ({
        pid(p) {
          st.pid = p;
          if (cancelledFrom <= i) killGroup(p, true);
          // The helper enforces each run's timeout itself; this only guards against a helper that stopped answering.
          if (backstop) clearTimeout(backstop);
          const t = st.run.req.timeoutMs;
          if (Number.isFinite(t) && t > 0) {
            backstop = setTimeout(() => {
              served.kill();
              killGroup(p, true);
              for (let j = i; j < states.length; j++) {
                if (!states[j]!.report && states[j]!.error === undefined) {
                  states[j]!.error = "pairbench's run helper did not answer after the run's timeout";
                  finish(j);
                }
              }
            }, t + 15_000);
            backstop.unref();
          }
        },
        out: (c) => st.output.out(c),
        err: (c) => st.output.err(c),
        done(report) {
          if (st.report || st.error !== undefined) return;
          st.report = report;
          finish(i);
        },
        failed(error) {
          if (st.report || st.error !== undefined) return;
          st.error = error;
          finish(i);
        },
      })),
    );
    if (signals.some((x) => x.aborted)) onAbort();
  });
  if (backstop) clearTimeout(backstop);
  for (const sig of signals) sig.removeEventListener('abort', onAbort);
  if (!served.dead) idleHelpers.push(served);
  return states.map((st, i) => {
    const cancelled = i >= cancelledFrom;
    const r = st.report;
    // A helper that died mid-run leaves the run's group behind: it goes too.
    if (!r && st.pid !== undefined) killGroup(st.pid, true);
    if (r?.skipped) return skippedResult();
    if (cancelled && !r) return outcomeOf({ wallMs: NaN, cpuMs: null, maxRssBytes: null, ...st.output.result() }, { exitCode: null, signal: null, cancelled, timedOut: false });
    if (!r || r.error !== undefined) {
      return outcomeOf({ wallMs: NaN, cpuMs: null, maxRssBytes: null, ...st.output.result() }, { exitCode: null, signal: null, cancelled, timedOut: false, error: r?.error ?? st.error ?? 'the run could not be started' });
    }
    const figures: RunFigures = { wallMs: r.wallMs, cpuMs: r.userMs + r.sysMs, maxRssBytes: r.maxRssBytes };
    return outcomeOf(
      { ...figures, ...st.output.result() },
      { exitCode: r.exitCode >= 0 ? r.exitCode : null, signal: r.signal ? signalName(r.signal) : null, cancelled, timedOut: r.timedOut === 1 },
    );
  });
}

/** Without the helper: Node spawns the shell in a new session (its own process group) and times it. */
async function runSpawned(argv: readonly string[], req: RunRequest): Promise<RunResult> {
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

  // The run is over when the shell exits; anything it left behind is killed so that no background
  // process outlives its run or holds its pipes open.
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

const SIGNALS: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM' };
function signalName(n: number): string {
  return SIGNALS[n] ?? `signal ${n}`;
}
