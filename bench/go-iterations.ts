/**
 * How many iterations should a designed repetition of a Go benchmark run after a cold start? The
 * measurement behind the design's floor of iterations (schedule/design.ts, COLD_START_FACTOR and
 * COLD_START_MIN_ITERATIONS; docs/statistics.md, "The design of the runs").
 *
 * 1. For every benchmark: its iteration as pairbench's listing run times it (a fresh process,
 *    `-test.benchtime 10ms`: Go's b.N = 1 run, then a longer round unless that one took 10 ms or
 *    more; the median of `--processes` processes) over its steady iteration (the fastest of four
 *    20 ms repetitions), as the pilot finds it.
 * 2. For the benchmarks whose first iteration takes COLD times the steady one or more, and for
 *    `--controls` that do not: A/A pairs of two copies of the same build (`base` and `aa` of a
 *    `bench:suites` Go folder), in coin-flip order, one benchmark at a time, each process a warm-up
 *    repetition and one measured repetition of `--iterations` (default 2 and 20) iterations:
 *    the spread of ln(aa / base) per pair, as the standard deviation and as 1.4826 × MAD.
 *
 *   npm run bench:go-iterations -- --go-dirs /tmp/pairbench-suites-XXXX/go   # from npm run bench:suites -- --suites go --keep-work
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../src/stats/prng.ts';
import { median } from '../src/stats/describe.ts';
import { anchored, goRun } from './lib/go-runs.ts';
import { describeMachine, ROOT } from './lib/machine.ts';

const { values } = parseArgs({
  options: {
    'go-dirs': { type: 'string' },
    processes: { type: 'string', default: '3' },
    pairs: { type: 'string', default: '14' },
    iterations: { type: 'string', default: '2,20' },
    controls: { type: 'string', default: 'BenchmarkParse/canada/stdjson-map,BenchmarkParse/citm/stdjson-map' },
    bench: { type: 'string', default: '^Benchmark(Parse|Validate)$' },
    seed: { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});

/** How many times the steady iteration a first iteration must take to count as a cold start (as schedule/design.ts). */
const COLD = 2;

if (!values['go-dirs']) {
  console.error('--go-dirs: expected the go/ folder of `npm run bench:suites -- --suites go --keep-work` (with base/ and aa/ built in it)');
  process.exit(2);
}
const root = resolve(values['go-dirs']);
const dirs = { base: join(root, 'base'), aa: join(root, 'aa') };
for (const d of Object.values(dirs)) {
  if (!existsSync(join(d, 'build/bench.test'))) {
    console.error(`--go-dirs ${root}: no ${join(d, 'build/bench.test')} (expected the go/ folder of a bench:suites run, with base/ and aa/ built)`);
    process.exit(2);
  }
}
const processes = Number(values.processes);
const pairs = Number(values.pairs);
const counts = values.iterations.split(',').map(Number);
for (const [flag, v, min] of [['--processes', processes, 1], ['--pairs', pairs, 4], ...counts.map((c) => ['--iterations', c, 1] as const)] as const) {
  if (!Number.isInteger(v) || v < min) {
    console.error(`${flag} ${String(v)}: expected a whole number of at least ${min}`);
    process.exit(2);
  }
}

const run = (side: keyof typeof dirs, args: readonly string[]): Map<string, number[]> => goRun(join(dirs[side], 'build/bench.test'), dirs[side], args);


// 1. the first iteration of a fresh process over the steady one
const steady = run('base', ['-test.bench', values.bench, '-test.benchtime', '20ms', '-test.count', '4']);
interface Start {
  name: string;
  steadyNs: number;
  firstNs: number;
}
const starts: Start[] = [];
for (const [name, ops] of steady) {
  const firsts = Array.from({ length: processes }, () => run('base', ['-test.bench', anchored(name), '-test.benchtime', '10ms']).get(name)?.[0] ?? NaN).filter(Number.isFinite);
  starts.push({ name, steadyNs: Math.min(...ops), firstNs: median(firsts) });
  process.stderr.write(`[go-iterations] ${name}: listed ${(median(firsts) / Math.min(...ops)).toFixed(2)} times the steady iteration\n`);
}

