/**
 * What the reports show of each benchmark, before any formatting: its kind (a verdict, failed,
 * added, removed), the metric it measures, how much worse it is, and which benchmark it belongs to.
 *
 * Harness suites print several metrics per benchmark: Go's `-benchmem` adds `B/op` and
 * `allocs/op`, `b.SetBytes` adds `MB/s`. They arrive as their own results named
 * `<benchmark> (<unit>)`. They are grouped under their benchmark and the group is counted once,
 * with the worst verdict of its members: a slower parse that also shows as lower MB/s is one
 * regression, not two.
 */
import type { BenchmarkResult, Results } from '../results/schema.ts';
import type { Verdict } from '../stats/types.ts';
import { VERDICT_EMOJI } from './format.ts';

export type RowKind = Verdict | 'failed' | 'added' | 'removed' | 'no-data';

/** Each kind of row as the reports name it: emoji and word, so it reads without colour. */
export const KIND_LABEL: Record<RowKind, string> = {
  regression: `${VERDICT_EMOJI.regression} regression`,
  improvement: `${VERDICT_EMOJI.improvement} improvement`,
  unchanged: `${VERDICT_EMOJI.unchanged} unchanged`,
  inconclusive: `${VERDICT_EMOJI.inconclusive} inconclusive`,
  failed: '❌ failed',
  added: '🆕 added',
  removed: '➖ removed',
  'no-data': '— not judged',
};

function rowKind(b: BenchmarkResult): RowKind {
  if (b.presence === 'added') return 'added';
  if (b.presence === 'removed') return 'removed';
  // A failed benchmark is judged `inconclusive` (it cannot pass the gate silently); show why.
  if (b.failure) return 'failed';
  if (b.verdict) return b.verdict;
  return 'no-data';
}

const KIND_ORDER: Record<RowKind, number> = {
  regression: 0,
  failed: 1,
  inconclusive: 2,
  improvement: 3,
  unchanged: 4,
  added: 5,
  removed: 6,
  'no-data': 7,
};

/** How much worse head is than base (positive = worse), in the benchmark's own direction. */
function badness(b: BenchmarkResult): number {
  const e = b.change?.estimate;
  if (e === undefined || !Number.isFinite(e)) return 0;
  return b.direction === 'higher-is-better' ? -e : e;
}

/** The change and its interval oriented so that + is worse: for throughputs head/base is turned over. */
export function worseChange(b: BenchmarkResult): { estimate: number; ci: [number, number] } | null {
  const c = b.change;
  if (!c || !Number.isFinite(c.estimate)) return null;
  if (b.direction !== 'higher-is-better') return { estimate: c.estimate, ci: [c.ci[0], c.ci[1]] };
  // 1/(1+x) - 1: a throughput 10% lower is a cost 11.1% higher
  const flip = (x: number) => 1 / (1 + x) - 1;
  return { estimate: flip(c.estimate), ci: [flip(c.ci[1]), flip(c.ci[0])] };
}

const METRIC_WORDS: Record<string, string> = { wall: 'wall time', cpu: 'CPU time', rss: 'peak memory', instructions: 'instructions' };
const TIME_UNITS = new Set(['ns', 'us', 'µs', 'ms', 's']);

/** Whether a result's unit is a time (rather than a count, a size or a rate). */
export function isTimeUnit(unit: string): boolean {
  return TIME_UNITS.has(unit);
}

/** `<benchmark> (<unit>)`: a metric a harness prints beside a benchmark's time. */
const DERIVED = /^(.+) \(([^()]{1,32})\)$/;

export interface Row {
  result: BenchmarkResult;
  kind: RowKind;
  /** the benchmark's name without a metric suffix (`parse`, not `parse [cpu]` or `parse (B/op)`) */
  name: string;
  /** what is measured, in words, with its unit: `wall time (ms)`, `B/op`, `MB/s` */
  metric: string;
}

export interface Group {
  /** the benchmark's own row (its time), or the first row of the group when it has none */
  primary: Row;
  /** the metrics printed beside it (`B/op`, `allocs/op`, `MB/s`), in file order */
  derived: Row[];
  /** the worst kind of the group's rows: the group counts once, as this */
  kind: RowKind;
  /** the badness of the row that gives the group its kind, for ordering */
  badness: number;
}

function metricOf(b: BenchmarkResult, derivedUnit: string | null): string {
  if (derivedUnit) return derivedUnit;
  if (b.metric && METRIC_WORDS[b.metric]) return `${METRIC_WORDS[b.metric]} (${b.unit})`;
  if (b.metric) return `${b.metric} (${b.unit})`;
  if (TIME_UNITS.has(b.unit)) return `time (${b.unit})`;
  if (b.unit === 'B') return 'memory (B)';
  return b.unit;
}

