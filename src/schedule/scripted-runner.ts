/**
 * A scripted runner and clock: the command line's hidden debug mode (cli/run-comparison.ts), which runs the
 * whole real pipeline (spec, schedule, stopping, judging, results file, reports) with no process
 * forked and nothing timed, so that tests assert the exact text pairbench prints. It plays the
 * seam of runner.ts as the schedule's own tests do, from a JSON file that a test writes; the idea
 * is hyperfine's hidden `--debug-mode`, a mock executor behind its real command line.
 *
 * The script (RunnerScriptSchema) gives each benchmark its base time, head's factor and each run's
 * noise; every figure is drawn from (seed, benchmark, side, run number), so a given `--seed` prints
 * the same text on every machine and every run. The clock starts at `start` and moves only by what
 * the scripted runs take: the budget, the progress lines and every printed duration follow it.
 *
 * A `--format go` suite is played too, with its benchmarks under `goBenchmarks`: each run is one
 * process that prints Go's result lines for the benchmarks its `-bench` filter selects, with the
 * iterations and repetitions pairbench sized it to (`-benchtime=Nx`, `-count`), so that the design
 * of the runs (schedule/choose-design.ts) is exercised as on a real Go suite. Three kinds of noise
 * can be scripted besides a run's own (`noise`), each off unless given: `repetitionNoise` (each
 * repetition of a Go process), `pauses` (a repetition catches pauses, such as a garbage
 * collection, as a Poisson process in its length: a longer repetition catches more, and each
 * matters less) and `slowMode` (a whole process lands in a slow mode: processes in two modes).
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { fsReason, show, UsageError } from '../config/errors.ts';
import type { CpuHost } from '../config/cpus.ts';
import type { Spec } from '../config/spec.ts';
import { wholeSuite } from '../harness/select.ts';
import type { Timer } from '../measure/helper.ts';
import { cancelledResult, skippedResult, type RunResult } from '../measure/result.ts';
import type { RunRequest } from '../measure/request.ts';
import type { Side } from '../revisions/prepare.ts';
import { rngFor } from './random.ts';
import type { Clock, Runner } from './runner.ts';

/** The environment variable that names the script; unset, pairbench runs real processes. */
export const DEBUG_RUNNER_VARIABLE = 'PAIRBENCH_DEBUG_RUNNER';

/**
 * The machine the scripted runner plays, against which `--cpus` and `--pair-runs` are chosen and
 * checked: Linux with taskset and CPUs 0 and 1, a small CI runner, whatever machine the test runs
 * on, so that the same script prints the same text everywhere. No run is bound to anything: the
 * CPUs a run asks for only tell runs made at once apart (the clock, below).
 */
export const SCRIPTED_HOST: CpuHost = { platform: 'linux', allowed: [0, 1], taskset: true };

const BenchmarkScriptSchema = z.strictObject({
  /** base's value of a run, ms, before noise (wall time and CPU time; plus `overheadMs` for the shell); with `goBenchmarks`, what starting the process costs */
  baseMs: z.number().positive(),
  /** head's value over base's (1.1: head 10% slower); default 1, an A/A */
  factor: z.number().positive().default(1),
  /** each run is multiplied by exp(noise × z), z standard normal: the spread of ln(run) (with `goBenchmarks`, of a process: all its repetitions); default 0 */
  noise: z.number().min(0).max(1).default(0),
  /** peak memory of a run, MiB, before the factor and noise (`--metric rss`); default 64 */
  rssMiB: z.number().positive().default(64),
  /** a side's runs from its `fromRun`-th (counted from 1, retries too) exit with `exitCode` */
  fail: z.strictObject({ side: z.enum(['base', 'head']), fromRun: z.number().int().min(1), exitCode: z.number().int().min(1).max(255).default(1) }).optional(),
  /** Go: each repetition of a process is multiplied by exp(repetitionNoise × z), z standard normal; default 0 */
  repetitionNoise: z.number().min(0).max(1).optional(),
  /** pauses a run (Go: a repetition) catches, `perMs` per ms of its length on average (Poisson), each adding `ms` */
  pauses: z.strictObject({ perMs: z.number().min(0), ms: z.number().min(0) }).optional(),
  /** a whole process (a run) lands in a slow mode with `probability`, every figure of it multiplied by `factor` */
  slowMode: z.strictObject({ probability: z.number().min(0).max(1), factor: z.number().positive() }).optional(),
  /**
   * `--format go`: the suite's Go benchmarks by name (`BenchmarkParse`), each one iteration's time
   * (ns, before noise) and head's factor over base's (default: the benchmark's `factor`). A run then
   * costs `baseMs` (starting the process) and what its repetitions take.
   */
  goBenchmarks: z
    .record(z.string(), z.strictObject({ nsPerOp: z.number().positive(), factor: z.number().positive().optional() }))
    .superRefine((r, ctx) => {
      for (const key of Object.keys(r)) if (!/^Benchmark/.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: `got ${JSON.stringify(key)}; expected a Go benchmark name, starting with Benchmark` });
    })
    .optional(),
});

