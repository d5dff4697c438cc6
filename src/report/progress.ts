/**
 * Progress while measuring: a live line in a terminal; in CI logs (no TTY) a plain line every
 * ten seconds, and every minute the benchmarks still undecided, each with about how many more pairs
 * it needs and whether that fits the budget (schedule/allocate.ts). Each line says how many pairs are
 * done, the current estimates, how the undecided ones stand, and the time left (schedule/time-left.ts).
 */
import type { Spec } from '../config/spec.ts';
import { formatChange, formatDuration } from './format.ts';
import { safeText } from './terminal.ts';

/**
 * The progress of the measuring loop as these lines read it: the loop's `Progress`
 * (schedule/loop.ts) fits it as it is. Declared here, by what is shown, so that a renderer never
 * imports the measuring side: the loop passes its progress in.
 */
export interface Progress {
  round: number;
  pairsDone: number;
  jobsRunning: number;
  jobsTotal: number;
  /** the time left at the pairs the running units are predicted to need; null while unknown */
  remainingMs: number | null;
  /** the most time left (the budget, or what `--max-pairs` still allows at the current pace); null while unbounded */
  remainingAtMostMs: number | null;
  /** the rows still running: the key, the change so far and the half-width of its interval */
  rows: readonly { key: string; estimate: number | null; halfWidth: number | null }[];
  /** the units still running, with the pairs each is still predicted to need (more than it has: `more`, at least 1) */
  undecided?: readonly { name: string; pairs: number; more: number | null; waiting: boolean }[];
}

const PLAIN_EVERY_MS = 10_000;
const LIST_EVERY_MS = 60_000;
/** Undecided benchmarks listed at most, each minute. */
const LIST_AT_MOST = 40;

/** Where the progress printer writes: a stream, a terminal when `isTTY` (`columns` wide). */
export interface ProgressOut {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * The pace of the plain lines, in a log rather than a terminal: a line every ten seconds (the
 * first at once) and, with a line, once a minute, the undecided benchmarks when one of them knows
 * the pairs it needs. `show` writes them: to stderr on the command line, to the step log in the
 * action. `clock` (milliseconds) paces them: Date.now, or the scripted clock of the command line's
 * debug mode, so that the lines it prints are the same on every run.
 */
export function pacedProgress(maxPairs: number, show: { line(text: string): void; undecided(p: Progress): void }, clock: () => number = Date.now): (p: Progress) => void {
  let lastLine = -Infinity;
  let lastList = -Infinity;
  return (p) => {
    const now = clock();
    if (now - lastLine < PLAIN_EVERY_MS) return;
    lastLine = now;
    show.line(ProgressPrinter.line(p, maxPairs));
    if (now - lastList >= LIST_EVERY_MS && (p.undecided ?? []).some((u) => u.more !== null)) {
      lastList = now;
      show.undecided(p);
    }
  };
}

export class ProgressPrinter {
  private readonly out: ProgressOut;
  private readonly tty: boolean;
  private readonly spec: Pick<Spec, 'maxPairs'>;
  private readonly plain: (p: Progress) => void;
  private live = false;

  constructor(out: ProgressOut, spec: Pick<Spec, 'maxPairs'>, clock: () => number = Date.now) {
    this.out = out;
    this.tty = out.isTTY === true;
    this.spec = spec;
    this.plain = pacedProgress(spec.maxPairs, {
      line: (text) => out.write(`${text}\n`),
      undecided: (p) => out.write(`undecided:\n${ProgressPrinter.list(p).join('\n')}\n`),
    }, clock);
  }

