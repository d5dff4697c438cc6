/**
 * Findings that many results of one comparison share, said once for all of them instead of once
 * per result: otherwise a large Go suite's diagnostics repeat the same paragraph of Go advice for
 * every benchmark, and "noisy even in pairs" once per row (ns/op and MB/s alike), burying the
 * findings that differ. The report model computes them (model.ts); every surface words them
 * (`wordShared`) and leaves out the per-result diagnostics they fold. Pure.
 */
import { pairsWholeRuns } from '../results/recorded.ts';
import type { BenchmarkResult, Results } from '../results/schema.ts';
import { findingOf, goLevers, jsLevers, type Surface } from './findings.ts';
import { benchmarkOfRow } from './rows.ts';
import type { Markup } from './markup.ts';

/** From this many results with the same finding, it is said once for all of them. */
export const FOLD_AT = 3;

/** How many names a shared finding lists before it counts the rest. */
const NAMES_SHOWN = 3;

export type SharedFinding =
  /** results noisy even in pairs (`high-noise`), with the range of their paired CV */
  | { code: 'noisy'; names: string[]; total: number; cv: [number, number]; wholeRuns: boolean }
  /** Go benchmarks whose own code or command could cut their noise (`go-noise`) */
  | { code: 'go-levers'; names: string[]; allocating: string[]; threads: boolean }
  /** JavaScript benchmarks whose runs could be bound or batched to cut their noise (`js-noise`) */
  | { code: 'js-levers'; names: string[]; bound: boolean; batched: boolean }
  /** inconclusive results that more pairs would likely settle: their counts, sorted, and why they stopped */
  | { code: 'settle'; names: string[]; counts: number[]; stops: string[] };

export interface SharedFindings {
  items: SharedFinding[];
  /** what the items fold: diagnostic codes, and `settle` for the per-result "pairs to settle" note */
  folded: ReadonlySet<string>;
}

/** The findings FOLD_AT or more results share, in the file's order of results. */
export function sharedFindings(results: Results): SharedFindings {
  const benchmarks = results.benchmarks;
  // counted by benchmark, as the summary counts: a Go benchmark's MB/s, B/op and allocs/op rows are one
  const benchmarkOf = benchmarkOfRow(benchmarks);
  const distinct = (rows: readonly BenchmarkResult[]): string[] => [...new Set(rows.map(benchmarkOf))];
  const items: SharedFinding[] = [];
  const folded = new Set<string>();
  const noisy: Array<{ b: BenchmarkResult; cv: number }> = [];
  const levers: Array<{ b: BenchmarkResult; allocating: boolean; threads: boolean }> = [];
  const jsLeverRows: Array<{ b: BenchmarkResult; bound: boolean; batched: boolean }> = [];
  for (const b of benchmarks) {
    for (const d of b.diagnostics ?? []) {
      const f = findingOf(d);
      if (f?.code === 'high-noise') noisy.push({ b, cv: f.figures.pairedCv });
      if (f?.code === 'go-noise') levers.push({ b, allocating: f.figures.allocsPerOp !== null, threads: !f.figures.oneThread });
      if (f?.code === 'js-noise') jsLeverRows.push({ b, bound: f.figures.bound, batched: f.figures.batched });
    }
  }
  const noisyNames = distinct(noisy.map(({ b }) => b));
  if (noisyNames.length >= FOLD_AT) {
    folded.add('high-noise');
    let lo = Infinity;
    let hi = -Infinity;
    for (const { cv } of noisy) {
      lo = Math.min(lo, cv);
      hi = Math.max(hi, cv);
    }
    items.push({ code: 'noisy', names: noisyNames, total: new Set(benchmarks.map(benchmarkOf)).size, cv: [lo, hi], wholeRuns: pairsWholeRuns(results) });
  }
  const leverNames = distinct(levers.map(({ b }) => b));
  if (leverNames.length >= FOLD_AT) {
    folded.add('go-noise');
    items.push({ code: 'go-levers', names: leverNames, allocating: distinct(levers.filter((l) => l.allocating).map(({ b }) => b)), threads: levers.some((l) => l.threads) });
  }
  const jsNames = distinct(jsLeverRows.map(({ b }) => b));
  if (jsNames.length >= FOLD_AT) {
    folded.add('js-noise');
    // a lever is named when any of them lacks it (one comparison: they share their settings)
    items.push({ code: 'js-levers', names: jsNames, bound: jsLeverRows.every((l) => l.bound), batched: jsLeverRows.every((l) => l.batched) });
  }
  // a failed benchmark is judged inconclusive, but it is shown as failed: its failure says why
  const open = benchmarks.filter((b) => b.verdict === 'inconclusive' && !b.failure && b.pairsToSettle);
  // a benchmark is settled when the last of its rows is (its verdict is the worst of its rows')
  const settleBy = new Map<string, number>();
  for (const b of open) {
    const name = benchmarkOf(b);
    settleBy.set(name, Math.max(settleBy.get(name) ?? 0, b.pairsToSettle!));
  }
  if (settleBy.size >= FOLD_AT) {
    folded.add('settle');
    // sorted in place once: a suite may hold 100,000 benchmarks
    const counts = [...settleBy.values()].sort((x, y) => x - y);
    const stops = [...new Set(open.map((b) => stopWords(b)).filter((s): s is string => s !== null))];
    items.push({ code: 'settle', names: [...settleBy.keys()], counts, stops });
  }
  return { items, folded };
}

