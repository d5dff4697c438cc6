/**
 * A reproducible noisy machine: random busy and idle phases on every core, with a slow drift of
 * the busy share, all decided by a seed, so that "under noise" means the same thing in every run.
 *
 *   node bench/noise-generator.ts --seed 1 --duration 60s          # standalone, stops by itself
 *   node bench/noise-generator.ts --seed 1 --duration 60s --plan   # print the planned busy share only
 *
 *   import { startNoise } from './noise-generator.ts';             # from another bench
 *   const noise = startNoise({ seed: 1, durationMs: 600_000 });
 *   ...; const report = await noise.stop();
 *
 * How it works. One worker thread per core (by default) spins or sleeps in phases. Each thread
 * draws its phases from its own seeded stream: a phase lasts an exponentially distributed time
 * (mean `phaseMeanMs`, cut to [1 ms, 8 x mean]) and is busy with probability s(t), the busy share
 * at the phase's planned start. s(t) drifts slowly: knots every `driftStepMs` are drawn uniformly
 * in [minShare, maxShare] and joined by a smooth (cosine) interpolation. Phases are laid out on a
 * planned time line (phase k starts at the sum of the planned lengths before it), never on the
 * measured clock, so the plan is a pure function of (seed, thread) and a thread that was
 * descheduled catches up instead of shifting everything after it.
 *
 * Safety. The threads live inside the process that started them, so they die with it (a crash,
 * SIGKILL, Ctrl-C). They stop by themselves after `durationMs`. Standalone, the process also stops
 * on SIGINT/SIGTERM and when its parent dies (it polls its parent pid), so it never outlives the
 * bench that spawned it.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseDuration } from '../src/config/values.ts';
import { rngFor } from '../src/schedule/random.ts';

export interface NoiseSettings {
  seed: number;
  /** the generator stops by itself after this long, milliseconds */
  durationMs: number;
  /** spinning threads; default: one per core */
  threads: number;
  /** mean length of one busy or idle phase, milliseconds */
  phaseMeanMs: number;
  /** the busy share drifts between these bounds */
  minShare: number;
  maxShare: number;
  /** the busy share's knots are this far apart, milliseconds (the drift's time scale) */
  driftStepMs: number;
}

export const NOISE_DEFAULTS: Omit<NoiseSettings, 'seed' | 'durationMs'> & { durationMs: number } = {
  durationMs: 60_000,
  threads: availableParallelism(),
  phaseMeanMs: 25,
  minShare: 0.1,
  maxShare: 0.9,
  driftStepMs: 5_000,
};

export interface ThreadReport {
  thread: number;
  busyMs: number;
  idleMs: number;
  phases: number;
  /** planned busy time, milliseconds (what a thread that is never descheduled would spin) */
  plannedBusyMs: number;
}

export interface NoiseReport {
  settings: NoiseSettings;
  /** measured wall time from start to stop, milliseconds */
  elapsedMs: number;
  threads: ThreadReport[];
  /** spun time / (threads x elapsed) */
  busyShare: number;
}

export interface NoiseGenerator {
  settings: NoiseSettings;
  /** stops every thread now; resolves with what they did */
  stop(): Promise<NoiseReport>;
  /** resolves when the generator has stopped (by itself or by stop()) */
  done: Promise<NoiseReport>;
}

/** The planned busy share at planned time t (ms): smooth interpolation between seeded knots. */
export function shareAt(s: Pick<NoiseSettings, 'seed' | 'minShare' | 'maxShare' | 'driftStepMs'>, t: number): number {
  const k = Math.floor(t / s.driftStepMs);
  const knot = (i: number) => s.minShare + (s.maxShare - s.minShare) * rngFor(s.seed, 'noise-drift', i)();
  const f = t / s.driftStepMs - k;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return knot(k) * (1 - w) + knot(k + 1) * w;
}

/** The phases of one thread, lazily: [planned start, length, busy]. A pure function of the settings. */
export function* plannedPhases(s: NoiseSettings, thread: number): Generator<{ start: number; length: number; busy: boolean }> {
  const rng = rngFor(s.seed, 'noise-thread', thread);
  let t = 0;
  while (t < s.durationMs) {
    const busy = rng() < shareAt(s, t);
    const u = rng();
    const length = Math.min(s.durationMs - t, Math.max(1, Math.min(8 * s.phaseMeanMs, -Math.log(1 - u) * s.phaseMeanMs)));
    yield { start: t, length, busy };
    t += length;
  }
}

