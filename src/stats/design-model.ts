/**
 * The design of a benchmark's runs: how many repetitions each process runs, and how long each
 * repetition is, chosen from where the noise of a pair comes from.
 *
 * The model (Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time", ISMM '13, 63-74: a
 * random-effects model with one level per kind of repetition). On the log scale, repetition j of
 * process i of one side measures
 *
 *     ln x_ij = mu + P_i + W_ij,   Var P = B (between processes),   Var W = W(L) (within one)
 *
 * where P is what a process brings with it (its heap, its code layout, the moment of the machine)
 * and W what varies from one repetition to the next inside it. The value of a process is the median
 * of its k repetitions, or their least for a Go time (harness/types.ts, `Sample.combine`), so
 *
 *     Var(ln value) = B + e_k W(L) / k,     Var(d) = 2 Var(ln value)
 *
 * for d = ln(head / base) of a pair of independent processes, with e_k the variance of the median
 * of k normal values relative to their mean (e_1 = 1, e_3 = 1.35, e_5 = 1.44), or of their least
 * (e_3 = 1.68, e_5 = 2.24: `minEfficiency`). Normal repetitions are the model's assumption, under
 * which the least is the poorer summary; where what disturbs a repetition only adds (a Go time),
 * it is the better one, by more than the model credits it (harness/types.ts), so the model is
 * conservative there: it prefers fewer repetitions. Longer repetitions
 * average more of the fast noise, W(L) = W0 (L0 / L)^gamma: gamma = 1 for noise independent from one
 * stretch of time to the next (white noise), less for noise that lasts (a longer repetition then
 * averages less of it); the pilot measures W at two lengths, which gives gamma. A pair costs two
 * processes:
 *
 *     cost = 2 (c_p + k (L + c_r))
 *
 * with c_p what starting a process costs (its start, the harness's set-up, the test data) and c_r
 * what each repetition adds besides its own length (Go runs one iteration first, b.N = 1). The
 * interval of the change narrows as sqrt(Var(d) / pairs), and pairs per second of budget are
 * 1 / cost, so the design that gives the narrowest interval per second minimises Var(d) × cost:
 * Kalibera and Jones's criterion. Over k with L fixed their closed form is
 * k* = sqrt(c_p e_k W / (c_r' B)); here L is a choice too, so the candidates are evaluated directly.
 * That criterion settles a benchmark soonest, but ignores the cap on pairs: where pairs are cheap,
 * the cheapest design may need more pairs than `--max-pairs` allows while a costlier one would fit.
 * So the designs that would likely settle within the budget (`settlesWithin`) compete first. When
 * none would, those that would on a hopeful reading (needing at most HOPEFUL_FACTOR times the pairs
 * they can run) compete by the narrowest interval within the budget: the least Var(d) / n, with
 * n = min(pairs left, time left / cost) the pairs a design can run. Where time binds that is
 * Var(d) × cost again; where the cap on pairs binds, the least Var(d), since cheaper pairs past the
 * cap buy nothing (a Go sort whose 10 ms repetitions varied by ±19%: one repetition of 10 ms per
 * process, the cheapest per second, spread its pairs by ±26% and would need ten times the 190 pairs
 * left; five of 40 ms, a sixth of its variance within the same budget, about 1.7 times the pairs
 * they can run). When not even that, the cheapest: the benchmark is unlikely to settle, and the
 * allocation gives the budget to others once it proves futile.
 *
 * The components come from the first pairs (the pilot), run with k0 repetitions per process at two
 * lengths, L0 and L1, alternating: W(L0) and W(L1) from the spread of repetitions inside each process
 * (robust: the median of the pairwise differences within a process, which ignores a rare burst),
 * gamma from their ratio, B from the spread of d less what W explains. All are robust scales
 * (MAD-based), since a few disturbed processes should not set the design of all the others. Unless
 * the disturbed ones are not few: where the pilot's processes fall into modes (`processModesEvident`:
 * a fifth or more of its pairs far from the rest, as when a whole process lands in a slow mode or a
 * short repetition catches a collection or not), the modes are noise every design meets, and the
 * plain mean squares count them.
 */

