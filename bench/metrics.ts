/**
 * Metrics side by side: how wide the interval of the same real change is when it is measured as
 * wall time, as CPU time, and as instruction counts, on a quiet machine and under the noise
 * generator. The same pairs carry wall and CPU time (`--metric wall,cpu`), so the comparison is
 * like for like.
 *
 *   npm run bench:metrics                     # full: 12 repetitions per condition (~8 minutes)
 *   npm run bench:metrics -- --quick          # 3 repetitions, no instruction counts (~1 minute)
 *
 * Writes bench/results/metrics.md and bench/results/metrics.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, describeMachine, machineMarkdown, duration } from './lib/machine.ts';
import { buildPrograms, RUN } from './lib/programs.ts';
import { startNoise } from './noise-generator.ts';
import { readResultsFile } from '../src/results/read.ts';

interface Row {
  condition: 'quiet' | 'noisy';
  metric: string;
  rep: number;
  pairs: number;
  estimate: number;
  lo: number;
  hi: number;
  verdict: string;
  seconds: number;
}

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, reps: { type: 'string' }, pairs: { type: 'string' } } });
const quick = values.quick === true;
const reps = Number(values.reps ?? (quick ? 3 : 12));
const pairs = Number(values.pairs ?? 30);
const hasValgrind = spawnSync('valgrind', ['--version']).status === 0;
const cli = join(ROOT, 'src/cli.ts');
const out = mkdtempSync(join(tmpdir(), 'pairbench-metrics-'));

const { base, heads } = buildPrograms([1, 2]);
const plus1 = heads.get(1)!;
const plus2 = heads.get(2)!;

function compare(head: string, metric: string, n: number, seed: number): { rows: Omit<Row, 'condition' | 'rep'>[] } {
  const file = join(out, `r-${seed}-${metric}.json`);
  const t0 = Date.now();
  const res = spawnSync(process.execPath, [cli, 'compare', '--base-dir', base.dir, '--head-dir', head, '--run', RUN, '--metric', metric, '--min-pairs', String(n), '--max-pairs', String(n), '--threshold', '0.5%', '--seed', String(seed), '--out', file, '--quiet', '--fail-on', 'none'], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`compare failed (${res.status}): ${res.stderr}`);
  const seconds = (Date.now() - t0) / 1000;
  const results = readResultsFile(file) as unknown as { benchmarks: { metric: string; pairs: unknown[]; verdict: string; change: { estimate: number; ci: [number, number] } }[] };
  return {
    rows: results.benchmarks.map((b) => ({ metric: b.metric, pairs: b.pairs.length, estimate: b.change.estimate, lo: b.change.ci[0], hi: b.change.ci[1], verdict: b.verdict, seconds })),
  };
}

const rows: Row[] = [];
const started = Date.now();
const machine = describeMachine();
for (const condition of ['quiet', 'noisy'] as const) {
  const noise = condition === 'noisy' ? startNoise({ seed: 11, durationMs: 60 * 60_000 }) : null;
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const r of compare(plus2.dir, 'wall,cpu', pairs, 1000 + rep).rows) rows.push({ condition, rep, ...r });
      process.stderr.write(`${condition} rep ${rep + 1}/${reps} (wall, cpu)\n`);
    }
    if (hasValgrind && !quick) {
      for (let rep = 0; rep < 2; rep++) {
        for (const r of compare(plus1.dir, 'instructions', 10, 2000 + rep).rows) rows.push({ condition, rep, ...r });
        process.stderr.write(`${condition} rep ${rep + 1}/2 (instructions)\n`);
      }
    }
  } finally {
    await noise?.stop();
  }
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1));
};
const pct = (x: number, d = 2) => `${(x * 100).toFixed(d)}%`;

const lines: string[] = [
  '# Metrics: the interval of one real change, measured as wall time, CPU time and instructions',
  '',
  `- command: \`npm run bench:metrics${quick ? ' -- --quick' : ''}\``,
  `- date: ${new Date().toISOString()}; took ${duration(Date.now() - started)}`,
  `- program: bench/programs/work.c, head doing 2% more work (1% for instructions), separately built binaries; ${pairs} pairs per comparison (10 for instructions), ${reps} comparisons per condition; noisy = bench/noise-generator.ts with seed 11 on every core`,
  '',
  '| condition | metric | comparisons | pairs each | median estimate | SD of the estimate | median 95% interval half-width | regression verdicts (threshold 0.5%) |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
];
for (const condition of ['quiet', 'noisy'] as const) {
  for (const metric of ['wall', 'cpu', 'instructions']) {
    const rs = rows.filter((r) => r.condition === condition && r.metric === metric);
    if (rs.length === 0) continue;
    lines.push(`| ${condition} | ${metric} | ${rs.length} | ${rs[0]!.pairs} | ${pct(median(rs.map((r) => r.estimate)))} | ${pct(sd(rs.map((r) => r.estimate)))} | ±${pct(median(rs.map((r) => (r.hi - r.lo) / 2)), 3)} | ${rs.filter((r) => r.verdict === 'regression').length}/${rs.length} |`);
  }
}
lines.push('', 'Reading it: CPU time leaves out the time a run waits for a core, so on a busy machine its interval is narrower than wall time\'s; instruction counts barely move at all (valgrind counts them exactly), so ten pairs pin a 1% change to a fraction of a percent.', '');
if (!hasValgrind) lines.push('valgrind was not installed, so instruction counts were not measured (`apt-get install -y valgrind`).', '');
lines.push('## Machine', '', machineMarkdown(machine));
writeFileSync(join(ROOT, 'bench/results/metrics.md'), `${lines.join('\n')}\n`);
writeFileSync(join(ROOT, 'bench/results/metrics.json'), `${JSON.stringify({ date: new Date().toISOString(), machine, reps, pairs, rows }, null, 1)}\n`);
console.log(lines.join('\n'));
