/**
 * How many of the benchmarks a patch slowed could any allocation of the budget have detected? The
 * counterpart of bench/ceiling.ts for a comparison against a slowed head: the figure behind "the
 * noise-generator goal is (or is not) within reach of an allocation" (README, "Real suites").
 *
 * Reads a pairbench results file of a comparison against head (what `npm run bench:suites --
 * --keep-work` leaves in its scratch folder) and the bench's report of the same run (its truths:
 * which benchmarks the patch slowed, and by how much their counted calls predict). Per *affected*
 * benchmark, from its own pairs:
 *
 * - P(n): the chance that n pairs of it are judged a `regression`: n differences d = ln(head/base)
 *   drawn from its measured pairs with replacement (a bootstrap of the pair, Efron & Tibshirani
 *   1993, ch. 6; the pairs of its design, after the pilot's, when it has ten or more), judged as
 *   `compare` judges a change (`analyzePairs`: the outlier screen, the Hodges–Lehmann interval;
 *   judge.ts: the interval excludes 0 and the estimate is beyond the threshold; that the test
 *   rejects too is not simulated, which keeps the ceiling a ceiling). Twice: around
 *   the change its pairs measured, and shifted to the change the injected work predicts (the pairs'
 *   spread and shape, the truth's size), since 40 to 70 pairs at ±30% place their own change only
 *   within about ±10 points.
 * - at two levels of Holm's correction (Holm 1979, *Scand. J. Statist.* 6, 65-70; judge.ts,
 *   `intervalAlpha`): alpha / m, what the first benchmark Holm rejects faces, m the rows in the
 *   family; and alpha / (m - A + 1), A the affected benchmarks, the most lenient level an affected
 *   benchmark reaches when every other affected one was rejected before it and nothing else was.
 *   The second is the ceiling's own (an upper bound while the benchmarks that moved for no reason
 *   of the patch, the *marginal* ones, are not counted on); the first is what a lone regression gets.
 *   At the one-look level: the test's interval is not raised at a budget's stop.
 *
 * The ceiling: the most affected benchmarks expected detected when each is given a fixed number of
 * pairs chosen knowing which were slowed and how noisy each is, within the budget, at the time its
 * pairs took (`readComparison`): a multiple-choice knapsack solved exactly (`knapsack`), costs
 * rounded down. Once with every benchmark first given the pairs `compare` spends before it ranks the
 * budget (`floorPairs`, the unaffected ones included), once without (the unaffected given nothing).
 * An allocation that does not know which benchmarks were slowed can only do worse; whether one that
 * reads the signs of the pairs could come near it is a question this bench does not answer.
 *
 *   npm run bench:detection-ceiling -- --results <arm>/pairbench-benchmark.json --suites <bench:suites report .json> --suite go --label 'Go, noise generator'
 */
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzePairs } from '../src/stats/analysis.ts';
import { hodgesLehmann } from '../src/stats/hodges-lehmann.ts';
import { median } from '../src/stats/describe.ts';
import { intervalDrawsFor } from '../src/stats/signflip.ts';

/**
 * The test's sign patterns: its p-value is not read here (see `pRegression`), so the fewest `judge`
 * ever draws (signflip.ts, `drawsFor`); the family's would be 10 × rows / alpha, some 25,000 a judgement.
 */
const DEFAULT_TEST_DRAWS = 2000;
import { rngFor } from '../src/schedule/random.ts';
import type { Pair } from '../src/stats/types.ts';
import { GRID, bestAfterFloors, budgetFor, firstAt, floorPairs, knapsack, min, pct, readComparison, type ComparisonHead, type Judging } from './ceiling.ts';
import { describeMachine, machineMarkdown, ROOT } from './lib/machine.ts';

/**
 * The chance that n differences drawn from `d` (ln(head/base), with replacement) are judged a
 * regression at level `alphaAt`: the Hodges–Lehmann interval of `analyzePairs` (with the sign
 * patterns `judge` draws for the interval in a family of `family` rows), at 1 - `alphaAt`, lies
 * above 0, and the estimate above the threshold (lower is better), over `reps` comparisons. `judge`
 * also asks the test to reject; that is not simulated (its p-value at a family's level takes some
 * 25,000 sign patterns a judgement), and can only take regressions away, so the chance stays an
 * upper bound, as a ceiling's must.
 */
