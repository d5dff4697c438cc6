/**
 * Findings in words, for each surface that shows them. `stats/` states a finding as a code with its
 * figures (stats/types.ts, `Finding`); what a user should do about it depends on where they read
 * it: in the terminal they rerun with CLI flags (`--metric cpu`), in a PR comment or job summary
 * they edit the workflow's action inputs (`metric: cpu`). Pure: a finding in, a sentence out.
 *
 * Pair indices in the figures count from 0 (indices into `pairs`, as `outliers`); the words count
 * from 1, as every pair table does.
 */
import { z } from 'zod';
import type { Finding } from '../stats/types.ts';
import { formatLevel } from './format.ts';
import { formatThreshold } from '../config/values.ts';

/** `cli`: the terminal (flags, `pairbench report`); `action`: the PR comment, check run and job summary (action inputs). */
export type Surface = 'cli' | 'action';

/**
 * A diagnostic as a results file holds it: pairbench writes its code and figures; another tool's
 * file, or one pairbench wrote before, may hold it in words (`message`).
 */
export interface StoredDiagnostic {
  code: string;
  severity: 'info' | 'warning';
  message?: string | undefined;
  figures?: Record<string, unknown> | undefined;
}

const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
const signedPct = (x: number, digits = 1): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}%`;
const fmtP = (p: number): string => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));
const fmtMs = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const fmtCount = (v: number): string => (v >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());
/** Pair numbers from 1, the first ten. */
const pairNumbers = (indices: readonly number[]): string => `${indices.slice(0, 10).map((i) => i + 1).join(', ')}${indices.length > 10 ? ', ...' : ''}`;

/** How each surface names a setting: a flag with its value, or an action input. */
function setting(surface: Surface, name: string, value?: string): string {
  if (surface === 'cli') return value === undefined ? `--${name}` : `--${name} ${value}`;
  return value === undefined ? name : `${name}: ${value}`;
}

/**
 * The levers of the `go-noise` finding in words: `allocating` says who allocates in the loop (null:
 * no one), `threads` whether a command runs on more than one thread. One wording for a benchmark's
 * note and for the terminal's line about many (report/terminal.ts).
 */
export function goLevers(allocating: string | null, threads: boolean, surface: Surface): string {
  const run = surface === 'cli' ? '--run' : 'the run input';
  const cpus = surface === 'cli' ? '--cpus 1' : 'the input cpus: 1';
  return [
    ...(allocating !== null
      ? [`${allocating}, so the collector's work lands on one run or the next: where allocation is not what is measured, allocate before the loop and reuse (sorting into a slice made once took a sort from ±10-20% a pair to ±3-9%)`]
      : []),
    ...(threads
      ? [`on a small shared runner, bind the runs to one CPU (${cpus}) or add -test.cpu 1 to ${run}: the code and the collector then share one core instead of competing for the machine's other one (a Go suite's A/A on a 2-core virtual machine, 2026-11-27: ±9.1% a pair as written and 29 of 42 unchanged in 10 minutes; bound to one CPU ±2.7%, and -test.cpu 1 ±5.4%, 42 of 42 in 3.5 minutes); Go then runs on one thread, which changes what b.RunParallel and goroutines measure, so keep it for code on one goroutine`]
      : []),
  ].join('; and ');
}

/**
 * The levers of the `js-noise` finding in words: `bound` whether the runs were bound to one CPU,
 * `batched` whether several benchmarks shared a process. One wording for a benchmark's note and for
 * the terminal's line about many (report/shared.ts).
 */
