/**
 * Which design of a Go benchmark's runs gives the steadiest pairs, read from long processes: the
 * measurement behind the review of a chosen design, tried and not kept (docs/statistics.md,
 * "tried, not kept: reviewing a design against its own pairs"). Each benchmark of a built Go test binary runs in `--processes` fresh
 * processes of `--count` repetitions of about 10 ms (`-test.benchtime Nx`, N from the fastest of
 * four 20 ms repetitions). From those repetitions every design of w warm-up repetitions and k more
 * of length L (L a multiple of 10 ms: a repetition of 40 ms is read as the mean of four consecutive
 * 10 ms ones, which is what Go's ns/op over their iterations is, less the collection Go runs before
 * each repetition) gives each process a value, the least of its k (a Go time: bench/lib/pilot-replay.ts, `shapeValue`); pairs of two different
 * processes give d = ln(one / other), as an A/A pair does.
 *
 * Per design: the spread per pair an interval sees, as the Hodges–Lehmann interval reads it
 * (`--pairs` random pairs of processes, the interval's half-width at 95% times sqrt(n) / 1.96,
 * averaged over `--draws` draws: the standard deviation of normal pairs that would give the same
 * interval), what a pair costs (two processes: their start, read from their wall time less their
 * repetitions, and w + k repetitions of L), and the variance of an estimate per second of budget
 * (spread² × cost). The table gives the best design, the design `--design auto` chose in the
 * comparison the binary came from when `--results` names its results file, and a few fixed ones.
 *
 *   npm run bench:go-design-review                          # fastjson, downloaded and built (about 5 minutes)
 *   npm run bench:go-design-review -- --go-dir /tmp/pairbench-suites-XXXX/go/base --results <that comparison's results file>
 *
 * Without `--go-dir` it measures the fastjson suite of bench/suites.ts (v1.6.4, unpatched), fetched
 * through the Go module proxy. `--go-dir` is a folder with `build/bench.test` built in it (`npm run
 * bench:suites -- --suites go --keep-work` leaves one in `<work>/go/base`, and the results file of
 * each arm beside it, whose chosen designs `--results` adds to the table).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '../src/stats/describe.ts';
import { hodgesLehmann } from '../src/stats/hodges-lehmann.ts';
import { mulberry32 } from '../src/stats/prng.ts';
import { anchored, goBinary, goRun } from './lib/go-runs.ts';
import { type Shape, shapeKey, shapePairMs, shapeValue, shapeWords } from './lib/pilot-replay.ts';
import { describeMachine, ROOT } from './lib/machine.ts';

const { values } = parseArgs({
  options: {
    'go-dir': { type: 'string' },
    results: { type: 'string' },
    processes: { type: 'string', default: '24' },
    count: { type: 'string', default: '16' },
    pairs: { type: 'string', default: '100' },
    draws: { type: 'string', default: '30' },
    bench: { type: 'string', default: '^Benchmark(Parse|Validate)$' },
    out: { type: 'string' },
  },
});

const { dir, binary } = goBinary(values['go-dir'], 'pairbench-design-review-');
const processes = Number(values.processes);
const count = Number(values.count);
const nPairs = Number(values.pairs);
const draws = Number(values.draws);
for (const [flag, v, min] of [['--processes', processes, 4], ['--count', count, 8], ['--pairs', nPairs, 10], ['--draws', draws, 1]] as const) {
  if (!Number.isInteger(v) || v < min) {
    console.error(`${flag} ${String(v)}: expected a whole number of at least ${min}`);
    process.exit(2);
  }
}

/** The design `--design auto` chose for each benchmark in the comparison `--results` records. */
const chosen = new Map<string, { warmup: number; repetitions: number; lengthMs: number }>();
if (values.results) {
  const file = JSON.parse(readFileSync(resolve(values.results), 'utf8')) as { benchmarks: Array<{ name: string; unit?: string; design?: { warmup?: number; repetitions: number; lengthMs: number; ran?: { warmup?: number; repetitions: number; lengthMs: number } } }> };
  for (const b of file.benchmarks) {
    // the design chosen from the pilot: the one its first pairs ran (`ran`, in the files of the
    // review's runs, bench/results/go-aa-review-2026-12-01-inputs), else the one recorded
    const d = b.design?.ran ?? b.design;
    if (d && b.unit === 'ns') chosen.set(b.name, { warmup: d.warmup ?? 0, repetitions: d.repetitions, lengthMs: d.lengthMs });
  }
}

const LENGTHS = [1, 2, 4, 8] as const;
const designs: Shape[] = [];
for (const L of LENGTHS) for (const w of [0, 1, 2, 4]) for (const k of [1, 3, 5]) if ((w + k) * L <= count) designs.push({ w, k, L });

// the steady time of one iteration: the fastest of four 20 ms repetitions in one process
const steady = goRun(binary, dir, ['-test.bench', values.bench, '-test.benchtime', '20ms', '-test.count', '4']);

interface Figures {
  design: string;
  /** the spread per pair the Hodges–Lehmann interval sees */
  pairSd: number;
  pairMs: number;
  /** pairSd² × pairMs */
  score: number;
}
interface Row {
  name: string;
  opNs: number;
  iterations: number;
  processMs: number;
  figures: Figures[];
  /** the design of `figures` with the least variance per second */
  best: Figures;
  chosen: string | null;
  /** each process's repetitions, ns/op in order, and its wall time: what every figure is read from */
  processes: Array<{ reps: number[]; wallMs: number }>;
}

