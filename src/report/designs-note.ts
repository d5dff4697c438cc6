/**
 * How the runs were designed (`--design auto`: schedule/choose-design.ts), said once per comparison: the
 * designs chosen, from the most common, with how many benchmarks ran each, and why benchmarks left
 * undecided got no more pairs (futile). Pure: results in, words out, for every surface alike.
 */
import { designWords } from '../results/design-words.ts';
import type { BenchmarkResult } from '../results/schema.ts';

/** At most this many distinct designs are named; the rest are counted. */
const NAMED = 3;

/** A benchmark's own row (not a `<name> (<metric>)` row beside it). */
function own(b: BenchmarkResult, names: ReadonlySet<string>): boolean {
  const m = / \([^()]*\)$/.exec(b.name);
  return !(m && names.has(b.name.slice(0, m.index)));
}

/**
 * One sentence on the designs chosen, or null when no benchmark's runs were designed: "Runs designed
 * from the noise of each benchmark's first 12 pairs: 1 repetition of 10 ms per process (38
 * benchmarks), 3 repetitions of 5 ms (4)".
 */
export function designSummary(benchmarks: readonly BenchmarkResult[]): string | null {
  const names = new Set(benchmarks.map((b) => b.name));
  const designed = benchmarks.filter((b) => b.design && own(b, names));
  if (designed.length === 0) return null;
  const counts = new Map<string, number>();
  const pilots = new Set<number>();
  let piloting = 0;
  for (const b of designed) {
    const d = b.design!;
    if (!d.chosen) {
      piloting++;
      continue;
    }
    pilots.add(d.pilotPairs);
    const key = designWords(d.repetitions, d.lengthMs, d.warmup ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const parts = ranked.slice(0, NAMED).map(([words, n], i) => `${words}${i === 0 ? ' per process' : ''} (${n} benchmark${n === 1 ? '' : 's'})`);
  const rest = ranked.slice(NAMED).reduce((s, [, n]) => s + n, 0);
  if (rest > 0) parts.push(`other designs (${rest})`);
  if (piloting > 0) parts.push(`still in their pilot (${piloting})`);
  const pilot = pilots.size === 1 ? `${[...pilots][0]} pairs` : 'pairs';
  return `Runs designed from the noise of each benchmark's first ${pilot}: ${parts.join(', ')}`;
}

/** How long a comparison's pairs took: its wall time over the pairs of its benchmarks' own rows. */
export interface Pace {
  wallMs: number;
  pairs: number;
}

/** The pace of a comparison from its results, or null without both times or without a pair. */
export function paceOf(results: { startedAt?: string | null; finishedAt?: string | null; benchmarks: readonly BenchmarkResult[] }): Pace | null {
  const wallMs = Date.parse(results.finishedAt ?? '') - Date.parse(results.startedAt ?? '');
  const names = new Set(results.benchmarks.map((b) => b.name));
  const pairs = results.benchmarks.reduce((t, b) => (own(b, names) ? t + b.pairs.length : t), 0);
  return Number.isFinite(wallMs) && wallMs > 0 && pairs > 0 ? { wallMs, pairs } : null;
}

/** "less than a minute more", "about 12 more minutes", "about 2.5 more hours", "more than a thousand more hours". */
function moreTime(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 1) return 'less than a minute more';
  if (minutes < 90) return `about ${Math.round(minutes)} more minute${Math.round(minutes) === 1 ? '' : 's'}`;
  // beyond a CI budget by far (or a forged file's figures): no false precision
  if (minutes > 60 * 1000) return 'more than a thousand more hours';
  return `about ${(minutes / 60).toFixed(1)} more hours`;
}

/**
 * Why benchmarks stopped undecided before the budget ran out, or null: "3 benchmarks got no more
 * pairs once they could not be decided within the budget left: they needed about 400-900 pairs at
 * their spread". With the comparison's pace (its wall time over its pairs), also the time those
 * pairs would take, so that "raise max-time" comes with a figure ("about 21 more minutes at this
 * comparison's pace, 0.17 s a pair"). It converts the pairs the allocation predicted (`futility.need`) and
 * claims no more than they do; what any allocation could reach in a comparison's own budget is
 * measured in bench/results/HISTORY.md.
 */
export function futilitySummary(benchmarks: readonly BenchmarkResult[], pace: Pace | null = null): { count: number; text: string } | null {
  const names = new Set(benchmarks.map((b) => b.name));
  const futile = benchmarks.filter((b) => b.futility && own(b, names) && b.verdict === 'inconclusive');
  if (futile.length === 0) return null;
  const needs = futile.map((b) => b.futility!.need);
  const lo = needs.reduce((a, b) => Math.min(a, b));
  const hi = needs.reduce((a, b) => Math.max(a, b));
  const n = futile.length;
  let more = '';
  if (pace) {
    const msPerPair = pace.wallMs / pace.pairs;
    const extraMs = futile.reduce((t, b) => t + Math.max(0, b.futility!.need - b.pairs.length), 0) * msPerPair;
    more = ` (${moreTime(extraMs)} at this comparison's pace, ${(msPerPair / 1000).toPrecision(2)} s a pair)`;
  }
  return {
    count: n,
    text: `${n} benchmark${n === 1 ? '' : 's'} got no more pairs once ${n === 1 ? 'it' : 'they'} could not be decided within the budget left: at ${n === 1 ? 'its' : 'their'} spread ${n === 1 ? 'it' : 'they'} needed about ${lo === hi ? lo : `${lo}-${hi}`} pairs${more}, and the budget went to the benchmarks nearer a verdict`,
  };
}
