/**
 * The replay behind `npm run bench:go-pilot-replay` (bench/go-pilot-replay.ts): designs of a Go
 * benchmark's runs chosen from pilots drawn from recorded long processes, each scored on processes
 * its pilot did not see. Pure given its random source, so that tests can run it on recordings of a
 * known structure (tests/bench/pilot-replay.test.ts).
 */
import { chooseDesigns, pilotDesign, summaryOf, type UnitDesign } from '../../src/schedule/design.ts';
import type { Summary } from '../../src/stats/design.ts';
import { median } from '../../src/stats/describe.ts';
import { settlePairsPerVariance } from '../../src/stats/stop.ts';

/** One recorded process: its repetitions' ns/op in order, and its wall time, ms. */
export interface RecordedProcess {
  reps: number[];
  wallMs: number;
}
/** One benchmark as bench:go-design-review records it. */
export interface RecordedBenchmark {
  name: string;
  /** the steady time of one iteration, ns */
  opNs: number;
  /** iterations per recorded repetition (about 10 ms of them) */
  iterations: number;
  /** what a process costs besides its repetitions, ms */
  processMs: number;
  processes: RecordedProcess[];
}

/** A design: w warm-up repetitions, then the least of k (a Go time: `shapeValue`), each L of the recorded repetitions long (about L × 10 ms). */
export interface Shape {
  w: number;
  k: number;
  L: number;
}
export const shapeKey = (d: Shape): string => `w${d.w}k${d.k}L${d.L * 10}`;
export const shapeWords = (d: Shape): string => `${d.w > 0 ? `${d.w} warm-up${d.w > 1 ? 's' : ''} + ` : ''}${d.k} × ${d.L * 10} ms`;

/** Every design the recorded processes of `count` repetitions can form: L of 1-8 repetitions, 0-4 warm-ups, 1, 3 or 5 repetitions. */
export function shapes(count: number): Shape[] {
  const out: Shape[] = [];
  for (let L = 1; L <= 8; L++) for (const w of [0, 1, 2, 3, 4]) for (const k of [1, 3, 5]) if ((w + k) * L <= count) out.push({ w, k, L });
  return out;
}

/**
 * ln of a process's value under a design: the least of its k repetitions after w, as the engine
 * makes a Go time (schedule/design.ts, `summaryOf`), a repetition of L being the mean of L
 * consecutive recorded ones (what Go's ns/op over their iterations is, less the collection Go runs
 * before each repetition).
 */
export function shapeValue(reps: readonly number[], d: Shape, summary: Summary = summaryOf('go')): number {
  const long: number[] = [];
  for (let i = 0; i + d.L <= reps.length; i += d.L) long.push(reps.slice(i, i + d.L).reduce((t, v) => t + v, 0) / d.L);
  const kept = long.slice(d.w, d.w + d.k);
  return Math.log(summary === 'median' ? median(kept) : Math.min(...kept));
}

/** What a pair of a design costs: two processes, each its start and w + k repetitions, ms. */
export const shapePairMs = (r: RecordedBenchmark, d: Shape): number => 2 * (r.processMs + (d.w + d.k) * d.L * ((r.iterations * r.opNs) / 1e6));

/**
 * The spread of d = ln(one process's value / another's) over every pair of `processes` under a
 * design, as a variance: (median |d| / 0.6745)², robust to a few disturbed processes.
 */
export function heldSpread(processes: readonly RecordedProcess[], d: Shape): number {
  const v = processes.map((p) => shapeValue(p.reps, d));
  const abs: number[] = [];
  for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) abs.push(Math.abs(v[i]! - v[j]!));
  return (median(abs) / 0.6744897501960817) ** 2;
}

/** The pilot's own reading of a design: the mean of d² over its pairs (sign-blind: a label swap leaves it) times what a pair costs. */
export function readScore(r: RecordedBenchmark, pilot: ReadonlyArray<readonly [RecordedProcess, RecordedProcess]>, d: Shape): number {
  const dd = pilot.map(([x, y]) => shapeValue(x.reps, d) - shapeValue(y.reps, d));
  return (dd.reduce((s, v) => s + v * v, 0) / dd.length) * shapePairMs(r, d);
}

/**
 * A design chosen by what the pilot's own pairs read of each design of 10 ms repetitions formable
 * from `n` of them (w + k <= n): the least `readScore`; with `keep`, that one unless another reads
 * `keepFactor` times better.
 */
export function readChoice(r: RecordedBenchmark, pilot: ReadonlyArray<readonly [RecordedProcess, RecordedProcess]>, n: number, keep?: Shape, keepFactor = 2): Shape {
  let best: { shape: Shape; score: number } | null = null;
  for (const d of shapes(n)) {
    if (d.L !== 1) continue;
    const score = readScore(r, pilot, d);
    if (best === null || score < best.score * (1 - 1e-9)) best = { shape: d, score };
  }
  return keep && readScore(r, pilot, keep) <= keepFactor * best!.score ? keep : best!.shape;
}

