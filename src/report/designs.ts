/**
 * How the runs were designed (`--design auto`: schedule/design.ts), said once per comparison: the
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

/**
 * Why benchmarks stopped undecided before the budget ran out, or null: "3 benchmarks got no more
 * pairs once they could not be decided within the budget left: they needed about 400-900 pairs at
 * their spread".
 */
export function futilitySummary(benchmarks: readonly BenchmarkResult[]): { count: number; text: string } | null {
  const names = new Set(benchmarks.map((b) => b.name));
  const futile = benchmarks.filter((b) => b.futility && own(b, names) && b.verdict === 'inconclusive');
  if (futile.length === 0) return null;
  const needs = futile.map((b) => b.futility!.need);
  const lo = needs.reduce((a, b) => Math.min(a, b));
  const hi = needs.reduce((a, b) => Math.max(a, b));
  const n = futile.length;
  return {
    count: n,
    text: `${n} benchmark${n === 1 ? '' : 's'} got no more pairs once ${n === 1 ? 'it' : 'they'} could not be decided within the budget left: at ${n === 1 ? 'its' : 'their'} spread ${n === 1 ? 'it' : 'they'} needed about ${lo === hi ? lo : `${lo}-${hi}`} pairs, and the budget went to the benchmarks nearer a verdict`,
  };
}