import { median, quantileSorted } from './describe.ts';

/** One process of a pilot pair: the values of its repetitions (all > 0) and what it cost. */
export interface PilotProcess {
  repetitions: readonly number[];
  /** wall time of the whole process, ms */
  wallMs: number;
  /** the repetitions the process ran, warm-up ones included (default: those in `repetitions`) */
  ran?: number;
  /** the length of each of its repetitions as it ran, ms (default: the pilot's `repetitionMs`) */
  repetitionMs?: number;
}

/** The variance components and costs of one benchmark, as measured in its pilot. */
export interface VarianceComponents {
  /** B: variance of ln(value) between processes (one side), on the log scale */
  between: number;
  /** W0: variance of ln(repetition) within one process, for repetitions of `repetitionMs` */
  within: number;
  /** L0: the length of the pilot's shorter repetitions, ms */
  repetitionMs: number;
  /**
   * gamma: how the within-process variance falls with the length of a repetition,
   * W(L) = W0 (L0 / L)^gamma: 1 for noise independent from one stretch of time to the next (white),
   * 0 for noise that a longer repetition does not average away; measured from two pilot lengths, in [0, 1]
   */
  lengthExponent: number;
  /** c_p: what a process costs besides its repetitions, ms */
  processMs: number;
  /** c_r: what each repetition costs besides its length, ms */
  perRepetitionMs: number;
  /** pilot pairs the components rest on */
  pairs: number;
  /** how a process's value is made from its repetitions (default: their median) */
  summary?: Summary;
}

export interface Design {
  /** repetitions run first in each process and left out of its value (warm-up) */
  warmup: number;
  repetitions: number;
  /** the length of each repetition, ms */
  lengthMs: number;
  /** predicted standard deviation of d = ln(head / base) per pair */
  pairSd: number;
  /** predicted milliseconds per pair */
  pairMs: number;
  /** with a `KeepRule`: the model's own best, where the kept design stood in its place */
  overruled?: Design;
}

/**
 * Variance of the median of k normal values, relative to their mean's (asymptotically π/2); odd k
 * checked against numerical integration of the order statistic's density (tests/stats/reference.test.ts).
 */
export function medianEfficiency(k: number): number {
  // exact values for small k (normal order statistics), then the asymptote
  const table: Record<number, number> = { 1: 1, 2: 1, 3: 1.346, 4: 1.193, 5: 1.4342, 7: 1.4731, 9: 1.4949 };
  return table[k] ?? Math.PI / 2;
}

/**
 * Variance of the least of k normal values, times k, relative to one value's (so that e_k W / k is
 * the variance of the least: the mean's would be W / k): the second moment of the smallest order
 * statistic of a standard normal sample (Teichroew 1956, "Tables of expected values of order
 * statistics and products of order statistics for samples of size twenty and less from the normal
 * distribution", Ann. Math. Statist. 27, 410-426), computed here by numerical integration for k up
 * to 16; above, the largest tabled (the engine chooses among 1, 3 and 5).
 */
export function minEfficiency(k: number): number {
  const table = [1, 1.3634, 1.6784, 1.9669, 2.2377, 2.4956, 2.7434, 2.9832, 3.2162, 3.4434, 3.6657, 3.8836, 4.0977, 4.3082, 4.5156, 4.7202];
  return table[Math.min(Math.max(1, Math.round(k)), table.length) - 1]!;
}

/** How a process's value is made from its repetitions (harness/types.ts, `Sample.combine`): their median, or their least. */
export type Summary = 'median' | 'min';

/** e_k of `summary` (module doc). */
function summaryEfficiency(k: number, summary: Summary = 'median'): number {
  return summary === 'min' ? minEfficiency(k) : medianEfficiency(k);
}

/** A process's value from its repetitions, by `summary`. */
function summarize(values: readonly number[], summary: Summary): number {
  if (summary === 'median') return median(values);
  let least = Infinity;
  for (const v of values) if (v < least) least = v;
  return least;
}

