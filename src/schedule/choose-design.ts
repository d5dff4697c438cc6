/**
 * The design of the runs of a benchmark paired on its own (`--design auto`, the default for Go,
 * Google Benchmark and pyperf suites whose runs pairbench can size): how many repetitions each
 * process runs and how long each is. The method is stats/design-model.ts (Kalibera & Jones's variance components); this
 * module runs it:
 *
 * 1. The listing run is short: each benchmark for about PILOT_LENGTH_MS, enough to learn the names
 *    and the time of one iteration (the command's own, longer `-test.benchtime` or
 *    `--benchmark_min_time` would spend the budget on the listing).
 * 2. The pilot: the benchmark's first pairs (`--min-pairs`, between 8 and 20) run PILOT_REPETITIONS
 *    repetitions per process, of PILOT_LENGTHS_MS in turn (one length per pair, the same on both
 *    sides: 10 and 20 ms), which shows the spread inside a process (its repetitions) at two lengths
 *    and between processes (its pairs). On a Go suite whose processes take 20 ms to start, the pilot
 *    takes about a tenth of a 10-minute budget, and its pairs count like any other.
 * 3. The choice, once every benchmark of the suite has its pilot (they run in the same rounds):
 *    among REPETITIONS × LENGTHS_MS (no longer than the command's own length), the design with the
 *    narrowest interval per second of budget; every later pair of the benchmark runs it, the same on
 *    both sides. The log says what was chosen and why, and the results file records it (`design` of
 *    each benchmark).
 *
 * A pilot of ten pairs measures a spread to within a third or so, and the choice between designs
 * turns on ratios of spreads, so each benchmark's own figures are pooled with the suite's
 * (`poolComponents`): what the machine does (how the spread inside a process falls with length) is
 * the suite's, the balance between processes and within them is shrunk halfway to the suite's
 * median, and what a process costs to start is the benchmark's own.
 *
 * The pilot's pairs count like any other: the design is chosen from the spreads (the sizes of the
 * differences and of the repetitions), never from their signs, so under no change the signs of all
 * pairs stay fair coins and the test stays exact (docs/statistics.md). What the user's code does is
 * not changed: only how many iterations each run does and how often it repeats.
 */
import type { RunDesign } from '../harness/harness.ts';
import { harnessOf } from '../harness/registry.ts';
import { canSize, type Sizing } from '../harness/select.ts';
import type { HarnessFormat } from '../harness/types.ts';
import type { RowSample } from '../measure/samples.ts';
import { chooseDesign, farPairs, pilotDifferences, processModesEvident, repetitionDifferences, varianceComponents, withinOnlyPairSd, type Design, type DesignBudget, type PilotGroup, type PilotProcess, type VarianceComponents, type WarmupVariant, warmupEvident } from '../stats/design-model.ts';
import { median } from '../stats/describe.ts';
import { designWords, lengthWords } from '../results/design-words.ts';

/**
 * Repetitions per process in the pilot: two give one difference within each process, which is what
 * the spread inside a process is read from; the pilot costs as little of the budget as that allows.
 */
export const PILOT_REPETITIONS = 2;
/** Length of the listing run's repetitions, and of the pilot's shorter ones, ms. */
export const PILOT_LENGTH_MS = 10;
/** The lengths of the pilot's repetitions, ms, one per pair in turn: how the spread inside a process falls with length. */
const PILOT_LENGTHS_MS: readonly number[] = [PILOT_LENGTH_MS, 2 * PILOT_LENGTH_MS];
/**
 * The lengths a design chooses from, ms: none shorter than the pilot's shorter repetitions. Below
 * the lengths the pilot measured, the spread inside a process is not known, and it need not follow
 * the model there: a Go sort on the project's 2-core machine spread by 5-9% per repetition of
 * 10-20 ms and by 23% at 2.5 ms, where the model read from 10 and 20 ms predicted 9% (a preemption
 * or a scheduler tick costs a short repetition a large part of itself). Designs of 2.5 ms chosen
 * on that extrapolation gave pairs spread by 20%; of 10-60 ms, by 8-10%.
 */
