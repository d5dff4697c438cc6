/**
 * Overhead bias: does pairbench's own per-run cost (the fork of `sh -c` and the shell's start)
 * shrink the change it reports? A fixed cost c turns head/base into (h + c) / (b + c).
 *
 *   npm run bench:overhead-bias                       # about 12 minutes on 2 loaded cores
 *   npm run bench:overhead-bias -- --comparisons 10 --sizes 5,50 --effect 5
 *
 * Two builds of bench/programs/work.c per program size (about 5 ms and 50 ms of CPU time): the
 * base, and one with `--effect` percent more loop iterations. Each comparison measures the same
 * two binaries with three tools, in an order shuffled per comparison:
 * - pairbench (default `--shell sh`, `--metric wall,cpu`): its estimates after subtracting the
 *   calibrated shell overhead; the same results file judged again without the subtraction gives
 *   the bias it removes (same pairs, only the subtraction differs);
 * - pairbench `--shell none` (the program executed directly, nothing subtracted);
 * - `hyperfine -N` (no shell, nothing to subtract): relative change = mean(head) / mean(base) − 1,
 *   hyperfine's own summary statistic, of wall time and of user + system time; the ratio of
 *   medians and the median of the paired ratios are recorded too. hyperfine is invoked once per
 *   pair of runs (`--runs 1`, alternating which binary goes first) and its times are pooled, so
 *   that the load of a shared machine falls on both sides as it does for pairbench's pairs (one
 *   invocation with all runs of one binary, then all of the other, follows the load more than
 *   the programs there).
 * Reported per size and metric: the mean over the comparisons of each tool's change, and
 * pairbench's difference from hyperfine -N (goal: within 0.3 points). Writes
 * bench/results/overhead-bias.md and bench/results/overhead-bias.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runCommand } from '../src/measure/one-run.ts';
import { judgeResults } from '../src/results/judge-file.ts';
import { rngFor, shuffle } from '../src/schedule/random.ts';
import { describeMachine, duration, machineMarkdown, ROOT } from './lib/machine.ts';
import { HYPERFINE_INSTALL, run, versionOf } from './lib/proc.ts';
import { mean, median, sd } from './lib/stats.ts';
import { SOURCE } from './lib/programs.ts';
import { readResultsFile } from '../src/results/read.ts';

interface Options {
  comparisons: number;
  sizes: number[];
  effect: number;
  outDir: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: { comparisons: { type: 'string' }, sizes: { type: 'string' }, effect: { type: 'string' }, 'out-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log('Usage: npm run bench:overhead-bias -- [--comparisons 10] [--sizes 5,50] [--effect 5] [--out-dir bench/results]');
    process.exit(0);
  }
  const comparisons = Number(values.comparisons ?? 10);
  const sizes = (values.sizes ?? '5,50').split(',').map(Number);
  const effect = Number(values.effect ?? 5);
  if (!Number.isInteger(comparisons) || comparisons < 1) throw new Error('--comparisons: expected a whole number >= 1');
  if (!sizes.every((s) => s > 0)) throw new Error('--sizes: expected program sizes in ms such as 5,50');
  if (!(effect > 0)) throw new Error('--effect: expected a percentage > 0');
  return { comparisons, sizes, effect, outDir: resolve(values['out-dir'] ?? join(ROOT, 'bench/results')) };
}

const BUILD = join(ROOT, 'bench/programs/build/overhead-bias');
const METRICS = ['wall', 'cpu'] as const;
type M = (typeof METRICS)[number];

function build(dir: string, iters: number, permille: number): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('cc', ['-O2', `-DWORK_PERMILLE=${permille}`, `-DBASE_ITERS=${iters}ULL`, '-o', join(dir, 'prog'), SOURCE], { stdio: 'inherit' });
}

/** Median CPU time of a few runs, ms, read by pairbench's run helper: the program's size (on a loaded machine wall time says more about the load). */
async function cpuOf(dir: string, n = 7): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await runCommand({ command: './prog', shell: 'none', cwd: dir, env: process.env, timeoutMs: 60_000, captureStdout: false });
    if (r.outcome !== 'ok' || r.cpuMs === null) throw new Error(`${dir}/prog: ${r.outcome}, no CPU time (the run helper needs a C compiler)`);
    xs.push(r.cpuMs);
  }
  return median(xs);
}

interface Programs {
  sizeMs: number;
  iters: number;
  base: string;
  head: string;
  baseCpuMs: number;
  headCpuMs: number;
}