const MAD_NORMAL = 1.482602218505602;
const Q3 = 0.6744897501960817;

/** The pilot pairs of one repetition length. */
export interface PilotGroup {
  /** the length each repetition was asked to have, ms */
  repetitionMs: number;
  pairs: ReadonlyArray<{ base: PilotProcess; head: PilotProcess }>;
}

/**
 * W and Var(d) of one pilot group, and the repetitions per process. Robust by default (module doc):
 * the median of the pairwise differences within a process and the MAD of d, which a few disturbed
 * processes do not move. Where the pilot's processes fall into modes (`processModesEvident`), the
 * disturbances are not a few: every design meets them, so the plain mean squares count them
 * (Kalibera & Jones 2013 estimate their components by the plain analysis of variance).
 */
function groupSpread(g: PilotGroup, summary: Summary, robust = true): { within: number; varD: number; k: number; d: number } | null {
  const diffs: number[] = [];
  let k = 0;
  for (const pair of g.pairs) {
    for (const p of [pair.base, pair.head]) {
      const logs = p.repetitions.filter((v) => v > 0).map(Math.log);
      k = Math.max(k, logs.length);
      for (let i = 0; i < logs.length; i++) for (let j = i + 1; j < logs.length; j++) diffs.push(Math.abs(logs[i]! - logs[j]!));
    }
  }
  const d = groupDifferences(g, summary);
  if (d.length < 3 || diffs.length === 0 || k < 2) return null;
  if (!robust) {
    // E (x_i - x_j)^2 = 2 W; the sample variance of d
    const within = diffs.reduce((a, x) => a + x * x, 0) / diffs.length / 2;
    const mean = d.reduce((a, x) => a + x, 0) / d.length;
    const varD = d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1);
    return { within, varD, k, d: d.length };
  }
  // |x_i - x_j| of two repetitions is |N(0, 2 W)|, whose median is 0.6745 sqrt(2 W)
  const within = (median(diffs) / (Q3 * Math.SQRT2)) ** 2;
  const md = median(d);
  const varD = (MAD_NORMAL * median(d.map((x) => Math.abs(x - md)))) ** 2;
  return { within, varD, k, d: d.length };
}

/** d = ln(head / base) of each pair of one group whose processes both have repetitions, their values by `summary`. */
function groupDifferences(g: PilotGroup, summary: Summary): number[] {
  const d: number[] = [];
  for (const pair of g.pairs) {
    const b = pair.base.repetitions.filter((v) => v > 0);
    const h = pair.head.repetitions.filter((v) => v > 0);
    if (b.length > 0 && h.length > 0) d.push(Math.log(summarize(h, summary) / summarize(b, summary)));
  }
  return d;
}

/**
 * The differences ln(x_i / x_j), i < j, between the repetitions of each process of the pilot: where
 * a repetition catches a pause (a collection) or not, they fall into modes as the pairs' differences
 * do where a whole process lands in a slow mode (`processModesEvident` reads both).
 */
export function repetitionDifferences(groups: readonly PilotGroup[]): number[] {
  const out: number[] = [];
  for (const g of groups) {
    for (const pair of g.pairs) {
      for (const p of [pair.base, pair.head]) {
        const logs = p.repetitions.filter((v) => v > 0).map(Math.log);
        for (let i = 0; i < logs.length; i++) for (let j = i + 1; j < logs.length; j++) out.push(logs[i]! - logs[j]!);
      }
    }
  }
  return out;
}

/** The pilot's pair differences d = ln(head / base) of the processes' values (by `summary`), over all its groups. */
export function pilotDifferences(groups: readonly PilotGroup[], summary: Summary = 'median'): number[] {
  return groups.flatMap((g) => groupDifferences(g, summary));
}

/**
 * The sd of d that the spread within a process alone would give the pilot's pairs, were processes
 * alike: sqrt(2 e_k W / k) (robust W: the median pairwise difference), of the group whose
 * repetitions spread least (its longest, as a rule), or 0 when none can be read. The floor under
 * `processModesEvident`'s scale: pairs far from the rest by more than their own repetitions' noise
 * explains are what a mode of a process looks like. The least, since a longer repetition that
 * catches a collection more often than not reads that as its ordinary spread.
 */
