/**
 * What every harness parser shares: collecting samples (one per benchmark and metric per run),
 * number and unit handling, and reading JSON documents into a checked shape.
 *
 * Rules that hold for every format:
 * - One run of the suite gives one sample per benchmark and metric. When a run prints the same
 *   benchmark several times (Go's `-count N`, Google Benchmark's repetitions, two JSON entries of
 *   one name), the values are combined by their median: repetitions inside one run share that
 *   run's conditions, so they are not independent pairs, and the median keeps one disturbed
 *   repetition (a GC pause, a preempted thread) from moving the run's value. Go's time and
 *   allocation counts per operation (`ns/op`, `B/op`, `allocs/op`) are combined by their minimum
 *   instead, and its `MB/s` by its maximum (types.ts, `Sample.combine`): what disturbs them only
 *   ever adds to the time and the counts.
 * - The primary metric (the time, or a JMH throughput) is named as the harness names the
 *   benchmark; every other metric gets its own sample named `<name> (<metric>)`, where
 *   `<metric>` is the label the harness prints for it (`BenchmarkParse (B/op)`,
 *   `BM_Sort/1000 (items_per_second)`), while the sample's `unit` is the normalised unit.
 * - A count of exactly 0 (`0 allocs/op`, `0 B/op`) is a measurement like any other: a pair in
 *   which both sides printed it is an equal pair, and one in which only one side did is counted
 *   apart, since it forms no ratio (schedule/record.ts). A time of exactly 0 (a libtest
 *   `0 ns/iter` of a benchmark that was optimised away) is left out: a time sizes the runs, and a
 *   benchmark that takes no time has none to size them by. Negative, non-finite or unreadable
 *   numbers are errors.
 * - Output with no benchmark at all is an error.
 */
import type { Direction } from '../stats/types.ts';
import { HarnessParseError, type HarnessFormat, type Sample } from './types.ts';
import type { z } from 'zod';
import { median } from '../stats/describe.ts';

const NO_BENCHMARKS = 'no benchmark lines found: is --format right?';
/** The unit every time is normalised to (`normalise`): a time of 0 is left out, a count of 0 kept. */
export const TIME_UNIT = 'ns';
export const NO_BENCHMARKS_IN_DOCUMENT = 'no benchmarks in the document: is --format right?';

interface Pending {
  name: string;
  unit: string;
  direction: Direction;
  values: number[];
  line: number | null;
  reciprocalOf?: string;
  combine?: 'min' | 'max';
}

/** What a run whose every value is 0 is told: it measured nothing to compare. */
const EVERY_VALUE_ZERO = 'every benchmark value is 0: nothing to compare';

/**
 * Samples parsed with `keepZeroTimes`, once their run's files have replaced what they could: a time
 * still 0 left out, as `finish` leaves it, and every value 0 an error.
 */
export function withoutZeroTimes(format: HarnessFormat, samples: Sample[]): Sample[] {
  const kept = samples.filter((s) => s.value > 0 || s.unit !== TIME_UNIT);
  if (!kept.some((s) => s.value > 0)) throw new HarnessParseError(format, null, EVERY_VALUE_ZERO);
  return kept;
}

/** Collects the values a parser finds and turns them into samples. */
export class SampleCollector {
  readonly #format: HarnessFormat;
  readonly #byName = new Map<string, Pending>();

  constructor(format: HarnessFormat) {
    this.#format = format;
  }

