/**
 * Speed of the statistics room: judging 100,000 pairs must take well under a second.
 *
 *   npm run bench:stats-speed                 # 100,000 pairs, 10 repetitions
 *   npm run bench:stats-speed -- --pairs 1000000 --reps 3 --out /tmp/speed.md
 *
 * Times `judge` (outliers, the sign-flip test with the screen inside its statistic, Hodges–Lehmann
 * estimate and interval by Walsh selection, diagnostics) and `stopCheck` on seeded log-normal
 * pairs with a 2% change, `judge` at the sizes where the sign-flip test draws its most patterns
 * (a clear change: p at its floor 1/(M + 1), no early stop of the draws), and the O(n²) Walsh list
 * for comparison at sizes where it still fits. Writes bench/results/stats-speed.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { judge, stopCheck, walshAveragesNaive } from '../src/stats/index.ts';
import type { Pair } from '../src/stats/types.ts';
import { mulberry32 } from '../src/stats/prng.ts';


function makePairs(n: number, seed: number): Pair[] {
  const rand = mulberry32(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Array.from({ length: n }, () => {
    const machine = Math.exp(0.03 * normal());
    return { base: 50 * machine * Math.exp(0.01 * normal()), head: 51 * machine * Math.exp(0.01 * normal()), order: rand() < 0.5 ? 'base-first' : 'head-first' };
  });
}

function stats(ms: number[]): { min: number; median: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s[Math.floor(s.length / 2)] ?? NaN, max: s[s.length - 1] ?? NaN };
}

function main(): void {
  const argv = process.argv.slice(2);
  const opt = (name: string, dflt: number): number => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const n = opt('--pairs', 100_000);
  const reps = opt('--reps', 10);
  const oi = argv.indexOf('--out');
  const out = oi >= 0 ? (argv[oi + 1] as string) : new URL('./results/stats-speed.md', import.meta.url).pathname;
  const rows: string[] = [];
  const judgeMs: number[] = [];
  const judgeCpu: number[] = [];
  const stopMs: number[] = [];
  let last = '';
  for (let r = 0; r < reps + 1; r++) {
    const pairs = makePairs(n, 100 + r);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const j = judge([{ name: 'bench', direction: 'lower-is-better', pairs }], { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    stopCheck(pairs, { minPairs: 10, maxPairs: n, precision: 0.001, alpha: 0.05, threshold: 0.02, outliers: 'tukey' });
    const t2 = performance.now();
    if (r === 0) continue; // warm-up: compilation of the code paths
    judgeMs.push(t1 - t0);
    judgeCpu.push((c1.user + c1.system) / 1000);
    stopMs.push(t2 - t1);
    const c = j.benchmarks[0]!.change!;
    last = `estimate ${(100 * c.estimate).toFixed(3)}%, interval [${(100 * c.ci[0]).toFixed(3)}%, ${(100 * c.ci[1]).toFixed(3)}%], p ${c.pValue.toExponential(1)}, method ${c.method}`;
  }
  const js = stats(judgeMs);
  const ss = stats(stopMs);
  const jc = stats(judgeCpu);
  rows.push(`| judge (1 benchmark) | ${n.toLocaleString('en')} | ${reps} | ${js.min.toFixed(0)} | ${js.median.toFixed(0)} | ${js.max.toFixed(0)} |`);
  rows.push(`| judge (1 benchmark), CPU time of the process | ${n.toLocaleString('en')} | ${reps} | ${jc.min.toFixed(0)} | ${jc.median.toFixed(0)} | ${jc.max.toFixed(0)} |`);
  rows.push(`| stopCheck | ${n.toLocaleString('en')} | ${reps} | ${ss.min.toFixed(0)} | ${ss.median.toFixed(0)} | ${ss.max.toFixed(0)} |`);
  // one stopCheck at the sizes the scheduler meets: it runs after every round
  const small: string[] = [];
  for (const m of [30, 100, 300, 1000]) {
    const pairs = makePairs(m, 11);
    const o = { minPairs: 10, maxPairs: 10_000, precision: 0.001, alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const };
    for (let i = 0; i < 50; i++) stopCheck(pairs, o);
    const ms: number[] = [];
    for (let r = 0; r < 15; r++) {
      const calls = 40;
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) stopCheck(pairs, o);
      ms.push((performance.now() - t0) / calls);
    }
    const st = stats(ms);
    small.push(`| stopCheck (mean of 40 calls, 15 repetitions) | ${m.toLocaleString('en')} | 15 | ${st.min.toFixed(3)} | ${st.median.toFixed(3)} | ${st.max.toFixed(3)} |`);
  }
  rows.push(...small);
  // the sign-flip test at its most expensive: a clear change draws all M patterns (M = 2,000 for one
  // benchmark, 20,000 for ten at alpha 0.05, capped at 5,000,000 / n), up to 1,000 pairs
  for (const [m, benchmarks] of [
    [30, 1],
    [200, 1],
    [1000, 1],
    [200, 10],
  ] as const) {
    const inputs = Array.from({ length: benchmarks }, (_, b) => ({ name: `bench${b}`, direction: 'lower-is-better' as const, pairs: makePairs(m, 500 + b) }));
    const o = { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', seed: 1 } as const;
    judge(inputs, o);
    const ms: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      judge(inputs, o);
      ms.push(performance.now() - t0);
    }
    const st = stats(ms);
    rows.push(`| judge, sign-flip test drawing all its patterns (${benchmarks} benchmark${benchmarks === 1 ? '' : 's'} of this many pairs) | ${m.toLocaleString('en')} | 5 | ${st.min.toFixed(1)} | ${st.median.toFixed(1)} | ${st.max.toFixed(1)} |`);
  }
  // the naive O(n²) Walsh list, for scale, where it still fits in memory
  for (const m of [1000, 5000]) {
    const x = Float64Array.from(makePairs(m, 7), (p) => Math.log(p.head / p.base)).sort();
    const t0 = performance.now();
    walshAveragesNaive(x);
    const t = performance.now() - t0;
    rows.push(`| naive sorted Walsh list (for scale) | ${m.toLocaleString('en')} | 1 | ${t.toFixed(0)} | ${t.toFixed(0)} | ${t.toFixed(0)} |`);
  }
  const md = [
    '# Speed of the statistics room',
    '',
    `- command: \`npm run bench:stats-speed${argv.length ? ` -- ${argv.join(' ')}` : ''}\``,
    `- date: ${new Date().toISOString()}`,
    `- machine: ${platform()} ${release()}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (a shared machine: other work was running); node ${process.version}`,
    `- data: seeded log-normal pairs (shared machine factor 3%, per-run noise 1%), a 2% change; last result: ${last}`,
    '',
    '| what | pairs | repetitions | min ms | median ms | max ms |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Judging ${n.toLocaleString('en')} pairs takes ${js.median.toFixed(0)} ms (median of ${reps}; ${jc.median.toFixed(0)} ms of CPU time: on a shared machine the wall time includes waiting for a core); the O(n²) Walsh list would hold ${((n * (n + 1)) / 2).toExponential(1)} averages (${((n * (n + 1) * 4) / 2 ** 30).toFixed(0)} GiB).`,
    '',
  ].join('\n');
  writeFileSync(out, md);
  process.stdout.write(md);
}

main();