// ---- the worker side ----------------------------------------------------------------------------

interface WorkerInput {
  kind: 'pairbench-noise';
  settings: NoiseSettings;
  thread: number;
  /** Int32Array over a SharedArrayBuffer: [0] = stop flag */
  control: SharedArrayBuffer;
}

function runThread(input: WorkerInput): ThreadReport {
  const flag = new Int32Array(input.control);
  const t0 = performance.now();
  let busyMs = 0;
  let idleMs = 0;
  let phases = 0;
  let plannedBusyMs = 0;
  let sink = 0;
  for (const phase of plannedPhases(input.settings, input.thread)) {
    if (Atomics.load(flag, 0) !== 0) break;
    const end = t0 + phase.start + phase.length;
    const now = performance.now();
    phases++;
    if (phase.busy) plannedBusyMs += phase.length;
    if (now >= end) continue; // behind the plan (descheduled): catch up
    if (phase.busy) {
      let x = phase.start | 1;
      while (performance.now() < end && Atomics.load(flag, 0) === 0) {
        for (let i = 0; i < 2000; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
      }
      sink ^= x;
      busyMs += performance.now() - now;
    } else {
      Atomics.wait(flag, 0, 0, end - now);
      idleMs += performance.now() - now;
    }
  }
  if (sink === 0.5) console.log(sink); // never: keeps the spin loop from being optimized away
  return { thread: input.thread, busyMs, idleMs, phases, plannedBusyMs };
}

if (!isMainThread && (workerData as WorkerInput | undefined)?.kind === 'pairbench-noise') {
  parentPort!.postMessage(runThread(workerData as WorkerInput));
}

// ---- the main side ------------------------------------------------------------------------------

export function startNoise(options: Partial<NoiseSettings> & { seed: number }): NoiseGenerator {
  const settings: NoiseSettings = { ...NOISE_DEFAULTS, ...options };
  if (!(settings.durationMs > 0)) throw new Error('noise: durationMs must be > 0 (the generator must stop by itself)');
  if (!(settings.minShare >= 0 && settings.maxShare <= 1 && settings.minShare <= settings.maxShare)) throw new Error('noise: need 0 <= minShare <= maxShare <= 1');
  const control = new SharedArrayBuffer(4);
  const flag = new Int32Array(control);
  const started = performance.now();
  const workers = Array.from({ length: settings.threads }, (_, thread) => {
    const input: WorkerInput = { kind: 'pairbench-noise', settings, thread, control };
    return new Worker(new URL(import.meta.url), { workerData: input });
  });
  const reports = workers.map(
    (w, thread) =>
      new Promise<ThreadReport>((res) => {
        let got: ThreadReport | null = null;
        w.once('message', (m: ThreadReport) => (got = m));
        w.once('error', () => undefined);
        w.once('exit', () => res(got ?? { thread, busyMs: 0, idleMs: 0, phases: 0, plannedBusyMs: 0 }));
      }),
  );
  const done = Promise.all(reports).then((threads): NoiseReport => {
    const elapsedMs = performance.now() - started;
    const busy = threads.reduce((a, t) => a + t.busyMs, 0);
    return { settings, elapsedMs, threads, busyShare: busy / (threads.length * elapsedMs) };
  });
  const stop = () => {
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    return done;
  };
  return { settings, stop, done };
}

// ---- standalone ---------------------------------------------------------------------------------

const USAGE = `Usage: node bench/noise-generator.ts --seed <n> [--duration 60s] [options]

Random busy and idle phases on every core, with a slow drift of the busy share; the same seed
gives the same plan. Stops by itself after --duration, on Ctrl-C, and when its parent dies.

Options:
  --seed <n>          seed of the plan (required)
  --duration <dur>    how long, e.g. 90s, 10m (default: 60s)
  --threads <n>       spinning threads (default: one per core, ${NOISE_DEFAULTS.threads} here)
  --phase <ms>        mean length of a busy or idle phase (default: ${NOISE_DEFAULTS.phaseMeanMs})
  --min-share <f>     lowest busy share of the drift (default: ${NOISE_DEFAULTS.minShare})
  --max-share <f>     highest busy share of the drift (default: ${NOISE_DEFAULTS.maxShare})
  --drift <dur>       time between the drift's knots (default: ${NOISE_DEFAULTS.driftStepMs / 1000}s)
  --plan              print the planned busy share per second and exit, spinning nothing`;

function numberFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name}: got ${JSON.stringify(value)}; expected a number from ${min} to ${max}`);
  return n;
}

async function standalone(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      seed: { type: 'string' },
      duration: { type: 'string' },
      threads: { type: 'string' },
      phase: { type: 'string' },
      'min-share': { type: 'string' },
      'max-share': { type: 'string' },
      drift: { type: 'string' },
      plan: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.seed === undefined) throw new Error('--seed is required, so that the noise is the same in every run');
  const settings: NoiseSettings = {
    seed: numberFlag('seed', values.seed, 0, 0, 2 ** 32 - 1) >>> 0,
    durationMs: values.duration ? parseDuration('--duration', values.duration) : NOISE_DEFAULTS.durationMs,
    threads: numberFlag('threads', values.threads, NOISE_DEFAULTS.threads, 1, 1024),
    phaseMeanMs: numberFlag('phase', values.phase, NOISE_DEFAULTS.phaseMeanMs, 1, 10_000),
    minShare: numberFlag('min-share', values['min-share'], NOISE_DEFAULTS.minShare, 0, 1),
    maxShare: numberFlag('max-share', values['max-share'], NOISE_DEFAULTS.maxShare, 0, 1),
    driftStepMs: values.drift ? parseDuration('--drift', values.drift) : NOISE_DEFAULTS.driftStepMs,
  };
  if (values.plan) {
    console.log(`second  planned busy share (drift)  ${Array.from({ length: settings.threads }, (_, i) => `thread ${i}`).join('  ')}`);
    const iters = Array.from({ length: settings.threads }, (_, i) => plannedPhases(settings, i));
    const pending = iters.map(() => null as { start: number; length: number; busy: boolean } | null);
    for (let sec = 0; sec * 1000 < settings.durationMs; sec++) {
      const from = sec * 1000;
      const to = Math.min(settings.durationMs, from + 1000);
      const perThread = iters.map((it, i) => {
        let busy = 0;
        for (;;) {
          const p = pending[i] ?? it.next().value;
          if (!p) break;
          const a = Math.max(from, p.start);
          const b = Math.min(to, p.start + p.length);
          if (p.busy && b > a) busy += b - a;
          if (p.start + p.length > to) {
            pending[i] = p;
            break;
          }
          pending[i] = null;
        }
        return busy / (to - from);
      });
      console.log(`${String(sec).padStart(6)}  ${shareAt(settings, from).toFixed(2).padStart(27)}  ${perThread.map((v) => v.toFixed(2).padStart(8)).join('  ')}`);
    }
    return 0;
  }
  const gen = startNoise(settings);
  console.error(
    `noise: seed ${settings.seed}, ${settings.threads} threads, ${settings.durationMs / 1000}s, phases ~${settings.phaseMeanMs} ms, busy share drifting in [${settings.minShare}, ${settings.maxShare}] every ${settings.driftStepMs / 1000}s`,
  );
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) void gen.stop(); // our parent died: we were re-parented
  }, 500);
  const onSignal = () => void gen.stop();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const report = await gen.done;
  clearInterval(watch);
  console.error(
    `noise: stopped after ${(report.elapsedMs / 1000).toFixed(1)}s; busy share ${(report.busyShare * 100).toFixed(1)}% (${report.threads.map((t) => `${(t.busyMs / 1000).toFixed(1)}s`).join(', ')} spun)`,
  );
  return 0;
}

const invoked = process.argv[1] ? resolve(process.argv[1]) === fileURLToPath(import.meta.url) : false;
if (isMainThread && invoked) {
  standalone(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`noise-generator: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 2;
    },
  );
}