/** Why an inconclusive result stopped, when its budget rather than its rules ended it; null otherwise. */
function stopWords(b: BenchmarkResult): string | null {
  if (!b.stoppedBecause || b.stoppedBecause === 'precision' || b.stoppedBecause === 'decided') return null;
  if (b.stoppedBecause === 'futile') return 'futility (no more pairs once they could not be decided in the budget left)';
  return b.stoppedBecause;
}

/** The first names, then how many more. */
function names(all: readonly string[], m: Markup): string {
  const shown = all.slice(0, NAMES_SHOWN).map((n) => m.code(n, 120));
  return `${shown.join(', ')}${all.length > NAMES_SHOWN ? `, and ${all.length - NAMES_SHOWN} more` : ''}`;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** A shared finding in words for `surface`; `warning` when it is one. */
export function wordShared(f: SharedFinding, surface: Surface, m: Markup): { warning: boolean; text: string } {
  const cli = surface === 'cli';
  const set = (name: string, value: string): string => (cli ? `--${name} ${value}` : m.code(`${name}: ${value}`, 80));
  switch (f.code) {
    case 'noisy': {
      const range = f.cv[0] === f.cv[1] ? pct(f.cv[0]) : `${pct(f.cv[0])} to ${pct(f.cv[1])}`;
      return {
        warning: true,
        text:
          `${m.strong(`${f.names.length} of ${f.total} benchmarks are noisy even in pairs`)} (${names(f.names, m)}): the ratio head/base varies by ${range} (CV) from pair to pair, so small changes need many pairs. ` +
          `To cut the noise itself: run on a quieter ${cli ? 'machine' : 'runner'} (a dedicated runner, no parallel jobs)${f.wholeRuns ? `, make one run do more work, or pair each benchmark on its own (${set('interleave', 'benchmark')})` : ' or make one run do more work'}.`,
      };
    }
    case 'go-levers': {
      const allocating = f.allocating.length > 0 ? `${f.allocating.length} allocate in their loop (${names(f.allocating, m)})` : null;
      return {
        warning: false,
        text: `${m.strong(`${f.names.length} of the noisy benchmarks are Go benchmarks whose own code or command can cut their noise`)} (${names(f.names, m)}): ${goLevers(allocating, f.threads, surface)}.`,
      };
    }
    case 'js-levers':
      return {
        warning: false,
        text: `${m.strong(`${f.names.length} of the noisy benchmarks are JavaScript benchmarks whose runs can cut their noise`)} (${names(f.names, m)}): it is mostly each process's own (what V8's JIT and collector make of the code in it), so only more processes, or steadier ones, narrow their intervals: ${jsLevers(f.bound, f.batched, surface)}.`,
      };
    case 'settle': {
      const mid = f.counts[Math.floor(f.counts.length / 2)]!;
      const more = cli ? '--max-time (or --max-pairs)' : `the input ${m.code('max-time', 20)} (or ${m.code('max-pairs', 20)})`;
      return {
        warning: false,
        text:
          `${m.strong(`${f.names.length} benchmarks are inconclusive`)} (${names(f.names, m)})${f.stops.length > 0 ? `, stopped by ${f.stops.join(' or ')}` : ''}: ` +
          `about ${mid} pairs each (${f.counts[0]}-${f.counts[f.counts.length - 1]}) would likely settle half of them; raise ${more}, or gate on them with ${set('fail-on', 'regression,inconclusive')}.`,
      };
    }
  }
}