async function programs(sizeMs: number, effect: number): Promise<Programs> {
  const base = join(BUILD, `${sizeMs}ms`, 'base');
  const head = join(BUILD, `${sizeMs}ms`, `plus-${effect}`);
  let iters = 1_000_000;
  build(base, iters, 1000);
  iters = Math.max(1000, Math.round((iters * sizeMs) / (await cpuOf(base))));
  build(base, iters, 1000);
  build(head, iters, Math.round(1000 + 10 * effect));
  return { sizeMs, iters, base, head, baseCpuMs: await cpuOf(base), headCpuMs: await cpuOf(head) };
}

type PerMetric<T> = Record<M, T>;

interface PairbenchOut {
  /** the judged change with the overhead subtracted (default) */
  change: PerMetric<number>;
  /** the same pairs judged without the subtraction */
  unsubtracted: PerMetric<number | null>;
  overheadMs: PerMetric<number | null>;
  pairs: number;
}

async function pairbench(p: Programs, pairs: number, shell: 'sh' | 'none', seed: number, tmp: string): Promise<PairbenchOut> {
  const out = join(tmp, `pb-${process.hrtime.bigint()}.json`);
  const args = [join(ROOT, 'src/cli.ts'), 'compare', '--base-dir', p.base, '--head-dir', p.head, '--run', './prog', '--shell', shell, '--metric', 'wall,cpu', '--name', 'prog',
    '--min-pairs', String(pairs), '--max-pairs', String(pairs), '--warmup', '2', '--max-time', '30m', '--fail-on', 'none', '--quiet', '--out', out, '--seed', String(seed)];
  const r = await run(process.execPath, args, { cwd: ROOT });
  if (r.code !== 0) throw new Error(`pairbench exited ${r.code}: ${r.stderr.slice(-800)}`);
  const results = readResultsFile(out);
  rmSync(out, { force: true });
  const opts = { alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const, correction: 'holm' as const };
  const got: PairbenchOut = { change: { wall: NaN, cpu: NaN }, unsubtracted: { wall: null, cpu: null }, overheadMs: { wall: null, cpu: null }, pairs };
  for (const m of METRICS) {
    const b = results.benchmarks.find((x) => x.metric === m);
    if (!b?.change) throw new Error(`pairbench gave no ${m} change`);
    got.change[m] = b.change.estimate;
    got.pairs = b.pairs.length;
    if (b.overhead) {
      const { overhead: _o, ...raw } = b;
      got.unsubtracted[m] = judgeResults({ ...results, benchmarks: [raw] }, opts).benchmarks[0]!.change?.estimate ?? null;
      got.overheadMs[m] = b.overhead.ms;
    }
  }
  return got;
}

interface HyperfineOut {
  /** mean(head) / mean(base) − 1: hyperfine's own summary */
  meanRatio: PerMetric<number>;
  medianRatio: PerMetric<number>;
  /** median over the invocations of head / base − 1: hyperfine's times, paired as pairbench pairs them */
  pairedRatio: PerMetric<number>;
}

/** hyperfine -N on the two binaries, `runs` times each, one run of each per invocation (see the header). */
async function hyperfine(p: Programs, runs: number, tmp: string): Promise<HyperfineOut> {
  const times: Record<'base' | 'head', PerMetric<number[]>> = { base: { wall: [], cpu: [] }, head: { wall: [], cpu: [] } };
  const ratios: PerMetric<number[]> = { wall: [], cpu: [] };
  for (let k = 0; k < runs; k++) {
    const out = join(tmp, `hf-${process.hrtime.bigint()}.json`);
    const sides = k % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
    const args = ['-N', '--runs', '1', '--warmup', '0', '--style', 'none', '--export-json', out, ...sides.map((s) => join(p[s], 'prog'))];
    const r = await run('hyperfine', args, { cwd: tmp });
    if (r.code !== 0) throw new Error(`hyperfine exited ${r.code}: ${r.stderr.slice(-800)}`);
    const j = JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[]; user: number; system: number }[] };
    rmSync(out, { force: true });
    const got = { base: { wall: 0, cpu: 0 }, head: { wall: 0, cpu: 0 } };
    sides.forEach((s, i) => {
      const x = j.results[i]!;
      got[s] = { wall: x.times[0]! * 1000, cpu: (x.user + x.system) * 1000 };
      for (const m of METRICS) times[s][m].push(got[s][m]);
    });
    for (const m of METRICS) if (got.base[m] > 0 && got.head[m] > 0) ratios[m].push(got.head[m] / got.base[m]);
  }
  const per = (f: (m: M) => number): PerMetric<number> => ({ wall: f('wall'), cpu: f('cpu') });
  return {
    meanRatio: per((m) => mean(times.head[m]) / mean(times.base[m]) - 1),
    medianRatio: per((m) => median(times.head[m]) / median(times.base[m]) - 1),
    pairedRatio: per((m) => median(ratios[m]) - 1),
  };
}