const LENGTHS_MS: readonly number[] = [PILOT_LENGTH_MS, 20, 40, 80, 160, 320, 640];
/**
 * The design kept unless the model reads another KEEP.factor times better (stats/design-model.ts,
 * `chooseDesign`): a warm-up (where one competes) and five repetitions of the shortest length, the
 * least of them for a Go time. The model's predictions are rough: on the fastjson suite, live, the
 * designs it chose spread their pairs two to five times wider or narrower than it predicted (one
 * 80 ms repetition predicted at ±1-3% a pair ran at ±3-11%), while that one design did well across
 * the suite. Replayed on three recordings of every fastjson benchmark's processes (quiet twice and
 * under the noise generator; docs/design-notes.md), keeping it
 * settled more benchmarks in ten minutes than the model's choice alone, and a factor of 4 about
 * as many as 2. It is not kept where the pilot's processes fall into modes (`processModesEvident`):
 * there five short repetitions are what does worst (a short repetition catches a collection or not;
 * a process's slow mode is in all its repetitions), and the model's own choice stands.
 */
const KEEP = { repetitions: 5, factor: 2 } as const;
/** The repetitions per process a design chooses from (odd: the median is one of the values). */
const REPETITIONS: readonly number[] = [1, 3, 5];
/** Pilot pairs: `--min-pairs`, within these bounds. */
export const PILOT_PAIRS = { min: 8, max: 20 } as const;

export interface UnitDesign {
  phase: 'pilot' | 'chosen';
  format: HarnessFormat;
  /** pairs the pilot takes */
  pilotPairs: number;
  /** one iteration, ms (from the listing run) */
  opMs: number;
  /** the longest repetition a design may choose: the command's own length, ms */
  maxLengthMs: number;
  repetitions: number;
  /** repetitions run first in each process and left out of its value */
  warmup: number;
  /** the length of a repetition, ms (sized by iterations, Go and pyperf: iterations × opMs) */
  lengthMs: number;
  /** Go and pyperf: iterations per repetition (pyperf: its loops) */
  iterations?: number;
  /** the processes of the pilot pairs, with the index of their length in PILOT_LENGTHS_MS */
  pilot: Array<{ length: number; base: PilotProcess; head: PilotProcess }>;
  /** the pilot's own design: its repetitions (after `warmup` more), and per pilot length what a repetition was (Go: its iterations) */
  pilotRun: { repetitions: number; warmup: number; lengths: Array<{ lengthMs: number; iterations?: number }> };
  components?: VarianceComponents;
  predicted?: Pick<Design, 'pairSd' | 'pairMs'>;
  /**
   * Go: the pilot ran a cold start (`coldStart`): how it showed. Its pairs measured the refill of
   * what a collection emptied, not the steady iteration the design runs, and are not judged
   * (results/cold-pilot.ts)
   */
  coldStart?: 'first' | 'modes';
}

/** What the harness of `format` lets pairbench design (harness/harness.ts, `RunDesign`); a unit is designed only where it has one (`designs`). */
function designOf(format: HarnessFormat): RunDesign {
  return harnessOf(format).design!;
}

/** Whether a repetition of this design is a count of iterations pairbench fixes (Go), rather than a time the harness fills. */
const byIterations = (d: Pick<UnitDesign, 'format'>): boolean => designOf(d.format).lengthBy === 'iterations';

/** Whether runs of this benchmark are designed by pairbench (`--design auto` on a sizable command). */
export function designs(bench: { run: string; format: string; design?: 'auto' | 'command'; batch?: number; iterations?: 'fixed' | 'harness' }): boolean {
  if ((bench.design ?? 'auto') !== 'auto') return false;
  if ((bench.batch ?? 1) !== 1 || bench.iterations === 'harness') return false;
  const harness = harnessOf(bench.format);
  return harness?.design != null && canSize(bench.run, harness.format);
}