// 2. A/A pairs of the cold-start benchmarks and the controls, at each iteration count
const cold = starts.filter((s) => s.firstNs >= COLD * s.steadyNs).map((s) => s.name);
const controls = values.controls.split(',').filter((n) => steady.has(n) && !cold.includes(n));
const coin = mulberry32(Number(values.seed));
interface Spread {
  name: string;
  cold: boolean;
  iterations: number;
  sd: number;
  madSd: number;
  pairs: number;
}
const spreads: Spread[] = [];
for (const name of [...cold, ...controls]) {
  for (const n of counts) {
    const d: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const order: Array<keyof typeof dirs> = coin() < 0.5 ? ['base', 'aa'] : ['aa', 'base'];
      const v: Partial<Record<keyof typeof dirs, number>> = {};
      // a warm-up repetition and the measured one: Go's own b.N = 1 run comes before each
      for (const side of order) v[side] = run(side, ['-test.bench', anchored(name), `-test.benchtime=${n}x`, '-test.count=2']).get(name)?.[1];
      if (v.base && v.aa) d.push(Math.log(v.aa / v.base));
    }
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1));
    const med = median(d);
    const madSd = 1.4826 * median(d.map((x) => Math.abs(x - med)));
    spreads.push({ name, cold: cold.includes(name), iterations: n, sd, madSd, pairs: d.length });
    process.stderr.write(`[go-iterations] ${name} at ${n} iterations: ±${(100 * sd).toFixed(1)}% a pair (MAD ±${(100 * madSd).toFixed(1)}%)\n`);
  }
}

const machine = describeMachine();
const date = machine.date.slice(0, 10);
const command = `npm run bench:go-iterations -- ${process.argv.slice(2).join(' ')}`;
const pct = (x: number) => `±${(100 * x).toFixed(1)}%`;
const formatNs = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toPrecision(3)} ms` : ns >= 1e3 ? `${(ns / 1e3).toPrecision(3)} µs` : `${ns.toPrecision(3)} ns`);
const ratios = starts.map((s) => s.firstNs / s.steadyNs);
const warm = starts.filter((s) => !cold.includes(s.name)).map((s) => s.firstNs / s.steadyNs);
const md = [
  '# Iterations per repetition after a cold start (Go)',
  '',
  `Measured ${date} with \`${command}\`.`,
  '',
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; load average at start ${machine.loadAverage.join(' / ')}; pairbench commit ${machine.commit ?? 'unknown'}.`,
  '',
  `## The listed iteration against the steady one`,
  '',
  `An iteration as the listing run times it (a fresh process, \`-test.benchtime 10ms\`: one iteration when Go's b.N = 1 run takes 10 ms or more; the median of ${processes} processes) over the fastest of four 20 ms repetitions. ${cold.length} of ${starts.length} benchmarks listed ${COLD} times or more (${cold.length > 0 ? `${Math.min(...ratios.filter((r) => r >= COLD)).toFixed(2)}-${Math.max(...ratios).toFixed(2)} times` : 'none'}); the others ${warm.length > 0 ? `${Math.min(...warm).toFixed(2)}-${Math.max(...warm).toFixed(2)} times` : 'none'}.`,
  '',
  '| benchmark | steady iteration | listed iteration | listed / steady |',
  '|---|---|---|---|',
  ...starts.map((s) => `| ${s.name} | ${formatNs(s.steadyNs)} | ${formatNs(s.firstNs)} | ${(s.firstNs / s.steadyNs).toFixed(2)}${cold.includes(s.name) ? ' (cold start)' : ''} |`),
  '',
  '## A/A pairs at each iteration count',
  '',
  `Two copies of one build, ${pairs} pairs each, coin-flip order, one benchmark at a time; each process a warm-up repetition and one measured repetition of N iterations (\`-test.benchtime=Nx -test.count=2\`, the second value). The spread of ln(aa / base) per pair.`,
  '',
  `| benchmark | cold start | ${counts.map((n) => `${n} iterations: sd (MAD)`).join(' | ')} |`,
  `|---|---|${counts.map(() => '---').join('|')}|`,
  ...[...cold, ...controls].map((name) => `| ${name} | ${cold.includes(name) ? 'yes' : 'no'} | ${counts.map((n) => spreads.find((s) => s.name === name && s.iterations === n)).map((s) => (s ? `${pct(s.sd)} (${pct(s.madSd)})` : '—')).join(' | ')} |`),
  '',
];
const outDir = values.out ? resolve(values.out) : join(ROOT, 'bench/results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `go-iterations-${date}.md`), md.join('\n'));
writeFileSync(join(outDir, `go-iterations-${date}.json`), `${JSON.stringify({ date: machine.date, command, machine, settings: { processes, pairs, counts, controls, bench: values.bench, seed: Number(values.seed) }, starts, spreads }, null, 1)}\n`);
console.log(md.join('\n'));
