/**
 * Size limits of what GitHub accepts, and a byte budget to assemble a report under one (S8).
 * UTF-8 bytes are counted, so a bound holds for GitHub's character limits too.
 */
import { utf8Bytes } from './escape.ts';

/** GitHub's limits, with a margin (UTF-8 bytes). */
export const REPORT_LIMITS = {
  /** an issue comment: 65,536 characters */
  comment: 65_000,
  /** a check run's `output.summary`: 65,535 bytes */
  checkSummary: 65_000,
  /** a step's job summary: 1 MiB */
  jobSummary: 1_000_000,
} as const;

/** A byte budget: pieces are taken while they fit; a piece that does not fit marks the report as cut. */
export class Budget {
  used = 0;
  cut = false;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  /** Takes the text if it fits (plus `extra` bytes of separators); else notes the cut. */
  take(text: string, extra = 1): boolean {
    const n = utf8Bytes(text) + extra;
    if (this.used + n > this.limit) {
      this.cut = true;
      return false;
    }
    this.used += n;
    return true;
  }
  /** The items that fit, in order. */
  takeAll(items: readonly string[], extra = 1): string[] {
    return items.filter((item) => this.take(item, extra));
  }
}

/** Last resort for absurdly small limits: cut at a line boundary below the limit, `note` (what was cut, where the rest is) at the end. */
export function hardCut(text: string, limit: number, note = '\n\n✂️ (cut to fit the size limit)\n'): string {
  const room = Math.max(0, limit - utf8Bytes(note));
  const buf = Buffer.from(text, 'utf8').subarray(0, room);
  let s = buf.toString('utf8').replace(/\uFFFD$/, '');
  const nl = s.lastIndexOf('\n');
  if (nl > 0) s = s.slice(0, nl);
  return s + note;
}