/** The sizing of the listing run of a designed suite: each benchmark for about PILOT_LENGTH_MS. */
export const LISTING_SIZING: Sizing = { minTimeMs: PILOT_LENGTH_MS };

/** A run's sizing for `repetitions` repetitions of about `lengthMs`, after `warmup` more. */
function sizingFor(d: Pick<UnitDesign, 'format' | 'opMs'>, repetitions: number, lengthMs: number, warmup: number): { sizing: Sizing; lengthMs: number; iterations?: number } {
  const w = warmup > 0 ? { warmup } : {};
  if (byIterations(d)) {
    const iterations = Math.max(1, Math.round(lengthMs / Math.max(d.opMs, 1e-9)));
    return { sizing: { iterations, repetitions, ...w }, lengthMs: iterations * d.opMs, iterations };
  }
  return { sizing: { minTimeMs: lengthMs, repetitions, ...w }, lengthMs: Math.max(lengthMs, d.opMs) };
}

/** The pilot design of a benchmark whose iteration takes `opMs`: its first pair's sizing with it. */
export function pilotDesign(format: HarnessFormat, opMs: number, maxLengthMs: number, minPairs: number): UnitDesign & { sizing: Sizing } {
  const base = { format, opMs };
  const warmup = designOf(format).pilotWarmup;
  const lengths = PILOT_LENGTHS_MS.map((L) => sizingFor(base, PILOT_REPETITIONS, L, warmup));
  const first = lengths[0]!;
  const pairs = Math.min(PILOT_PAIRS.max, Math.max(PILOT_PAIRS.min, minPairs));
  return {
    phase: 'pilot',
    format,
    // an even number: as many pairs of each pilot length
    pilotPairs: pairs + (pairs % PILOT_LENGTHS_MS.length === 0 ? 0 : PILOT_LENGTHS_MS.length - (pairs % PILOT_LENGTHS_MS.length)),
    opMs,
    maxLengthMs: Math.max(maxLengthMs, PILOT_LENGTH_MS),
    repetitions: PILOT_REPETITIONS,
    warmup,
    lengthMs: first.lengthMs,
    ...(first.iterations !== undefined ? { iterations: first.iterations } : {}),
    pilot: [],
    pilotRun: { repetitions: PILOT_REPETITIONS, warmup, lengths: lengths.map((l) => ({ lengthMs: l.lengthMs, ...(l.iterations !== undefined ? { iterations: l.iterations } : {}) })) },
    sizing: first.sizing,
  };
}

/** The design as the results file records it (`design` of a benchmark: results/schema.ts). */
export function designRecord(d: UnitDesign, pairs: number) {
  const c = d.components;
  return {
    repetitions: d.repetitions,
    ...(d.warmup > 0 ? { warmup: d.warmup } : {}),
    lengthMs: round(d.lengthMs),
    ...(d.iterations !== undefined ? { iterations: d.iterations } : {}),
    pilotPairs: d.phase === 'pilot' ? pairs : d.pilot.length,
    pilot: { repetitions: d.pilotRun.repetitions, ...(d.pilotRun.warmup > 0 ? { warmup: d.pilotRun.warmup } : {}), lengthsMs: d.pilotRun.lengths.map((l) => round(l.lengthMs)) },
    chosen: d.phase === 'chosen',
    ...(d.coldStart ? { coldStart: d.coldStart } : {}),
    ...(c ? { components: { betweenSd: round(Math.sqrt(c.between)), withinSd: round(Math.sqrt(c.within)), repetitionMs: round(c.repetitionMs), lengthExponent: round(c.lengthExponent), processMs: round(c.processMs) } } : {}),
    ...(d.predicted ? { predicted: { pairSd: round(d.predicted.pairSd), pairMs: round(d.predicted.pairMs) } } : {}),
  };
}

const round = (v: number): number => Number(v.toPrecision(6));

/**
 * The repetitions of the benchmark `name` in one run's samples (its value alone when it printed
 * one), each the time of one iteration as pairbench sizes runs (harness/types.ts,
 * `Sample.iterationScale`: a pyperf value is per inner loop). The spreads read from them are ratios,
 * which the scale leaves alone; the times (`opMs`, a repetition's length) are a sized iteration's.
 */
