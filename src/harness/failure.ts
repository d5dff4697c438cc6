/**
 * Why a harness run failed, in the harness's own words: a JavaScript harness writes a failing
 * benchmark file's error into its report, not on stderr, so the last lines of a failed run say
 * only where the report went (vitest: `JSON report written to …/build/bench.json`) while the report
 * says `bench is not a function`. Text in, messages out; no I/O (measure/harness-failure.ts reads
 * the report a failed run names).
 */
import { HARNESSES, harnessOf } from './registry.ts';
import type { HarnessFormat } from './types.ts';

/** Messages kept from one report; more are counted. */
const MAX_MESSAGES = 3;
/** Characters kept of one message. */
const MESSAGE_CHARS = 300;

/**
 * The errors a harness wrote into its report (`text`: what the run printed, or the report file),
 * each `<where>: <first line of the message>`; empty when the text holds none, is not that
 * harness's report, or the harness writes none there (its harness's `failure`: js-failures.ts).
 */
export function harnessErrors(format: HarnessFormat, text: string): string[] {
  const found: string[] = [];
  for (const { where, message } of harnessOf(format).failure?.errors(text) ?? []) {
    const line = messageText(message);
    if (line !== '') found.push(where === '' ? line : `${where}: ${line}`);
  }
  const unique = [...new Set(found)];
  return unique.length > MAX_MESSAGES ? [...unique.slice(0, MAX_MESSAGES), `and ${unique.length - MAX_MESSAGES} more`] : unique;
}

/** The report file a failed run's output names, or null (vitest's JSON reporter names it; js-failures.ts). */
export function reportFileNamed(format: HarnessFormat, output: string): string | null {
  return harnessOf(format).failure?.reportFile?.(output) ?? null;
}

/** The npm package whose `engines.node` a JavaScript harness needs, by format. */
export const HARNESS_PACKAGES: Partial<Record<HarnessFormat, string>> = Object.fromEntries(
  HARNESSES.flatMap((h) => (h.failure?.package !== undefined ? [[h.format, h.failure.package]] : [])),
);

/**
 * True when the Node.js `version` (`v20.20.2`) satisfies none of the alternatives of an
 * `engines.node` range (`^22.12.0 || ^24.0.0 || >=26.0.0`), as npm reads them
 * (https://docs.npmjs.com/cli/configuring-npm/package-json#engines, node-semver's ranges); false
 * when it satisfies one, and also when a part of the range is not one of the forms read here
 * (`^x.y.z`, `~x.y.z`, `>=x.y.z`, `>x.y.z`, `x.y.z`, `x`, `x.x`): pairbench never says a version is
 * too old on a guess.
 */
export function olderThanEngines(version: string, range: string): boolean {
  const v = triple(version.replace(/^v/, ''));
  if (v === null) return false;
  for (const alternative of range.split('||')) {
    const comparators = alternative.trim().split(/\s+/).filter((c) => c !== '');
    if (comparators.length === 0) return false;
    let all = true;
    for (const c of comparators) {
      const ok = satisfies(v, c);
      if (ok === null) return false;
      all &&= ok;
    }
    if (all) return false;
  }
  return true;
}

type Triple = [number, number, number];

function triple(text: string): Triple | null {
  const m = /^(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text.trim());
  if (!m) return null;
  const n = (s: string | undefined): number => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [n(m[1]), n(m[2]), n(m[3])];
}

const compare = (a: Triple, b: Triple): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `v` satisfies one comparator, or null when the comparator is not a form read here. */
function satisfies(v: Triple, comparator: string): boolean | null {
  const m = /^(\^|~|>=|>|<=|<|=)?v?(.+)$/.exec(comparator);
  if (!m) return null;
  const op = m[1] ?? '';
  const text = m[2]!;
  const t = triple(text);
  if (t === null) return null;
  const parts = text.split('.').filter((p) => p !== 'x' && p !== '*').length;
  const c = compare(v, t);
  switch (op) {
    case '^':
      return c >= 0 && (t[0] > 0 ? v[0] === t[0] : t[1] > 0 ? v[0] === 0 && v[1] === t[1] : v[0] === 0 && v[1] === 0 && v[2] === t[2]);
    case '~':
      return c >= 0 && v[0] === t[0] && (parts < 2 || v[1] === t[1]);
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    default:
      // `22`, `22.x`: that major (and minor); `22.12.0`: exactly
      return parts === 1 ? v[0] === t[0] : parts === 2 ? v[0] === t[0] && v[1] === t[1] : c === 0;
  }
}

/** The first non-empty line of a message, cut: a stack trace's first line is its message. */
function messageText(message: unknown): string {
  const text = typeof message === 'string' ? message : message === undefined || message === null ? '' : typeof message === 'object' ? JSON.stringify(message) : String(message as number);
  // eslint-disable-next-line no-control-regex
  const line = text.split('\n').map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trim()).find((l) => l !== '') ?? '';
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS - 1)}…` : line;
}