export function jsLevers(bound: boolean, batched: boolean, surface: Surface): string {
  const cli = surface === 'cli';
  const levers = [
    ...(bound ? [] : [`bind the runs to one CPU (${cli ? '--cpus 1' : 'the input cpus: 1'})`]),
    ...(batched ? [] : [`where a process start costs more than a benchmark (vitest's about 0.7 s through npx), run several benchmarks in each process (${cli ? '--batch n' : 'the input batch: n'}) for more pairs a minute`]),
  ];
  // what each lever did in 10-minute A/As of real vitest suites on a 2-core machine
  // (docs/harnesses.md, "JavaScript and TypeScript"; docs/measuring.md, "Bound to CPUs"): binding
  // helped one suite and not two others, so the advice says both and asks for a measurement
  const evidence = [
    ...(bound ? [] : [`bound to one CPU, one vitest suite's A/A on a 2-core machine went from 2 to 5 of 5 unchanged in 10 minutes, its pairs from ±8.6% to ±3.6%, and two others decided no more: measure it on your runner (pairbench noise) before you keep it`]),
    ...(batched ? [] : [`five benchmarks to a process, that first suite's pairs spread ±6.1% and 3 of 5 were unchanged`]),
  ];
  return (
    `${levers.join(', and ')} (${evidence.join('; ')})` +
    `${bound ? '' : "; bound to one CPU, V8's compiler and collector threads share the code's core, which changes what a multi-threaded benchmark measures"}`
  );
}