function repetitionsOf(samples: readonly RowSample[], name: string): number[] | null {
  const s = samples.find((x) => x.name === name);
  if (!s) return null;
  const scale = s.iterationScale ?? 1;
  return (s.repetitions ?? [s.value]).map((v) => v * scale);
}

/**
 * Records one pilot pair of the benchmark `name` (its primary sample). Returns the sizing of the
 * next pilot pair, or null once the pilot is complete (`chooseDesigns` then picks the design).
 */
export function recordPilot(
  d: UnitDesign,
  name: string,
  got: { base: readonly RowSample[]; head: readonly RowSample[]; wallMs?: { base: number; head: number } },
): Sizing | null {
  if (d.phase !== 'pilot') return null;
  const index = d.pilot.length % PILOT_LENGTHS_MS.length;
  const run = d.pilotRun.lengths[index]!;
  const base = repetitionsOf(got.base, name);
  const head = repetitionsOf(got.head, name);
  // sized by iterations (Go): a repetition ran `iterations` iterations at the ns/op it printed (after the warm-up)
  const w = d.pilotRun.warmup;
  const length = (reps: number[]) =>
    byIterations(d) && run.iterations !== undefined ? { repetitionMs: (run.iterations * median(reps.length > w ? reps.slice(w) : reps)) / 1e6 } : {};
  d.pilot.push({
    length: index,
    base: { repetitions: base ?? [], wallMs: got.wallMs?.base ?? NaN, ...(base ? length(base) : {}) },
    head: { repetitions: head ?? [], wallMs: got.wallMs?.head ?? NaN, ...(head ? length(head) : {}) },
  });
  if (pilotComplete(d)) return null;
  const next = d.pilotRun.lengths[d.pilot.length % PILOT_LENGTHS_MS.length]!;
  d.lengthMs = next.lengthMs;
  if (next.iterations !== undefined) d.iterations = next.iterations;
  return sizingFor(d, PILOT_REPETITIONS, PILOT_LENGTHS_MS[d.pilot.length % PILOT_LENGTHS_MS.length]!, w).sizing;
}

export function pilotComplete(d: UnitDesign): boolean {
  return d.pilot.length >= d.pilotPairs;
}

/**
 * The components of one benchmark's pilot as a design leaving out its first `warmup` repetitions
 * would meet them (each process's PILOT_REPETITIONS repetitions from there on), or null when they
 * cannot be read or the pilot ran too few repetitions for it. A Go repetition's length is what it
 * took (its iterations at the ns/op it printed), not what the listing run predicted: a benchmark
 * whose first iteration is slow (a pool filled on first use) lists an iteration many times longer
 * than the later ones take.
 */
function pilotComponents(d: UnitDesign, warmup: number | 'none-evident', robust = true): VarianceComponents | null {
  const groups = pilotGroups(d, warmup);
  return groups === null ? null : varianceComponents(groups, designOf(d.format).iterationsBeforeRepetition * d.opMs, designOf(d.format).summary, robust);
}

/** The pilot's pairs by length, each process's repetitions cut as `pilotComponents` says; null when the pilot ran too few. */
function pilotGroups(d: UnitDesign, warmup: number | 'none-evident'): PilotGroup[] | null {
  // with no warm-up evident, every repetition the pilot ran reads the same spreads: all of them count
  const [from, to] = warmup === 'none-evident' ? [0, Infinity] : [warmup, warmup + PILOT_REPETITIONS];
  if (to !== Infinity && to > d.pilotRun.warmup + d.pilotRun.repetitions) return null;
  const cut = (p: PilotProcess): PilotProcess => ({ ...p, repetitions: p.repetitions.slice(from, to), ran: p.repetitions.length });
  return d.pilotRun.lengths.map((l, i) => {
    const pairs = d.pilot.filter((p) => p.length === i && p.base.repetitions.length > 0 && p.head.repetitions.length > 0).map((p) => ({ base: cut(p.base), head: cut(p.head) }));
    const took = pairs.flatMap((p) => [p.base.repetitionMs, p.head.repetitionMs]).filter((ms): ms is number => ms !== undefined && Number.isFinite(ms) && ms > 0);
    return { repetitionMs: took.length > 0 ? median(took) : l.lengthMs, pairs };
  });
}