/** A pilot process of the engine's `auto` pilot (length 0: 10 ms, 1: 20 ms), read from a recorded one. */
function autoProcess(r: RecordedBenchmark, p: RecordedProcess, length: number) {
  const per = length === 0 ? p.reps.slice(0, 3) : [0, 2, 4].map((i) => (p.reps[i]! + p.reps[i + 1]!) / 2);
  const ms = (v: number) => ((length + 1) * r.iterations * v) / 1e6;
  return { repetitions: per, wallMs: r.processMs + per.reduce((t, v) => t + ms(v), 0), repetitionMs: ms(median(per.slice(1))) };
}

export interface ReplayOptions {
  draws: number;
  pilotPairs: number;
  /** repetitions per process of the `read` pilots */
  reads: readonly number[];
  budgetMs: number;
  maxPairs: number;
  threshold: number;
  alpha: number;
  /** the command's own repetition length, the longest a design may choose, ms */
  maxLengthMs: number;
  /** uniform in [0, 1) */
  rand: () => number;
}

/** The `read 6` rule that keeps its pilot's own design, a warm-up and the median of five 10 ms repetitions, unless another reads twice as good. */
export const KEEP: Shape = { w: 1, k: 5, L: 1 };
export const KEEP_FACTOR = 2;
export const KEEP_RULE = `read 6, keeping ${shapeWords(KEEP)} unless another is ${KEEP_FACTOR} times better`;
/** Fixed designs, for reference: the same for every benchmark, no pilot. */
export const FIXED: ReadonlyArray<readonly [string, string]> = [
  ['fixed 1 warm-up + 5 × 10 ms', 'w1k5L10'],
  ['fixed 5 × 10 ms', 'w0k5L10'],
  ['fixed 3 × 10 ms', 'w0k3L10'],
  ['fixed 1 × 80 ms', 'w0k1L80'],
];
export const FIXED_RULES: ReadonlySet<string> = new Set(FIXED.map(([rule]) => rule));

export interface Outcome {
  design: string;
  /** variance per second over the best design's on the held-out half; null: a design the recording cannot form */
  ratio: number | null;
  /** the time it would take to settle after the pilot, ms; null: not within the cap on pairs, or not formable */
  costMs: number | null;
  settles: boolean;
}

export interface Replay {
  rules: string[];
  shapes: number;
  /** per rule, per benchmark, one outcome per draw */
  outcomes: Map<string, Outcome[][]>;
  /** per rule, the benchmarks settled in each draw */
  settled: Map<string, number[]>;
  /** per rule, the share settled among the benchmarks every rule's design is formable for, in each draw */
  settledFormable: Map<string, number[]>;
}