interface Comparison {
  index: number;
  order: string[];
  pairbench: PairbenchOut;
  pairbenchNone: PairbenchOut;
  hyperfineN: HyperfineOut;
}

interface SizeResult {
  programs: Omit<Programs, 'base' | 'head'>;
  pairs: number;
  comparisons: Comparison[];
  summary: PerMetric<Record<string, { mean: number; se: number }>>;
}

const pts = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(2)}%`;
const pp = (x: { mean: number; se: number }): string => `${x.mean >= 0 ? '+' : '−'}${Math.abs(x.mean * 100).toFixed(2)} ± ${(x.se * 100).toFixed(2)}`;

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  if (!versionOf('hyperfine')) throw new Error(HYPERFINE_INSTALL);
  const machine = describeMachine();
  const t0 = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), 'pairbench-overhead-bias-'));
  const log = (s: string) => console.error(s);
  try {
    const sizes: Record<string, SizeResult> = {};
    for (const sizeMs of o.sizes) {
      const p = await programs(sizeMs, o.effect);
      // Pairs per comparison: 40 for short programs, 20 for long ones (the bench stays near 12 minutes on a loaded machine).
      const pairs = sizeMs < 20 ? 40 : 20;
      log(`${sizeMs} ms program: ${p.iters} iterations, CPU time base ${p.baseCpuMs.toFixed(2)} ms, head ${p.headCpuMs.toFixed(2)} ms; ${pairs} pairs (${2 * pairs} runs per tool) per comparison`);
      const comparisons: Comparison[] = [];
      for (let i = 0; i < o.comparisons; i++) {
        const order = shuffle(['pairbench', 'pairbench --shell none', 'hyperfine -N'], rngFor(20261123, `${sizeMs}`, i));
        const got: Partial<Comparison> = { index: i, order };
        for (const tool of order) {
          if (tool === 'pairbench') got.pairbench = await pairbench(p, pairs, 'sh', 1000 + i, tmp);
          else if (tool === 'pairbench --shell none') got.pairbenchNone = await pairbench(p, pairs, 'none', 2000 + i, tmp);
          else got.hyperfineN = await hyperfine(p, pairs, tmp);
        }
        const c = got as Comparison;
        comparisons.push(c);
        for (const m of METRICS) {
          log(`  ${i + 1}/${o.comparisons} ${m}: pairbench ${pts(c.pairbench.change[m])} (unsubtracted ${c.pairbench.unsubtracted[m] === null ? '-' : pts(c.pairbench.unsubtracted[m]!)}, overhead ${c.pairbench.overheadMs[m]?.toFixed(2)} ms), --shell none ${pts(c.pairbenchNone.change[m])}, hyperfine -N ${pts(c.hyperfineN.meanRatio[m])} (medians ${pts(c.hyperfineN.medianRatio[m])}, paired ${pts(c.hyperfineN.pairedRatio[m])})`);
        }
      }
      const col = (f: (c: Comparison) => number) => {
        const xs = comparisons.map(f);
        return { mean: mean(xs), se: xs.length > 1 ? sd(xs) / Math.sqrt(xs.length) : 0 };
      };
      const summaryOf = (m: M) => ({
        pairbench: col((c) => c.pairbench.change[m]),
        pairbenchUnsubtracted: col((c) => c.pairbench.unsubtracted[m] ?? NaN),
        pairbenchNone: col((c) => c.pairbenchNone.change[m]),
        hyperfineN: col((c) => c.hyperfineN.meanRatio[m]),
        hyperfineNMedians: col((c) => c.hyperfineN.medianRatio[m]),
        hyperfineNPaired: col((c) => c.hyperfineN.pairedRatio[m]),
        overheadMs: col((c) => c.pairbench.overheadMs[m] ?? NaN),
        diff: col((c) => c.pairbench.change[m] - c.hyperfineN.meanRatio[m]),
        diffPaired: col((c) => c.pairbench.change[m] - c.hyperfineN.pairedRatio[m]),
        diffUnsubtracted: col((c) => (c.pairbench.unsubtracted[m] ?? NaN) - c.hyperfineN.meanRatio[m]),
        diffNone: col((c) => c.pairbenchNone.change[m] - c.hyperfineN.meanRatio[m]),
      });
      const { base: _b, head: _h, ...info } = p;
      sizes[String(sizeMs)] = { programs: info, pairs, comparisons, summary: { wall: summaryOf('wall'), cpu: summaryOf('cpu') } };
    }
    const took = performance.now() - t0;
    mkdirSync(o.outDir, { recursive: true });
    writeFileSync(join(o.outDir, 'overhead-bias.json'), `${JSON.stringify({ machine, options: o, tookMs: took, sizes }, null, 2)}\n`);
    const rows = Object.values(sizes).flatMap((s) =>
      METRICS.map((m) => {
        const x = s.summary[m];
        return `| ${s.programs.sizeMs} ms (CPU ${s.programs.baseCpuMs.toFixed(1)} ms) | ${m} | ${s.comparisons.length} × ${s.pairs} | ${pp(x.hyperfineN!)} | **${pp(x.pairbench!)}** | **${pp(x.diff!)}** | ${pp(x.diffPaired!)} | ${pp(x.pairbenchUnsubtracted!)} (${pp(x.diffUnsubtracted!)}) | ${pp(x.pairbenchNone!)} (${pp(x.diffNone!)}) | ${x.overheadMs!.mean.toFixed(2)} ms |`;
      }),
    );
    const detail = Object.values(sizes).flatMap((s) => [
      '',
      `#### ${s.programs.sizeMs} ms program (${s.programs.iters} iterations; median CPU time base ${s.programs.baseCpuMs.toFixed(2)} ms, head ${s.programs.headCpuMs.toFixed(2)} ms)`,
      '',
      '| # | order | metric | pairbench | unsubtracted | overhead | --shell none | hyperfine -N means / medians / paired |',
      '|---|---|---|---|---|---|---|---|',
      ...s.comparisons.flatMap((c) =>
        METRICS.map((m) => `| ${c.index + 1} | ${c.order.join(', ')} | ${m} | ${pts(c.pairbench.change[m])} | ${c.pairbench.unsubtracted[m] === null ? '-' : pts(c.pairbench.unsubtracted[m]!)} | ${c.pairbench.overheadMs[m]?.toFixed(2)} ms | ${pts(c.pairbenchNone.change[m])} | ${pts(c.hyperfineN.meanRatio[m])} / ${pts(c.hyperfineN.medianRatio[m])} / ${pts(c.hyperfineN.pairedRatio[m])} |`),
      ),
    ]);
    const md = [
      `# Overhead bias: pairbench against hyperfine -N on a +${o.effect}% change`,
      '',
      `\`npm run bench:overhead-bias\` (bench/overhead-bias.ts). Two builds of bench/programs/work.c per size, the head with ${o.effect}% more loop iterations. Each comparison runs, in a shuffled order, pairbench (default \`--shell sh\`, its calibrated shell overhead subtracted, \`--metric wall,cpu\`), pairbench \`--shell none\` and \`hyperfine -N\` on the same two binaries. hyperfine's change is mean(head) / mean(base) − 1 of its times (its own summary; wall time, and user + system time for cpu); hyperfine is invoked once per pair of runs (\`--runs 1\`, alternating which binary goes first) and the times of all invocations are pooled, so that the machine's changing load falls on both sides. "paired" is the median over the invocations of head/base − 1 (hyperfine's times paired as pairbench pairs its runs). pairbench's change is its judged estimate (Hodges–Lehmann of the paired log-ratios, as a relative change). "unsubtracted" judges the same pairbench results file with the recorded overhead removed: the bias the subtraction takes away. Every figure is the mean over the comparisons ± its standard error, in percent or percentage points.`,
      '',
      machineMarkdown(machine, {
        Took: duration(took),
        Load: "the machine was shared and heavily loaded during the run (several test suites on its 2 cores; load average above 20): a CPU-bound program's wall time is mostly its wait for a core, so wall-time changes are noisy for every tool; CPU time is where the overhead's bias can be seen clearly here",
      }),
      '',
      '| program | metric | comparisons × pairs | hyperfine -N | pairbench | pairbench − hyperfine -N (points) | against hyperfine paired | pairbench unsubtracted (− hyperfine -N) | pairbench --shell none (− hyperfine -N) | overhead (median) |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      ...detail,
      '',
    ].join('\n');
    writeFileSync(join(o.outDir, 'overhead-bias.md'), md);
    log(md);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
