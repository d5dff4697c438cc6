/**
 * Overhead: the time pairbench adds per run, against hyperfine's `-N` (no shell), for a trivial
 * command (`true`), and the wall time of the README demo.
 *
 *   npm run bench:overhead                  # about 5 minutes on 2 cores (the demo included)
 *   npm run bench:overhead -- --no-demo     # skip the demo
 *   npm run bench:overhead -- --reps 9 --pairs 30,100,300
 *
 * Measured from outside, in alternation (a coin decides which tool goes first at each pair count of
 * each repetition; medians over repetitions are reported):
 * - total: wall time of `pairbench compare --base-dir D --head-dir D --run true --min-pairs N
 *   --max-pairs N --warmup 1 --fail-on none` divided by its 2N runs, against `hyperfine -N --runs 2N --warmup 2
 *   true` divided by 2N. Both include the tool's start-up.
 * - marginal: the slope of total wall time between two pair counts, (T(N2) - T(N1)) / (2 (N2 - N1)):
 *   what one more run costs, without the start-up.
 * - recorded: the time each tool writes down for one run of `true` (pairbench: the median of the
 *   pairs' wallMs; hyperfine: the median of its times): what each adds inside what it measures.
 * Where pairbench's time goes (timed in this process, or by hyperfine): a bare Node `spawn('true')`
 * loop, pairbench's run path (src/measure/one-run.ts `runCommand`) in a loop, the shell
 * (hyperfine -N on `/bin/sh -c true`), pairbench without the
 * helper (PAIRBENCH_NO_HELPER=1), one results-file rewrite per pair (src/results/writer.ts) and one
 * stopping check per round (src/stats/stop.ts) at each pair count.
 * Writes bench/results/overhead.md and bench/results/overhead.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measuringTimer } from '../src/measure/helper.ts';
import { runCommand } from '../src/measure/one-run.ts';
import type { Results } from '../src/results/schema.ts';
import { ResultsWriter } from '../src/results/writer.ts';
import { rngFor } from '../src/schedule/random.ts';
import { stopCheck } from '../src/stats/index.ts';
import { describeMachine, duration, machineMarkdown, ROOT } from './lib/machine.ts';
import { HYPERFINE_INSTALL, run, versionOf } from './lib/proc.ts';
import { median } from './lib/stats.ts';
import { readResultsFile } from '../src/results/read.ts';

interface Options {
  reps: number;
  /** pair counts, increasing; slopes between neighbours */
  pairs: number[];
  demo: boolean;
  outDir: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: { reps: { type: 'string' }, pairs: { type: 'string' }, 'no-demo': { type: 'boolean' }, 'out-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log('Usage: npm run bench:overhead -- [--reps 7] [--pairs 30,100,300] [--no-demo] [--out-dir bench/results]');
    process.exit(0);
  }
  const reps = Number(values.reps ?? 7);
  const pairs = (values.pairs ?? '30,100,300').split(',').map(Number);
  if (!Number.isInteger(reps) || reps < 1) throw new Error('--reps: expected a whole number >= 1');
  if (pairs.length < 2 || !pairs.every((p, i) => Number.isInteger(p) && p >= 6 && (i === 0 || p > pairs[i - 1]!))) throw new Error('--pairs: expected increasing pair counts such as 20,60,200 (each >= 6)');
  return { reps, pairs, demo: values['no-demo'] !== true, outDir: resolve(values['out-dir'] ?? join(ROOT, 'bench/results')) };
}

interface ToolRun {
  wallMs: number;
  /** the per-run time the tool itself recorded (median), ms */
  recordedMs: number | null;
}

async function pairbench(pairs: number, dir: string, tmp: string, env: NodeJS.ProcessEnv = process.env): Promise<ToolRun> {
  const out = join(tmp, `pb-${pairs}-${process.hrtime.bigint()}.json`);
  const args = [join(ROOT, 'src/cli.ts'), 'compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--min-pairs', String(pairs), '--max-pairs', String(pairs), '--warmup', '1', '--fail-on', 'none', '--quiet', '--json', '--out', out, '--seed', '1'];
  const r = await run(process.execPath, args, { cwd: ROOT, env });
  if (r.code !== 0) throw new Error(`pairbench exited ${r.code}: ${r.stderr.slice(-500)}`);
  const results = readResultsFile(out);
  rmSync(out, { force: true });
  const b = results.benchmarks[0]!;
  if (b.pairs.length !== pairs) throw new Error(`pairbench measured ${b.pairs.length} pairs, expected ${pairs}`);
  return { wallMs: r.wallMs, recordedMs: median(b.pairs.flatMap((p) => [p.base, p.head])) };
}

