/**
 * How many benchmarks of an A/A comparison could any allocation of its budget have called
 * `unchanged`? The ceiling behind "No allocation reaches the A/A goal in 10 minutes" (README, "Real
 * suites").
 *
 * Reads pairbench results files of A/A comparisons (what `npm run bench:suites -- --keep-work`
 * leaves in its scratch folder) and asks, per benchmark, from its own pairs:
 *
 * - P(n): the chance that n pairs of it are judged `unchanged`. Under no change the signs of the
 *   differences are fair coins independent of their sizes (the sign-flip argument the test rests
 *   on: Fisher 1935, §21), so a comparison of n pairs is simulated by drawing n sizes |d| from its
 *   measured pairs, with replacement, and random signs, and judging them as `compare` does
 *   (`analyzePairs`: the outlier screen, the Hodges–Lehmann equivalence interval at its level, within
 *   ±threshold: the rule by which `decide` calls a benchmark unchanged). At the level `compare` uses after its stopping rules (95%,
 *   `equivalenceLevel`), and at the one-look level of two one-sided tests (90%, what a fixed number
 *   of pairs with no stopping rule would be judged at), to show what the stopping rules cost.
 * - its pace: the seconds of one pair, the design's predicted pair time (`design.predicted.pairMs`)
 *   scaled so that the comparison's pairs fill its wall time (listing, warm-up and pilots
 *   included), or the mean pair time where no design was predicted.
 *
 * The ceiling: the most benchmarks expected `unchanged` when each is given a fixed number of pairs
 * chosen with its spread known in advance, within the budget: maximise Σ P_i(n_i) subject to
 * Σ n_i × pace_i ≤ budget, n_i from a grid or none, a multiple-choice knapsack solved exactly by
 * dynamic programming (Sinha & Zoltners 1979), costs rounded down so that the value is never below
 * the optimum. No pilot, no bootstrap pairs, no waiting: what an allocation that knew every spread
 * before the first pair could reach with one judgement per benchmark. A sequential rule could stop a
 * benchmark sooner than a fixed n; on the Go suite of 2026-11-28 none of the 17 benchmarks the
 * betting rule stopped had fewer pairs than where its P(n) reaches 50%, and 7 had at least those
 * where it reaches 90% (the report lists both per benchmark, beside the pairs it had). A second figure keeps what `compare` spends first:
 * every benchmark takes its first 20 pairs (and a pilot's, where its runs are designed) before the
 * budget is ranked (`floorPairs`), and only the rest is shared.
 *
 * `--from <a ceiling's .json>` judges the simulated chances of an earlier run again (the knapsack
 * and the report), without simulating.
 *
 *   npm run bench:ceiling -- --results /tmp/pairbench-suites-XXXX/arm-YYYY/pairbench-benchmark.json --label 'Go as written' [--results … --label …]
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzePairs } from '../src/stats/analysis.ts';
import { FUTILITY_MIN_PAIRS } from '../src/schedule/allocate.ts';
import { rngFor } from '../src/schedule/random.ts';
import { median } from '../src/stats/describe.ts';
import type { Pair } from '../src/stats/types.ts';
import { describeMachine, machineMarkdown, ROOT } from './lib/machine.ts';

export interface ResultsRow {
  name: string;
  pairs: Array<{ base: number; head: number }>;
  verdict: string;
  stoppedBecause?: string;
  /** a throughput judged from this time row (judge.ts, `reciprocalRows`) */
  reciprocalOf?: string;
  design?: { predicted?: { pairMs?: number }; pilotPairs?: number } | null;
}
export interface ResultsFile {
  startedAt: string;
  finishedAt: string;
  settings: { threshold: number; alpha: number; maxTimeMs: number; minPairs?: number; outliers: 'tukey' | 'mad' | 'none' };
  benchmarks: ResultsRow[];
}

export const GRID = [10, 15, 20, 30, 40, 55, 70, 90, 120, 150, 200, 260, 340, 450, 600, 800];

/**
 * The pairs a benchmark has before `compare` ranks the budget (schedule/allocate.ts): at least
 * `--min-pairs` and FUTILITY_MIN_PAIRS, and FUTILITY_MIN_PAIRS of its design after a pilot's pairs
 * where its runs are designed.
 */
