/**
 * What a run printed: its stdout, kept whole when a harness format parses it, and the tail of the
 * rest for failure reports. Both leave here redacted (S4): the results file, the terminal and every
 * report only ever see this.
 */
import { redactOutput } from './secrets.ts';

/** Output beyond this is not kept: a run that prints gigabytes must not take pairbench down. */
const STDOUT_CAP = 64 * 1024 * 1024;
/** Bytes of a run's output kept for its failure report. */
export const OUTPUT_TAIL = 4096;
/**
 * The tail is redacted with this much output before it, then cut: a secret that starts before the
 * cut is still redacted whole instead of leaving its end in the report (secrets and PEM keys are
 * shorter than this).
 */
const REDACTION_MARGIN = 8192;

/** The last `cap` bytes of a stream, in chunks (a few more kept until a whole chunk can go). */
export class Tail {
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
  /** The last `bytes` bytes kept (at most the cap), as text. */
  text(bytes = this.cap): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - bytes)).toString('utf8');
  }
}

/** Collects a run's output: stdout kept up to STDOUT_CAP when asked, a tail of everything else. */
export class Output {
  private readonly stdout: Buffer[] = [];
  private stdoutSize = 0;
  private stdoutCut = false;
  private readonly tail = new Tail(OUTPUT_TAIL + REDACTION_MARGIN);
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
  /** The output, redacted. */
  result(): { stdout: string; outputTail: string } {
    const tail = redactOutput(this.tail.text());
    return {
      stdout: this.stdoutSize > 0 ? redactOutput(Buffer.concat(this.stdout).toString('utf8')) : '',
      outputTail: lastBytes(tail, OUTPUT_TAIL) + (this.stdoutCut ? `\n[stdout beyond ${STDOUT_CAP} bytes was not kept]` : ''),
    };
  }
}

/** The end of a text, at most `bytes` bytes of UTF-8. */
function lastBytes(text: string, bytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  return buf.length <= bytes ? text : buf.subarray(buf.length - bytes).toString('utf8');
}