const rand = mulberry32(1);
const rows: Row[] = [];
for (const [name, ops] of steady) {
  const opNs = Math.min(...ops);
  const iterations = Math.max(1, Math.round(10e6 / opNs));
  const procs: Array<{ reps: number[]; wallMs: number }> = [];
  for (let p = 0; p < processes; p++) {
    const t0 = performance.now();
    const reps = goRun(binary, dir, ['-test.bench', anchored(name), `-test.benchtime=${iterations}x`, `-test.count=${count}`]).get(name) ?? [];
    const wallMs = performance.now() - t0;
    if (reps.length === count) procs.push({ reps, wallMs });
  }
  if (procs.length < 4) continue;
  // what a process costs besides its repetitions: its start, the harness's set-up, Go's b.N = 1 run
  const processMs = Math.max(0, median(procs.map((p) => p.wallMs - p.reps.reduce((t, v) => t + (v * iterations) / 1e6, 0))));
  const recorded = { name, opNs, iterations, processMs, processes: procs };
  const figures: Figures[] = designs.map((d) => {
    const value = procs.map((p) => shapeValue(p.reps, d));
    let sum = 0;
    for (let t = 0; t < draws; t++) {
      const dd: number[] = [];
      while (dd.length < nPairs) {
        const i = Math.floor(rand() * value.length);
        const j = Math.floor(rand() * value.length);
        if (i !== j) dd.push(value[i]! - value[j]!);
      }
      const hl = hodgesLehmann(dd, 0.95, { zeros: 'keep' });
      sum += ((hl.upper - hl.lower) / 2 / 1.959964) * Math.sqrt(nPairs);
    }
    const pairSd = sum / draws;
    const pairMs = shapePairMs(recorded, d);
    return { design: shapeKey(d), pairSd, pairMs, score: pairSd ** 2 * pairMs };
  });
  const c = chosen.get(name);
  const near = c ? designs.find((d) => d.w === Math.min(c.warmup, 4) && d.k === c.repetitions && d.L === LENGTHS.reduce((b, L) => (Math.abs(L * 10 - c.lengthMs) < Math.abs(b * 10 - c.lengthMs) ? L : b), 1)) : undefined;
  const best = figures.reduce((b, f) => (f.score < b.score ? f : b));
  rows.push({ name, opNs, iterations, processMs, figures, best, chosen: near ? shapeKey(near) : null, processes: procs });
  process.stderr.write(`[go-design-review] ${name}: best ${best.design} ±${(100 * best.pairSd).toFixed(1)}%\n`);
}

const pct = (v: number) => `±${(100 * v).toFixed(1)}%`;
const FIXED = ['w0k1L10', 'w1k1L10', 'w1k5L10', 'w1k3L40', 'w1k1L80'];
const machine = describeMachine();
const date = machine.date.slice(0, 10);
const command = `npm run bench:go-design-review -- ${process.argv.slice(2).join(' ')}`;
const cell = (r: Row, design: string | null) => {
  const f = r.figures.find((x) => x.design === design);
  return f ? `${pct(f.pairSd)} (${(f.score / r.best.score).toFixed(1)})` : '—';
};
const md = [
  '# Designs of a Go benchmark\'s runs, read from long processes',
  '',
  `Measured ${date} with \`${command}\`: each benchmark in ${processes} fresh processes of ${count} repetitions of about 10 ms. A design of w warm-ups and k repetitions of L reads each process's value as the least of its k repetitions after w (as pairbench makes a Go time), a repetition of L being the mean of L / 10 ms consecutive ones; d = ln of one process's value over another's. Each cell is the spread per pair the Hodges–Lehmann interval sees (${nPairs} random pairs of processes, ${draws} draws) and, in brackets, the variance of an estimate per second of budget (spread² × ms a pair) over the best design's: 1 is the best, 4 takes four times the budget for the same interval.`,
  '',
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; load average at start ${machine.loadAverage.join(' / ')}; pairbench commit ${machine.commit ?? 'unknown'}.`,
  '',
  `| benchmark | best design | its spread, ms a pair | chosen by --design auto${values.results ? '' : ' (no --results)'} | ${FIXED.map((k) => shapeWords({ w: Number(k[1]), k: Number(k[3]), L: Number(k.slice(5)) / 10 })).join(' | ')} |`,
  `|---|---|---|---|${FIXED.map(() => '---').join('|')}|`,
  ...rows.map((r) => {
    const d = designs.find((x) => shapeKey(x) === r.best.design)!;
    return `| ${r.name} | ${shapeWords(d)} | ${pct(r.best.pairSd)}, ${Math.round(r.best.pairMs)} ms | ${r.chosen ? `${shapeWords(designs.find((x) => shapeKey(x) === r.chosen)!)}: ${cell(r, r.chosen)}` : '—'} | ${FIXED.map((k) => cell(r, k)).join(' | ')} |`;
  }),
  '',
  `The best design is picked from ${designs.length} by the same processes it is scored on, so its figure is optimistic; the fixed designs' are not.`,
  '',
];
const outDir = values.out ? resolve(values.out) : join(ROOT, 'bench/results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `go-design-review-${date}.md`), md.join('\n'));
writeFileSync(join(outDir, `go-design-review-${date}.json`), `${JSON.stringify({ date: machine.date, command, machine, settings: { processes, count, pairs: nPairs, draws, bench: values.bench }, rows }, null, 1)}\n`);
console.log(md.join('\n'));