export function floorPairs(row: ResultsRow, minPairs: number): number {
  return Math.max(minPairs, FUTILITY_MIN_PAIRS, (row.design?.pilotPairs ?? 0) + (row.design ? FUTILITY_MIN_PAIRS : 0));
}

export interface Judging {
  threshold: number;
  alpha: number;
  outliers: 'tukey' | 'mad' | 'none';
}

/**
 * The chance that n pairs whose sizes are drawn from `sizes` (with replacement) with fair signs are
 * judged `unchanged`: the equivalence interval of `analyzePairs` (at 95% when `sequential`, as
 * `compare` judges; else at 90%) within ±threshold, at its level, over `reps` simulated comparisons.
 */
export function pUnchanged(sizes: readonly number[], n: number, sequential: boolean, judging: Judging, reps: number, rng: () => number): number {
  let hits = 0;
  for (let r = 0; r < reps; r++) {
    const pairs: Pair[] = [];
    for (let i = 0; i < n; i++) {
      const size = sizes[Math.floor(rng() * sizes.length)]!;
      pairs.push({ base: 1, head: Math.exp(rng() < 0.5 ? -size : size), order: 'base-first' });
    }
    const a = analyzePairs(pairs, { alpha: judging.alpha, outliers: judging.outliers, threshold: judging.threshold, sequential, seed: r + 1 });
    const eq = a.equivalence;
    if (!eq || eq.achievedConfidence < a.equivalenceLevel - 1e-12) continue;
    if (Math.expm1(eq.lower) >= -judging.threshold && Math.expm1(eq.upper) <= judging.threshold) hits++;
  }
  return hits / reps;
}

/** One way to spend on a benchmark: `cost` (ms) for a chance `p` of `unchanged`. */
export interface Option {
  cost: number;
  p: number;
}

/**
 * The best expected count of `unchanged` for every budget from 0 to `maxBudgetMs` in steps of
 * `stepMs`: each benchmark takes at most one of its options (or none), and the costs together fit
 * the budget. A multiple-choice knapsack solved exactly by dynamic programming over the budget
 * (Sinha & Zoltners 1979, *Operations Research* 27, 503-515); costs are rounded down to the step,
 * so the value is never below the true optimum at that budget (a ceiling stays a ceiling).
 * `choices(budgetMs)` gives the option taken per benchmark (-1: none).
 */
export function knapsack(options: readonly (readonly Option[])[], maxBudgetMs: number, stepMs: number): { best: (budgetMs: number) => number; choices: (budgetMs: number) => number[] } {
  const B = Math.floor(maxBudgetMs / stepMs);
  let value = new Float64Array(B + 1);
  const taken: Int8Array[] = [];
  for (const opts of options) {
    const next = Float64Array.from(value);
    const pick = new Int8Array(B + 1).fill(-1);
    opts.forEach((o, k) => {
      const w = Math.floor(o.cost / stepMs);
      for (let b = B; b >= w; b--) {
        const v = value[b - w]! + o.p;
        if (v > next[b]! + 1e-12) {
          next[b] = v;
          pick[b] = k;
        }
      }
    });
    taken.push(pick);
    value = next;
  }
  const index = (budgetMs: number) => Math.min(B, Math.max(0, Math.floor(budgetMs / stepMs + 1e-9)));
  return {
    best: (budgetMs) => value[index(budgetMs)]!,
    choices: (budgetMs) => {
      const out = new Array<number>(options.length).fill(-1);
      let b = index(budgetMs);
      for (let i = options.length - 1; i >= 0; i--) {
        const k = taken[i]![b]!;
        out[i] = k;
        if (k >= 0) b -= Math.floor(options[i]![k]!.cost / stepMs);
      }
      return out;
    },
  };
}

/** The smallest budget (ms, to `stepMs`) at which `best` reaches `goal`; null within `maxBudgetMs` never. */
export function budgetFor(best: (budgetMs: number) => number, goal: number, maxBudgetMs: number, stepMs: number): number | null {
  if (best(maxBudgetMs) < goal - 1e-9) return null;
  let lo = 0;
  let hi = Math.floor(maxBudgetMs / stepMs);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (best(mid * stepMs) >= goal - 1e-9) hi = mid;
    else lo = mid + 1;
  }
  return lo * stepMs;
}

