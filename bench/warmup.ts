/**
 * Does the first repetition of a process differ from the later ones? The measurement behind the
 * design's warm-up repetition (docs/statistics.md, "A warm-up repetition"), for every benchmark of
 * a built Go test binary: each benchmark runs in `--processes` fresh processes, each with
 * `--count` repetitions of about `--length` (iterations sized from its steady time per iteration),
 * and the table gives the first and the second repetition against the median of those after them.
 *
 *   npm run bench:warmup                                              # fastjson, downloaded and built (a minute)
 *   npm run bench:warmup -- --go-dir /tmp/pairbench-suites-XXXX/go/base   # a test binary built before
 *
 * Without `--go-dir` it measures the fastjson suite of bench/suites.ts (github.com/valyala/fastjson
 * v1.6.4, unpatched), fetched through the Go module proxy into a temporary folder. `--go-dir` is a
 * folder with `build/bench.test` built in it (`npm run bench:suites -- --suites go --keep-work`
 * leaves one in `<work>/go/base`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '../src/stats/describe.ts';
import { anchored, goBinary, goRun } from './lib/go-runs.ts';
import { describeMachine, ROOT } from './lib/machine.ts';

const { values } = parseArgs({
  options: {
    'go-dir': { type: 'string' },
    processes: { type: 'string', default: '5' },
    count: { type: 'string', default: '5' },
    length: { type: 'string', default: '10' },
    bench: { type: 'string', default: '^Benchmark(Parse|Validate)$' },
    out: { type: 'string' },
  },
});

const { dir, binary } = goBinary(values['go-dir'], 'pairbench-warmup-');
const processes = Number(values.processes);
const count = Number(values.count);
const lengthMs = Number(values.length);
for (const [flag, v, min] of [['--processes', processes, 1], ['--count', count, 4], ['--length', lengthMs, 1]] as const) {
  if (!Number.isInteger(v) || v < min) {
    console.error(`${flag} ${String(v)}: expected a whole number of at least ${min}`);
    process.exit(2);
  }
}

const run = (args: readonly string[]): Map<string, number[]> => goRun(binary, dir, args);


// the steady time of one iteration: the fastest of four 20 ms repetitions in one process (the
// listing run's first iteration can be many times the rest)
const steady = run(['-test.bench', values.bench, '-test.benchtime', '20ms', '-test.count', '4']);
interface Row {
  name: string;
  opNs: number;
  iterations: number;
  /** per process: ln(first / median of the 3rd and later), ln(second / the same) */
  first: number[];
  second: number[];
}
const rows: Row[] = [];
for (const [name, ops] of steady) {
  const opNs = Math.min(...ops);
  const iterations = Math.max(1, Math.round((lengthMs * 1e6) / opNs));
  const row: Row = { name, opNs, iterations, first: [], second: [] };
  for (let p = 0; p < processes; p++) {
    const reps = run(['-test.bench', anchored(name), `-test.benchtime=${iterations}x`, `-test.count=${count}`]).get(name) ?? [];
    if (reps.length < 4) continue;
    const later = median(reps.slice(2));
    row.first.push(Math.log(reps[0]! / later));
    row.second.push(Math.log(reps[1]! / later));
  }
  rows.push(row);
  process.stderr.write(`[warmup] ${name}: first ${ratio(median(row.first))}, second ${ratio(median(row.second))}\n`);
}

function ratio(lnValue: number): string {
  return Math.exp(lnValue).toFixed(2);
}

const machine = describeMachine();
const date = machine.date.slice(0, 10);
const command = `npm run bench:warmup -- ${process.argv.slice(2).join(' ')}`;
const md = [
  '# The first repetition of a Go process against the later ones',
  '',
  `Measured ${date} with \`${command}\`: each benchmark in ${processes} fresh processes of ${count} repetitions of about ${lengthMs} ms (\`-test.benchtime Nx\`, N from the fastest of four 20 ms repetitions). "First" and "second" are the first and second repetition of a process over the median of its third and later ones: the median over the processes, and the largest.`,
  '',
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; load average at start ${machine.loadAverage.join(' / ')}; pairbench commit ${machine.commit ?? 'unknown'}.`,
  '',
  '| benchmark | one iteration | iterations per repetition | first / later (median) | first (largest) | second / later (median) | second (largest) |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${formatNs(r.opNs)} | ${r.iterations} | ${ratio(median(r.first))} | ${ratio(Math.max(...r.first))} | ${ratio(median(r.second))} | ${ratio(Math.max(...r.second))} |`),
  '',
  `Benchmarks whose first repetition ran a median 1.10 times the later ones or more: ${rows.filter((r) => median(r.first) >= Math.log(1.1)).length} of ${rows.length}; whose second did: ${rows.filter((r) => median(r.second) >= Math.log(1.1)).length}.`,
  '',
];

function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

const outDir = values.out ? resolve(values.out) : join(ROOT, 'bench/results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `warmup-go-${date}.md`), md.join('\n'));
writeFileSync(join(outDir, `warmup-go-${date}.json`), `${JSON.stringify({ date: machine.date, command, machine, settings: { processes, count, lengthMs, bench: values.bench }, rows }, null, 1)}\n`);
console.log(md.join('\n'));
