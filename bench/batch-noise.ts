/**
 * Whether the benchmarks that run in one process move together, read from a results file's pairs:
 *
 *   node bench/batch-noise.ts <results.json> [...]
 *
 * (`bench:suites` keeps each arm's file as `arms/<suite>-<condition>-<target>-<arm>.json`.) For each
 * batch (a unit of `--batch`, named in the file's rounds by its benchmarks joined with ", "), over
 * the pairs its members share (a member that settled leaves the batch; the pairs before that came
 * from the same two processes, which the pairs' orders confirm): each member's per-pair spread (the
 * standard deviation of ln(head/base)) and Hodges–Lehmann estimate, the correlation of the members'
 * per-pair changes (Pearson), and the batch's shared shift: each pair's change averaged over the
 * members, judged as pairbench judges one benchmark (Hodges–Lehmann estimate and 95% signed-rank
 * interval, src/stats/hodges-lehmann.ts; the sign-flip randomization test with Tukey's outlier
 * screen, src/stats/signflip.ts).
 *
 * Why: an A/A whose benchmarks of one batch all read a point off zero together can be a real
 * difference between the two folders, or the noise of processes they share. Correlated per-pair
 * changes move every member's estimate together; a shared shift whose interval holds 0 is what
 * that noise gives (and the benchmarks left undecided are the ones whose estimates wandered
 * furthest: a selection, not a finding).
 */
import { mean, sampleCorrelation, sampleStandardDeviation } from 'simple-statistics';
import { UsageError } from '../src/config/errors.ts';
import { readResultsFile } from '../src/results/read.ts';
import { hodgesLehmann } from '../src/stats/hodges-lehmann.ts';
import { signFlipTest } from '../src/stats/signflip.ts';
import type { BenchmarkResult } from '../src/results/schema.ts';

export interface Member {
  name: string;
  pairs: number;
  /** standard deviation of ln(head/base) over the shared pairs */
  sd: number;
  /** Hodges–Lehmann estimate of ln(head/base) over the shared pairs */
  estimate: number;
}

export interface BatchNoise {
  members: Member[];
  /** the pairs every member has, from the start */
  shared: number;
  /** of the shared pairs, the fraction whose order (head first or base first) all members agree on */
  ordersAgree: number;
  /** Pearson correlation of the members' per-pair changes, members × members */
  correlation: number[][];
  /** the batch's shared shift: each pair's change averaged over the members, judged as one benchmark (ln units) */
  shift: { estimate: number; lower: number; upper: number; p: number };
}

/** Pearson's correlation; 0 where either side does not vary (simple-statistics gives NaN there). */
function pearson(a: readonly number[], b: readonly number[]): number {
  const r = sampleCorrelation(a as number[], b as number[]);
  return Number.isFinite(r) ? r : 0;
}

/** The batches a results file's rounds name: each unit of two benchmarks or more, its largest membership (before any member left). */
export function batchesOf(rounds: readonly (readonly string[])[], names: ReadonlySet<string>): string[][] {
  const batches: string[][] = [];
  for (const round of rounds) {
    for (const unit of round) {
      const members = unit.split(', ');
      if (members.length < 2 || !members.every((m) => names.has(m))) continue;
      const overlapping = batches.findIndex((b) => members.some((m) => b.includes(m)));
      if (overlapping === -1) batches.push(members);
      else if (members.length > batches[overlapping]!.length) batches[overlapping] = members;
    }
  }
  return batches;
}

export function batchNoise(benchmarks: readonly Pick<BenchmarkResult, 'name' | 'pairs'>[]): BatchNoise {
  const shared = Math.min(...benchmarks.map((b) => b.pairs.length));
  const changes = benchmarks.map((b) => b.pairs.slice(0, shared).map((p) => Math.log(p.head / p.base)));
  let agree = 0;
  for (let i = 0; i < shared; i++) if (benchmarks.every((b) => b.pairs[i]!.order === benchmarks[0]!.pairs[i]!.order)) agree++;
  const perPair = Array.from({ length: shared }, (_, i) => mean(changes.map((c) => c[i]!)));
  const hl = hodgesLehmann(perPair, 0.95);
  return {
    members: benchmarks.map((b, k) => ({ name: b.name, pairs: b.pairs.length, sd: changes[k]!.length > 1 ? sampleStandardDeviation(changes[k]!) : 0, estimate: hodgesLehmann(changes[k]!).estimate })),
    shared,
    ordersAgree: shared === 0 ? 0 : agree / shared,
    correlation: changes.map((a) => changes.map((b) => pearson(a, b))),
    shift: { estimate: hl.estimate, lower: hl.lower, upper: hl.upper, p: signFlipTest(perPair, { seed: 1 }).p },
  };
}

/** a change in ln units, as a percent change */
const pct = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(100 * Math.expm1(x)).toFixed(2)}%`;

function main(files: string[]): void {
  if (files.length === 0) {
    process.stderr.write('usage: node bench/batch-noise.ts <results.json> [...]: a pairbench results file whose benchmarks ran in batches (--batch)\n');
    process.exit(2);
  }
  for (const file of files) {
    let results: ReturnType<typeof readResultsFile>;
    try {
      results = readResultsFile(file);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    const byName = new Map(results.benchmarks.map((b) => [b.name, b]));
    const batches = batchesOf(results.rounds ?? [], new Set(byName.keys()));
    console.log(`${file}: ${batches.length} batch${batches.length === 1 ? '' : 'es'}`);
    for (const batch of batches) {
      const r = batchNoise(batch.map((n) => byName.get(n)!));
      // every figure is over the shared pairs, not a member's own verdict (which `pairbench report` gives over all its pairs)
      console.log(`\n  ${r.members.length} benchmarks, ${r.shared} pairs shared, orders agree in ${(100 * r.ordersAgree).toFixed(0)}% of them; each figure over those ${r.shared}`);
      for (const [k, m] of r.members.entries()) {
        console.log(`  ${m.name.padEnd(48)} ${String(m.pairs).padStart(4)} pairs in all  ${pct(m.estimate)}  spread ±${(100 * m.sd).toFixed(1)}%  r ${r.correlation[k]!.map((c) => c.toFixed(2).padStart(5)).join(' ')}`);
      }
      console.log(`  shared shift ${pct(r.shift.estimate)} [${pct(r.shift.lower)}, ${pct(r.shift.upper)}] (95%), p ${r.shift.p.toFixed(3)}`);
    }
  }
}

if (import.meta.main) main(process.argv.slice(2));