/** The finding worded for `surface`. */
export function wordFinding(f: Finding, surface: Surface): string {
  const set = (name: string, value?: string): string => setting(surface, name, value);
  switch (f.code) {
    case 'too-few-pairs': {
      const g = f.figures;
      const budget = surface === 'cli' ? '--min-pairs / --max-pairs or --max-time' : 'the inputs min-pairs / max-pairs or max-time';
      if (g.pairs === 0) return `No usable pairs, so nothing can be concluded. Need >= ${g.need} pairs for any p-value below alpha = ${g.alpha}: raise ${budget}.`;
      return (
        `Only ${plural(g.pairs, 'usable pair')}${g.zeros > 0 ? ` (${g.zeros} of them with head == base, which carry no sign for the test)` : ''}: ` +
        `the smallest possible two-sided p-value is then ${fmtP(g.smallestP)}${g.smallestP >= g.alpha ? `, never below alpha = ${g.alpha}` : ''}, and the interval cannot reach ${formatLevel(g.level)} confidence. ` +
        `Need >= ${g.need} pairs (${set('min-pairs', String(Math.max(g.need, 10)))}).`
      );
    }
    case 'mostly-equal': {
      const g = f.figures;
      return (
        `${g.zeros} of ${g.pairs} pairs measured head and base exactly equal; only ${g.differing} differ. The test counts only the pairs that differ (a pair with head == base has no sign), ` +
        `so it can hardly be significant; the estimate and interval count all ${g.pairs} pairs, and the equal ones pin the change near 0 ` +
        `(Hodges–Lehmann over all pairs: Pratt 1959, Lehmann 1975). Typical of counts and sizes (bytes, allocations) that move by a unit in a few runs.`
      );
    }
    case 'all-equal': {
      const g = f.figures;
      return g.change === 0
        ? `All ${g.pairs} pairs measured head and base exactly equal: the metric does not vary between runs (a count, or a coarse clock). The test sees no noise; "no change" here means no pair differed at all. If this is a time, check the timer's resolution or measure a longer run.`
        : `All ${g.pairs} pairs have the same ratio head/base (${signedPct(g.change, 2)}): the metric does not vary between runs (a count, or a coarse clock), so the interval is a single point. Fine for deterministic counts (instructions, memory); for times, check the timer's resolution.`;
    }
    case 'unsteady-counts': {
      const g = f.figures;
      return (
        `The instruction counts vary between runs of one side (spread (max − min) / median: base ${pct(g.base, 2)}, head ${pct(g.head, 2)}; steady counts stay within ${pct(g.tolerance, 2)}): ` +
        `the benchmark's work depends on more than its code (threads, system calls, timing, a JIT), so its count is not called unchanged. Compare its wall time, or make its work deterministic.`
      );
    }
    case 'coarse-resolution': {
      const g = f.figures;
      const unit = g.unit ? ` ${g.unit}` : '';
      const margin = Math.max(0, g.threshold - g.share);
      return (
        `Its times are printed in steps of ${g.step}${unit}, and the smallest is ${g.smallest}${unit}: one step is ${pct(g.share, 1)} of it, so a change smaller than a step can print as none in every pair. ` +
        (margin > 0
          ? `It is called unchanged only when its interval lies within ±${pct(margin, 1)}, the threshold less one step${g.held ? ', and this one does not' : ''}.`
          : `A step reaches the threshold (${pct(g.threshold, 1)}), so it is never called unchanged.`) +
        ` Print more digits (Criterion: ${set('design', 'auto')} reads the medians a bench executable saves, where the environment leaves CRITERION_HOME unset and the command names no baseline; or cargo-criterion's JSON, ${set('format', 'criterion')}) or give each iteration more work.`
      );
    }
    case 'outliers-kept': {
      const g = f.figures;
      const flagged = g.above + g.below;
      return (
        `${plural(flagged, 'pair')} fell outside the outlier fences (${g.above} above, ${g.below} below); ${g.excluded} were excluded as balanced pairs (one above for one below), ` +
        `and the ${g.kept.length} in excess on one side kept (${g.kept.length === 1 ? 'pair' : 'pairs'} ${pairNumbers(g.kept)}): excluding them would tilt the test. ` +
        `A split like ${g.above} to ${g.below} is within chance (binomial p = ${fmtP(g.balanceP)}).`
      );
    }
    case 'one-sided-outliers': {
      const g = f.figures;
      const adj = g.direction === 'lower-is-better' ? 'slow' : 'low';
      const lead =
        g.headWorse >= g.baseWorse
          ? `Head has ${g.headWorse} ${adj} outlier${g.headWorse === 1 ? '' : 's'}, base ${g.baseWorse === 0 ? 'none' : g.baseWorse}: a tail regression?`
          : `Base has ${g.baseWorse} ${adj} outlier${g.baseWorse === 1 ? '' : 's'}, head ${g.headWorse === 0 ? 'none' : g.headWorse}: a tail improvement?`;
      return (
        `${lead} Outlying pairs should fall on either side alike; these lean to one side far more than chance allows (binomial p = ${fmtP(g.balanceP)}), ` +
        `so they are kept in the test, not excluded (${g.kept.length === 1 ? 'pair' : 'pairs'} ${pairNumbers(g.kept)}). ` +
        `Look at the runs behind them: a path that is only sometimes slow (GC, a cold cache, contention, a retry) shows as a tail, not as a shift of the median.`
      );
    }
    case 'many-outliers': {
      const g = f.figures;
      const again = surface === 'cli' ? 'pairbench report <results> --outliers none' : 'judge with every pair (outliers: none)';
      return (
        `${g.excluded} of ${g.pairs} pairs (${pct(g.excluded / g.pairs, 0)}) were excluded as outliers: some runs here are far slower than the rest (bursts of load, or runs that land in a slow mode). ` +
        `The p-value allows for that (the screen is applied afresh to every sign pattern of the test), so it keeps its level; the estimate and interval rest on the pairs kept. ` +
        `To see the comparison with every pair: ${again}. To have fewer such runs: ${g.metric === 'wall' ? `measure CPU time (${set('metric', 'cpu')}), or ` : ''}quiet the machine.`
      );
    }
    case 'order-effect': {
      const g = f.figures;
      if (g.atOnce) {
        const cpus = surface === 'cli' ? '--cpus with two CPUs that are alike' : 'cpus: two CPUs that are alike';
        const inTurn = surface === 'cli' ? '--pair-runs in-turn' : 'pair-runs: in-turn';
        return (
          `Pairs with base on the first CPU differ from pairs with head on it (median change ${signedPct(g.baseFirst)} vs ${signedPct(g.headFirst)}, rank-sum p = ${fmtP(g.pValue)}): ` +
          `a run on the second CPU measures about ${pct(Math.abs(g.secondSlot))} ${g.secondSlot > 0 ? 'higher' : 'lower'} than on the first. ` +
          `The coin that gives each side its CPU keeps the estimate fair, but this adds noise: the two CPUs are not alike (a neighbour or the interrupts on one of them). Choose ${cpus}, or run the pairs in turn (${inTurn}).`
        );
      }
      const warmup = surface === 'cli' ? '--warmup 2 or more' : 'warmup: 2 or more';
      const prepare = surface === 'cli' ? 'a --prepare command' : 'a prepare input';
      return (
        `Pairs with base first differ from pairs with head first (median change ${signedPct(g.baseFirst)} vs ${signedPct(g.headFirst)}, rank-sum p = ${fmtP(g.pValue)}): ` +
        `the second run of a pair measures about ${pct(Math.abs(g.secondSlot))} ${g.secondSlot > 0 ? 'higher' : 'lower'} than the first. ` +
        `The random order keeps the estimate fair, but this adds noise. Add unmeasured warm-up runs (${warmup}) or ${prepare} that puts both sides in the same state before every run (clear caches, reset files).`
      );
    }
    case 'drift': {
      const g = f.figures;
      return (
        `The change drifted during the run: ${signedPct(g.firstHalf)} over the first half of the pairs, ${signedPct(g.secondHalf)} over the second (rank-sum p = ${fmtP(g.pValue)}). ` +
        `Pairing cancels what the machine does to both sides alike, not a difference that itself moves (one side filling a cache or a disk, throttling that hits one build harder, a job that competes with one of them). ` +
        `Look at the pairs over time in the results file and re-run; if it persists, the change is not a constant factor.`
      );
    }
    case 'high-noise': {
      const g = f.figures;
      // One count of pairs per benchmark is worded, the one that settles its verdict (pairsToSettle);
      // a second count here (pairsForThreshold, kept in the figures) only confused it.
      return (
        `Noisy even in pairs: the ratio head/base varies by ${pct(g.pairedCv)} (CV) from pair to pair. ${g.detectable === null ? `With ${g.pairs} pairs no change can be significant yet` : `With ${g.pairs} pairs the smallest change this detects reliably is about ${pct(g.detectable)}`}` +
        `${g.pairsForThreshold !== null ? ` (the threshold is ${formatThreshold(g.threshold)})` : ''}. ` +
        `To cut the noise itself: ${g.metric === 'wall' ? `measure CPU time instead of wall time (${set('metric', 'cpu')}), ` : ''}run on a quieter machine (a dedicated runner, no parallel jobs), or make one run do more work.`
      );
    }
    case 'go-noise': {
      const g = f.figures;
      return `This Go benchmark's own code or command can cut that noise: ${goLevers(g.allocsPerOp !== null ? `it allocates in its loop (${fmtCount(g.allocsPerOp)} allocs/op in head)` : null, !g.oneThread, surface)}.`;
    }
    case 'js-noise': {
      const g = f.figures;
      return `This JavaScript benchmark's noise is mostly each process's own (what V8's JIT and collector make of the code in it), so only more processes, or steadier ones, narrow its interval: ${jsLevers(g.bound, g.batched, surface)}.`;
    }
    case 'one-sided-zeros': {
      const g = f.figures;
      const higher = g.baseZero > g.headZero ? 'head' : 'base';
      const lower = higher === 'head' ? 'base' : 'head';
      // above 0 is more: worse for a count (lower is better), better for a throughput
      const headWorse = (higher === 'head') === (g.direction === 'lower-is-better');
      const pairsOf = (n: number) => (n === 0 ? 'none' : plural(n, 'pair'));
      const them = g.baseZero + g.headZero === 1 ? 'it' : 'they';
      const split =
        `In ${pairsOf(g.baseZero)} base printed 0 and head did not, in ${g.headZero === 0 ? 'none' : plural(g.headZero, 'pair')} the other way round: a pair with one side at 0 forms no ratio, ` +
        (g.pairs === 0 ? 'and no other pair was measured.' : `so ${them} ${them === 'it' ? 'is' : 'are'} not among the ${plural(g.pairs, 'pair')} the change is read from.`);
      if (!g.screened) {
        return `${split} With the outlier screen off (${setting(surface, 'outliers', 'none')}) none of them is left out, and a difference beyond any threshold ${g.held === null ? 'weighs against every verdict it contradicts' : `keeps the benchmark from being called ${g.held}`}.`;
      }
      if (g.baseZero === g.headZero) return `${split} They fall on either side alike, so they are left out as balanced outliers are.`;
      const excess = Math.abs(g.baseZero - g.headZero);
      const lean = ` They lean one way (binomial p = ${fmtP(g.balanceP)}): ${plural(excess, 'pair')} more in which ${higher} counted above 0 and ${lower} 0, for head a change for the ${headWorse ? 'worse' : 'better'} that no percentage can state.`;
      if (g.decided === 'regression' || g.decided === 'improvement') {
        return (
          `${split}${lean} The benchmark's test, with them, rejects at its level${g.pAdjusted !== undefined ? ` (p = ${fmtP(g.pAdjusted)}, adjusted)` : ''}, and kept as differences beyond any threshold they place the change beyond the threshold: it is called ${g.decided === 'regression' ? 'a regression' : 'an improvement'}, with no percentage, since none can state a change from 0. ` +
          `Look at the values in the results file (oneSidedPairs): ${higher} counts above 0 where ${lower} does not.`
        );
      }
      const weighed =
        g.held === 'unchanged' && g.heldBy === 'lean'
          ? ` That lean is significant at the level asked: a difference, even where it moves no interval, so the benchmark is not called unchanged.`
          : g.held === 'unchanged'
          ? ` Kept as differences beyond any threshold, as the screen keeps an excess of outliers, ${excess === 1 ? 'it takes' : 'they take'} the interval that would say unchanged beyond the threshold, so the benchmark is not called unchanged.`
          : g.held !== null
            ? ` That is against the ${g.held} its other pairs show, so it is left inconclusive.`
            : g.pairs === 0
              ? ' Too few to call a change: the benchmark is left inconclusive.'
              : ` Kept as differences beyond any threshold, as the screen keeps an excess of outliers, ${excess === 1 ? 'it weighs' : 'they weigh'} in the verdict.`;
      return (
        `${split}${lean}${weighed} A count that is 0 in some runs and not in others is often one the runtime pays once and spreads over the run's iterations (a pool or a map filled on first use): ` +
        `then it is not what the code does per operation, and more pairs even the lean out. Where the lean stays, ${higher} really counts above 0 where ${lower} does not: look at the values in the results file (oneSidedPairs).`
      );
    }
    case 'cold-pilot': {
      const g = f.figures;
      const how = g.start === 'first' ? 'its first iteration in a process took at least twice the later ones' : "its pilot's processes ran an iteration at speeds more than twice apart";
      return (
        `Judged on its ${plural(g.judged, 'pair')} after the pilot: the pilot's ${plural(g.pilotPairs, 'pair')} ran a cold start (${how}: a pool or cache that Go's collection before each repetition empties, refilled by the few iterations the pilot runs), ` +
        `a regime the design's longer repetitions leave behind. They stay in the results file, measured, and are not judged.`
      );
    }
    case 'pairing-rescued': {
      const g = f.figures;
      return (
        `Single runs vary a lot (CV ${pct(g.baseCv)} base, ${pct(g.headCv)} head), but the two runs of a pair move together (paired CV ${pct(g.pairedCv)}): ` +
        `pairing removed ${pct(g.removed, 0)} of the noise that unpaired runs would have had. The machine changes state between runs; runs of base and head measured apart (all base, then all head) would not be comparable here.`
      );
    }
    case 'overhead': {
      const g = f.figures;
      return `pairbench's overhead of ${fmtMs(g.subtracted)} ${g.unit} per run (starting the shell, timed by empty runs between the pairs) was subtracted from every run before the ratios.`;
    }
    case 'short-run': {
      const g = f.figures;
      const shell = set('shell', 'none');
      if (g.capped) {
        return `pairbench's overhead per run (${fmtMs(g.overhead)} ${g.unit}) is as large as the fastest runs: only ${fmtMs(g.subtracted)} ${g.unit} was subtracted, and the change cannot be trusted; use ${shell} for a plain command, or make one run do more work.`;
      }
      return `Runs of ${fmtMs(g.typical)} ${g.unit} are short against pairbench's overhead of ${fmtMs(g.overhead)} ${g.unit}: the change is estimated after subtracting it; consider ${shell} or a longer run.`;
    }
  }
}

