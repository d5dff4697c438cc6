/**
 * Serving run helper processes (`pairbench-run --serve`), and the pool of idle ones.
 *
 * A helper runs one request at a time; runs at the same time (two builds) each get their own
 * helper, so that each helper's leftover processes after a run are that run's alone. Idle, a helper
 * does not keep pairbench alive (its process and pipes are unreferenced); at pairbench's exit its
 * input closes and it exits, killing a run in flight.
 *
 * A helper starts with an empty environment (S4): each run gets the environment of its request,
 * and nothing in the tree of a run finds pairbench's own variables (the token) in its parent's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { encodeRequest, FrameReader, type WireReport, type WireRun } from './helper-protocol.ts';
import { OUTPUT_TAIL, Tail } from './output.ts';

/** Hears about one run of a request. */
export interface RunHandlers {
  pid(pid: number): void;
  out(c: Buffer): void;
  err(c: Buffer): void;
  done(r: WireReport): void;
  /** the helper died, could not be started, or sent what could not be read */
  failed(message: string): void;
}

/** How long after a helper's exit its pipes may take to be read to their end. */
const CLOSE_AFTER_EXIT_MS = 2_000;

export class ServedHelper {
  private readonly sub: ChildProcess;
  /** handlers of the runs of the request in flight not yet reported, in order */
  private queue: RunHandlers[] = [];
  private readonly frames = new FrameReader();
  private readonly stderr = new Tail(OUTPUT_TAIL);
  /** not to be used again: exited, or being closed */
  dead = false;
  private exited = false;

  constructor(helper: string) {
    this.sub = spawn(helper, ['--serve'], { stdio: ['pipe', 'ignore', 'pipe', 'pipe'], env: {} });
    (this.sub.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => this.onData(c));
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
    // The runs fail at 'close', not at 'exit': the exit can be heard before the last frames the
    // helper wrote (a run's pid) are read, and a run whose pid is not known leaves its process group
    // behind. The helper's pipes are close-on-exec, so no run holds them open past its end; should
    // something hold them anyway, the runs fail a moment after the exit.
    this.sub.once('close', (code, signal) => die(`exited (${signal ?? `status ${code}`})`));
    this.sub.once('exit', (code, signal) => {
      setTimeout(() => die(`exited (${signal ?? `status ${code}`})`), CLOSE_AFTER_EXIT_MS).unref();
    });
    this.idle();
  }

  private handles(): { unref?: () => void; ref?: () => void }[] {
    return [this.sub, this.sub.stdin, this.sub.stderr, this.sub.stdio[3]] as { unref?: () => void; ref?: () => void }[];
  }

  private idle(): void {
    for (const h of this.handles()) h?.unref?.();
  }

  /** Sends runs as one request; `handlers[i]` hears about run i, in order. */
  run(runs: readonly WireRun[], handlers: RunHandlers[]): void {
    if (this.dead) {
      for (const h of handlers) h.failed("pairbench's run helper is not running");
      return;
    }
    const request = encodeRequest(runs);
    if (typeof request === 'string') {
      for (const h of handlers) h.failed(request);
      return;
    }
    for (const h of this.handles()) h?.ref?.();
    this.queue = [...handlers];
    this.sub.stdin!.write(request);
  }

  private onData(c: Buffer): void {
    for (const f of this.frames.push(c)) {
      const p = this.queue[0];
      if (!p) continue;
      if (f.type === 'P') p.pid(f.pid);
      else if (f.type === 'O') p.out(f.data);
      else if (f.type === 'E') p.err(f.data);
      else if (f.type === 'R') {
        this.queue.shift();
        if (this.queue.length === 0) this.idle();
        if (f.report) p.done(f.report);
        else p.failed("pairbench's run helper sent a report it could not read");
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

/** Idle serving helpers. */
const idle: ServedHelper[] = [];

/** An idle helper of this program, or a new one. */
export function acquireHelper(path: string): ServedHelper {
  let server = idle.pop();
  while (server?.dead) server = idle.pop();
  return server ?? new ServedHelper(path);
}

/** Gives a helper back once its request is over; a dead one is dropped. */
export function releaseHelper(server: ServedHelper): void {
  if (!server.dead) idle.push(server);
}
