/**
 * Progress while measuring: a live line in a terminal; in CI logs (no TTY) a plain line every
 * ten seconds. Each says how many pairs are done, the current estimates and the time left.
 */
import type { Spec } from '../config/spec.ts';
import type { Progress } from '../schedule/loop.ts';
import { formatDuration, formatPercent } from './format.ts';
import { safeText } from './terminal.ts';

const PLAIN_EVERY_MS = 10_000;

export class ProgressPrinter {
  private readonly out: NodeJS.WriteStream;
  private readonly tty: boolean;
  private readonly spec: Pick<Spec, 'maxPairs'>;
  private live = false;
  private lastPlain = 0;

  constructor(out: NodeJS.WriteStream, spec: Pick<Spec, 'maxPairs'>) {
    this.out = out;
    this.tty = out.isTTY === true;
    this.spec = spec;
  }

  static line(p: Progress, maxPairs: number): string {
    const measured = p.rows.filter((r) => r.estimate !== null);
    // No ± until the row has an interval: a width of 0 after two pairs would read as perfectly precise.
    const shown = measured.slice(0, 3).map((r) => `${safeText(r.key).slice(0, 30)} ${formatPercent(r.estimate!)}${r.halfWidth === null ? '' : ` ±${(r.halfWidth * 100).toFixed(1)}%`}`);
    const more = measured.length > 3 ? ` (+${measured.length - 3} more)` : '';
    // a round is one pair of every benchmark: its number is the pairs each benchmark has, bounded by max-pairs
    return `round ${p.round + 1} of at most ${maxPairs} · ${p.pairsDone} pairs in all · ${p.jobsRunning}/${p.jobsTotal} running${shown.length ? ' · ' + shown.join(', ') + more : ''} · ~${formatDuration(p.remainingMs)} left`;
  }

  update(p: Progress): void {
    const text = ProgressPrinter.line(p, this.spec.maxPairs);
    if (this.tty) {
      const width = this.out.columns ?? 100;
      this.out.write(`\r\x1b[2K${text.slice(0, width - 1)}`);
      this.live = true;
    } else if (Date.now() - this.lastPlain >= PLAIN_EVERY_MS) {
      this.lastPlain = Date.now();
      this.out.write(`${text}\n`);
    }
  }

  clear(): void {
    if (this.live) {
      this.out.write('\r\x1b[2K');
      this.live = false;
    }
  }
}