/**
 * Whether the pilot's processes, or the repetitions inside them, fall into modes
 * (stats/design-model.ts, `processModesEvident`), read from its repetitions after the pilot's own
 * warm-up: the pairs' differences (a whole process in a slow mode), floored by what the
 * repetitions' spread explains, and the differences between the repetitions of each process (a
 * repetition that catches a collection or not). How many lie far from the rest, and of how many,
 * or null when neither does.
 */
function processModes(d: UnitDesign): { far: number; of: number; in: 'processes' | 'repetitions' } | null {
  const groups = pilotGroups(d, d.pilotRun.warmup);
  if (groups === null) return null;
  const summary = designOf(d.format).summary;
  const pairs = pilotDifferences(groups, summary);
  const floor = withinOnlyPairSd(groups, summary);
  if (processModesEvident(pairs, floor)) return { far: farPairs(pairs, floor), of: pairs.length, in: 'processes' };
  const reps = repetitionDifferences(groups);
  if (processModesEvident(reps)) return { far: farPairs(reps), of: reps.length, in: 'repetitions' };
  return null;
}

/**
 * Go: one iteration's time in each of the pilot's processes (the median of its repetitions after
 * its warm-up), ms.
 */
function pilotProcessOpsMs(d: UnitDesign): number[] {
  const w = d.pilotRun.warmup;
  const ops: number[] = [];
  for (const p of d.pilot) {
    for (const proc of [p.base, p.head]) {
      const reps = proc.repetitions.slice(w).filter((v) => v > 0);
      if (reps.length > 0) ops.push(median(reps) / 1e6);
    }
  }
  return ops;
}

/**
 * Go: one iteration's time as the pilot's repetitions after its warm-up took it (the median over
 * its processes), or the listing run's when they say nothing: the listing run sizes its one short
 * repetition from Go's first iteration, which a pool or a cache filled on first use makes many
 * times slower than the rest (the fastjson suite's canada parser: 74 ms listed, 2 ms steady).
 */
function pilotOpMs(d: UnitDesign, ops: readonly number[]): number {
  if (!byIterations(d)) return d.opMs;
  return ops.length > 0 ? median(ops) : d.opMs;
}

/**
 * Whether the pilot ran a cold start, and how, as the format's harness tells it (Go:
 * harness/go-cold-start.ts); null where the format has no such rule or the pilot has no pair.
 */
function coldStart(d: UnitDesign, listedMs: number, ops: readonly number[]): 'first' | 'modes' | null {
  const rule = designOf(d.format).coldStart;
  if (rule === null || d.pilot.length === 0) return null;
  return rule.detect({ listedMs, opMs: d.opMs, ops, pilotIterations: d.pilotRun.lengths.map((l) => l.iterations) });
}

/** Weight of the suite in a benchmark's pooled balance of spreads, in pilot pairs. */
const SUITE_WEIGHT_PAIRS = 10;
/** The least between-process variance pooled on the log scale: 0.1% per process. */
const FLOOR = 1e-6;

/**
 * Each benchmark's components pooled with the suite's (module doc): the length exponent is the
 * suite's median; the ratio B / W0 of between- to within-process variance is shrunk on the log
 * scale towards the suite's median ratio, with the suite weighing as SUITE_WEIGHT_PAIRS pilot pairs
 * (an empirical-Bayes estimate: James & Stein 1961; Efron & Morris 1975, JASA 70, 311-319); W0 and
 * the costs stay the benchmark's own.
 */