function baseName(b: BenchmarkResult): string {
  if (b.metric && b.name.endsWith(` [${b.metric}]`)) return b.name.slice(0, -(b.metric.length + 3));
  return b.name;
}

/**
 * The benchmark a derived row belongs to (`parse` for `parse (MB/s)` when `parse` is a row of the
 * same file), or null for a benchmark's own row.
 */
function derivedParents(benchmarks: readonly BenchmarkResult[]): (b: BenchmarkResult) => string | null {
  const names = new Set(benchmarks.map((b) => b.name));
  return (b) => {
    const m = DERIVED.exec(b.name);
    return m && names.has(m[1]!) && m[1] !== b.name ? m[1]! : null;
  };
}

/**
 * The benchmark each row belongs to, as the groups count them: a row's own name, or the name of the
 * benchmark whose derived metric it is. What counts benchmarks counts these, not rows, so that every
 * surface says "42 benchmarks" of a Go suite whose -benchmem and SetBytes give it 146 rows.
 */
export function benchmarkOfRow(benchmarks: readonly BenchmarkResult[]): (b: BenchmarkResult) => string {
  const parentOf = derivedParents(benchmarks);
  return (b) => parentOf(b) ?? b.name;
}

/**
 * The benchmarks in groups, in report order: regressions (worst first), failures, inconclusive,
 * improvements (best first), unchanged, added, removed. Within a group the benchmark's own row
 * comes first. Among the inconclusive, the benchmarks whose own measure (their first row) is
 * undecided come before those left undecided by an extra metric alone: on a Go A/A the comment
 * opened with a benchmark whose time was `unchanged` and whose `allocs/op`, a pool filled in some
 * runs only, read +3264.8%.
 */
export function groupRows(benchmarks: readonly BenchmarkResult[]): Group[] {
  const parentOf = derivedParents(benchmarks);
  const groups = new Map<string, { primary: Row | null; derived: Row[]; first: number }>();
  benchmarks.forEach((b, i) => {
    const m = DERIVED.exec(b.name);
    const parent = parentOf(b);
    const key = parent ?? b.name;
    const g = groups.get(key) ?? { primary: null, derived: [], first: i };
    const row: Row = { result: b, kind: rowKind(b), name: parent ?? baseName(b), metric: metricOf(b, parent ? m![2]! : null) };
    if (parent) g.derived.push(row);
    else g.primary = row;
    groups.set(key, g);
  });
  const out = [...groups.values()].map((g) => {
    const rows = g.primary ? [g.primary, ...g.derived] : g.derived;
    const worst = rows.reduce((w, r) => (KIND_ORDER[r.kind] < KIND_ORDER[w.kind] || (r.kind === w.kind && Math.abs(badness(r.result)) > Math.abs(badness(w.result))) ? r : w));
    const [primary, ...derived] = rows;
    return { group: { primary: primary!, derived, kind: worst.kind, badness: badness(worst.result) }, first: g.first };
  });
  out.sort((x, y) => {
    const kx = KIND_ORDER[x.group.kind];
    const ky = KIND_ORDER[y.group.kind];
    if (kx !== ky) return kx - ky;
    const k = x.group.kind;
    if (k === 'inconclusive') {
      const own = (g: Group) => (g.primary.kind === 'inconclusive' ? 0 : 1);
      // the benchmark's own change orders those whose own measure is undecided
      const bad = (g: Group) => (own(g) === 0 ? badness(g.primary.result) : g.badness);
      return own(x.group) - own(y.group) || bad(y.group) - bad(x.group) || x.first - y.first;
    }
    if (k === 'regression') return y.group.badness - x.group.badness || x.first - y.first;
    if (k === 'improvement') return x.group.badness - y.group.badness || x.first - y.first;
    return x.first - y.first;
  });
  return out.map((x) => x.group);
}

export interface VerdictCounts {
  regression: number;
  improvement: number;
  inconclusive: number;
  unchanged: number;
  failed: number;
  added: number;
  removed: number;
}

/** Counts by kind, one per group: a benchmark and its derived metrics count once, as the worst kind among them. */
export function countGroups(groups: readonly Group[]): VerdictCounts {
  const c: VerdictCounts = { regression: 0, improvement: 0, inconclusive: 0, unchanged: 0, failed: 0, added: 0, removed: 0 };
  for (const g of groups) if (g.kind !== 'no-data') c[g.kind]++;
  return c;
}

/** Counts by kind, one per benchmark group (a benchmark and its derived metrics count once). */
export function countVerdicts(results: Results): VerdictCounts {
  return countGroups(groupRows(results.benchmarks));
}

/** Report order of the results themselves (groups flattened), the order in which rows survive a cut. */
export function reportOrder(benchmarks: readonly BenchmarkResult[]): BenchmarkResult[] {
  return groupRows(benchmarks).flatMap((g) => [g.primary.result, ...g.derived.map((r) => r.result)]);
}