export function withinOnlyPairSd(groups: readonly PilotGroup[], summary: Summary = 'median'): number {
  let least = Infinity;
  for (const g of groups) {
    const s = groupSpread(g, summary);
    if (s) least = Math.min(least, Math.sqrt((2 * summaryEfficiency(s.k, summary) * s.within) / s.k));
  }
  return Number.isFinite(least) ? least : 0;
}

/** How far from the median, in sd, a pair is far from the rest (`processModesEvident`). */
const MODE_DISTANCE_SD = 4;
/** The lower quartile of |Z|, Z standard normal: Φ⁻¹(5/8). */
const LOWER_QUARTILE_ABS_NORMAL = 0.31863936396437514;

/**
 * Whether the pilot's processes fall into modes: at least 3, and at least a fifth, of its pairs'
 * differences `d` lie more than MODE_DISTANCE_SD sd from their median. The sd is read from the
 * lower quartile of |d - median| (scaled to a normal's sd), the spread of the pairs in the common
 * mode, which the far pairs do not move until they are three quarters of all (the MAD's median of
 * the same distances, once they are half); it is floored by `withinPairSd`, the
 * spread the processes' own repetitions explain (`withinOnlyPairSd`). Under normal pairs a pair
 * lies that far with probability 6e-5; a fifth of them, as a whole process landing in a slow mode
 * (a layout, a collector's pacing) or a short repetition catching a collection or not makes them,
 * is no rare disturbance that robust scales may ignore, but noise every design meets (Kalibera &
 * Jones 2013, on modes of whole executions: a random effect per process, which only more processes
 * average out). tests/stats/process-modes.test.ts measures its false and true detection rates.
 */
export function processModesEvident(d: readonly number[], withinPairSd = 0): boolean {
  const far = farPairs(d, withinPairSd);
  return far >= 3 && far >= d.length / 5;
}

/** How many of the pairs' differences `d` lie more than MODE_DISTANCE_SD sd from their median (`processModesEvident`). */
export function farPairs(d: readonly number[], withinPairSd = 0): number {
  if (d.length < 5) return 0;
  const md = median(d);
  const dev = d.map((x) => Math.abs(x - md)).sort((a, b) => a - b);
  const sd = Math.max(quantileSorted(dev, 0.25) / LOWER_QUARTILE_ABS_NORMAL, withinPairSd);
  if (!(sd > 0)) return 0;
  return dev.filter((x) => x > MODE_DISTANCE_SD * sd).length;
}

/**
 * The components from pilot pairs whose processes ran k0 >= 2 repetitions, in one or two groups of
 * repetition length (two lengths show how the spread within a process falls with the length).
 * `opMs` is one iteration's time (what each repetition's extra b.N = 1 run costs in Go; 0 elsewhere).
 */
