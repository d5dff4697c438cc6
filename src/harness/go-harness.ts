/**
 * Go's `testing` benchmarks (`go test -bench`, or a compiled test binary): the Go harness. Its
 * output is read by go.ts; a run is narrowed by `-test.bench`, which pairbench appends to one
 * simple command; its runs are sized by a fixed iteration count (`-test.benchtime=Nx`,
 * go-iterations.ts) and repetitions (`-test.count`), combined by their least; a pilot may show a
 * cold start (go-cold-start.ts); a noisy benchmark is advised on its allocations and threads
 * (go-advice.ts).
 */
import { availableParallelism } from 'node:os';
import { escapeRegex, isSimpleCommand } from './filter-text.ts';
import { goAdvice } from './go-advice.ts';
import { goColdStart } from './go-cold-start.ts';
import { commandBenchtime, iterationsFor } from './go-iterations.ts';
import { parseGo } from './go.ts';
import type { CountingRule, FixedIterations, Harness, Selection, Sizing } from './harness.ts';

/**
 * The pilot runs one more repetition first in each process, so that it reads the spreads
 * both with the process's first repetition (its first two) and without it (the two after): what a
 * design with and without a warm-up repetition would meet (stats/design-model.ts, `WarmupVariant`). A Go
 * process's first repetition is often slower than the rest (the collector reclaiming what
 * initialisation allocated, pools filling, pages faulting in), the second rarely
 * (bench/results/warmup-go-2026-11-27.md; docs/measuring.md, "How runs are designed").
 */
const PILOT_WARMUP = 1;

/** Go's default `-test.benchtime`, ms. */
const DEFAULT_LENGTH_MS = 1000;

/** `-test.bench=` for a test binary, `-bench=` for `go test`, or null when pairbench may append neither. */
function autoFlag(command: string): string | null {
  if (!isSimpleCommand(command)) return null;
  return /(^|\s)-test\./.test(command) || /\.test(\s|$)/.test(command) ? '-test.bench=' : /(^|\s)go\s+test(\s|$)/.test(command) ? '-bench=' : null;
}

/**
 * The flag that fixes a Go run's iteration count, which pairbench appends to a simple command
 * (`-test.benchtime=` for a test binary, `-benchtime=` for `go test`), or null when it cannot.
 */
function iterationsFlag(command: string): string | null {
  const flag = autoFlag(command);
  return flag === null ? null : flag === '-test.bench=' ? '-test.benchtime=' : '-benchtime=';
}

/**
 * Go matches `-test.bench` one `/`-separated level at a time (testing/match.go), so the filter is
 * one anchored alternation per level. For several names of different parents it may select a few
 * more benchmarks than asked (the product of the levels); pairbench reads only the names it asked for.
 */
function goFilter(names: readonly string[]): string {
  const levels: Array<Set<string>> = [];
  for (const name of names) {
    name.split('/').forEach((part, i) => (levels[i] ??= new Set()).add(escapeRegex(part)));
  }
  return levels.map((set) => (set.size === 1 ? `^${[...set][0]}$` : `^(${[...set].join('|')})$`)).join('/');
}

/** `-test.benchtime` (an iteration count, else a duration) and `-test.count`, appended after the command's own: Go's flag package takes the last. */
function sizingFlags(command: string, sizing: Sizing): Selection | null {
  const flag = iterationsFlag(command);
  if (flag === null) return null;
  const bin = flag === '-test.benchtime=';
  const parts: string[] = [];
  const env: Record<string, string> = {};
  if (sizing.iterations !== undefined) {
    parts.push(`${flag}"$PAIRBENCH_BENCHTIME"`);
    env.PAIRBENCH_BENCHTIME = `${sizing.iterations}x`;
  } else if (sizing.minTimeMs !== undefined) {
    parts.push(`${flag}"$PAIRBENCH_BENCHTIME"`);
    env.PAIRBENCH_BENCHTIME = `${Math.max(1, Math.round(sizing.minTimeMs * 1000))}us`;
  }
  if (sizing.repetitions !== undefined) {
    parts.push(`${bin ? '-test.count=' : '-count='}"$PAIRBENCH_COUNT"`);
    env.PAIRBENCH_COUNT = String(sizing.repetitions + (sizing.warmup ?? 0));
  }
  return { command: parts.length > 0 ? ` ${parts.join(' ')}` : '', env };
}