/**
 * The ceiling as `compare` spends: every benchmark first takes its floor (`floorPairs`) before the
 * budget is ranked, and the knapsack shares what is left (a floor between two points of GRID is
 * taken at the next one up). `items`: the benchmarks the ceiling counts, with their chances over
 * GRID; `otherFloorsMs`: the floors of benchmarks it does not count, spent all the same. Null when
 * the floors alone exceed the budget.
 */
export function bestAfterFloors(items: readonly { floorPairs: number; paceMs: number; p: readonly number[] }[], otherFloorsMs: number, budgetMs: number, stepMs: number): number | null {
  const floorOf = (b: { floorPairs: number }) => Math.max(0, GRID.findIndex((n) => n >= b.floorPairs));
  const floorCost = otherFloorsMs + items.reduce((t, b) => t + GRID[floorOf(b)]! * b.paceMs, 0);
  if (floorCost > budgetMs) return null;
  const floorValue = items.reduce((t, b) => t + b.p[floorOf(b)]!, 0);
  const rest = knapsack(
    items.map((b) => GRID.flatMap((n, k) => (k > floorOf(b) ? [{ cost: (n - GRID[floorOf(b)]!) * b.paceMs, p: b.p[k]! - b.p[floorOf(b)]! }] : []))),
    budgetMs,
    stepMs,
  );
  return floorValue + rest.best(budgetMs - floorCost);
}

/** The fewest pairs of GRID at which a chance over GRID reaches `q`, as the reports print it. */
export function firstAt(ps: readonly number[], q: number): string {
  const k = ps.findIndex((p) => p >= q);
  return k < 0 ? `> ${GRID.at(-1)}` : String(GRID[k]);
}

export const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
export const min = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

/** One benchmark of a comparison: its chances at each n of GRID and the time of its pairs. */
interface Bench {
  name: string;
  pairs: number;
  verdict: string;
  stoppedBecause: string | null;
  robustSpread: number;
  paceMs: number;
  /** the pairs it has before `compare` ranks the budget (`floorPairs`), one of GRID */
  floorPairs: number;
  /** P(n) over GRID, at 95% (as `compare` judges) and at 90% (one look) */
  p95: number[];
  p90: number[];
}

/** What a ceiling's report says of the comparison it read. */
export interface ComparisonHead {
  label: string;
  file: string;
  wallMs: number;
  budgetMs: number;
  totalPairs: number;
  threshold: number;
  alpha: number;
}

interface Comparison extends ComparisonHead {
  rows: Bench[];
}

/**
 * A results file, its timed rows (each benchmark's own measure: an extra metric's row, named
 * `name (metric)`, shares its pairs) and the time of one pair of each: the design's predicted pair
 * time (`design.predicted.pairMs`) scaled so that the comparison's pairs fill its wall time
 * (listing, warm-up and pilots included), or the mean pair time where no design was predicted.
 */
export function readComparison(file: string): { results: ResultsFile; rows: ResultsRow[]; paces: number[]; wallMs: number; totalPairs: number } {
  const results = JSON.parse(readFileSync(resolve(file), 'utf8')) as ResultsFile;
  const wallMs = Date.parse(results.finishedAt) - Date.parse(results.startedAt);
  const rows = results.benchmarks.filter((b) => !/ \([^()]*\)$/.test(b.name) && b.pairs.length > 0);
  const totalPairs = rows.reduce((t, b) => t + b.pairs.length, 0);
  const predicted = rows.map((b) => b.design?.predicted?.pairMs ?? null);
  const allPredicted = predicted.every((p) => p !== null);
  const scale = allPredicted ? wallMs / rows.reduce((t, b, i) => t + b.pairs.length * predicted[i]!, 0) : 1;
  const paces = rows.map((_, i) => (allPredicted ? predicted[i]! * scale : wallMs / totalPairs));
  return { results, rows, paces, wallMs, totalPairs };
}