export function varianceComponents(groups: readonly PilotGroup[], opMs = 0, summary: Summary = 'median', robust = true): VarianceComponents | null {
  const spreads = groups.map((g) => ({ g, s: groupSpread(g, summary, robust) })).filter((x): x is { g: PilotGroup; s: NonNullable<ReturnType<typeof groupSpread>> } => x.s !== null);
  if (spreads.length === 0) return null;
  spreads.sort((a, b) => a.g.repetitionMs - b.g.repetitionMs);
  const short = spreads[0]!;
  const long = spreads.at(-1)!;
  let gamma = 1;
  if (long !== short && long.g.repetitionMs > short.g.repetitionMs && short.s.within > 0 && long.s.within > 0) {
    gamma = Math.log(short.s.within / long.s.within) / Math.log(long.g.repetitionMs / short.g.repetitionMs);
  }
  gamma = Math.min(1, Math.max(0, gamma));
  // Var(d) / 2 is the variance of one process's value (the summary of its k0 repetitions); what W
  // does not explain is B, pooled over the groups by their pairs
  let num = 0;
  let den = 0;
  for (const { s } of spreads) {
    num += s.d * (s.varD / 2 - (summaryEfficiency(s.k, summary) * s.within) / s.k);
    den += s.d;
  }
  const between = Math.max(0, num / den);
  const overhead: number[] = [];
  for (const { g } of spreads) {
    for (const pair of g.pairs) {
      for (const p of [pair.base, pair.head]) {
        const reps = p.ran ?? p.repetitions.filter((v) => v > 0).length;
        if (Number.isFinite(p.wallMs)) overhead.push(p.wallMs - reps * ((p.repetitionMs ?? g.repetitionMs) + opMs));
      }
    }
  }
  return {
    between,
    within: short.s.within,
    repetitionMs: short.g.repetitionMs,
    lengthExponent: gamma,
    processMs: overhead.length > 0 ? Math.max(0, median(overhead)) : 0,
    perRepetitionMs: opMs,
    pairs: spreads.reduce((n, x) => n + x.s.d, 0),
    ...(summary === 'min' ? { summary } : {}),
  };
}

/**
 * What a benchmark may still spend, and what settling it takes: the pairs `--max-pairs` leaves it,
 * its share of the time left (ms), and the pairs it would likely settle after per unit of Var(d)
 * (stats/stop.ts, `settlePairsPerVariance`: the `expected` count the budget is ranked by).
 */
export interface DesignBudget {
  pairs: number;
  timeMs: number;
  pairsPerVariance: number;
}

/**
 * Var(d) × cost of one design under the components (module doc); `warmup` repetitions run first in
 * each process and cost their time, but are left out of its value (their noise is not in the
 * components measured for that design: `WarmupVariant`).
 */
export function designScore(c: VarianceComponents, repetitions: number, lengthMs: number, warmup = 0): { pairSd: number; pairMs: number; score: number } {
  const withinAtLength = c.within * (c.repetitionMs / Math.max(lengthMs, 1e-9)) ** c.lengthExponent;
  const varD = 2 * (c.between + (summaryEfficiency(repetitions, c.summary) * withinAtLength) / repetitions);
  const pairMs = 2 * (c.processMs + (repetitions + warmup) * (lengthMs + c.perRepetitionMs));
  return { pairSd: Math.sqrt(varD), pairMs, score: varD * pairMs };
}

/**
 * Whether a design would likely settle its benchmark within the budget: the pairs it needs,
 * pairsPerVariance × Var(d), fit under the cap on pairs and into the time at its cost per pair.
 */
export function settlesWithin(s: { pairSd: number; pairMs: number }, budget: DesignBudget): boolean {
  const need = budget.pairsPerVariance * s.pairSd ** 2;
  return need <= budget.pairs && need * s.pairMs <= budget.timeMs;
}

/**
 * The variance of the estimate a design reaches within the budget: Var(d) / n for the n pairs it
 * can run, n = min(pairs left, time left / cost); the score (Var(d) × cost) where the budget
 * allows no pair, so that the order is still the cheapest first.
 */
function withinBudget(s: { pairSd: number; pairMs: number; score: number }, budget: DesignBudget): number {
  const n = Math.min(budget.pairs, budget.timeMs / s.pairMs);
  return n > 0 ? s.pairSd ** 2 / n : s.score;
}

/**
 * How far beyond the pairs it can run a design may be predicted to need and still compete when no
 * design would likely settle: a pilot of 10-20 pairs knows a spread to within a relative standard
 * error of 1 / sqrt(2n) on the sd scale, 16-22%, so a design predicted to need twice the pairs it
 * can run (its spread overestimated by 1 - 1/sqrt(2), 29%: one and a half standard errors) may
 * still settle.
 */
const HOPEFUL_FACTOR = 2;

/**
 * How much wider (on the variance) than the narrowest a hopeful design's interval within the budget
 * may be and still count as narrow as it (`chooseDesign`): a pilot of 10-20 pairs knows a spread to
 * within 16-22% on the sd scale (`HOPEFUL_FACTOR`), so variances within a tenth of each other are
 * not told apart, and among such designs the cheapest leaves the most of the budget to the
 * benchmarks that can still settle (schedule/allocate.ts).
 */