/** The replay (bench/go-pilot-replay.ts's doc) of `rows`, recorded processes of `count` repetitions each. */
export function replay(rows: readonly RecordedBenchmark[], count: number, o: ReplayOptions): Replay {
  const all = shapes(count);
  const ppv = settlePairsPerVariance(o.alpha, o.threshold);
  const rules = ['auto', ...o.reads.map((n) => `read ${n}`), ...(count >= KEEP.w + KEEP.k ? [KEEP_RULE] : []), ...FIXED.map(([rule]) => rule)];
  const outcomes = new Map<string, Outcome[][]>(rules.map((r) => [r, rows.map(() => [])]));
  const settled = new Map<string, number[]>(rules.map((r) => [r, []]));
  const settledFormable = new Map<string, number[]>(rules.map((r) => [r, []]));
  const pick = (n: number): [number, number] => {
    for (;;) {
      const i = Math.floor(o.rand() * n);
      const j = Math.floor(o.rand() * n);
      if (i !== j) return [i, j];
    }
  };
  for (let t = 0; t < o.draws; t++) {
    const halves = rows.map((r) => {
      const order = r.processes.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(o.rand() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const h = Math.floor(order.length / 2);
      return { pilot: order.slice(0, h).map((i) => r.processes[i]!), held: order.slice(h).map((i) => r.processes[i]!) };
    });
    const pilots = halves.map(({ pilot }) => Array.from({ length: o.pilotPairs }, () => pick(pilot.length)).map(([a, b]) => [pilot[a]!, pilot[b]!] as const));
    const held = rows.map((r, b) => {
      const scores = new Map(all.map((d) => [shapeKey(d), { s2: heldSpread(halves[b]!.held, d), ms: shapePairMs(r, d) }]));
      return { scores, best: Math.min(...[...scores.values()].map((s) => s.s2 * s.ms)) };
    });
    const choices = new Map<string, Array<{ shape: Shape | null; design: string }>>();
    const pilotMs = new Map<string, number>();
    // auto: the engine's own choice, every benchmark's pilot at once (each is pooled with its suite's)
    const units: UnitDesign[] = rows.map((r, b) => {
      const opMs = r.opNs / 1e6;
      const d = pilotDesign('go', opMs, o.maxLengthMs, o.pilotPairs);
      d.pilotRun.lengths = [10, 20].map((L) => ({ lengthMs: L, iterations: Math.max(1, Math.round(L / opMs)) }));
      pilots[b]!.forEach(([x, y], i) => d.pilot.push({ length: i % 2, base: autoProcess(r, x, i % 2), head: autoProcess(r, y, i % 2) }));
      return d;
    });
    const autoPilotMs = units.reduce((s, d) => s + d.pilot.reduce((a, p) => a + p.base.wallMs + p.head.wallMs, 0), 0);
    chooseDesigns(units, units.map(() => ({ pairs: o.maxPairs - o.pilotPairs, timeMs: (o.budgetMs - autoPilotMs) / units.length, pairsPerVariance: ppv })));
    choices.set(
      'auto',
      units.map((u, b) => {
        // its length in recorded repetitions (each its iterations at the steady time)
        const L = Math.max(1, Math.round(u.lengthMs / ((rows[b]!.iterations * rows[b]!.opNs) / 1e6)));
        const shape = all.find((s) => s.w === u.warmup && s.k === u.repetitions && s.L === L) ?? null;
        return { shape, design: `${u.warmup > 0 ? `${u.warmup} warm-up + ` : ''}${u.repetitions} × ${Math.round(u.lengthMs)} ms` };
      }),
    );
    pilotMs.set('auto', autoPilotMs);
    for (const n of o.reads) {
      choices.set(`read ${n}`, rows.map((r, b) => { const s = readChoice(r, pilots[b]!, n); return { shape: s, design: shapeWords(s) }; }));
      pilotMs.set(`read ${n}`, rows.reduce((s, r) => s + o.pilotPairs * shapePairMs(r, { w: 0, k: n, L: 1 }), 0));
    }
    if (rules.includes(KEEP_RULE)) {
      choices.set(KEEP_RULE, rows.map((r, b) => { const s = readChoice(r, pilots[b]!, KEEP.w + KEEP.k, KEEP, KEEP_FACTOR); return { shape: s, design: shapeWords(s) }; }));
      pilotMs.set(KEEP_RULE, rows.reduce((s, r) => s + o.pilotPairs * shapePairMs(r, KEEP), 0));
    }
    for (const [rule, k] of FIXED) {
      const shape = all.find((s) => shapeKey(s) === k) ?? null;
      choices.set(rule, rows.map(() => ({ shape, design: shape ? shapeWords(shape) : k })));
      // a fixed design has no pilot: its first pairs are its own
      pilotMs.set(rule, 0);
    }
    // the benchmarks whose design every rule chose the recording can form: the fair comparison
    const formable = rows.map((_, b) => rules.every((rule) => { const c = choices.get(rule)![b]!; return c.shape !== null && held[b]!.scores.has(shapeKey(c.shape)); }));
    const nFormable = formable.filter(Boolean).length;
    for (const rule of rules) {
      const got: Outcome[] = choices.get(rule)!.map((c, b) => {
        const s = c.shape ? held[b]!.scores.get(shapeKey(c.shape)) : undefined;
        if (!s) return { design: c.design, ratio: null, costMs: null, settles: false };
        const need = ppv * s.s2;
        // a pilot's pairs count towards its verdict, a fixed design has none
        const fromPilot = FIXED_RULES.has(rule) ? 0 : o.pilotPairs;
        return { design: c.design, ratio: (s.s2 * s.ms) / held[b]!.best, costMs: need <= o.maxPairs ? Math.max(0, need - fromPilot) * s.ms : null, settles: false };
      });
      // the budget the pilots leave, to the benchmarks that settle soonest first (schedule/allocate.ts): those it reaches
      const greedy = (which: (b: number) => boolean, budget: number): Outcome[] => {
        let left = budget;
        const reached: Outcome[] = [];
        for (const x of got.filter((x, b) => which(b) && x.costMs !== null).sort((a, z) => a.costMs! - z.costMs!)) {
          if (x.costMs! > left) break;
          left -= x.costMs!;
          reached.push(x);
        }
        return reached;
      };
      const all = greedy(() => true, o.budgetMs - pilotMs.get(rule)!);
      for (const x of all) x.settles = true;
      settled.get(rule)!.push(all.length);
      // among the formable ones alone, with their share of the budget
      settledFormable.get(rule)!.push(greedy((b) => formable[b]!, ((o.budgetMs - pilotMs.get(rule)!) * nFormable) / rows.length).length / Math.max(1, nFormable));
      got.forEach((x, b) => outcomes.get(rule)![b]!.push(x));
    }
  }
  return { rules, shapes: all.length, outcomes, settled, settledFormable };
}
