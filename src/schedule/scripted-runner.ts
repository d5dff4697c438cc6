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
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { fsReason, show, UsageError } from '../config/errors.ts';
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

const BenchmarkScriptSchema = z.strictObject({
  /** base's value of a run, ms, before noise (wall time and CPU time; plus `overheadMs` for the shell) */
  baseMs: z.number().positive(),
  /** head's value over base's (1.1: head 10% slower); default 1, an A/A */
  factor: z.number().positive().default(1),
  /** each run is multiplied by exp(noise × z), z standard normal: the spread of ln(run); default 0 */
  noise: z.number().min(0).max(1).default(0),
  /** peak memory of a run, MiB, before the factor and noise (`--metric rss`); default 64 */
  rssMiB: z.number().positive().default(64),
  /** a side's runs from its `fromRun`-th (counted from 1, retries too) exit with `exitCode` */
  fail: z.strictObject({ side: z.enum(['base', 'head']), fromRun: z.number().int().min(1), exitCode: z.number().int().min(1).max(255).default(1) }).optional(),
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

/**
 * The runner and clock that play `script` for the comparison `spec`. Each request is told apart
 * by its command (a benchmark's run or `--prepare`, or the empty calibration run) and its folder
 * (`--base-dir`/`--head-dir`, or the worktree folders `base` and `head` of revisions/prepare.ts).
 * Only `--format time` benchmarks measuring wall, cpu or rss can be scripted: anything else is a
 * usage error before anything runs.
 */
export function scriptedRunner(spec: Spec, script: RunnerScript, opts: ScriptedOptions): Scripted {
  const input = `${DEBUG_RUNNER_VARIABLE} ${opts.path}`;
  const names = spec.benchmarks.map((b) => b.name);
  for (const key of Object.keys(script.benchmarks)) {
    if (key !== '*' && !names.includes(key)) throw UsageError.invalid(`${input}: benchmarks`, key, `one of the comparison's benchmarks (${names.map((n) => show(n)).join(', ')}) or "*"`);
  }
  const byCommand = new Map<string, { name: string; script: BenchmarkScript; prepare: boolean }>();
  for (const bench of spec.benchmarks) {
    const entry = script.benchmarks[bench.name] ?? script.benchmarks['*'];
    if (!entry) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} has no entry; expected one under benchmarks, by its name or "*"`);
    if (bench.format !== 'time') throw new UsageError(input, `${input}: benchmark ${show(bench.name)} is --format ${bench.format}; expected --format time, the only format the scripted runner plays`);
    if (bench.metrics.includes('instructions')) throw new UsageError(input, `${input}: benchmark ${show(bench.name)} measures instructions; expected wall, cpu or rss, the metrics the scripted runner plays`);
    const run = wholeSuite(bench.run).command;
    if (!byCommand.has(run)) byCommand.set(run, { name: bench.name, script: entry, prepare: false });
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

  const answer = async (req: RunRequest): Promise<RunResult> => {
    if (req.signal?.aborted) return cancelledResult();
    const figures = (ms: number, rssBytes: number | null = null) => ({ wallMs: ms, cpuMs: ms, maxRssBytes: rssBytes, stdout: '', outputTail: '', signal: null });
    if (req.command === '') {
      now += script.overheadMs;
      return { ...figures(script.overheadMs), outcome: 'ok', exitCode: 0 };
    }
    const side = sideOf(req.cwd);
    const target = byCommand.get(req.command);
    if (!target || !side) {
      return { ...figures(0), outcome: 'spawn', exitCode: null, outputTail: `${DEBUG_RUNNER_VARIABLE}: the script plays no run of ${show(req.command)} in ${show(req.cwd)}` };
    }
    if (target.prepare) {
      now += script.prepareMs;
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
    const scale = (side === 'head' ? factor : 1) * Math.exp(noise * normal(rngFor(script.seed, 'run', target.name, side, k)));
    const wallMs = script.overheadMs + baseMs * scale;
    if (wallMs > req.timeoutMs) {
      now += req.timeoutMs;
      return { ...figures(req.timeoutMs), outcome: 'timeout', exitCode: null, signal: 'SIGKILL' };
    }
    now += wallMs;
    const result = figures(wallMs, Math.round(rssMiB * 2 ** 20 * scale));
    if (fail && fail.side === side && k >= fail.fromRun) return { ...result, outcome: 'exit', exitCode: fail.exitCode, outputTail: `scripted failure: run ${k} of ${side}\n` };
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
    counter: () => Promise.resolve(null),
  };
}