  /**
   * Adds one value. `line` is where it was read (1-based), for error messages.
   * Throws when the value is negative or not finite, or when the same name came with another unit.
   */
  add(name: string, value: number, unit: string, direction: Direction, line: number | null, reciprocalOf?: string, combine?: 'min' | 'max'): void {
    const trimmed = name.trim();
    if (trimmed === '') throw new HarnessParseError(this.#format, line, 'a benchmark has an empty name');
    if (!Number.isFinite(value) || value < 0) {
      throw new HarnessParseError(this.#format, line, `${trimmed}: expected a finite value ≥ 0, got ${String(value)}`);
    }
    const known = this.#byName.get(trimmed);
    if (known === undefined) {
      this.#byName.set(trimmed, { name: trimmed, unit, direction, values: [value], line, ...(reciprocalOf !== undefined ? { reciprocalOf: reciprocalOf.trim() } : {}), ...(combine ? { combine } : {}) });
      return;
    }
    if (known.unit !== unit || known.direction !== direction) {
      throw new HarnessParseError(
        this.#format,
        line,
        `${trimmed}: reported in ${unit} (${direction}) here but in ${known.unit} (${known.direction}) before`,
      );
    }
    known.values.push(value);
  }

  get size(): number {
    return this.#byName.size;
  }

  /**
   * The samples, in the order their names first appeared; throws when there are none. A time of 0
   * is left out (a harness that printed it measured nothing it can say), and every value 0 is an
   * error, unless `keepZeroTimes`: then the run's files will say (ParseOptions, `keepZeroTimes`).
   */
  finish(emptyDetail: string = NO_BENCHMARKS, keepZeroTimes = false): Sample[] {
    if (this.#byName.size === 0) throw new HarnessParseError(this.#format, null, emptyDetail);
    const samples: Sample[] = [];
    for (const p of this.#byName.values()) {
      const value = combined(p.values, p.combine);
      if (value > 0 || (value === 0 && (p.unit !== TIME_UNIT || keepZeroTimes))) samples.push({ name: p.name, value, unit: p.unit, direction: p.direction, ...(p.values.length > 1 ? { repetitions: p.values } : {}), ...(p.reciprocalOf !== undefined ? { reciprocalOf: p.reciprocalOf } : {}), ...(p.combine && p.values.length > 1 ? { combine: p.combine } : {}) });
    }
    if (!keepZeroTimes && !samples.some((s) => s.value > 0)) throw new HarnessParseError(this.#format, null, EVERY_VALUE_ZERO);
    return samples;
  }
}

/** Median of a list (the mean of the two middle values when the count is even): the statistics' own. */
export { median };

/** A run's value from its repetitions: their median, or their least or greatest (types.ts, `Sample.combine`). */
export function combined(values: number[], combine: 'min' | 'max' | undefined): number {
  if (combine === undefined) return median(values);
  let best = combine === 'min' ? Infinity : -Infinity;
  for (const v of values) if (combine === 'min' ? v < best : v > best) best = v;
  return best;
}

/** The name of an extra metric's sample: `<name> (<metric>)`. */
export function extraName(name: string, metric: string): string {
  return `${name} (${metric})`;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number as harnesses print it (thousands separators allowed when `commas`); NaN when it is none. */
export function readNumber(text: string, commas = false): number {
  const plain = commas ? text.replace(/,(?=\d{3}(?:\D|$))/g, '') : text;
  return DECIMAL.test(plain) ? Number(plain) : Number.NaN;
}

// --- units -------------------------------------------------------------------------------------

const TIME_TO_NS: Record<string, number> = {
  ps: 1e-3,
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC greek mu
  ms: 1e6,
  s: 1e9,
  sec: 1e9,
  min: 60e9,
};

const BYTES: Record<string, number> = {
  B: 1,
  kB: 1e3,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
};

/** Factor from a time unit (`ns`, `us`, `µs`, `ms`, `s`) to nanoseconds, or undefined. */
export function timeFactor(unit: string): number | undefined {
  return Object.hasOwn(TIME_TO_NS, unit) ? TIME_TO_NS[unit] : undefined;
}

export interface Normalised {
  value: number;
  unit: string;
  direction: Direction;
}

/**
 * Normalises a value in a harness's unit: times to `ns`, sizes to `B`, `<size>/s` to `B/s`,
 * `ops/<time>` to `ops/s`. Other units are kept. Direction: lower is better, except for
 * rates per unit of time (`…/s`, `ops/ms`), which are throughputs.
 */
export function normalise(value: number, unit: string): Normalised {
  const time = timeFactor(unit);
  if (time !== undefined) return { value: value * time, unit: 'ns', direction: 'lower-is-better' };
  if (Object.hasOwn(BYTES, unit)) return { value: value * (BYTES[unit] as number), unit: 'B', direction: 'lower-is-better' };
  const slash = unit.lastIndexOf('/');
  if (slash > 0) {
    const num = unit.slice(0, slash);
    const den = unit.slice(slash + 1);
    const per = timeFactor(den);
    if (per !== undefined) {
      // a rate: value per `den`; per second is value * 1e9 / per
      const perSecond = (value * 1e9) / per;
      if (Object.hasOwn(BYTES, num)) {
        return { value: perSecond * (BYTES[num] as number), unit: 'B/s', direction: 'higher-is-better' };
      }
      if (num === 'op' || num === 'ops') return { value: perSecond, unit: 'ops/s', direction: 'higher-is-better' };
      return { value: perSecond, unit: `${num}/s`, direction: 'higher-is-better' };
    }
    const numTime = timeFactor(num);
    if (numTime !== undefined && (den === 'op' || den === 'ops' || den === 'iter')) {
      return { value: value * numTime, unit: 'ns', direction: 'lower-is-better' };
    }
    if (Object.hasOwn(BYTES, num) && (den === 'op' || den === 'iter')) {
      return { value: value * (BYTES[num] as number), unit: 'B', direction: 'lower-is-better' };
    }
  }
  return { value, unit, direction: 'lower-is-better' };
}

// --- JSON ----------------------------------------------------------------------------------------

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** JSON.parse that throws HarnessParseError with the line of the syntax error. */
export function parseJsonDocument(format: HarnessFormat, text: string, expected: string): unknown {
  if (text.trim() === '') throw new HarnessParseError(format, null, `the output is empty; expected ${expected}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const offset = jsonSyntaxErrorOffset(text);
    if (offset < 0) throw new HarnessParseError(format, null, `not valid JSON; expected ${expected}`);
    const line = lineAt(text, offset);
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const found = offset >= text.length ? 'the end of the output' : JSON.stringify(text.slice(offset, offset + 24).split(/\r?\n/)[0]);
    throw new HarnessParseError(format, line, `not valid JSON at column ${offset - lineStart + 1} (found ${found}); expected ${expected}`);
  }
}

/**
 * Offset of the first JSON syntax error in `s`, or -1 when there is none. Iterative (an explicit
 * stack), so deeply nested input cannot overflow the call stack. Only called once JSON.parse failed.
 */
export function jsonSyntaxErrorOffset(s: string): number {
  let i = 0;
  const stack: Array<'[' | '{'> = [];
  const skipWs = (): void => {
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      i++;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const HEX4 = /[0-9a-fA-F]{4}/y;
  const scalar = (): boolean => {
    if (s[i] === '"') {
      i++;
      while (i < s.length) {
        const c = s.charCodeAt(i);
        if (c === 34) {
          i++;
          return true;
        }
        if (c < 0x20) return false;
        if (c === 92) {
          const e = s[i + 1];
          if (e === 'u') {
            HEX4.lastIndex = i + 2;
            if (!HEX4.test(s)) return false;
            i += 6;
          } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
          else return false;
        } else i++;
      }
      return false;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m !== null && m[0] !== '' && m[0] !== '-') {
      i += m[0].length;
      return true;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (s.startsWith(literal, i)) {
        i += literal.length;
        return true;
      }
    }
    return false;
  };
  let state: 'value' | 'firstValue' | 'key' | 'firstKey' | 'after' = 'value';
  for (;;) {
    skipWs();
    if (state === 'value' || state === 'firstValue') {
      if (state === 'firstValue' && s[i] === ']') {
        stack.pop();
        i++;
        state = 'after';
      } else if (s[i] === '[' || s[i] === '{') {
        stack.push(s[i] as '[' | '{');
        state = s[i] === '[' ? 'firstValue' : 'firstKey';
        i++;
      } else if (scalar()) state = 'after';
      else return i;
      continue;
    }
    if (state === 'key' || state === 'firstKey') {
      if (state === 'firstKey' && s[i] === '}') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      if (s[i] !== '"' || !scalar()) return i;
      skipWs();
      if (s[i] !== ':') return i;
      i++;
      state = 'value';
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return i < s.length ? i : -1;
    if (s[i] === ',') {
      i++;
      state = top === '[' ? 'value' : 'key';
    } else if ((top === '[' && s[i] === ']') || (top === '{' && s[i] === '}')) {
      stack.pop();
      i++;
    } else return i;
  }
}

/** A path such as `benchmarks[3].stats.median` from a zod issue path. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'the document' : out;
}

/** Checks `data` against `schema`; on failure throws HarnessParseError naming the path and what was expected. */
export function checkShape<T>(format: HarnessFormat, schema: z.ZodType<T>, data: unknown, line: number | null = null): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? formatPath(issue.path) : 'the document';
  throw new HarnessParseError(format, line, `${where}: ${issue ? issue.message : 'unexpected shape'}`);
}