  static line(p: Progress, maxPairs: number): string {
    const measured = p.rows.filter((r) => r.estimate !== null);
    // No ± until the row has an interval: a width of 0 after two pairs would read as perfectly precise.
    const shown = measured.slice(0, 3).map((r) => `${safeText(r.key).slice(0, 30)} ${formatChange(r.estimate!)}${r.halfWidth === null ? '' : ` ±${(r.halfWidth * 100).toFixed(1)}%`}`);
    const more = measured.length > 3 ? ` (+${measured.length - 3} more)` : '';
    // a round is one pair of every benchmark: its number is the pairs each benchmark has, bounded by max-pairs
    return `round ${p.round + 1} of at most ${maxPairs} · ${p.pairsDone} pairs in all · ${p.jobsRunning}/${p.jobsTotal} running${ProgressPrinter.standing(p)}${shown.length ? ' · ' + shown.join(', ') + more : ''}${ProgressPrinter.timeLeft(p)}`;
  }

  /**
   * " · ~40s left", or " · ~40s left (at most 3m20s)" when the pairs allowed could take longer than
   * the pairs predicted: a prediction of a benchmark close to settling can stay at one more pair
   * for many rounds, and the bound is what the comparison can take whatever the predictions.
   */
  static timeLeft(p: Pick<Progress, 'remainingMs' | 'remainingAtMostMs'>): string {
    const most = p.remainingAtMostMs === null ? null : formatDuration(p.remainingAtMostMs);
    if (p.remainingMs === null) return most === null ? '' : ` · at most ${most} left`;
    const expected = formatDuration(p.remainingMs);
    return most === null || most === expected ? ` · ~${expected} left` : ` · ~${expected} left (at most ${most})`;
  }

  /** How the undecided stand: " · 9 fit the budget (about 40-120 more pairs each), 3 wait, 2 measuring their first pairs". */
  static standing(p: Progress): string {
    const known = (p.undecided ?? []).filter((u) => u.more !== null);
    const fit = known.filter((u) => !u.waiting);
    const waiting = known.length - fit.length;
    const early = (p.undecided ?? []).length - known.length;
    if (known.length === 0) return '';
    const needs = fit.map((u) => u.more as number);
    const lo = needs.length === 0 ? 0 : needs.reduce((a, b) => Math.min(a, b));
    const hi = needs.length === 0 ? 0 : needs.reduce((a, b) => Math.max(a, b));
    const range = needs.length === 0 ? '' : ` (about ${lo}${hi > lo ? `-${hi}` : ''} more ${needs.length === 1 && lo === 1 ? 'pair' : 'pairs'}${needs.length > 1 ? ' each' : ''})`;
    return ` · ${fit.length} fit${fit.length === 1 ? 's' : ''} the budget${range}${waiting ? `, ${waiting} wait${waiting === 1 ? 's' : ''}` : ''}${early ? `, ${early} measuring ${early === 1 ? 'its' : 'their'} first pairs` : ''}`;
  }

  /** The undecided benchmarks one per line: pairs so far, about how many more it needs, and whether that fits the budget. */
  static list(p: Progress): string[] {
    const rows = (p.undecided ?? []).slice().sort((a, b) => (a.more ?? Infinity) - (b.more ?? Infinity) || a.name.localeCompare(b.name));
    const lines = rows.slice(0, LIST_AT_MOST).map((u) => {
      const needs = u.more === null ? '' : `needs about ${u.more} more ${u.more === 1 ? 'pair' : 'pairs'}`;
      const where = u.more === null ? 'measuring its first pairs' : u.waiting ? `${needs}, waits for the budget left after the benchmarks nearer a verdict` : `${needs}, fits the budget`;
      return `  ${safeText(u.name).slice(0, 80)}: ${u.pairs} pairs, ${where}`;
    });
    if (rows.length > LIST_AT_MOST) lines.push(`  … and ${rows.length - LIST_AT_MOST} more`);
    return lines;
  }

  update(p: Progress): void {
    if (!this.tty) {
      this.plain(p);
      return;
    }
    const width = this.out.columns ?? 100;
    this.out.write(`\r\x1b[2K${ProgressPrinter.line(p, this.spec.maxPairs).slice(0, width - 1)}`);
    this.live = true;
  }

  clear(): void {
    if (this.live) {
      this.out.write('\r\x1b[2K');
      this.live = false;
    }
  }
}
