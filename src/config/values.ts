/**
 * Parsing of the value kinds users type: durations (`90s`, `10m`), percentages (`2%`, `0.02`),
 * whole numbers and probabilities. Each parser names the input and the value when it refuses one.
 */
import { FLOOR_UNITS, type AbsoluteFloor } from '../stats/floor.ts';
import { UsageError } from './errors.ts';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The longest duration pairbench can honour: Node.js timers hold at most 2^31 - 1 ms (about 596.5
 * hours) and fire at once past it, which would time out every run. Whole hours, so the limit reads
 * plainly in messages.
 */
const MAX_DURATION_HOURS = 596;
const MAX_DURATION_MS = MAX_DURATION_HOURS * 3_600_000;

/** `1500ms`, `90s`, `10m`, `1.5h`, or a bare number of seconds; returns milliseconds. */
export function parseDuration(input: string, value: string | number): number {
  const expected = `a duration greater than 0 and at most ${MAX_DURATION_HOURS}h, such as 500ms, 90s, 10m or 1h`;
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
    ms = m ? Number(m[1]) * (DURATION_UNITS[m[2] ?? 's'] ?? 1000) : NaN;
  }
  if (!(Number.isFinite(ms) && ms > 0 && ms <= MAX_DURATION_MS)) throw UsageError.invalid(input, value, expected);
  return ms;
}

/** `2%` or `0.02` (a fraction); returns the fraction. `max` bounds it (exclusive of 0 unless allowZero). */
export function parsePercent(input: string, value: string | number, opts: { max?: number; allowZero?: boolean } = {}): number {
  const max = opts.max ?? 10;
  const expected = `a percentage such as 2% or a fraction such as 0.02, ${opts.allowZero ? 'from 0' : 'greater than 0'} and at most ${formatPercent(max)}`;
  let fraction: number;
  if (typeof value === 'number') fraction = value;
  else {
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%)?\s*$/.exec(value);
    if (!m) throw UsageError.invalid(input, value, expected);
    fraction = m[2] ? Number(m[1]) / 100 : Number(m[1]);
  }
  if (!Number.isFinite(fraction) || fraction < 0 || (!opts.allowZero && fraction === 0) || fraction > max) {
    throw UsageError.invalid(input, value, expected);
  }
  return fraction;
}

function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(12))}%`;
}

/**
 * A threshold (a fraction, as `parsePercent` reads `--threshold 2%`) as every message, report and
 * replayed command prints it: as a percentage with up to six significant digits and no trailing
 * zeros (`2%`, `3.5%`, `0.25%`), so that it reads back as the value that was set.
 */
export function formatThreshold(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(6))}%`;
}

/** A whole number in [min, max]. */
export function parseInteger(input: string, value: string | number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw UsageError.invalid(input, value, `a whole number from ${min} to ${max}`);
  }
  return n;
}

/** A probability strictly between 0 and 0.5 (a significance level). */
export function parseAlpha(input: string, value: string | number): number {
  const n = typeof value === 'number' ? value : /^\s*(\d*\.\d+|\d+)\s*$/.test(value) ? Number(value) : NaN;
  if (!(n > 0 && n < 0.5)) throw UsageError.invalid(input, value, 'a significance level between 0 and 0.5, such as 0.05');
  return n;
}

export function parseChoice<T extends string>(input: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw UsageError.invalid(input, value, `one of ${choices.join(', ')}`);
}

/**
 * A minimum absolute change (`min-change`, stats/floor.ts): `5ms`, `200ns`, `1KB`, a bare count
 * such as `100`, or one of each family comma-separated (`5ms,1KB`), so that a Go suite's times and
 * `B/op` each have their own.
 */
export function parseMinChange(input: string, value: string | number): AbsoluteFloor[] {
  const expected = `a change greater than 0 in a benchmark's own unit, such as 5ms, 200ns, 1KB or a count such as 100, at most one of each (time, bytes, count) comma-separated`;
  const floors: AbsoluteFloor[] = [];
  for (const part of String(value).split(',')) {
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([A-Za-zµμ]*)\s*$/.exec(part);
    const unit = m?.[2] ?? '';
    const scale = unit === '' ? { family: 'count' as const, scale: 1 } : FLOOR_UNITS[unit];
    const amount = m && scale ? Number(m[1]) * scale.scale : NaN;
    if (!scale || !(amount > 0) || !Number.isFinite(amount) || floors.some((f) => f.family === scale.family)) throw UsageError.invalid(input, value, expected);
    floors.push({ family: scale.family, amount, text: part.trim() });
  }
  return floors;
}
