/**
 * Number formatting shared by every renderer: human units, changes as percentages with one decimal
 * (`formatChange`), p-values. Pure functions; every report reads with the same precision.
 */
import { recordedOr } from '../results/recorded.ts';
import type { Verdict } from '../stats/types.ts';

const TIME_UNITS: [string, number][] = [
  ['s', 1e9],
  ['ms', 1e6],
  ['µs', 1e3],
  ['ns', 1],
];
const BYTE_UNITS: [string, number][] = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
  ['B', 1],
];
const NS_PER: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9 };

function sig(value: number, digits = 3): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(abs)));
  return value.toFixed(Math.min(decimals, 6));
}

/** A value with its unit, scaled to a readable unit: `51.2 ms`, `1.50 MiB`, `1234 ops/s`. */
export function formatValue(value: number, unit: string): string {
  if (unit in NS_PER) {
    const ns = value * NS_PER[unit]!;
    const [name, f] = TIME_UNITS.find(([, f]) => Math.abs(ns) >= f) ?? ['ns', 1];
    return `${sig(ns / f)} ${name}`;
  }
  if (unit === 'B') {
    const [name, f] = BYTE_UNITS.find(([, f]) => Math.abs(value) >= f) ?? ['B', 1];
    return `${sig(value / f)} ${name}`;
  }
  if (unit.endsWith('/s')) {
    // rates: decimal prefixes, as harnesses print them (Go's MB/s is 10^6 bytes per second)
    const what = unit.slice(0, -2);
    const [prefix, f] = ([['G', 1e9], ['M', 1e6], ['k', 1e3]] as const).find(([, f]) => Math.abs(value) >= f) ?? ['', 1];
    return `${sig(value / f)} ${prefix}${what}/s`;
  }
  if (unit === 'instructions') {
    if (value >= 1e9) return `${sig(value / 1e9)} G instr`;
    if (value >= 1e6) return `${sig(value / 1e6)} M instr`;
    return `${sig(value)} instr`;
  }
  return `${sig(value)} ${unit}`;
}

/** A coefficient of variation as `±1.2%`. */
export function formatCv(cv: number): string {
  return `±${sig(cv * 100, 2)}%`;
}

/**
 * The spread of one side's single runs as the reports show it: the MAD (× 1.4826) relative to the
 * median, `±1.2%`, which one wild run cannot inflate; the CV for files that predate it.
 */
export function formatSpread(side: { median: number; cv: number; mad?: number | undefined }): string {
  if (side.mad !== undefined && Number.isFinite(side.mad) && side.median !== 0) return formatCv(side.mad / Math.abs(side.median));
  return formatCv(side.cv);
}

/** The name of the spread `formatSpread` shows for these benchmarks: `MAD`, or `CV` when a side lacks its MAD. */
export function spreadName(benchmarks: readonly { base?: { mad?: number | undefined } | undefined; head?: { mad?: number | undefined } | undefined }[]): 'MAD' | 'CV' {
  const sides = benchmarks.flatMap((b) => [b.base, b.head]).filter((s) => s !== undefined);
  return sides.every((s) => s.mad !== undefined) ? 'MAD' : 'CV';
}