/** Simulates every benchmark of one A/A results file (the expensive part: `reps` judgements per benchmark, n and level). */
function simulate(file: string, label: string, reps: number, seed: number): Comparison {
  const { results, rows, paces, wallMs, totalPairs } = readComparison(file);
  const s = results.settings;
  const rng = rngFor(seed, 'ceiling', label);
  const benches = rows.map((b, i): Bench => {
    const sizes = b.pairs.filter((p) => p.base > 0 && p.head > 0).map((p) => Math.abs(Math.log(p.head / p.base)));
    const started = Date.now();
    const p95 = GRID.map((n) => pUnchanged(sizes, n, true, s, reps, rng));
    const p90 = GRID.map((n) => pUnchanged(sizes, n, false, s, reps, rng));
    console.error(`[ceiling] ${label}: ${b.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return { name: b.name, pairs: b.pairs.length, verdict: b.verdict, stoppedBecause: b.stoppedBecause ?? null, robustSpread: 1.4826 * median(sizes), floorPairs: floorPairs(b, s.minPairs ?? 0), paceMs: paces[i]!, p95, p90 };
  });
  return { label, file: relative(ROOT, resolve(file)).startsWith('..') ? resolve(file) : relative(ROOT, resolve(file)), wallMs, budgetMs: s.maxTimeMs, totalPairs, threshold: s.threshold, alpha: s.alpha, rows: benches };
}

/** The ceilings of one comparison, and its section of the report. */
function judgeComparison(c: Comparison): { figures: Record<string, unknown>; md: string[] } {
  const STEP_MS = 100;
  const maxBudget = c.budgetMs * 8;
  const options = (which: 'p95' | 'p90') => c.rows.map((b) => GRID.map((n, k) => ({ cost: n * b.paceMs, p: b[which][k]! })));
  const k95 = knapsack(options('p95'), maxBudget, STEP_MS);
  const k90 = knapsack(options('p90'), maxBudget, STEP_MS);
  const atFloor = bestAfterFloors(c.rows.map((b) => ({ floorPairs: b.floorPairs, paceMs: b.paceMs, p: b.p95 })), 0, c.budgetMs, STEP_MS);
  const floors = [...new Set(c.rows.map((b) => b.floorPairs))].sort((a, b) => a - b).join(' or ');
  const goal = Math.ceil(0.9 * c.rows.length);
  const need95 = budgetFor(k95.best, goal, maxBudget, STEP_MS);
  const need90 = budgetFor(k90.best, goal, maxBudget, STEP_MS);
  const actual = c.rows.filter((b) => b.verdict === 'unchanged').length;
  const chosen = k95.choices(c.budgetMs);
  const n = c.rows.length;
  const md: string[] = [];
  md.push(`## ${c.label}`, '');
  md.push(`${n} benchmarks, ${c.totalPairs} pairs in ${min(c.wallMs)} (budget ${min(c.budgetMs)}), threshold ${pct(c.threshold, 0)}, alpha ${c.alpha}; the median benchmark's pairs spread by ±${pct(median(c.rows.map((b) => b.robustSpread)))} (1.4826 × the median size |ln(head/base)|). The goal: ${goal} of ${n} \`unchanged\` (90%). Source: \`${c.file}\`.`, '');
  md.push('| | unchanged |', '|---|---|');
  md.push(`| the comparison as it ran | ${actual} of ${n} |`);
  md.push(`| the ceiling in its budget, equivalence at 95% (as \`compare\` judges) | ${k95.best(c.budgetMs).toFixed(1)} of ${n} on average |`);
  md.push(`| the same, when every benchmark first has the ${floors} pairs \`compare\` gives it before it ranks the budget (20, after a pilot's pairs where the runs are designed) | ${atFloor === null ? 'those pairs alone exceed the budget' : `${atFloor.toFixed(1)} of ${n} on average`} |`);
  md.push(`| the ceiling in its budget, equivalence at 90% (one look, no stopping rule) | ${k90.best(c.budgetMs).toFixed(1)} of ${n} on average |`);
  md.push(`| budget at which the ceiling reaches the goal, at 95% | ${need95 === null ? `beyond ${min(maxBudget)}` : min(need95)} |`);
  md.push(`| budget at which the ceiling reaches the goal, at 90% | ${need90 === null ? `beyond ${min(maxBudget)}` : min(need90)} |`, '');
  md.push('<details><summary>Per benchmark</summary>', '');
  md.push("| benchmark | pairs it had | its verdict (why it stopped) | spread per pair (robust) | s per pair | pairs for P(unchanged) ≥ 50% / 90%, at 95% | P(unchanged) at the ceiling's pairs, at 95% |");
  md.push('|---|---|---|---|---|---|---|');
  c.rows.forEach((b, i) => {
    const k = chosen[i]!;
    md.push(`| ${b.name} | ${b.pairs} | ${b.verdict} (${b.stoppedBecause ?? '—'}) | ±${pct(b.robustSpread)} | ${(b.paceMs / 1000).toFixed(2)} | ${firstAt(b.p95, 0.5)} / ${firstAt(b.p95, 0.9)} | ${k < 0 ? 'none given' : `${pct(b.p95[k]!, 0)} at ${GRID[k]}`} |`);
  });
  md.push('', '</details>', '');
  const figures = { goal, actualUnchanged: actual, ceiling95: k95.best(c.budgetMs), ceiling95AfterFloor: atFloor, ceiling90: k90.best(c.budgetMs), budgetForGoal95Ms: need95, budgetForGoal90Ms: need90, pairsAtCeiling95: chosen.map((k) => (k < 0 ? 0 : GRID[k]!)) };
  return { figures, md };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      results: { type: 'string', multiple: true },
      label: { type: 'string', multiple: true },
      from: { type: 'string' },
      reps: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: join(ROOT, 'bench/results', `ceiling-${new Date().toISOString().slice(0, 10)}`) },
    },
  });
  const files = values.results ?? [];
  const labels = values.label ?? [];
  const reps = Number(values.reps);
  const seed = Number(values.seed);
  if (values.from === undefined && (files.length === 0 || labels.length !== files.length)) {
    console.error(`bench:ceiling: --results and --label: expected one label per A/A results file (got ${files.length} results, ${labels.length} labels), or --from <a ceiling's .json>`);
    process.exit(2);
  }
  if (!Number.isInteger(reps) || reps < 20) {
    console.error(`bench:ceiling: --reps ${values.reps}: expected a whole number of at least 20`);
    process.exit(2);
  }
  const machine = describeMachine();
  const command = `npm run bench:ceiling -- ${process.argv.slice(2).map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}`;
  // --from: the simulated chances of an earlier run, judged again (the knapsack and the report only)
  const earlier = values.from === undefined ? null : (JSON.parse(readFileSync(resolve(values.from), 'utf8')) as { date: string; command: string; reps: number; comparisons: Comparison[] });
  const comparisons = earlier ? earlier.comparisons : files.map((f, i) => simulate(f, labels[i]!, reps, seed));
  const md: string[] = ['# How many benchmarks any allocation of the budget could have called unchanged', ''];
  md.push(`Measured ${(earlier?.date ?? machine.date).slice(0, 10)} with \`${earlier?.command ?? command}\`${earlier ? `, judged again with \`${command}\`` : ''}; ${earlier?.reps ?? reps} simulated comparisons per benchmark, number of pairs and level.`, '');
  md.push('Per benchmark, its chance of being called `unchanged` after n pairs, from its own pairs: n sizes |ln(head/base)| drawn from them with fair signs (an A/A comparison has no change), judged as `compare` judges. The ceiling: the most benchmarks expected `unchanged` when each is given the number of pairs that serves the whole best, chosen with every spread known before the first pair, within the budget, at the time its pairs took (bench/ceiling.ts).', '');
  const judged = comparisons.map((c) => ({ c, ...judgeComparison(c) }));
  for (const j of judged) md.push(...j.md);
  md.push('## Machine', '', machineMarkdown(machine), '');
  mkdirSync(resolve(values.out!, '..'), { recursive: true });
  writeFileSync(`${values.out}.json`, JSON.stringify({ date: earlier?.date ?? machine.date, command: earlier?.command ?? command, machine, reps: earlier?.reps ?? reps, grid: GRID, comparisons: judged.map((j) => ({ ...j.c, ...j.figures })) }, null, 1) + '\n');
  writeFileSync(`${values.out}.md`, md.join('\n'));
  console.log(md.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