async function hyperfine(runs: number, command: string, tmp: string, warmup = 2): Promise<ToolRun> {
  const out = join(tmp, `hf-${runs}-${process.hrtime.bigint()}.json`);
  const r = await run('hyperfine', ['-N', '--runs', String(runs), '--warmup', String(warmup), '--style', 'none', '--export-json', out, command], { cwd: tmp });
  if (r.code !== 0) throw new Error(`hyperfine exited ${r.code}: ${r.stderr.slice(-500)}`);
  const j = JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[] }[] };
  rmSync(out, { force: true });
  return { wallMs: r.wallMs, recordedMs: median(j.results[0]!.times) * 1000 };
}

/** Mean wall time of `count` calls of pairbench's run path (src/measure/one-run.ts), in this process. */
async function runPathLoop(count: number, dir: string): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const r = await runCommand({ command: 'true', cwd: dir, env: process.env, timeoutMs: 60_000, captureStdout: false });
    if (r.outcome !== 'ok') throw new Error(`runCommand: ${r.outcome}`);
  }
  return (performance.now() - t0) / count;
}

/** Mean wall time of a bare `spawn('true')` and its exit, in this process: Node's own floor. */
async function spawnLoop(count: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    await new Promise<void>((res, rej) => {
      const c = spawn('true', [], { stdio: 'ignore' });
      c.once('error', rej);
      c.once('exit', () => res());
    });
  }
  return (performance.now() - t0) / count;
}

function fakeResults(n: number): Results {
  const pairs = Array.from({ length: n }, (_, i) => ({ base: 1.234567 + i * 1e-6, head: 1.254321 + i * 1e-6, order: i % 2 ? ('base-first' as const) : ('head-first' as const) }));
  return {
    schemaVersion: 1,
    base: { ref: null, sha: null, dir: '/tmp/x' },
    head: { ref: null, sha: null, dir: '/tmp/x' },
    status: 'running',
    rounds: Array.from({ length: n }, () => ['true']),
    benchmarks: [{ name: 'true', unit: 'ms', direction: 'lower-is-better', pairs }],
  };
}

/** Total time of the results rewrites over a run of n pairs (one write per pair, as the engine does), ms. */
function writerCost(n: number, tmp: string): { totalMs: number; lastBytes: number } {
  const w = new ResultsWriter(join(tmp, `writer-${n}.json`));
  const t0 = performance.now();
  for (let k = 1; k <= n; k++) w.write(fakeResults(k));
  const totalMs = performance.now() - t0;
  const lastBytes = readFileSync(w.path).length;
  rmSync(w.path, { force: true });
  return { totalMs, lastBytes };
}

