/**
 * Scale: pairbench's own work per benchmark, at 1,000, 10,000 and 100,000 benchmarks, with the
 * processes taken out (the schedule's Runner seam answers at once), so the table shows what
 * pairbench adds, not what the benchmarks cost.
 *
 *   npm run bench:scale                       # 1k, 10k, 100k
 *   npm run bench:scale -- --sizes 1000,10000 # a quicker run
 *
 * Per size:
 * - list: the listing run of a `--format json` suite of N benchmarks (one run per side, parsed and
 *   recorded) and the planning of N units;
 * - round: one round of pairs of every benchmark (the stopping check and the allocation included),
 *   the mean of the rounds after the first;
 * - judge: the results of N benchmarks of 20 pairs judged (`judgeResults`: the sign-flip test, the
 *   intervals, the correction);
 * - render: the terminal table, the Markdown comment (within GitHub's limit) and the HTML report.
 * Every step should grow linearly with N (O(N log N) at most); the table says how each did.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildSpec, cliNaming } from '../src/config/spec.ts';
import type { RunRequest, RunResult } from '../src/measure/one-run.ts';
import { renderHtml } from '../src/report/html.ts';
import { renderMarkdown } from '../src/report/markdown.ts';
import { renderTerminal } from '../src/report/terminal.ts';
import { judgeResults } from '../src/results/judge-file.ts';
import type { Results } from '../src/results/schema.ts';
import { runSchedule } from '../src/schedule/loop.ts';
import { mulberry32 } from '../src/stats/prng.ts';
import { ROOT } from './lib/machine.ts';

interface Row {
  n: number;
  listMs: number;
  roundMs: number;
  /** CPU time of the process (user and system, every thread) for a round, and for the judging */
  roundCpuMs: number;
  judgeMs: number;
  judgeCpuMs: number;
  renderMs: { terminal: number; markdown: number; html: number };
}

async function scheduleTimes(n: number): Promise<{ listMs: number; roundMs: number; roundCpuMs: number }> {
  const names = Array.from({ length: n }, (_, i) => `case_${i}`);
  const rand = mulberry32(n);
  const all = JSON.stringify(names.map((name) => ({ name, value: 100, unit: 'ns' })));
  let firstPair: number | null = null;
  const runner = async (requests: readonly RunRequest[]): Promise<RunResult[]> =>
    requests.map((req) => {
      const one = req.env.PAIRBENCH_BENCHMARK_1;
      if (one !== undefined && firstPair === null) {
        firstPair = performance.now();
        firstPairCpu = cpuMs();
      }
      const stdout = one === undefined ? all : `[{"name":${JSON.stringify(one)},"value":${100 * (1 + 0.01 * (rand() - 0.5))},"unit":"ns"}]`;
      return { outcome: 'ok', exitCode: 0, signal: null, stdout, outputTail: '', wallMs: 1, cpuMs: null, maxRssBytes: null };
    });
  const rounds: number[] = [];
  const roundsCpu: number[] = [];
  let firstPairCpu = 0;
  let clock = 0;
  const spec = buildSpec({ format: 'json', run: 'suite {benchmark}', seed: '1', 'min-pairs': '3', 'max-pairs': '3', warmup: '0', 'max-time': '596h' }, { cwd: '/', naming: cliNaming });
  const t0 = performance.now();
  await runSchedule({
    spec,
    base: { side: 'base', ref: null, sha: null, dir: '/base' },
    head: { side: 'head', ref: null, sha: null, dir: '/head' },
    env: {},
    counter: null,
    runner,
    clock: () => (clock += 1),
    log: () => {},
    onPair: () => {},
    progress: (p) => {
      // the last report of a round is the one forced after its checks and allocation: the round's end
      rounds[p.round] = performance.now();
      roundsCpu[p.round] = cpuMs();
    },
  });
  const listMs = (firstPair ?? performance.now()) - t0;
  const times = [firstPair ?? t0, ...rounds];
  const perRound = times.slice(1).map((t, i) => t - times[i]!);
  // the first round includes the first check of every unit; the mean of the rest is the steady cost
  const steady = perRound.length > 1 ? perRound.slice(1) : perRound;
  const cpuTimes = [firstPairCpu, ...roundsCpu];
  const perRoundCpu = cpuTimes.slice(1).map((t, i) => t - cpuTimes[i]!);
  const steadyCpu = perRoundCpu.length > 1 ? perRoundCpu.slice(1) : perRoundCpu;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return { listMs, roundMs: mean(steady), roundCpuMs: mean(steadyCpu) };
}

function suite(n: number): Results {
  const rng = mulberry32(7);
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { seed: 1 },
    status: 'complete',
    benchmarks: Array.from({ length: n }, (_, i) => ({
      name: `case_${i}`,
      unit: 'ns',
      direction: 'lower-is-better' as const,
      stoppedBecause: 'max-time',
      pairs: Array.from({ length: 20 }, () => {
        const base = 100 * (1 + rng() * 0.1);
        return { base, head: base * (1 + (rng() - 0.5) * 0.04 + (i % 1000 === 0 ? 0.1 : 0)), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
      }),
    })),
  };
}

/** CPU time of this process so far (user and system, all threads), ms: what a loaded, shared machine does not inflate. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000,100000' }, out: { type: 'string', default: `${ROOT}/bench/results/scale.md` } } });
  const sizes = values.sizes!.split(',').map(Number);
  const rows: Row[] = [];
  for (const n of sizes) {
    process.stderr.write(`[scale] ${n} benchmarks\n`);
    const { listMs, roundMs, roundCpuMs } = await scheduleTimes(n);
    const input = suite(n);
    const judgeCpu0 = cpuMs();
    const [judged, judgeMs] = time(() => judgeResults(input, { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' }));
    const judgeCpuMs = cpuMs() - judgeCpu0;
    const [, terminal] = time(() => renderTerminal(judged, { color: false }));
    const [, markdown] = time(() => renderMarkdown(judged, {}));
    const [, html] = time(() => renderHtml(judged));
    rows.push({ n, listMs, roundMs, roundCpuMs, judgeMs, judgeCpuMs, renderMs: { terminal, markdown, html } });
  }
  const s = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
  const per = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(1)} µs`;
  const lines = [
    '# Scale: what pairbench adds per benchmark',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:scale${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end, Node ${process.version}. ` +
      "Processes taken out: the schedule's runner answers at once (bench/scale.ts). *list*: the listing run of a `--format json` suite (parsed, recorded) and the planning of its units; *round*: one pair of every benchmark with the stopping check and the allocation; *judge*: 20 pairs per benchmark judged (sign-flip test, both intervals, Holm); *render*: the terminal table, the Markdown comment, the HTML report. Times are wall-clock; the *CPU* columns are the process's CPU time (user and system, every thread) for the same step, which a machine shared with other work inflates far less: they are the ones to compare across sizes.",
    '',
    '| benchmarks | list | round | judge | terminal | Markdown | HTML | judge per benchmark | round per benchmark | judge CPU per benchmark | round CPU per benchmark |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.n.toLocaleString('en')} | ${s(r.listMs)} | ${s(r.roundMs)} | ${s(r.judgeMs)} | ${s(r.renderMs.terminal)} | ${s(r.renderMs.markdown)} | ${s(r.renderMs.html)} | ${per(r.judgeMs, r.n)} | ${per(r.roundMs, r.n)} | ${per(r.judgeCpuMs, r.n)} | ${per(r.roundCpuMs, r.n)} |`),
    '',
  ];
  writeFileSync(values.out!, lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

await main();