const NARROW_ENOUGH = 1.1;

/** Whether a design would settle within the budget were its spread a bit smaller than the pilot says (`HOPEFUL_FACTOR`). */
function hopeful(s: { pairSd: number; pairMs: number }, budget: DesignBudget): boolean {
  const need = budget.pairsPerVariance * s.pairSd ** 2;
  return need <= HOPEFUL_FACTOR * Math.min(budget.pairs, budget.timeMs / s.pairMs);
}

/**
 * The components a design would meet with `warmup` repetitions left out at the start of each
 * process: measured on the pilot's repetitions after the first `warmup` (schedule/choose-design.ts). A
 * process's first repetition is often slower and more variable than the rest (the runtime's
 * start-up: the collector reclaiming what initialisation allocated, pools and caches filling,
 * pages faulting in), as a JVM's first iterations are (Kalibera & Jones 2013, on warm-up;
 * Barrett et al. 2017, "Virtual machine warmup blows hot and cold", OOPSLA). Leaving it out costs its
 * time and takes its noise away; which is better is read from the pilot like any other choice.
 */
export interface WarmupVariant {
  warmup: number;
  components: VarianceComponents;
}

/** The one-sided level of `warmupEvident`'s test. */
const WARMUP_LEVEL = 0.05;

/** P(X >= k) for X ~ Binomial(m, p), summed exactly (m is a pilot's processes: tens). */
export function binomialUpperTail(k: number, m: number, p: number): number {
  if (k <= 0) return 1;
  if (k > m) return 0;
  // pmf(i) from pmf(i - 1) by the ratio (m - i + 1) / i * p / (1 - p), in log space
  let lp = m * Math.log1p(-p);
  let tail = 0;
  for (let i = 0; i <= m; i++) {
    if (i > 0) lp += Math.log((m - i + 1) / i) + Math.log(p) - Math.log1p(-p);
    if (i >= k) tail += Math.exp(lp);
  }
  return Math.min(1, tail);
}

/**
 * Whether the first repetition of a process is slower than the ones after it, read from processes
 * that ran three or more. With no warm-up the repetitions of a process are exchangeable, so the
 * first is the largest of the first three with probability exactly 1/3; a warm-up makes it the
 * largest more often. An exact binomial test over the processes (those with a tie for the largest
 * dropped), one-sided at `level`. Only then does a design that leaves the first repetition out
 * compete: with no evidence of a warm-up, picking the better of two noisy readings of the same
 * spread would favour the costlier design by chance. The test looks for a slower start, the warm-up
 * of a runtime (a first repetition that is only more variable, or faster, is not looked for).
 */
export function warmupEvident(processes: ReadonlyArray<readonly number[]>, level = WARMUP_LEVEL): boolean {
  let first = 0;
  let m = 0;
  for (const reps of processes) {
    if (reps.length < 3 || !(reps[0]! > 0 && reps[1]! > 0 && reps[2]! > 0)) continue;
    const top = Math.max(reps[0]!, reps[1]!, reps[2]!);
    if (reps.slice(0, 3).filter((v) => v === top).length > 1) continue;
    m++;
    if (reps[0] === top) first++;
  }
  return m > 0 && binomialUpperTail(first, m, 1 / 3) <= level;
}

/**
 * The design with the narrowest interval per second of budget (the least Var(d) × cost) among
 * `repetitions` × `lengthsMs` (× the warm-up variants, each with its own components and the cost of
 * its warm-up): the one that settles its benchmark soonest. With a budget, only the
 * designs that would likely settle it within the budget compete, when there are any: where the
 * cheapest design's pairs are so cheap that `--max-pairs` would stop it first, a costlier design
 * with a narrower spread per pair still settles it. When none would, the hopeful ones (`hopeful`)
 * with the narrowest interval within the budget (`withinBudget`): the cheapest where time binds,
 * the narrowest spread per pair where the cap on pairs does, and of designs as narrow to within what
 * a pilot tells apart (`NARROW_ENOUGH`), the cheapest. When none is even hopeful, the
 * cheapest, and the allocation gives the budget to others once the benchmark proves futile
 * (schedule/allocate.ts). A tie goes to no warm-up, then to one repetition and then to the shorter
 * length: fewer assumptions about the noise inside a process. With `keep`, that choice gives way
 * to the kept design (`KeepRule`) wherever the kept one competes and reads within `keep.factor` of
 * it by the same objective.
 */