export function poolComponents(all: ReadonlyArray<VarianceComponents | null>): Array<VarianceComponents | null> {
  const known = all.filter((c): c is VarianceComponents => c !== null);
  if (known.length === 0) return all.map(() => null);
  const gamma = median(known.map((c) => c.lengthExponent));
  const ratio = (c: VarianceComponents) => Math.log(Math.max(c.between, FLOOR) / Math.max(c.within, FLOOR));
  const suiteRatio = median(known.map(ratio));
  return all.map((c) => {
    if (!c) return null;
    const w = c.pairs / (c.pairs + SUITE_WEIGHT_PAIRS);
    const pooled = Math.exp(w * ratio(c) + (1 - w) * suiteRatio);
    return { ...c, lengthExponent: gamma, between: pooled * Math.max(c.within, FLOOR) };
  });
}

/**
 * Chooses the designs of benchmarks whose pilots are complete (module doc), pooled as
 * `poolComponents` does. Returns for each its sizing from now on and a line for the log.
 */
export function chooseDesigns(designs: readonly UnitDesign[], budgets?: readonly DesignBudget[]): Array<{ sizing: Sizing; log: string }> {
  // Go: a first iteration far slower than the pilot's steady ones, or a pilot's processes in modes, is a cold start (`coldStart`)
  const cold = designs.map((d) => {
    const listed = d.opMs;
    const ops = byIterations(d) ? pilotProcessOpsMs(d) : [];
    d.opMs = pilotOpMs(d, ops);
    const start = coldStart(d, listed, ops);
    // after a cold start whose pilot's processes fall into modes, the steady iteration is the fast
    // one's, the refill only slows (sized from the median, a slowed canada parser whose median
    // process refilled got 5 iterations of 20 ms, its command's 100 ms, and stayed in the refill:
    // ±150% a pair)
    if (start !== null && designOf(d.format).coldStart!.inModes(ops, d.opMs)) d.opMs = ops.reduce((m, op) => Math.min(m, op), Infinity);
    return start;
  });
  // a warm-up repetition competes only where the pilot shows one (`warmupEvident`); where none is
  // evident the pilot's repetitions are alike and all of them read the spreads
  const evident = designs.map((d) => d.pilotRun.warmup > 0 && warmupEvident(d.pilot.flatMap((p) => [p.base.repetitions, p.head.repetitions])));
  // where the processes fall into modes, the spreads count them (not robust) and no design is kept by default
  const modes = designs.map(processModes);
  const robust = (i: number) => modes[i] === null;
  // each reading pooled across the suite on its own
  const alike = poolComponents(designs.map((d, i) => (evident[i] ? null : pilotComponents(d, 'none-evident', robust(i)))));
  const counted = poolComponents(designs.map((d, i) => (evident[i] ? pilotComponents(d, 0, robust(i)) : null)));
  const left = poolComponents(designs.map((d, i) => (evident[i] ? pilotComponents(d, 1, robust(i)) : null)));
  return designs.map((d, i) => {
    const variants: WarmupVariant[] = evident[i]
      ? [counted[i] ? { warmup: 0, components: counted[i]! } : null, left[i] ? { warmup: 1, components: left[i]! } : null].filter((v): v is WarmupVariant => v !== null)
      : alike[i]
        ? [{ warmup: 0, components: alike[i]! }]
        : [];
    const start = cold[i] ?? null;
    if (start) d.coldStart = start;
    return choose(d, variants, budgets?.[i], start, modes[i] ?? null);
  });
}

/**
 * Chooses one benchmark's design from its (pooled) components, one set per warm-up variant, or
 * keeps the pilot's first when there are none.
 */