export function formatP(p: number): string {
  if (p < 0.0001) return '<0.0001';
  if (p >= 0.1) return p.toFixed(2);
  return p.toPrecision(2);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export const VERDICT_EMOJI: Record<Verdict, string> = {
  regression: '🔴',
  improvement: '🟢',
  unchanged: '⚪',
  inconclusive: '🟡',
};

/**
 * The interval's confidence as the report labels it ("95%"), from the results' `alpha` (0.05 when
 * absent): a comparison judged at `--alpha 0.01` shows "99%".
 */
function confidenceLabel(settings: Record<string, unknown> | undefined): string {
  const a = recordedOr(settings, 'alpha') as number;
  return `${String(Number((100 * (1 - a)).toFixed(2)))}%`;
}

/** A level as a percentage without trailing zeros, never rounded up: 95%, 99.5%, 99.375%. */
export function formatLevel(level: number): string {
  return `${Number((Math.floor(level * 1e5 + 1e-6) / 1e3).toFixed(3))}%`;
}

/**
 * The level of the intervals shown, as each benchmark records it (`change.ciLevel`: higher than
 * 1 - alpha with several benchmarks, so that each interval agrees with the corrected verdict, and
 * after an early stop): "99.375%", or "99.375–99.687%" when they differ. A file without it (older
 * or another tool's) is labelled with the comparison's confidence (`confidenceLabel`).
 */
export function intervalLabel(results: { settings?: Record<string, unknown> | undefined; benchmarks: readonly { change?: { ciLevel?: number | undefined } | null | undefined }[] }): string {
  const levels = results.benchmarks.map((b) => b.change?.ciLevel).filter((l): l is number => typeof l === 'number' && l > 0 && l < 1);
  if (levels.length === 0) return confidenceLabel(results.settings);
  const lo = formatLevel(levels.reduce((a, b) => Math.min(a, b)));
  const hi = formatLevel(levels.reduce((a, b) => Math.max(a, b)));
  return lo === hi ? lo : `${lo.slice(0, -1)}–${hi}`;
}

/**
 * One line on why the intervals are at the level shown, when it is not simply 1 - alpha: how many
 * benchmarks, which correction, that a change is significant exactly when its interval excludes 0,
 * and, where `unchanged` rows show their equivalence interval (`change.basis`), its level and what
 * it says. Null when every interval is at 1 - alpha.
 */
export function intervalNote(results: {
  settings?: Record<string, unknown> | undefined;
  benchmarks: readonly { change?: { ciLevel?: number | undefined; confidence?: number | undefined; basis?: string | undefined; n?: number | undefined; readFrom?: string | undefined; floor?: unknown } | null | undefined }[];
}): string | null {
  const judged = results.benchmarks.filter((b) => typeof b.change?.ciLevel === 'number');
  // the correction's family (stats/judge.ts): not the rows whose every pair is equal (their test
  // used no pair), nor a throughput read from its time
  const family = judged.filter((b) => b.change!.n !== 0 && b.change!.readFrom === undefined).length;
  const confidence = confidenceLabel(results.settings);
  if (judged.every((b) => formatLevel(b.change!.ciLevel!) === confidence)) return null;
  const equivalent = judged.filter((b) => b.change!.basis === 'equivalence');
  const tested = judged.filter((b) => b.change!.basis !== 'equivalence');
  const parts: string[] = [];
  if (equivalent.length > 0) {
    const levels = equivalent.map((b) => b.change!.ciLevel!);
    const least = levels.reduce((a, b) => Math.min(a, b));
    const most = levels.reduce((a, b) => Math.max(a, b));
    const lo = formatLevel(least);
    const hi = formatLevel(most);
    const label = lo === hi ? lo : `${lo.slice(0, -1)}–${hi}`;
    // each one-sided test is at half of what the interval leaves out: 5% each at 90%, 2.5% at 95%
    const each = (level: number): string => `${Number((((1 - level) / 2) * 100).toPrecision(3))}%`;
    const tests = lo === hi ? each(most) : `${each(most).slice(0, -1)}–${each(least)}`;
    parts.push(`unchanged rows show their equivalence interval, at ${label} (two one-sided tests at ${tests} each${lo === hi ? '' : ", higher where pairbench's stopping rules watched the pairs"}), which lies within ±threshold${equivalent.some((b) => b.change!.floor) ? ' (or within the min-change, where that is wider)' : ''}`);
  }
  if (tested.length > 0 && !tested.every((b) => formatLevel(b.change!.ciLevel!) === confidence)) {
    const lowest = tested.reduce((m, b) => Math.min(m, b.change!.ciLevel!), Infinity);
    const early = tested.some((b) => b.change!.ciLevel! !== lowest);
    const bh = recordedOr(results.settings, 'correction') === 'bh';
    const label = intervalLabel({ settings: results.settings, benchmarks: tested });
    const why =
      family > 1
        ? bh
          ? `the false-coverage-rate level of Benjamini–Hochberg over ${family} benchmarks (Benjamini & Yekutieli)`
          : `the level of Holm's correction over ${family} benchmarks (${confidence} for them together)`
        : `raised after an early stop so that it still covers ${confidence} of the time`;
    parts.push(`${equivalent.length > 0 ? 'the others are' : 'Intervals'} at ${label}: ${why}${early && family > 1 ? ', higher after an early stop' : ''}`);
  }
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}; a change is significant when its interval excludes 0`;
}

/**
 * A relative change with one decimal, always: `+10.0%`, `−0.3%`, `±0.0%`. Every change in a report
 * reads with the same precision, so columns line up and no digit suggests more than the interval holds.
 */
export function formatChange(fraction: number): string {
  if (!Number.isFinite(fraction)) return String(fraction);
  const text = (Math.abs(fraction) * 100).toFixed(1);
  if (text === '0.0') return '±0.0%';
  return `${fraction > 0 ? '+' : '−'}${text}%`;
}

/** An interval of relative changes: `[+9.1%, +10.9%]`. */
export function formatChangeInterval(ci: readonly [number, number]): string {
  return `[${formatChange(ci[0])}, ${formatChange(ci[1])}]`;
}

/**
 * The change of a benchmark called from its pairs with one side at 0 (stats/one-sided.ts), which
 * no percentage states: `from 0` where base's values were 0, `to 0` where head's were; null for any
 * other benchmark.
 */
export function changeFromZero(b: { change?: unknown; verdict?: string | undefined; oneSidedPairs?: readonly unknown[] | undefined; base?: { median: number } | undefined; head?: { median: number } | undefined }): string | null {
  if (b.change || !b.oneSidedPairs?.length || (b.verdict !== 'regression' && b.verdict !== 'improvement')) return null;
  if (b.base?.median === 0) return 'from 0';
  if (b.head?.median === 0) return 'to 0';
  return null;
}

/**
 * The absolute change beside the relative one, where a `min-change` floor judged the benchmark
 * (stats/floor.ts): the relative estimate times the base's median, in the result's unit, and the
 * floor it was held against: `+12.0 ns, min-change 1.00 µs`. Null without a floor. Unescaped text
 * (the unit comes from the results file): each surface escapes it.
 */
export function absoluteChange(b: { unit: string; change?: { estimate: number; floor?: { amount: number } | undefined } | null | undefined; base?: { median: number } | undefined }): string | null {
  const floor = b.change?.floor;
  const base = b.base?.median;
  if (!floor || !b.change || base === undefined || !Number.isFinite(base)) return null;
  const delta = b.change.estimate * base;
  return `${delta < 0 ? '−' : '+'}${formatValue(Math.abs(delta), b.unit)}, min-change ${formatValue(floor.amount, b.unit)}`;
}