export function chooseDesign(
  components: VarianceComponents | readonly WarmupVariant[],
  candidates: { repetitions: readonly number[]; lengthsMs: readonly number[] },
  budget?: DesignBudget,
  keep?: KeepRule,
): Design {
  const variants: readonly WarmupVariant[] = 'between' in components ? [{ warmup: 0, components }] : components;
  // fewer warm-up repetitions first, so that a tie keeps them (the order below decides ties)
  const ordered = [...variants].sort((a, b) => a.warmup - b.warmup);
  const all = ordered.flatMap(({ warmup: w, components: c }) => candidates.repetitions.flatMap((k) => candidates.lengthsMs.map((L) => ({ w, k, L, s: designScore(c, k, L, w) }))));
  const fit = budget ? all.filter((x) => settlesWithin(x.s, budget)) : [];
  const near = budget && fit.length === 0 ? all.filter((x) => hopeful(x.s, budget)) : [];
  // how the kept design is weighed against the choice: among the hopeful, the interval within the
  // budget; else the score
  const objective = (s: { pairSd: number; pairMs: number; score: number }): number => (near.length > 0 ? withinBudget(s, budget!) : s.score);
  const competing = fit.length > 0 ? fit : near.length > 0 ? near : all;
  // among the hopeful, those whose interval within the budget is the narrowest, or as narrow to
  // within what a pilot can tell apart (`NARROW_ENOUGH`); then, in every case, the cheapest per
  // unit of precision (the least score). Once the cap on pairs binds, a design thirty times
  // costlier, which averages away a spread inside processes that the pairs barely show, would
  // otherwise win on a difference the pilot cannot measure
  const narrowest = near.reduce((m, x) => Math.min(m, withinBudget(x.s, budget!)), Infinity);
  const pool = competing === near ? near.filter((x) => withinBudget(x.s, budget!) <= narrowest * NARROW_ENOUGH) : competing;
  let best: { design: Design; s: { pairSd: number; pairMs: number; score: number } } | null = null;
  for (const { w, k, L, s } of pool) {
    if (best === null || s.score < best.s.score * (1 - 1e-9)) best = { design: { warmup: w, repetitions: k, lengthMs: L, pairSd: s.pairSd, pairMs: s.pairMs }, s };
  }
  const { design } = best!;
  const kept = keep ? keptIn(all, competing, keep) : undefined;
  if (!kept || objective(kept.s) > keep!.factor * objective(best!.s)) return design;
  const same = kept.w === design.warmup && kept.k === design.repetitions && kept.L === design.lengthMs;
  return { warmup: kept.w, repetitions: kept.k, lengthMs: kept.L, pairSd: kept.s.pairSd, pairMs: kept.s.pairMs, ...(same ? {} : { overruled: design }) };
}

/**
 * A design kept unless the model reads another `factor` times better (`chooseDesign`): `repetitions`
 * of the shortest candidate length, after as many warm-up repetitions as a variant offers.
 */
export interface KeepRule {
  repetitions: number;
  factor: number;
}

/** The kept design (the most warm-up any candidate has, the shortest length), if it is among those competing. */
function keptIn<T extends { w: number; k: number; L: number }>(all: readonly T[], pool: readonly T[], keep: KeepRule): T | undefined {
  let w = 0;
  let L = Infinity;
  for (const x of all) {
    if (x.w > w) w = x.w;
    if (x.L < L) L = x.L;
  }
  return pool.find((x) => x.w === w && x.k === keep.repetitions && x.L === L);
}