function choose(d: UnitDesign, variants: readonly WarmupVariant[], budget?: DesignBudget, cold: 'first' | 'modes' | null = null, modes: { far: number; of: number; in: 'processes' | 'repetitions' } | null = null): { sizing: Sizing; log: string } {
  d.phase = 'chosen';
  if (variants.length === 0) {
    const first = d.pilotRun.lengths[0]!;
    const s = sizingFor(d, PILOT_REPETITIONS, PILOT_LENGTHS_MS[0]!, d.pilotRun.warmup);
    d.repetitions = PILOT_REPETITIONS;
    d.warmup = d.pilotRun.warmup;
    d.lengthMs = first.lengthMs;
    if (first.iterations !== undefined) d.iterations = first.iterations;
    return { sizing: s.sizing, log: `keeps the pilot's ${designWords(PILOT_REPETITIONS, first.lengthMs, d.warmup)} per process (the pilot's spreads could not be read)` };
  }
  const lengths = LENGTHS_MS.filter((L) => L <= d.maxLengthMs);
  // a repetition is at least one iteration, and after a cold start at least the rule's `minIterations`
  // (as many as the command's own length allows): shorter lengths collapse into that one
  const minIterations = cold ? designOf(d.format).coldStart!.minIterations : 1;
  const floor = cold ? Math.min(minIterations * d.opMs, Math.max(d.maxLengthMs, d.opMs)) : d.opMs;
  const effective = [...new Set(lengths.map((L) => Math.max(L, d.opMs, floor)))];
  const candidates = { repetitions: REPETITIONS, lengthsMs: effective };
  const chosen = chooseDesign(variants, candidates, budget, modes ? undefined : KEEP);
  const components = variants.find((v) => v.warmup === chosen.warmup)!.components;
  d.components = components;
  const s = sizingFor(d, chosen.repetitions, chosen.lengthMs, chosen.warmup);
  d.repetitions = chosen.repetitions;
  d.warmup = chosen.warmup;
  d.lengthMs = s.lengthMs;
  if (s.iterations !== undefined) d.iterations = s.iterations;
  else delete d.iterations;
  d.predicted = { pairSd: chosen.pairSd, pairMs: chosen.pairMs };
  const pct = (v: number) => `±${(100 * Math.sqrt(v)).toFixed(1)}%`;
  // what leaving out the first repetition bought, against the best design that counts it
  const counted = chosen.warmup > 0 ? variants.find((v) => v.warmup === 0) : undefined;
  const without = counted ? chooseDesign([counted], candidates, budget) : null;
  // the model's own best, where the kept design stood in its place (KEEP)
  const overruled = chosen.overruled;
  return {
    sizing: s.sizing,
    log:
      `${designWords(chosen.repetitions, s.lengthMs, chosen.warmup)} per process` +
      ` (pilot of ${components.pairs} pairs: between processes ${pct(components.between)}, within one ${pct(components.within)} per ${lengthWords(components.repetitionMs)} repetition` +
      `${components.lengthExponent < 0.995 ? `, falling as length^-${components.lengthExponent.toFixed(2)}` : ''}, ${lengthWords(components.processMs)} to start a process;` +
      ` expected ±${(100 * chosen.pairSd).toFixed(1)}% per pair, ${lengthWords(chosen.pairMs)} a pair` +
      `${overruled ? `; kept over ${designWords(overruled.repetitions, overruled.lengthMs, overruled.warmup)} (±${(100 * overruled.pairSd).toFixed(1)}% per pair, ${lengthWords(overruled.pairMs)} a pair), which the model reads better but not twice as good` : ''}` +
      `${modes ? `; ${modes.in === 'processes' ? `its processes fall into modes (${modes.far} of ${modes.of} pilot pairs far from the rest)` : `its repetitions fall into modes (${modes.far} of ${modes.of} differences within a process far from the rest)`}, so the spreads count them and no design is kept over the model's` : ''}` +
      `${without ? `; counting the first repetition of a process, the best design would give ±${(100 * without.pairSd).toFixed(1)}% per pair at ${lengthWords(without.pairMs)} a pair` : ''}` +
      `${cold ? `; ${cold === 'first' ? 'its first iteration was slow, a cold start' : 'its processes ran an iteration at speeds more than twice apart, a cold start in some'}, so each repetition runs at least ${Math.min(minIterations, Math.max(1, Math.round(Math.max(d.maxLengthMs, d.opMs) / d.opMs)))} iterations` : ''})`,
  };
}

