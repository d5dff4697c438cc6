/**
 * Which design of a Go benchmark's runs gives the narrowest interval per second on this machine, and
 * what binding the runs to one CPU adds? The measurement behind "How runs are designed" (README)
 * and `--cpus` (docs/statistics.md, "The design of the runs").
 *
 * A/A comparisons of two copies of one build (`base` and `aa` of a `bench:suites` Go folder), each
 * benchmark given exactly `--pairs` pairs (`--min-pairs` = `--max-pairs`: no stopping rule ends one
 * early), one comparison per arm, the arms in a freshly shuffled order in each of `--blocks` blocks
 * (the machine's hour moves the spread as much as the arms do, so each block compares them within
 * the same half hour):
 *
 * - `auto`: the default, `--design auto` (each benchmark's runs designed from its pilot); its
 *   spread is read from the pairs after the pilot, its cost from all of them;
 * - `1x10ms` ... `5x10ms`: one fixed design for every benchmark (`--design command` with
 *   `-test.benchtime L -test.count k`: Go runs k repetitions of a fixed count sized to L, the
 *   process's value their least);
 * - `bound`: `auto` with `--cpus <one CPU>` (Go then sets GOMAXPROCS to 1 itself);
 * - `bound-procs`: the same with `GOMAXPROCS=<the CPUs this process may use>` before the command,
 *   so that Go keeps the thread count it has unbound: binding alone, without a change of GOMAXPROCS.
 *
 * Per arm: the spread of ln(aa / base) per pair (median over the benchmarks of the standard
 * deviation, and of 1.4826 × MAD), the milliseconds per pair (the comparison's wall time over its
 * pairs, listing run and warm-up included), and the variance of a benchmark's estimate per second of
 * budget, relative to `auto` in the same block: (1.4826 × MAD)² × ms per pair, the criterion the
 * design minimises (Kalibera & Jones 2013).
 *
 *   npm run bench:go-designs                                              # fastjson, downloaded and built, copied as the A/A head
 *   npm run bench:go-designs -- --go-dirs /tmp/pairbench-suites-XXXX/go   # from npm run bench:suites -- --suites go --keep-work
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allowedCpus } from '../src/config/cpus.ts';
import { median } from '../src/stats/describe.ts';
import { rngFor, shuffle } from '../src/schedule/random.ts';
import { describeMachine, machineMarkdown, ROOT } from './lib/machine.ts';
import { fastjsonAaDirs } from './lib/go-runs.ts';
import { run } from './lib/proc.ts';

const ARMS = ['auto', '1x10ms', '1x20ms', '1x40ms', '1x80ms', '3x10ms', '5x10ms', 'bound', 'bound-procs'] as const;
type Arm = (typeof ARMS)[number];

const { values } = parseArgs({
  options: {
    'go-dirs': { type: 'string' },
    arms: { type: 'string', default: ARMS.join(',') },
    blocks: { type: 'string', default: '2' },
    pairs: { type: 'string', default: '40' },
    bench: { type: 'string', default: 'Benchmark(Parse|Validate)/(medium|twitter|canada)/(stdjson|fastjson)(-map)?$' },
    seed: { type: 'string', default: '11' },
    out: { type: 'string' },
  },
});

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};
// without --go-dirs, fastjson downloaded and built, and copied as the A/A head
const root = values['go-dirs'] ? resolve(values['go-dirs']) : fastjsonAaDirs('pairbench-go-designs-');
const dirs = { base: join(root, 'base'), aa: join(root, 'aa') };
for (const d of Object.values(dirs)) if (!existsSync(join(d, 'build/bench.test'))) fail(`--go-dirs ${root}: no ${join(d, 'build/bench.test')} (expected the go/ folder of a bench:suites run, with base/ and aa/ built)`);
const arms = values.arms.split(',').map((a) => a.trim()) as Arm[];
for (const a of arms) if (!ARMS.includes(a)) fail(`--arms: got ${JSON.stringify(a)}; expected some of ${ARMS.join(', ')}`);
const blocks = Number(values.blocks);
const pairs = Number(values.pairs);
const seed = Number(values.seed);
for (const [flag, v, min] of [['--blocks', blocks, 1], ['--pairs', pairs, 10], ['--seed', seed, 0]] as const) {
  if (!Number.isInteger(v) || v < min) fail(`${flag} ${String(v)}: expected a whole number of at least ${min}`);
}
const cpus = allowedCpus();
if (arms.some((a) => a.startsWith('bound')) && (cpus === null || cpus.length < 2)) fail('--arms bound, bound-procs: need Linux, taskset and at least two CPUs this process may use');

/** The run command and extra flags of an arm. */
function armCommand(arm: Arm): { run: string; extra: string[] } {
  const bench = `./build/bench.test -test.run '^$' -test.bench '${values.bench}'`;
  const fixed = /^(\d+)x(\d+)ms$/.exec(arm);
  if (fixed) return { run: `${bench} -test.benchtime ${fixed[2]}ms -test.count ${fixed[1]}`, extra: ['--design', 'command'] };
  const suite = `${bench} -test.benchtime 100ms`;
  if (arm === 'auto') return { run: suite, extra: [] };
  const bind = ['--cpus', String(cpus!.at(-1))];
  return arm === 'bound' ? { run: suite, extra: bind } : { run: `GOMAXPROCS=${cpus!.length} ${suite}`, extra: bind };
}