const RunnerScriptSchema = z.strictObject({
  /** seeds every run's noise; default 1 */
  seed: z.number().int().min(0).max(2 ** 32 - 1).default(1),
  /** where the clock starts (the results file's startedAt); default 2025-01-01T00:00:00.000Z */
  start: z.iso.datetime().default('2025-01-01T00:00:00.000Z'),
  /** what starting the shell costs a run, ms: an empty calibration run (`sh -c ''`) takes this, a benchmark's run this more; default 1 */
  overheadMs: z.number().min(0).default(1),
  /** what a `--prepare` run takes, ms; default 0 */
  prepareMs: z.number().min(0).default(0),
  /** the n-th run of a benchmark (from 1, over all benchmarks and sides) is interrupted as by Ctrl-C: `interrupt` is called, and the run ends cancelled */
  interruptAt: z.number().int().min(1).optional(),
  /** each CPU's share kept busy by other work just before measuring, by its number ("1": 0.6), as /proc/stat would read it (engine.ts); default: none, every CPU free */
  cpuBusy: z.record(z.string().regex(/^\d+$/), z.number().min(0).max(1)).optional(),
  /** by benchmark name (a `--run` benchmark is named by its command, or --name); `*` for any other */
  benchmarks: z.record(z.string().min(1), BenchmarkScriptSchema).refine((b) => Object.keys(b).length > 0, 'expected at least one benchmark'),
});

export type RunnerScript = z.infer<typeof RunnerScriptSchema>;
type BenchmarkScript = z.infer<typeof BenchmarkScriptSchema>;