export function pRegression(d: readonly number[], n: number, alphaAt: number, judging: Judging & { family: number }, reps: number, rng: () => number): number {
  const level = 1 - alphaAt;
  // the sign patterns `judge` draws for the interval in a family of this size (judge.ts)
  const intervalDraws = intervalDrawsFor(judging.family);
  let hits = 0;
  for (let r = 0; r < reps; r++) {
    const pairs: Pair[] = [];
    for (let i = 0; i < n; i++) pairs.push({ base: 1, head: Math.exp(d[Math.floor(rng() * d.length)]!), order: 'base-first' });
    const hl = analyzePairs(pairs, { alpha: judging.alpha, outliers: judging.outliers, threshold: judging.threshold, level, seed: r + 1, draws: DEFAULT_TEST_DRAWS, intervalDraws }).hl;
    if (!hl || hl.achievedConfidence < level - 1e-12) continue;
    if (hl.lower > 0 && Math.expm1(hl.estimate) > judging.threshold) hits++;
  }
  return hits / reps;
}

interface Truth {
  name: string;
  kind: 'affected' | 'unaffected' | 'marginal';
  predicted: number;
}

/** One affected benchmark: its chances over GRID, around its measured change and at the predicted one, at both levels. */
interface Affected {
  name: string;
  pairs: number;
  verdict: string;
  predicted: number;
  measured: number;
  robustSpread: number;
  paceMs: number;
  floorPairs: number;
  /** P(n) over GRID: [measured | predicted][lenient | bonferroni] */
  p: { measured: { lenient: number[]; bonferroni: number[] }; predicted: { lenient: number[]; bonferroni: number[] } };
}

interface Comparison extends ComparisonHead {
  family: number;
  detected: number;
  affected: Affected[];
  /** ms the floor pairs of the benchmarks not affected cost */
  othersFloorMs: number;
}