/** Time of one stopping check on n pairs (src/stats/stop.ts, run by the schedule after every round), ms. */
function stopCheckAt(n: number): number {
  const rng = rngFor(1, 'overhead');
  const pairs = Array.from({ length: n }, () => ({ base: 1 + rng() * 0.01, head: 1 + rng() * 0.01, order: 'base-first' as const }));
  const check = () => stopCheck(pairs, { minPairs: n, maxPairs: n, precision: 0.01, alpha: 0.05, threshold: 0.02, outliers: 'tukey' });
  check();
  const reps = 15;
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    check();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const ms = (x: number | null, d = 2) => (x === null || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(d)} ms`);

async function main(argv: string[]): Promise<number> {
  const o = parseOptions(argv);
  if (!versionOf('hyperfine')) {
    console.error(`bench:overhead: ${HYPERFINE_INSTALL}`);
    return 2;
  }
  mkdirSync(o.outDir, { recursive: true });
  const machine = describeMachine();
  const tmp = mkdtempSync(join(tmpdir(), 'pairbench-overhead-'));
  const dir = join(tmp, 'rev');
  mkdirSync(dir);
  const timer = await measuringTimer();
  const helper = timer.kind === 'helper' ? timer.path : null;
  const counts = o.pairs;
  const top = counts[counts.length - 1]!;
  const t0 = performance.now();
  const log = (s: string) => console.error(`bench:overhead: ${s}`);
  log(`${o.reps} repetitions; pairbench at ${counts.join(', ')} pairs against hyperfine -N at as many runs (2 per pair); run helper: ${helper ?? 'none'}`);

  /** per repetition, per pair count: the three tools */
  type Sample = { pairs: number; pairbench: ToolRun; hyperfine: ToolRun; pairbenchNoHelper: ToolRun }[];
  const samples: Sample[] = [];
  const noHelperEnv = { ...process.env, PAIRBENCH_NO_HELPER: '1' };
  // warm the file cache and the helper once
  await pairbench(6, dir, tmp);
  await hyperfine(12, 'true', tmp);
  for (let rep = 0; rep < o.reps; rep++) {
    const sample: Sample = [];
    for (const n of counts) {
      const pbFirst = rngFor(1, 'overhead-first', rep, n)() < 0.5;
      const pb = pbFirst ? await pairbench(n, dir, tmp) : null;
      const hf = await hyperfine(2 * n, 'true', tmp);
      const pb2 = pb ?? (await pairbench(n, dir, tmp));
      const nh = await pairbench(n, dir, tmp, noHelperEnv);
      sample.push({ pairs: n, pairbench: pb2, hyperfine: hf, pairbenchNoHelper: nh });
    }
    samples.push(sample);
    log(`rep ${rep + 1}/${o.reps}: ${sample.map((x) => `${x.pairs} pairs: pairbench ${(x.pairbench.wallMs / 1000).toFixed(2)}s, hyperfine ${(x.hyperfine.wallMs / 1000).toFixed(2)}s, no helper ${(x.pairbenchNoHelper.wallMs / 1000).toFixed(2)}s`).join('; ')}`);
  }
  type Tool = 'pairbench' | 'hyperfine' | 'pairbenchNoHelper';
  const at = (s: Sample, n: number) => s.find((x) => x.pairs === n)!;
  const med = (f: (s: Sample) => number) => median(samples.map(f));
  const perRunTotal = (tool: Tool, n: number) => med((s) => at(s, n)[tool].wallMs / (2 * n));
  const slope = (tool: Tool, a: number, b: number) => med((s) => (at(s, b)[tool].wallMs - at(s, a)[tool].wallMs) / (2 * (b - a)));
  const recorded = (tool: Tool) => med((s) => at(s, top)[tool].recordedMs!);
  const startUp = (tool: Tool) => med((s) => at(s, counts[0]!)[tool].wallMs - ((at(s, counts[1]!)[tool].wallMs - at(s, counts[0]!)[tool].wallMs) / (2 * (counts[1]! - counts[0]!))) * 2 * (counts[0]! + 1));
  const spans = counts.slice(1).map((b, i) => [counts[i]!, b] as const);

  log('where the time goes: run path, spawn floor, shell, writer, stopping check');
  const loopCount = 400;
  const runPath: number[] = [];
  const spawnFloor: number[] = [];
  for (let rep = 0; rep < o.reps; rep++) {
    runPath.push(await runPathLoop(loopCount, dir));
    spawnFloor.push(await spawnLoop(loopCount));
  }
  const shell: number[] = [];
  for (let rep = 0; rep < o.reps; rep++) {
    shell.push((await hyperfine(loopCount, '/bin/sh -c true', tmp)).recordedMs!);
  }
  const writer = writerCost(top, tmp);
  const stopChecks = counts.map((n) => ({ pairs: n, ms: stopCheckAt(n) }));

  let demo: { wallMs: number; code: number | null; tail: string } | null = null;
  if (o.demo) {
    log('timing the README demo (npm run demo)');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = await run(npm, ['run', '--silent', 'demo'], { cwd: ROOT });
    // the demo exits 0 both when the gate caught the regression and when it did not: its last lines say which
    demo = { wallMs: r.wallMs, code: r.code, tail: r.stdout.trim().split('\n').slice(-12).join('\n') };
    log(`demo: ${duration(r.wallMs)} (exit ${r.code})`);
  }
  rmSync(tmp, { recursive: true, force: true });

  const [lowA, lowB] = spans[0]!;
  const lowDiff = slope('pairbench', lowA, lowB) - slope('hyperfine', lowA, lowB);
  const topDiff = perRunTotal('pairbench', top) - perRunTotal('hyperfine', top);
  const verdict = (d: number) => (d <= 2 ? 'met' : `NOT met (${d.toFixed(2)} ms, ${(d - 2).toFixed(2)} ms over)`);
  const L: string[] = [];
  L.push('# Overhead: what pairbench adds per run');
  L.push('');
  L.push(
    `A trivial command (\`true\`) measured by pairbench (\`compare --base-dir D --head-dir D --run true --min-pairs N --max-pairs N --warmup 1 --fail-on none\`: its run helper and \`/bin/sh -c\`) and by hyperfine without a shell (\`hyperfine -N --runs 2N --warmup 2 true\`), ` +
      `N = ${counts.join(', ')} pairs; ${o.reps} repetitions with the tools in alternation (a coin picks who goes first), medians over repetitions.`,
  );
  L.push('');
  L.push(`**Acceptance: pairbench's per-run overhead within 2 ms of hyperfine's.**`);
  L.push(`- Marginal cost of one more run (slope between ${2 * lowA} and ${2 * lowB} runs, no start-up): ${ms(slope('pairbench', lowA, lowB))} against ${ms(slope('hyperfine', lowA, lowB))}: **${verdict(lowDiff)}**.`);
  L.push(`- Total wall time / runs at ${top} pairs (${2 * top} runs, start-up included): ${ms(perRunTotal('pairbench', top))} against ${ms(perRunTotal('hyperfine', top))}: **${verdict(topDiff)}**.`);
  L.push('');
  L.push(
    "How: runs go to one run helper started once per comparison (src/measure/helper-source.ts, `--serve`), which forks the shell, measures with wait4(2) and forwards the output; Node sends both runs of a pair in one request and reads the reports, so no run pays for Node's own spawn (the first row of the table below), the second run of a pair follows the first with no round trip, and Node is idle while a run is measured.",
  );
  L.push('');
  if (lowDiff > 2 || topDiff > 2) {
    const sc = (n: number) => stopChecks.find((c) => c.pairs === n)?.ms ?? NaN;
    L.push('Why not, from the parts measured below:');
    L.push(`- Node's own \`spawn\` of \`true\` costs ${ms(median(spawnFloor))} per run here, against ${ms(slope('hyperfine', lowA, lowB))} for a whole hyperfine run: any runner that spawns from Node starts ${ms(median(spawnFloor) - slope('hyperfine', lowA, lowB))} behind.`);
    L.push(`- The run helper and \`/bin/sh -c\` add ${ms(recorded('pairbench') - recorded('hyperfine'), 2)} of fork + exec per run (inside the recorded time too).`);
    L.push(`- The stopping check after every round grows with the pairs: ${counts.map((n) => `${ms(sc(n), 2)} at ${n}`).join(', ')} pairs (per round of one benchmark, i.e. per 2 runs).`);
    L.push(`- The results file is rewritten after every pair: ${ms(writer.totalMs / (2 * top), 2)} per run on average over ${top} pairs, growing with the file.`);
    L.push(`- Start-up (Node, modules, warmup, judging): ${ms(startUp('pairbench'), 0)} once per comparison, against ${ms(startUp('hyperfine'), 0)}.`);
    L.push('');
  }
  L.push('| Per run of `true` | pairbench | hyperfine -N | difference |');
  L.push('|---|---|---|---|');
  for (const n of counts) {
    L.push(`| Total wall time / runs at ${n} pairs (${2 * n} runs, start-up included) | ${ms(perRunTotal('pairbench', n))} | ${ms(perRunTotal('hyperfine', n))} | ${ms(perRunTotal('pairbench', n) - perRunTotal('hyperfine', n))} |`);
  }
  for (const [a, b] of spans) {
    L.push(`| Marginal: slope of total wall time from ${2 * a} to ${2 * b} runs | ${ms(slope('pairbench', a, b))} | ${ms(slope('hyperfine', a, b))} | ${ms(slope('pairbench', a, b) - slope('hyperfine', a, b))} |`);
  }
  L.push(`| Time the tool records for one run of \`true\` (median, at ${top} pairs) | ${ms(recorded('pairbench'), 3)} | ${ms(recorded('hyperfine'), 3)} | ${ms(recorded('pairbench') - recorded('hyperfine'), 3)} |`);
  L.push(`| Fixed start-up (intercept of the first slope: process start, module loading, warmup, judging) | ${ms(startUp('pairbench'), 0)} | ${ms(startUp('hyperfine'), 0)} | ${ms(startUp('pairbench') - startUp('hyperfine'), 0)} |`);
  L.push('');
  L.push("## Where pairbench's per-run time goes");
  L.push('');
  L.push('| Part | Time | How measured |');
  L.push('|---|---|---|');
  L.push(`| Node's floor: a bare \`spawn('true')\` until exit | ${ms(median(spawnFloor))} per run | a loop of ${loopCount} in the bench's Node process |`);
  L.push(`| pairbench's run path (\`runCommand\`: a request to the served run helper, its fork of \`/bin/sh -c\` in a process group of its own, output frames, group kill) | ${ms(median(runPath))} per run | a loop of ${loopCount} calls of src/measure/one-run.ts in the bench's process |`);
  for (const [a, b] of spans) L.push(`| the whole \`compare\` loop from ${a} to ${b} pairs (schedule, results rewrite, stopping checks) | ${ms(slope('pairbench', a, b))} per run | slope, above |`);
  for (const [a, b] of spans) L.push(`| the same without the run helper (\`PAIRBENCH_NO_HELPER=1\`: Node times \`/bin/sh -c\` itself), ${a} to ${b} pairs | ${ms(slope('pairbenchNoHelper', a, b))} per run | slope |`);
  for (const c of stopChecks) L.push(`| one stopping check (src/stats/stop.ts: outlier screen, Hodges–Lehmann interval, betting evidence) on ${c.pairs} pairs | ${ms(c.ms, 3)} per round = ${ms(c.ms / 2, 3)} per run | median of 15 calls; the schedule runs one after every round (every pair, with one benchmark) |`);
  L.push(`| results file rewritten after each pair (src/results/writer.ts) | ${ms(writer.totalMs / (2 * top), 3)} per run | ${top} writes of 1..${top} pairs, ${(writer.lastBytes / 1024).toFixed(1)} KiB at the end: grows with the pairs |`);
  L.push(`| inside the recorded time: \`/bin/sh -c true\` instead of \`true\` | ${ms(median(shell) - recorded('hyperfine'), 3)} per run | hyperfine -N \`/bin/sh -c true\` (${ms(median(shell), 3)}) minus \`true\` |`);
  L.push(`| inside the recorded time: the served helper's fork and clock on top of the shell | ${ms(recorded('pairbench') - median(shell), 3)} per run | what pairbench records minus hyperfine -N \`/bin/sh -c true\` |`);
  L.push(`| what pairbench records without the helper (Node's clock around spawn and exit) | ${ms(recorded('pairbenchNoHelper'), 3)} per run | median over pairs, at ${top} pairs |`);
  L.push('');
  L.push(
    'Reading the table: the marginal slope is what each extra run costs in a long comparison; the start-up is paid once per comparison. ' +
      'The recorded time is what ends up inside every measurement: a constant offset that dilutes the relative change of a very short command.',
  );
  L.push('');
  if (demo) {
    L.push('## The README demo');
    L.push('');
    L.push(`\`npm run demo\` (build two commits of examples/demo/work.c, then \`pairbench compare\` with the default stopping rules): **${duration(demo.wallMs)}** wall time, exit ${demo.code}.`);
    L.push('');
    L.push('```');
    L.push(demo.tail);
    L.push('```');
    L.push('');
  }
  L.push('## Setup');
  L.push('');
  L.push(
    machineMarkdown(machine, {
      'Load average at end': describeMachine().loadAverage.join(' / '),
      Command: `\`npm run bench:overhead${argv.length ? ` -- ${argv.join(' ')}` : ''}\``,
      'Run helper': helper ? 'compiled (src/measure/helper-source.ts)' : `none: Node timing (${timer.kind === 'node' ? timer.why : ''})`,
      'Total wall time': duration(performance.now() - t0),
    }),
  );
  L.push('');
  writeFileSync(join(o.outDir, 'overhead.md'), `${L.join('\n')}\n`);
  writeFileSync(
    join(o.outDir, 'overhead.json'),
    `${JSON.stringify({ kind: 'pairbench-bench-overhead', version: 1, machine, options: o, samples, parts: { runPath, spawnFloor, shell, writer, stopChecks }, demo }, null, 1)}\n`,
  );
  log(`per run, marginal ${lowA}-${lowB} pairs: pairbench ${ms(slope('pairbench', lowA, lowB))} vs hyperfine -N ${ms(slope('hyperfine', lowA, lowB))}; total/runs at ${top} pairs: ${ms(perRunTotal('pairbench', top))} vs ${ms(perRunTotal('hyperfine', top))}; wrote ${relative(process.cwd(), join(o.outDir, 'overhead.md'))} in ${duration(performance.now() - t0)}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(`bench:overhead: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 2;
  },
);
