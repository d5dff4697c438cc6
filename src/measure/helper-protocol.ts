/**
 * The serving run helper's wire format (helper-source.ts has the other side).
 *
 * A request on the helper's stdin: a 4-byte little-endian length, then NUL-terminated fields: the
 * number of runs, then per run: cwd, timeout in ms (0: none), stop-on-failure (0/1), argc,
 * argv..., envc, env... . Replies on its fd 3: frames of a type byte and a 4-byte little-endian
 * length, per run in order: 'P' the run's pid (its process group), 'O' and 'E' its stdout and
 * stderr as they come, 'R' the figures as JSON once the run and its output are over.
 *
 * Pure: values in, bytes out, and back.
 */

/** One run of a request. */
export interface WireRun {
  cwd: string;
  /** milliseconds; 0 or less, or not finite: none */
  timeoutMs: number;
  stopOnFailure: boolean;
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}

/** What the helper reports at the end of a run. */
export interface WireReport {
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

export type Frame = { type: 'P'; pid: number } | { type: 'O'; data: Buffer } | { type: 'E'; data: Buffer } | { type: 'R'; report: WireReport | null };

/** The bytes of one request, or an error message when a field cannot travel (a NUL character). */
export function encodeRequest(runs: readonly WireRun[]): Buffer | string {
  const fields: string[] = [String(runs.length)];
  for (const r of runs) {
    const env = Object.entries(r.env)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => `${k}=${v}`);
    const timeout = Number.isFinite(r.timeoutMs) && r.timeoutMs > 0 ? Math.ceil(r.timeoutMs) : 0;
    // no spread into push: an environment may hold many variables (S20)
    fields.push(r.cwd, String(timeout), r.stopOnFailure ? '1' : '0', String(r.argv.length));
    for (const a of r.argv) fields.push(a);
    fields.push(String(env.length));
    for (const e of env) fields.push(e);
  }
  if (fields.some((f) => f.includes('\0'))) return 'the command, its directory or its environment contains a NUL character';
  const body = Buffer.from(fields.map((f) => `${f}\0`).join(''), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** Cuts the helper's reply stream into frames, whatever the chunks it arrives in. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);

  /** The frames completed by this chunk, in order. */
  push(chunk: Buffer): Frame[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const frames: Frame[] = [];
    while (this.buffer.length >= 5) {
      const len = this.buffer.readUInt32LE(1);
      if (this.buffer.length < 5 + len) break;
      const type = String.fromCharCode(this.buffer[0]!);
      const payload = Buffer.from(this.buffer.subarray(5, 5 + len));
      this.buffer = this.buffer.subarray(5 + len);
      if (type === 'P') frames.push({ type, pid: Number(payload.toString('utf8')) });
      else if (type === 'O' || type === 'E') frames.push({ type, data: payload } as Frame);
      else if (type === 'R') frames.push({ type, report: parseReport(payload) });
    }
    return frames;
  }
}

function parseReport(payload: Buffer): WireReport | null {
  try {
    return JSON.parse(payload.toString('utf8')) as WireReport;
  } catch {
    return null;
  }
}