function simulate(file: string, suitesReport: string, suite: string, label: string, reps: number, seed: number): Comparison {
  const { results, rows, paces, wallMs, totalPairs } = readComparison(file);
  const s = results.settings;
  const report = JSON.parse(readFileSync(resolve(suitesReport), 'utf8')) as { truths: Record<string, Truth[]> };
  const truths = new Map((report.truths[suite] ?? []).map((t) => [t.name, t]));
  if (truths.size === 0) throw new Error(`bench:detection-ceiling: --suites ${suitesReport} has no truths for suite "${suite}"`);
  // the rows in Holm's family: every row (extra metrics included) with a pair whose sides differ
  // (judge.ts, `inFamily`), but a throughput judged from its time (`reciprocalOf`)
  const family = results.benchmarks.filter((b) => b.reciprocalOf === undefined && b.pairs.some((p) => p.base > 0 && p.head > 0 && p.head !== p.base)).length;
  const isAffected = (name: string) => truths.get(name)?.kind === 'affected';
  const A = rows.filter((b) => isAffected(b.name)).length;
  const lenient = s.alpha / Math.max(1, family - A + 1);
  const bonferroni = s.alpha / Math.max(1, family);
  const rng = rngFor(seed, 'detection-ceiling', label);
  let othersFloorMs = 0;
  const affected: Affected[] = [];
  rows.forEach((b, i) => {
    const floor = floorPairs(b, s.minPairs ?? 0);
    if (!isAffected(b.name)) {
      othersFloorMs += Math.min(floor, b.pairs.length) * paces[i]!;
      return;
    }
    const all = b.pairs.filter((p) => p.base > 0 && p.head > 0).map((p) => Math.log(p.head / p.base));
    const pilot = b.design?.pilotPairs ?? 0;
    const d = all.length - pilot >= 10 ? all.slice(pilot) : all;
    const centre = hodgesLehmann(d, 0.95, { zeros: 'keep' }).estimate;
    const predicted = truths.get(b.name)!.predicted;
    const shifted = d.map((x) => x - centre + Math.log1p(predicted));
    const started = Date.now();
    const chances = (xs: number[], alphaAt: number) => GRID.map((n) => pRegression(xs, n, alphaAt, { ...s, family }, reps, rng));
    const p = {
      measured: { lenient: chances(d, lenient), bonferroni: chances(d, bonferroni) },
      predicted: { lenient: chances(shifted, lenient), bonferroni: chances(shifted, bonferroni) },
    };
    console.error(`[detection-ceiling] ${label}: ${b.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    affected.push({ name: b.name, pairs: b.pairs.length, verdict: b.verdict, predicted, measured: Math.expm1(centre), robustSpread: 1.4826 * median(d.map((x) => Math.abs(x - centre))), paceMs: paces[i]!, floorPairs: floor, p });
  });
  const detected = affected.filter((b) => b.verdict === 'regression').length;
  const shown = relative(ROOT, resolve(file));
  return { label, file: shown.startsWith('..') ? resolve(file) : shown, wallMs, budgetMs: s.maxTimeMs, totalPairs, threshold: s.threshold, alpha: s.alpha, family, detected, affected, othersFloorMs };
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${pct(Math.abs(x))}`;

/** The ceilings of one comparison (for a choice of centring and level), and its report section. */
function judgeComparison(c: Comparison): { figures: Record<string, unknown>; md: string[] } {
  const STEP_MS = 100;
  const maxBudget = c.budgetMs * 8;
  const A = c.affected.length;
  const goal = Math.ceil(0.7 * A);
  const figures: Record<string, unknown> = { goal, affected: A, family: c.family, detected: c.detected };
  const lines: string[] = [];
  const chosenAt: Record<string, number[]> = {};
  for (const centring of ['predicted', 'measured'] as const) {
    for (const level of ['lenient', 'bonferroni'] as const) {
      const ps = (b: Affected) => b.p[centring][level];
      const free = knapsack(c.affected.map((b) => GRID.map((n, k) => ({ cost: n * b.paceMs, p: ps(b)[k]! }))), maxBudget, STEP_MS);
      // as `compare` spends: every benchmark first has its floor, the unaffected ones included
      const atFloor = bestAfterFloors(c.affected.map((b) => ({ floorPairs: b.floorPairs, paceMs: b.paceMs, p: ps(b) })), c.othersFloorMs, c.budgetMs, STEP_MS);
      const need = budgetFor(free.best, goal, maxBudget, STEP_MS);
      const key = `${centring}-${level}`;
      figures[key] = { ceiling: free.best(c.budgetMs), ceilingAfterFloor: atFloor, budgetForGoalMs: need };
      chosenAt[key] = free.choices(c.budgetMs);
      const levelText = level === 'lenient' ? `alpha / ${c.family - A + 1}` : `alpha / ${c.family}`;
      lines.push(`| ${centring === 'predicted' ? 'the change the injected work predicts' : 'the change its pairs measured'} | ${levelText} | ${free.best(c.budgetMs).toFixed(1)} | ${atFloor === null ? 'the floors alone exceed the budget' : atFloor.toFixed(1)} | ${need === null ? `beyond ${min(maxBudget)}` : min(need)} |`);
    }
  }
  const md: string[] = [];
  md.push(`## ${c.label}`, '');
  md.push(`${A} affected benchmarks of ${c.family} rows in the family, ${c.totalPairs} pairs in ${min(c.wallMs)} (budget ${min(c.budgetMs)}), threshold ${pct(c.threshold, 0)}, alpha ${c.alpha}. The goal: ${goal} of ${A} detected (70%). As it ran: **${c.detected} of ${A}** detected. Source: \`${c.file}\`.`, '');
  md.push('| around | interval level | ceiling in the budget (expected detected) | the same after the pairs `compare` spends first on every benchmark | budget at which the ceiling reaches the goal |', '|---|---|---|---|---|', ...lines, '');
  md.push('<details><summary>Per affected benchmark</summary>', '');
  md.push(`| benchmark | pairs it had | its verdict | change predicted / measured | spread per pair (robust) | s per pair | pairs for P(regression) ≥ 50% / 90%, at alpha / ${c.family - A + 1}, predicted / measured | P at the ceiling's pairs (predicted, alpha / ${c.family - A + 1}) |`);
  md.push('|---|---|---|---|---|---|---|---|');
  c.affected.forEach((b, i) => {
    const k = chosenAt['predicted-lenient']![i]!;
    const pl = b.p.predicted.lenient;
    const ml = b.p.measured.lenient;
    md.push(`| ${b.name} | ${b.pairs} | ${b.verdict} | ${signed(b.predicted)} / ${signed(b.measured)} | ±${pct(b.robustSpread)} | ${(b.paceMs / 1000).toFixed(2)} | ${firstAt(pl, 0.5)} / ${firstAt(pl, 0.9)}; ${firstAt(ml, 0.5)} / ${firstAt(ml, 0.9)} | ${k < 0 ? 'none given' : `${pct(pl[k]!, 0)} at ${GRID[k]}`} |`);
  });
  md.push('', '</details>', '');
  return { figures, md };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      results: { type: 'string' },
      suites: { type: 'string' },
      suite: { type: 'string', default: 'go' },
      label: { type: 'string' },
      from: { type: 'string' },
      reps: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: join(ROOT, 'bench/results', `detection-ceiling-${new Date().toISOString().slice(0, 10)}`) },
    },
  });
  const reps = Number(values.reps);
  if (values.from === undefined && (values.results === undefined || values.suites === undefined || values.label === undefined)) {
    console.error('bench:detection-ceiling: expected --results <a results file against head>, --suites <the bench:suites report of the same run> and --label <name>, or --from <a detection ceiling .json>');
    process.exit(2);
  }
  if (!Number.isInteger(reps) || reps < 20) {
    console.error(`bench:detection-ceiling: --reps ${values.reps}: expected a whole number of at least 20`);
    process.exit(2);
  }
  const machine = describeMachine();
  const command = `npm run bench:detection-ceiling -- ${process.argv.slice(2).map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}`;
  const earlier = values.from === undefined ? null : (JSON.parse(readFileSync(resolve(values.from), 'utf8')) as { date: string; command: string; reps: number; comparison: Comparison });
  const c = earlier ? earlier.comparison : simulate(values.results!, values.suites!, values.suite!, values.label!, reps, Number(values.seed));
  const judged = judgeComparison(c);
  const md: string[] = ['# How many slowed benchmarks any allocation of the budget could have detected', ''];
  md.push(`Measured ${(earlier?.date ?? machine.date).slice(0, 10)} with \`${earlier?.command ?? command}\`${earlier ? `, judged again with \`${command}\`` : ''}; ${earlier?.reps ?? reps} simulated comparisons per benchmark, number of pairs, centring and level.`, '');
  md.push('Per affected benchmark, its chance of being called a `regression` after n pairs: n differences ln(head/base) drawn from its own pairs (those of its design, after the pilot), around the change they measured or shifted to the change the injected work predicts, judged as `compare` judges a change at a level of Holm\'s correction. The ceiling: the most affected benchmarks expected detected when each is given the pairs that serve the whole best, chosen knowing which benchmarks were slowed and every spread before the first pair, within the budget, at the time its pairs took (bench/detection-ceiling.ts).', '');
  md.push(...judged.md, '## Machine', '', machineMarkdown(machine), '');
  mkdirSync(resolve(values.out!, '..'), { recursive: true });
  writeFileSync(`${values.out}.json`, JSON.stringify({ date: earlier?.date ?? machine.date, command: earlier?.command ?? command, machine, reps: earlier?.reps ?? reps, grid: GRID, comparison: c, figures: judged.figures }, null, 1) + '\n');
  writeFileSync(`${values.out}.md`, md.join('\n'));
  console.log(md.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