/** Reads and checks the script named by PAIRBENCH_DEBUG_RUNNER: a bad one is a usage error (exit 2). */
export function readRunnerScript(path: string, cwd: string): RunnerScript {
  const input = DEBUG_RUNNER_VARIABLE;
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), 'utf8');
  } catch (err) {
    throw new UsageError(input, `${input}: got ${show(path)}, which cannot be read (${fsReason(err)}); expected a readable JSON runner script`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(input, `${input} ${path}: not valid JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
  const parsed = RunnerScriptSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '';
    throw new UsageError(input, `${input} ${path}: ${where || 'the file'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export interface Scripted {
  runner: Runner;
  clock: Clock;
  timer: () => Promise<Timer>;
  counter: () => Promise<null>;
  cpuLoad: (cpus: readonly string[]) => Promise<ReadonlyMap<string, number> | null>;
}

export interface ScriptedOptions {
  /** the script's path, as messages name it */
  path: string;
  /** an A/A run (`pairbench noise`): both sides are base, whatever their folders */
  aa?: boolean;
  /** called at the run `interruptAt` names: the command line raises SIGINT, as a user's Ctrl-C would */
  interrupt?: () => void;
}

/** A standard normal draw from two uniform ones (Box–Muller). */
function normal(rng: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/** A Poisson draw of mean `mean` (Knuth's product of uniforms; a rounded normal above 500). */
function poisson(mean: number, rng: () => number): number {
  if (mean <= 0) return 0;
  if (mean > 500) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(rng)));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k++;
    p *= rng();
  }
  return k;
}

/** The time the pauses a stretch of `ms` catches add to it (`pauses`), ms; 0 without pauses. */
function pausesIn(ms: number, pauses: BenchmarkScript['pauses'], rng: () => number): number {
  return pauses ? poisson(pauses.perMs * ms, rng) * pauses.ms : 0;
}

/** The factor of a whole process: its slow mode's factor with its probability (`slowMode`), else 1. */
function modeOf(slow: BenchmarkScript['slowMode'], rng: () => number): number {
  return slow && rng() < slow.probability ? slow.factor : 1;
}

/**
 * Whether Go's `-test.bench` pattern selects `name`: Go matches it one `/`-separated level at a
 * time (testing/match.go); a name with fewer levels than the pattern is matched on its own levels.
 */
function goSelects(pattern: string, name: string): boolean {
  const levels = pattern.split('/');
  const parts = name.split('/');
  return parts.every((part, i) => i >= levels.length || new RegExp(levels[i]!).test(part));
}

/** Go's `-test.benchtime` (`Nx`, or a duration in `us`, `ms` or `s`) as iterations of `nsPerOp`; Go's default 1 s without one. */
function goIterations(benchtime: string | undefined, nsPerOp: number): number {
  const count = /^(\d+)x$/.exec(benchtime ?? '');
  if (count) return Math.max(1, Number(count[1]));
  const time = /^(\d+(?:\.\d+)?)(us|ms|s)$/.exec(benchtime ?? '');
  const ns = time ? Number(time[1]) * (time[2] === 'us' ? 1e3 : time[2] === 'ms' ? 1e6 : 1e9) : 1e9;
  return Math.max(1, Math.round(ns / nsPerOp));
}

/**
 * The runner and clock that play `script` for the comparison `spec`. Each request is told apart
 * by its command (a benchmark's run or `--prepare`, or the empty calibration run) and its folder
 * (`--base-dir`/`--head-dir`, or the worktree folders `base` and `head` of revisions/prepare.ts).
 * Only `--format time` benchmarks measuring wall, cpu or rss, and `--format go` suites with
 * `goBenchmarks`, can be scripted: anything else is a usage error before anything runs.
 */
export function scriptedRunner(spec: Spec, script: RunnerScript, opts: ScriptedOptions): Scripted {
  const input = `${DEBUG_RUNNER_VARIABLE} ${opts.path}`;
  const names = spec.benchmarks.map((b) => b.name);
  for (const key of Object.keys(script.benchmarks)) {
    if (key !== '*' && !names.includes(key)) throw UsageError.invalid(`${input}: benchmarks`, key, `one of the comparison's benchmarks (${names.map((n) => show(n)).join(', ')}) or "*"`);
  }
  const byCommand = new Map<string, { name: string; script: BenchmarkScript; prepare: boolean }>();
  // a Go suite's runs are its command with the selection and sizing pairbench appends (harness/go-harness.ts)
  const goSuites: Array<{ run: string; name: string; script: BenchmarkScript }> = [];
  for (const bench of spec.benchmarks) {
    const entry = script.benchmarks[bench.name] ?? script.benchmarks['*'];
    if (!entry) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} has no entry; expected one under benchmarks, by its name or "*"`);
    if (bench.format !== 'time' && bench.format !== 'go') throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format ${bench.format}; expected --format time or go, the formats the scripted runner plays`);
    if (bench.format === 'go' && !entry.goBenchmarks) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format go and its entry has no goBenchmarks; expected the suite's Go benchmarks under goBenchmarks`);
    if (bench.format !== 'go' && entry.goBenchmarks) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format ${bench.format} and its entry has goBenchmarks; expected goBenchmarks only for a --format go suite`);
    if (bench.metrics.includes('instructions')) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} measures instructions; expected wall, cpu or rss, the metrics the scripted runner plays`);
    const run = wholeSuite(bench.run).command;
    if (bench.format === 'go') goSuites.push({ run, name: bench.name, script: entry });
    else if (!byCommand.has(run)) byCommand.set(run, { name: bench.name, script: entry, prepare: false });
    if (bench.prepare && !byCommand.has(bench.prepare)) byCommand.set(bench.prepare, { name: bench.name, script: entry, prepare: true });
  }
  const dirOf = (r: Spec['base']) => (r.kind === 'dir' ? resolve(spec.cwd, r.dir) : null);
  const baseDir = dirOf(spec.base);
  const headDir = dirOf(spec.head);
  const aa = opts.aa === true || (baseDir !== null && baseDir === headDir);
  const sideOf = (cwd: string): Side | null => {
    if (cwd === headDir) return aa ? 'base' : 'head';
    if (cwd === baseDir) return 'base';
    const name = basename(cwd);
    return name === 'base' || name === 'head' ? (aa ? 'base' : name) : null;
  };

  let now = Date.parse(script.start);
  let runs = 0;
  const counts = new Map<string, number>();
  // Runs started together on CPUs of their own (both sides of a pair at once: schedule/pair.ts
  // sends each in a request of its own, in one tick) share the clock, which moves by the longer of
  // them, as the machine's would; any other run follows the one before it.
  let together: { start: number; cpus: Set<string> } | null = null;
  const advance = (req: RunRequest, ms: number): void => {
    if (req.cpus !== undefined && together !== null && !together.cpus.has(req.cpus)) {
      together.cpus.add(req.cpus);
      now = Math.max(now, together.start + ms);
      return;
    }
    if (req.cpus !== undefined) {
      if (together === null) queueMicrotask(() => (together = null));
      together = { start: now, cpus: new Set([req.cpus]) };
    }
    now += ms;
  };

  const answer = async (req: RunRequest): Promise<RunResult> => {
    if (req.signal?.aborted) return cancelledResult();
    const figures = (ms: number, rssBytes: number | null = null) => ({ wallMs: ms, cpuMs: ms, maxRssBytes: rssBytes, stdout: '', outputTail: '', signal: null });
    if (req.command === '') {
      advance(req, script.overheadMs);
      return { ...figures(script.overheadMs), outcome: 'ok', exitCode: 0 };
    }
    const side = sideOf(req.cwd);
    const go = byCommand.has(req.command) ? undefined : goSuites.filter((g) => req.command === g.run || req.command.startsWith(`${g.run} `)).sort((a, b) => b.run.length - a.run.length)[0];
    const target = go ? { ...go, prepare: false } : byCommand.get(req.command);
    if (!target || !side) {
      return { ...figures(0), outcome: 'spawn', exitCode: null, outputTail: `${DEBUG_RUNNER_VARIABLE}: the script plays no run of ${show(req.command)} in ${show(req.cwd)}` };
    }
    if (target.prepare) {
      advance(req, script.prepareMs);
      return { ...figures(script.prepareMs), outcome: 'ok', exitCode: 0 };
    }
    runs++;
    if (runs === script.interruptAt) {
      const signal = req.signal;
      if (opts.interrupt && signal) {
        // the run ends when the signal's handler has aborted the comparison, as a killed process
        // would; the timer keeps the event loop alive until then (a signal handler does not), and
        // ends the wait should the signal never come
        const aborted = new Promise<void>((done) => {
          const wait = setTimeout(done, 60_000);
          signal.addEventListener('abort', () => (clearTimeout(wait), done()), { once: true });
        });
        opts.interrupt();
        await aborted;
      }
      return cancelledResult();
    }
    const key = `${target.name}\0${side}`;
    const k = (counts.get(key) ?? 0) + 1;
    counts.set(key, k);
    const { baseMs, factor, noise, rssMiB, fail } = target.script;
    const { slowMode, pauses } = target.script;
    const scale = (side === 'head' ? factor : 1) * Math.exp(noise * normal(rngFor(script.seed, 'run', target.name, side, k))) * (slowMode ? modeOf(slowMode, rngFor(script.seed, 'mode', target.name, side, k)) : 1);
    if (target.script.goBenchmarks) return goRun(req, target.name, target.script, side, k, scale);
    const wallMs = script.overheadMs + baseMs * scale + (pauses ? pausesIn(baseMs * scale, pauses, rngFor(script.seed, 'pauses', target.name, side, k)) : 0);
    if (wallMs > req.timeoutMs) {
      advance(req, req.timeoutMs);
      return { ...figures(req.timeoutMs), outcome: 'timeout', exitCode: null, signal: 'SIGKILL' };
    }
    advance(req, wallMs);
    const result = figures(wallMs, Math.round(rssMiB * 2 ** 20 * scale));
    if (fail && fail.side === side && k >= fail.fromRun) return { ...result, outcome: 'exit', exitCode: fail.exitCode, outputTail: `scripted failure: run ${k} of ${side}\n` };
    return { ...result, outcome: 'ok', exitCode: 0 };
  };

  /**
   * One process of a Go suite: the result lines of the benchmarks its filter selects, one per
   * repetition (`-count`), each of the iterations it was sized to (`-benchtime`), after Go's own
   * first run of one iteration. A repetition's time is the process's (its `scale`) times its own
   * noise, plus the pauses it catches.
   */
  const goRun = (req: RunRequest, name: string, bench: BenchmarkScript, side: Side, k: number, scale: number): RunResult => {
    const filter = req.env['PAIRBENCH_FILTER'] ?? '.';
    const count = Math.max(1, Number(req.env['PAIRBENCH_COUNT'] ?? '1') || 1);
    const lines = ['goos: linux', 'goarch: amd64', 'pkg: example.com/scripted'];
    let ms = script.overheadMs + bench.baseMs * scale;
    for (const [goName, b] of Object.entries(bench.goBenchmarks!)) {
      if (!goSelects(filter, goName)) continue;
      const ns = b.nsPerOp * scale * (side === 'head' ? (b.factor ?? bench.factor) / bench.factor : 1);
      const iterations = goIterations(req.env['PAIRBENCH_BENCHTIME'], ns);
      const rng = rngFor(script.seed, 'go', name, goName, side, k);
      for (let r = 0; r < count; r++) {
        const lengthMs = (iterations * ns * Math.exp((bench.repetitionNoise ?? 0) * normal(rng))) / 1e6;
        const took = lengthMs + pausesIn(lengthMs, bench.pauses, rng);
        ms += took + ns / 1e6;
        lines.push(`${goName}-2\t${String(iterations).padStart(10)}\t${((took * 1e6) / iterations).toPrecision(6)} ns/op`);
      }
    }
    lines.push('PASS', 'ok  \texample.com/scripted\t0.1s', '');
    if (ms > req.timeoutMs) {
      advance(req, req.timeoutMs);
      return { wallMs: req.timeoutMs, cpuMs: req.timeoutMs, maxRssBytes: null, stdout: '', outputTail: '', signal: 'SIGKILL', outcome: 'timeout', exitCode: null };
    }
    advance(req, ms);
    const result = { wallMs: ms, cpuMs: ms, maxRssBytes: Math.round(bench.rssMiB * 2 ** 20 * scale), stdout: lines.join('\n'), outputTail: '', signal: null };
    if (bench.fail && bench.fail.side === side && k >= bench.fail.fromRun) return { ...result, outcome: 'exit', exitCode: bench.fail.exitCode, outputTail: `scripted failure: run ${k} of ${side}\n` };
    return { ...result, outcome: 'ok', exitCode: 0 };
  };

  // one run after the other, in order; after a failed run with stopOnFailure, the rest are skipped (as runCommands)
  const runner: Runner = async (requests) => {
    const out: RunResult[] = [];
    let skipping = false;
    for (const req of requests) {
      if (skipping) {
        out.push(skippedResult());
        continue;
      }
      const result = await answer(req);
      out.push(result);
      if (req.stopOnFailure && result.outcome !== 'ok') skipping = true;
    }
    return out;
  };
  return {
    runner,
    clock: () => now,
    timer: () => Promise.resolve({ kind: 'scripted', notices: [] }),
    // what other work the script says kept each CPU busy (none: every CPU free)
    cpuLoad: (cpus) => Promise.resolve(new Map(cpus.map((cpu) => [cpu, script.cpuBusy?.[cpu] ?? 0]))),
    counter: () => Promise.resolve(null),
  };
}