/** The command's own length of a run: its `-test.benchtime` when a duration, else Go's default 1 s. */
function commandLengthMs(command: string): number {
  const b = commandBenchtime(command);
  return b && 'ns' in b ? b.ns / 1e6 : DEFAULT_LENGTH_MS;
}

/**
 * `--iterations fixed` (the default): each benchmark's iteration count, from the listing run, so
 * that every run of it does the same work (go-iterations.ts); a note where counts cannot be fixed,
 * null where the command fixes them itself.
 */
function fixedIterations(command: string, batch: number): FixedIterations | null {
  const why =
    batch > 1 ? `--batch ${batch} runs several benchmarks with one -test.benchtime`
    : iterationsFlag(command) === null ? 'the run command is not one simple command, so pairbench cannot append -test.benchtime'
    : null;
  const benchtime = why === null ? commandBenchtime(command) : null;
  if (why !== null || benchtime === null) return { note: `Go ramps b.N on every run (iterations not fixed): ${why ?? "the run command's -test.benchtime is not a duration pairbench can read"}` };
  if ('count' in benchtime) return null; // the command fixes the count itself
  return {
    count: (nsPerOp) => iterationsFor(benchtime.ns, nsPerOp),
    log: (min, max) => `each Go benchmark runs a fixed iteration count (-test.benchtime=Nx, N from ${min} to ${max}, from the listing run), the same on both sides; --iterations harness lets Go size every run itself`,
  };
}

/**
 * Go counts one benchmark by `-test.benchtime=<N>x -test.count=1`. M = 2: Go first runs every
 * benchmark once with b.N = 1 and then, for `Nx`, once with b.N = N, so a run of 1x runs the body
 * once and one of 2x three times; from 2 on, the set-up (the b.N = 1 run included) is the same
 * in every run. Under valgrind, asynchronous preemption is turned off (`GODEBUG=asyncpreemptoff=1`,
 * appended to the run's own GODEBUG): valgrind serialises threads and delivers the preemption
 * signals at its own pace, which moves work between runs. And the runtime gets one P
 * (`GOMAXPROCS=1`, unless the run sets its own): valgrind runs one thread at a time anyway, and idle
 * Ps spinning for work count instructions that depend on time, not on the code (on the Go example,
 * the spread of one side's counts fell from 1.3% to 0.3% at 30 million instructions of work).
 */
const goCounting: CountingRule = {
  setupIterations: 2,
  flagsAt: 'end',
  runFor: (command, iterations) => sizingFlags(command, { iterations, repetitions: 1 }),
  valgrindEnv: (env) => ({ GODEBUG: env.GODEBUG ? `${env.GODEBUG},asyncpreemptoff=1` : 'asyncpreemptoff=1', ...(env.GOMAXPROCS ? {} : { GOMAXPROCS: '1' }) }),
};

export const goHarness: Harness<'go'> = {
  format: 'go',
  parse: parseGo,
  select: {
    filter: goFilter,
    all: '.',
    autoFlag,
    refuses: (name) => (/^Benchmark/.test(name) ? null : `${JSON.stringify(name)} is qualified by its package; run one package per benchmark entry to select its benchmarks`),
    // benchstat's form of the name, with the `-GOMAXPROCS` suffix that Go prints and the parser strips (`BenchmarkParse-8`)
    alsoMatches: (filter, name, env) => {
      const procs = /^\d+$/.test(env.GOMAXPROCS ?? '') ? Number(env.GOMAXPROCS) : availableParallelism();
      return filter.test(`${name}-${procs}`);
    },
  },
  design: {
    sizingFlags,
    flagsAt: 'end',
    commandLengthMs,
    summary: 'min',
    lengthBy: 'iterations',
    // Go runs every benchmark once with b.N = 1 before its sized run
    iterationsBeforeRepetition: 1,
    pilotWarmup: PILOT_WARMUP,
    coldStart: goColdStart,
    fixedIterations,
  },
  advice: goAdvice,
  toolchains: ['go'],
  failure: null,
  counting: goCounting,
};