interface Spread {
  name: string;
  sd: number;
  mad: number;
  pairs: number;
}
interface ArmRun {
  arm: Arm;
  block: number;
  msPerPair: number;
  spreads: Spread[];
  sd: number;
  mad: number;
}

/** What this bench reads of a results file. */
interface ResultsRead {
  startedAt: string;
  finishedAt: string;
  benchmarks: Array<{ name: string; pairs: Array<{ base: number; head: number }>; design?: { pilotPairs?: number } }>;
}

async function measure(arm: Arm, block: number, scratch: string): Promise<ArmRun> {
  const out = join(scratch, `${arm}-${block}.json`);
  const { run: command, extra } = armCommand(arm);
  const args = [join(ROOT, 'src/cli.ts'), 'compare', '--base-dir', dirs.base, '--head-dir', dirs.aa, '--run', command, '--format', 'go', '--min-pairs', String(pairs), '--max-pairs', String(pairs), '--max-time', '30m', '--seed', String(seed + block), '--out', out, '--quiet', '--fail-on', 'none', ...extra];
  const r = await run(process.execPath, args, { cwd: ROOT, timeoutMs: 45 * 60_000 });
  if (!existsSync(out)) throw new Error(`${arm}: pairbench wrote no results (exit ${r.code}):\n${r.stderr.slice(-3000)}`);
  const res = JSON.parse(readFileSync(out, 'utf8')) as ResultsRead;
  let total = 0;
  const spreads: Spread[] = [];
  for (const b of res.benchmarks) {
    if (/ \([^()]*\)$/.test(b.name)) continue; // a derived row (MB/s, B/op): its benchmark's pairs again
    total += b.pairs.length;
    // auto: the design's spread, after the pilot (its cost counts in the ms per pair)
    const d = b.pairs.slice(b.design?.pilotPairs ?? 0).filter((p) => p.base > 0 && p.head > 0).map((p) => Math.log(p.head / p.base));
    if (d.length < 5) continue;
    const mean = d.reduce((a, x) => a + x, 0) / d.length;
    const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1));
    const med = median(d);
    spreads.push({ name: b.name, sd, mad: 1.4826 * median(d.map((x) => Math.abs(x - med))), pairs: d.length });
  }
  const msPerPair = (Date.parse(res.finishedAt) - Date.parse(res.startedAt)) / Math.max(1, total);
  const armRun = { arm, block, msPerPair, spreads, sd: median(spreads.map((s) => s.sd)), mad: median(spreads.map((s) => s.mad)) };
  process.stderr.write(`[go-designs] block ${block} ${arm}: ±${(100 * armRun.sd).toFixed(1)}% a pair (MAD ±${(100 * armRun.mad).toFixed(1)}%), ${armRun.msPerPair.toFixed(0)} ms a pair\n`);
  return armRun;
}