// Figures read back from a results file (possibly another tool's, or a fork's): checked before use.
const num = z.number().refine(Number.isFinite);
const count = z.number().int().nonnegative();
const indices = z.array(count).max(1_000_000);
const FIGURES: Record<Finding['code'], z.ZodType> = {
  'too-few-pairs': z.object({ pairs: count, zeros: count, smallestP: num, alpha: num, level: num, need: count }),
  'mostly-equal': z.object({ pairs: count, zeros: count, differing: count }),
  'all-equal': z.object({ pairs: count, change: num }),
  'unsteady-counts': z.object({ base: num, head: num, tolerance: num }),
  'coarse-resolution': z.object({ step: num, smallest: num, share: num, threshold: num, held: z.boolean(), unit: z.string().max(32).optional() }),
  'outliers-kept': z.object({ above: count, below: count, excluded: count, kept: indices, balanceP: num }),
  'one-sided-outliers': z.object({ headWorse: count, baseWorse: count, direction: z.enum(['lower-is-better', 'higher-is-better']), kept: indices, balanceP: num }),
  'many-outliers': z.object({ excluded: count, pairs: count.refine((n) => n > 0), metric: z.string().max(64).nullable() }),
  'order-effect': z.object({ baseFirst: num, headFirst: num, secondSlot: num, pValue: num, atOnce: z.boolean().optional() }),
  drift: z.object({ firstHalf: num, secondHalf: num, pValue: num }),
  'high-noise': z.object({ pairedCv: num, pairs: count, detectable: num.nullable(), pairsForThreshold: count.nullable(), threshold: num, metric: z.string().max(64).nullable() }),
  'go-noise': z.object({ allocsPerOp: num.nullable(), oneThread: z.boolean() }),
  'js-noise': z.object({ bound: z.boolean(), batched: z.boolean() }),
  'one-sided-zeros': z.object({ baseZero: count, headZero: count, pairs: count, direction: z.enum(['lower-is-better', 'higher-is-better']), balanceP: num, held: z.enum(['regression', 'improvement', 'unchanged', 'inconclusive']).nullable(), screened: z.boolean(), decided: z.enum(['regression', 'improvement', 'unchanged', 'inconclusive']).nullable().optional(), pAdjusted: num.optional(), heldBy: z.enum(['interval', 'lean']).optional() }),
  'cold-pilot': z.object({ pilotPairs: count, judged: count, start: z.enum(['first', 'modes']) }),
  'pairing-rescued': z.object({ baseCv: num, headCv: num, pairedCv: num, removed: num }),
  overhead: z.object({ subtracted: num, unit: z.string().max(32) }),
  'short-run': z.object({ overhead: num, typical: num, subtracted: num, capped: z.boolean(), unit: z.string().max(32) }),
};

/** A stored diagnostic back as a finding, when its code is known and its figures are sound. */
export function findingOf(d: StoredDiagnostic): Finding | null {
  const schema = Object.hasOwn(FIGURES, d.code) ? FIGURES[d.code as Finding['code']] : undefined;
  if (!schema || d.figures === undefined) return null;
  const figures = schema.safeParse(d.figures);
  return figures.success ? ({ code: d.code, severity: d.severity, figures: figures.data } as Finding) : null;
}

/**
 * A diagnostic from a results file worded for `surface`: from its code and figures when they are
 * pairbench's, else its stored message as it is (another tool's file, or one without figures),
 * else its code.
 */
export function wordDiagnostic(d: StoredDiagnostic, surface: Surface): string {
  const f = findingOf(d);
  return f ? wordFinding(f, surface) : (d.message ?? d.code);
}