const machine = describeMachine();
const date = machine.date.slice(0, 10);
const scratch = mkdtempSync(join(tmpdir(), 'pairbench-go-designs-'));
const runs: ArmRun[] = [];
for (let block = 1; block <= blocks; block++) {
  for (const arm of shuffle(arms, rngFor(seed, 'go-designs', block))) runs.push(await measure(arm, block, scratch));
}

/** Variance of the estimate per second, relative to auto's in the same block (lower is better). */
const efficiency = (r: ArmRun): number | null => {
  const auto = runs.find((x) => x.arm === 'auto' && x.block === r.block);
  return auto ? (r.mad ** 2 * r.msPerPair) / (auto.mad ** 2 * auto.msPerPair) : null;
};
const pct = (x: number) => `±${(100 * x).toFixed(1)}%`;
const command = `npm run bench:go-designs -- ${process.argv.slice(2).join(' ')}`;
const describe: Record<Arm, string> = {
  auto: '`--design auto` (the default)',
  '1x10ms': '1 repetition of 10 ms',
  '1x20ms': '1 repetition of 20 ms',
  '1x40ms': '1 repetition of 40 ms',
  '1x80ms': '1 repetition of 80 ms',
  '3x10ms': '3 repetitions of 10 ms (their least)',
  '5x10ms': '5 repetitions of 10 ms (their least)',
  bound: '`--design auto`, `--cpus 1` (Go: GOMAXPROCS 1)',
  'bound-procs': `\`--design auto\`, \`--cpus 1\`, \`GOMAXPROCS=${cpus?.length ?? 'n'}\` before the command`,
};
const md = [
  '# Designs of a Go benchmark\'s runs, and binding, side by side (A/A)',
  '',
  `Measured ${date} with \`${command}\`.`,
  '',
  machineMarkdown(machine),
  '',
  `Two copies of one build of the fastjson suite (\`${values.bench}\`, ${Math.max(0, ...runs.map((r) => r.spreads.length))} benchmarks), ${pairs} pairs of every benchmark per comparison (no stopping rule ends one early), one comparison per arm, the arms in shuffled order in each of ${blocks} blocks. Spread: the median over the benchmarks of the standard deviation of ln(aa / base) per pair, and of 1.4826 × its MAD (for \`--design auto\` the pairs after the pilot). Per second: (1.4826 × MAD)² × ms per pair, relative to \`--design auto\` in the same block; below 1 is a narrower interval for the same budget.`,
  '',
  `| arm | ${Array.from({ length: blocks }, (_, i) => `block ${i + 1}: sd / MAD, ms a pair, per second`).join(' | ')} |`,
  `|---|${Array.from({ length: blocks }, () => '---').join('|')}|`,
  ...arms.map((arm) => `| ${describe[arm]} | ${Array.from({ length: blocks }, (_, i) => runs.find((r) => r.arm === arm && r.block === i + 1)).map((r) => (r ? `${pct(r.sd)} / ${pct(r.mad)}, ${r.msPerPair.toFixed(0)} ms, ${efficiency(r)?.toFixed(2) ?? '—'}` : '—')).join(' | ')} |`),
  '',
  '## Per benchmark (1.4826 × MAD of ln(aa / base) per pair, each block)',
  '',
  `| benchmark | ${arms.map((a) => a).join(' | ')} |`,
  `|---|${arms.map(() => '---').join('|')}|`,
  ...[...new Set(runs.flatMap((r) => r.spreads.map((s) => s.name)))].map((name) => `| ${name} | ${arms.map((arm) => runs.filter((r) => r.arm === arm).map((r) => r.spreads.find((s) => s.name === name)).map((s) => (s ? (100 * s.mad).toFixed(1) : '—')).join(', ')).join(' | ')} |`),
  '',
];
const outDir = values.out ? resolve(values.out) : join(ROOT, 'bench/results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `go-designs-${date}.md`), md.join('\n'));
writeFileSync(join(outDir, `go-designs-${date}.json`), `${JSON.stringify({ date: machine.date, command, machine, settings: { arms, blocks, pairs, bench: values.bench, seed }, runs }, null, 1)}\n`);
console.log(md.join('\n'));
