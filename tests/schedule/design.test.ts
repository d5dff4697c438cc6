/**
 * The design of each benchmark's runs (`--design auto`: src/schedule/choose-design.ts, src/stats/design-model.ts)
 * chosen from a scripted runner whose variance components are known: each process of a run brings
 * a level P ~ N(0, B) with it, and each repetition inside it varies by W ~ N(0, W0 × 10 ms / L) for
 * a repetition of length L (white noise; or (10 ms / L)^gamma); a process costs `processMs` to start, plus its
 * repetitions. The runner answers as `go test -bench` does for the selected benchmark, one line per
 * `-test.count` repetition, and the scripted clock advances by what each process costs.
 */
import { describe, expect, it } from 'vitest';
import { buildSpec, cliNaming, type RawOptions } from '../../src/config/spec.ts';
import type { RunRequest, RunResult } from '../../src/measure/one-run.ts';
import { runSchedule, type LoopState } from '../../src/schedule/loop.ts';
import { mulberry32 } from '../../src/schedule/random.ts';
import { chooseDesign, designScore, medianEfficiency, settlesWithin, varianceComponents, warmupEvident } from '../../src/stats/design-model.ts';
import { afterWarmup } from '../../src/measure/samples.ts';
import { settlePairsPerVariance, stopCheck } from '../../src/stats/stop.ts';
import { designRecord, poolComponents } from '../../src/schedule/choose-design.ts';
import { selectBenchmarks } from '../../src/harness/select.ts';
import { SCRIPTED_HOST } from '../../src/schedule/scripted-runner.ts';

const BASE = '/revisions/base';
const HEAD = '/revisions/head';

interface Machine {
  /** ns per iteration of each benchmark (the same on both sides: an A/A comparison, unless `headNsPerOp` says otherwise) */
  nsPerOp: Record<string, number>;
  /** ns per iteration on the head's side, where a benchmark changed */
  headNsPerOp?: Record<string, number>;
  /** variance of ln(value) between processes */
  between: number;
  /** variance of ln(repetition) within a process, for repetitions of 10 ms */
  within: number;
  /** what starting a process costs, ms */
  processMs: number;
  /** how the within variance falls with a repetition's length: W(L) = within × (10 ms / L)^gamma (default 1: white noise) */
  gamma?: number;
  /**
   * a start-up that slows what a process runs first: its first `ms` run 1 + (slower - 1) |N(0, 1)|
   * times slower, by a draw of its own per process (the runtime collecting what initialisation
   * allocated, pages faulting in)
   */
  startup?: { ms: number; slower: number };
  /** ns of the first iteration of a process (a pool filled on first use), when it differs from nsPerOp */
  firstOpNs?: Record<string, number>;
  /**
   * a pool that a repetition of fewer than `iterations` iterations may find empty: in a share of
   * the processes (a draw of its own per process), each such repetition runs every iteration
   * `slower` times slower, refilling it
   */
  pool?: Record<string, { iterations: number; share: number; slower: number }>;
  /**
   * interference that only adds: each repetition, with probability `share`, shares its cores with
   * other work for a while and runs 1 + `slower` U times slower (U uniform in [0, 1), its own draw)
   */
  bursts?: { share: number; slower: number };
  /**
   * a runtime that collects garbage: after every `everyMs` of a process's work it pauses for `ms`,
   * at a phase of its own per process, so a short repetition catches a collection or not (or one
   * more or one fewer) and a long one catches about its share
   */
  collections?: { everyMs: number; ms: number };
  /** a whole process lands in a slow mode with probability `share`: every repetition of it runs `slower` times slower */
  modes?: { share: number; slower: number };
}

function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function scripted(m: Machine) {
  const z = gaussian(mulberry32(3));
  // the start-up's own draws, so that a machine without one draws as it always did
  const zStartup = gaussian(mulberry32(4));
  const uPool = mulberry32(6);
  const uBurst = mulberry32(8);
  const uCollect = mulberry32(10);
  const uMode = mulberry32(12);
  let clock = 0;
  const requests: RunRequest[] = [];
  const runner = async (reqs: readonly RunRequest[]): Promise<RunResult[]> => {
    const out: RunResult[] = [];
    for (const req of reqs) {
      requests.push(req);
      const filter = req.command.includes('$PAIRBENCH_FILTER') ? req.env.PAIRBENCH_FILTER : undefined;
      const names = Object.keys(m.nsPerOp).filter((n) => filter === undefined || filter === '.' || new RegExp(filter).test(n));
      const count = Number(req.env.PAIRBENCH_COUNT ?? 1);
      const benchtime = req.env.PAIRBENCH_BENCHTIME ?? '10000us';
      const lines: string[] = [];
      let wall = m.processMs;
      for (const name of names) {
        const ns = (req.cwd.startsWith(HEAD) ? m.headNsPerOp?.[name] : undefined) ?? m.nsPerOp[name]!;
        const first = m.firstOpNs?.[name] ?? ns;
        // Go's b.N = 1 run first: when it outlasts a -test.benchtime given as a time, that one iteration is the result
        const iterations = benchtime.endsWith('x') ? Number(benchtime.slice(0, -1)) : first / 1e3 >= Number(benchtime.replace('us', '')) ? 1 : Math.max(1, Math.round((Number(benchtime.replace('us', '')) * 1000) / ns));
        const lengthMs = (iterations * ns) / 1e6;
        const level = Math.sqrt(m.between) * z();
        let elapsedMs = 0;
        const slower = m.startup ? 1 + (m.startup.slower - 1) * Math.abs(zStartup()) : 1;
        const pool = m.pool?.[name];
        const refills = pool !== undefined && uPool() < pool.share;
        // the work done since the process's last collection, at a phase of its own
        let sinceCollection = m.collections ? uCollect() * m.collections.everyMs : 0;
        const mode = m.modes && uMode() < m.modes.share ? m.modes.slower : 1;
        for (let r = 0; r < count; r++) {
          // the process's first iteration (in Go's b.N = 1 run before the first repetition, or in the repetition itself when it is one iteration long)
          const extraMs = r === 0 && iterations === 1 ? (first - ns) / 1e6 : 0;
          // what of the repetition falls in the start-up runs `slower` times slower
          const slowMs = m.startup ? Math.max(0, Math.min(lengthMs, m.startup.ms - elapsedMs)) : 0;
          const refillMs = refills && iterations < pool!.iterations ? lengthMs * (pool!.slower - 1) : 0;
          const took = lengthMs + extraMs + slowMs * (slower - 1) + refillMs;
          const burst = m.bursts && uBurst() < m.bursts.share ? 1 + m.bursts.slower * uBurst() : 1;
          let collected = 0;
          if (m.collections) {
            sinceCollection += took;
            while (sinceCollection >= m.collections.everyMs) {
              sinceCollection -= m.collections.everyMs;
              collected += m.collections.ms;
            }
          }
          const v = (((took + collected) * burst * mode * 1e6) / iterations) * Math.exp(level + Math.sqrt(m.within * (10 / lengthMs) ** (m.gamma ?? 1)) * z());
          lines.push(`${name}-2 \t ${iterations}\t ${v.toFixed(4)} ns/op`);
          elapsedMs += took;
          wall += took + collected + ns / 1e6;
        }
      }
      clock += wall;
      out.push({ outcome: 'ok', exitCode: 0, signal: null, stdout: `goos: linux\n${lines.join('\n')}\nPASS\n`, outputTail: '', wallMs: wall, cpuMs: null, maxRssBytes: null });
    }
    return out;
  };
  return { runner, now: () => clock, requests };
}

async function schedule(m: Machine, flags: RawOptions = {}, benchThreshold?: number): Promise<{ state: LoopState; log: string[]; requests: RunRequest[] }> {
  const { runner, now, requests } = scripted(m);
  const log: string[] = [];
  // in turn unless asked, on the scripted runner's two-CPU machine whatever this one is (at once, its clock still adds both runs: the design's budget is what is read)
  const spec = buildSpec({ format: 'go', run: './bench.test -test.run "^$" -test.bench .', seed: '5', 'min-pairs': '12', 'max-pairs': '40', 'pair-runs': 'in-turn', ...flags }, { cwd: '/', naming: cliNaming, host: SCRIPTED_HOST });
  // a threshold of the benchmark's own, as a config file's `benchmarks[].threshold` sets it
  if (benchThreshold !== undefined) spec.benchmarks[0]!.threshold = benchThreshold;
  const state = await runSchedule({
    spec,
    base: { side: 'base', ref: null, sha: null, dir: BASE },
    head: { side: 'head', ref: null, sha: null, dir: HEAD },
    env: {},
    counter: null,
    runner,
    clock: now,
    log: (l) => log.push(l),
    onPair: () => {},
  });
  return { state, log, requests };
}

describe('the design of the runs, from known variance components', () => {
  it('noise between processes, costly processes: one repetition per process, short (more, shorter processes)', async () => {
    const { state, log, requests } = await schedule({ nsPerOp: { BenchmarkA: 1000, BenchmarkB: 20_000 }, between: 0.05 ** 2, within: 0.01 ** 2, processMs: 20 }, { 'min-pairs': '20' });
    for (const u of state.units) {
      const d = u.design!;
      expect(d.phase).toBe('chosen');
      // the components as a pilot of 20 pairs measured them, near the truth on the sd scale (a MAD of 20 values is rough)
      expect(Math.sqrt(d.components!.between) / 0.05).toBeGreaterThan(0.5);
      expect(Math.sqrt(d.components!.between) / 0.05).toBeLessThan(1.6);
      expect(Math.sqrt(d.components!.within) / 0.01).toBeGreaterThan(0.7);
      expect(Math.sqrt(d.components!.within) / 0.01).toBeLessThan(1.3);
      expect(Math.abs(d.components!.processMs - 20)).toBeLessThan(2);
      expect(d.repetitions).toBe(1);
      expect(d.lengthMs).toBeLessThan(10.1);
    }
    // the pilot's runs: a warm-up and 2 repetitions of 10 ms, then of 20 ms; the later ones: the chosen design, the same on both sides of a pair
    const pairs = requests.slice(2);
    expect(pairs[0]!.env.PAIRBENCH_COUNT).toBe('3');
    const last = requests.at(-1)!;
    expect(last.env.PAIRBENCH_COUNT).toBe('1');
    expect(log.some((l) => /BenchmarkA: 1 repetition of \d+(\.\d+)? ms per process \(pilot of 20 pairs: between processes ±\d/.test(l)), log.join('\n')).toBe(true);
  });

  it('no noise between processes, the fast noise inside them: one long repetition (averaging), up to the command\'s own length', async () => {
    const { state } = await schedule({ nsPerOp: { BenchmarkA: 1000 }, between: 0, within: 0.05 ** 2, processMs: 30 }, { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 200ms', 'min-pairs': '20' });
    const d = state.units[0]!.design!;
    expect(d.components!.lengthExponent).toBeGreaterThan(0.7);
    expect(d.repetitions).toBe(1);
    expect(d.lengthMs).toBeGreaterThanOrEqual(80);
    expect(d.lengthMs).toBeLessThanOrEqual(200);
  });

  it('fast noise inside processes that a longer repetition does not average away (gamma 0): repetitions as short as the pilot measured, never shorter', async () => {
    // a suite of eight: the length exponent is the suite's median
    const nsPerOp = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`Benchmark${String.fromCharCode(65 + i)}`, 1000 * (i + 1)]));
    const { state } = await schedule({ nsPerOp, between: 0.01 ** 2, within: 0.05 ** 2, processMs: 5, gamma: 0 }, { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 200ms', 'min-pairs': '20' });
    for (const u of state.units) {
      const d = u.design!;
      expect(d.components!.lengthExponent).toBeLessThan(0.5);
      // below the pilot's 10 ms the spread is not known (the model would extrapolate it): never shorter
      expect(d.lengthMs).toBeGreaterThanOrEqual(9.9);
      // a longer repetition buys little when length averages little of the noise: chosen only
      // where it would settle the benchmark within the pairs left, or would on a hopeful reading
      // (twice those pairs), and the cheapest would not
      if (d.lengthMs > 10.1) expect(settlePairsPerVariance(0.05, 0.02) * d.predicted!.pairSd ** 2).toBeLessThanOrEqual(2 * (40 - d.pilotPairs));
    }
  });

  it('the cap on pairs would stop the cheapest design unsettled: the schedule chooses a costlier one that settles within the pairs left', async () => {
    // white noise inside processes, little between them: one long repetition is the cheapest
    // per unit of precision, but would need more than the 20 pairs --max-pairs leaves after the pilot
    const { state } = await schedule({ nsPerOp: { BenchmarkA: 1000 }, between: 0.0001, within: 0.08 ** 2, processMs: 10 }, { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 200ms', 'min-pairs': '20' });
    const d = state.units[0]!.design!;
    const left = 40 - d.pilotPairs;
    const perVariance = settlePairsPerVariance(0.05, 0.02);
    // the candidates of schedule/choose-design.ts up to the command's 200 ms
    const candidates = { repetitions: [1, 3, 5], lengthsMs: [10, 20, 40, 80, 160] };
    const cheapest = chooseDesign(d.components!, candidates);
    expect(perVariance * cheapest.pairSd ** 2).toBeGreaterThan(left);
    expect(perVariance * d.predicted!.pairSd ** 2).toBeLessThanOrEqual(left);
    expect([d.repetitions, Math.round(d.lengthMs)]).not.toEqual([cheapest.repetitions, cheapest.lengthMs]);
  });

  it('at once (--pair-runs at-once) a pair costs the longer of its two runs, not both: the same time left buys about twice the pairs, and the kept design settles within it where in turn it does not', async () => {
    const m = { nsPerOp: { BenchmarkA: 1000 }, between: 0.0001, within: 0.08 ** 2, processMs: 10 };
    const flags = { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 640ms', 'min-pairs': '20', 'max-pairs': '200', 'max-time': '20s' };
    const inTurn = (await schedule(m, flags)).state.units[0]!.design!;
    const atOnce = (await schedule(m, { ...flags, 'pair-runs': 'at-once' })).state.units[0]!.design!;
    // in turn the 20 s leave too little for five repetitions of 10 ms to settle: one of 40 ms instead
    expect([inTurn.repetitions, Math.round(inTurn.lengthMs)]).toEqual([1, 40]);
    // at once the same time holds twice the pairs, and the kept design stands
    expect([atOnce.repetitions, Math.round(atOnce.lengthMs)]).toEqual([5, 10]);
  });

  it("the pairs a design needs are read at the benchmark's own threshold: at 6%, the cheapest design settles within the cap and is kept", async () => {
    const { state } = await schedule({ nsPerOp: { BenchmarkA: 1000 }, between: 0.0001, within: 0.08 ** 2, processMs: 10 }, { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 200ms', 'min-pairs': '20' }, 0.06);
    const d = state.units[0]!.design!;
    const cheapest = chooseDesign(d.components!, { repetitions: [1, 3, 5], lengthsMs: [10, 20, 40, 80, 160] });
    // at the default 2% it would not fit the 20 pairs left; at the benchmark's 6% it does
    expect(settlePairsPerVariance(0.05, 0.02) * cheapest.pairSd ** 2).toBeGreaterThan(40 - d.pilotPairs);
    expect(settlePairsPerVariance(0.05, 0.06) * cheapest.pairSd ** 2).toBeLessThanOrEqual(40 - d.pilotPairs);
    expect([d.repetitions, Math.round(d.lengthMs)]).toEqual([cheapest.repetitions, cheapest.lengthMs]);
  });

  it('the command caps a repetition at 10 ms and the noise is within processes: several repetitions per process', async () => {
    const { state, log } = await schedule({ nsPerOp: { BenchmarkA: 1000 }, between: 0, within: 0.05 ** 2, processMs: 30 }, { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 10ms' });
    const d = state.units[0]!.design!;
    expect(d.lengthMs).toBeLessThan(10.1);
    // a Go time is the least of a process's repetitions: of normal ones, the model reads three as
    // the narrowest interval per second here (the least of five spreads 0.45 times one's variance
    // for five repetitions' time, of three 0.56 for three's: stats/design-model.ts, `minEfficiency`),
    // but not twice as narrow as five, the design kept unless another reads twice as good
    // (schedule/choose-design.ts, KEEP)
    const c = d.components!;
    expect(designScore(c, 3, 10).score).toBeLessThan(designScore(c, 5, 10).score);
    expect(2 * designScore(c, 3, 10).score).toBeGreaterThan(designScore(c, 5, 10).score);
    expect(d.repetitions).toBe(5);
    // the log says what the model would have run instead
    expect(log.some((l) => /BenchmarkA: 5 repetitions of .* per process \(.*; kept over 3 repetitions of .* \(±\d+\.\d% per pair, .* a pair\), which the model reads better but not twice as good\)/.test(l)), log.join('\n')).toBe(true);
  });

  it('a start-up that slows the first repetition of each process: a warm-up repetition is run and left out, and the pairs are as steady as without it', async () => {
    // the first 8 ms of a process run up to twice as slow, by a different amount in each process:
    // its first repetition is disturbed, the later ones are not
    const machine = { nsPerOp: { BenchmarkA: 1000, BenchmarkB: 2000 }, between: 0.01 ** 2, within: 0.01 ** 2, processMs: 20 };
    const { state, log } = await schedule({ ...machine, startup: { ms: 8, slower: 1.6 } }, { 'min-pairs': '20' });
    const quiet = await schedule(machine, { 'min-pairs': '20' });
    for (const u of state.units) {
      const d = u.design!;
      expect(d.warmup).toBe(1);
      // the spreads of the design are those after the warm-up: near the machine's, not the start-up's
      expect(Math.sqrt(d.components!.within)).toBeLessThan(0.02);
      // the runs from now on: the chosen repetitions after the warm-up, as Go's -test.count
      expect(u.sizing).toMatchObject({ repetitions: d.repetitions, warmup: 1 });
      // the results file records it, and the pilot's
      expect(designRecord(d, u.pairs)).toMatchObject({ repetitions: d.repetitions, warmup: 1, pilot: { repetitions: 2, warmup: 1 } });
      expect(selectBenchmarks('./bench.test -test.run "^$" -test.bench .', 'go', [u.name], u.sizing).env.PAIRBENCH_COUNT).toBe(String(d.repetitions + 1));
    }
    expect(log.some((l) => /BenchmarkA: a warm-up and \d+ repetitions? of .* per process \(.*counting the first repetition of a process, the best design would give ±/.test(l)), log.join('\n')).toBe(true);
    // each pair's value leaves the warm-up out, the pilot's too: the pairs of this A/A comparison
    // spread as those of the machine without the start-up do
    const spread = (st: LoopState, name: string) => {
      const d = st.units.find((u) => u.name === name)!.rows[0]!.pairs.map((p) => Math.log(p.head / p.base));
      return Math.sqrt(d.reduce((t, x) => t + x * x, 0) / d.length);
    };
    for (const u of state.units) expect(spread(state, u.name)).toBeLessThan(1.5 * spread(quiet.state, u.name));
    // the same machine without the start-up: no warm-up is run
    for (const u of quiet.state.units) {
      expect(u.design!.warmup).toBe(0);
      expect(designRecord(u.design!, u.pairs)).not.toHaveProperty('warmup');
    }
  });

  it("interference that only adds (a repetition sharing its cores now and then): a process's least repetition is its time, and the pairs are nearly as steady as without it", async () => {
    // one repetition in five runs up to 80% slower, as on a shared 2-core machine where another
    // process takes a core for a while (harness/types.ts, Sample.combine); the command caps a
    // repetition at 10 ms, so each process runs several
    const machine = { nsPerOp: { BenchmarkA: 1000 }, between: 0, within: 0.02 ** 2, processMs: 30 };
    const flags = { run: './bench.test -test.run "^$" -test.bench . -test.benchtime 10ms', 'min-pairs': '20', 'max-pairs': '80' };
    const { state } = await schedule({ ...machine, bursts: { share: 0.2, slower: 0.8 } }, flags);
    const d = state.units[0]!.design!;
    expect(d.components!.summary).toBe('min');
    expect(d.repetitions).toBeGreaterThan(1);
    // a burst moves a pair only when it hit every repetition of a process (the pilot's two, the
    // design's three): the pairs spread about as the least of normal repetitions does (±2.1% for
    // three of ±2%), where the median of the same repetitions, hit whenever half were, spread its 62
    // pairs by ±7.4%
    const pairs = state.units[0]!.rows[0]!.pairs.map((p) => Math.log(p.head / p.base));
    expect(pairs.length).toBeGreaterThanOrEqual(20);
    expect(Math.sqrt(pairs.reduce((t, x) => t + x * x, 0) / pairs.length)).toBeLessThan(0.025);
  });

  it("an iteration slow only the first time in a process (a pool filled on first use): the design is sized from the pilot's later iterations, not the listing's first", async () => {
    // the listing run's one iteration takes 40 ms; each later one 0.5 ms
    const { state } = await schedule({ nsPerOp: { BenchmarkA: 500_000 }, firstOpNs: { BenchmarkA: 40_000_000 }, between: 0.01 ** 2, within: 0.01 ** 2, processMs: 20 }, { 'min-pairs': '20' });
    const d = state.units[0]!.design!;
    expect(d.opMs).toBeLessThan(1);
    expect(d.iterations).toBeGreaterThanOrEqual(10);
    expect(d.warmup).toBe(1);
  });

  it('a cold start (the first iteration far slower than the rest): at least 20 iterations a repetition, where the pilot alone would choose 5', async () => {
    // noise between processes that a longer repetition does not average (gamma 0): the model favours
    // the shortest repetitions, 10 ms = 5 iterations of 2 ms; the pilot ran one iteration a repetition
    const m = { nsPerOp: { BenchmarkPool: 2_000_000 }, between: 0.03 ** 2, within: 0.02 ** 2, processMs: 20, gamma: 0 };
    const warm = await schedule(m, { 'min-pairs': '20' });
    expect(warm.state.units[0]!.design!.iterations).toBe(5);
    expect(warm.log.join('\n')).not.toContain('cold start');
    const cold = await schedule({ ...m, firstOpNs: { BenchmarkPool: 60_000_000 } }, { 'min-pairs': '20' });
    const d = cold.state.units[0]!.design!;
    expect(d.opMs).toBeCloseTo(2, 1);
    expect(d.iterations).toBeGreaterThanOrEqual(20);
    expect(cold.log.join('\n')).toContain('its first iteration was slow, a cold start, so each repetition runs at least 20 iterations');
    expect(d.coldStart).toBe('first');
    expect(warm.state.units[0]!.design!.coldStart).toBeUndefined();
    // no longer than the command's own length: 20 ms allows 10 iterations
    const capped = await schedule({ ...m, firstOpNs: { BenchmarkPool: 60_000_000 } }, { 'min-pairs': '20', run: './bench.test -test.run "^$" -test.bench . -test.benchtime 20ms' });
    expect(capped.state.units[0]!.design!.iterations).toBe(10);
    expect(capped.log.join('\n')).toContain('so each repetition runs at least 10 iterations');
  });

  it("a cold start the listing does not show (the pilot's processes run an iteration at speeds far apart): at least 20 iterations a repetition", async () => {
    // as the fastjson suite's canada/fastjson-get: the listing's iteration looked ordinary, but half
    // the pilot's processes ran their few iterations ten times slower, refilling a pool
    const m = { nsPerOp: { BenchmarkPool: 2_000_000 }, between: 0.03 ** 2, within: 0.02 ** 2, processMs: 20, gamma: 0 };
    const pooled = await schedule({ ...m, pool: { BenchmarkPool: { iterations: 20, share: 0.5, slower: 10 } } }, { 'min-pairs': '20' });
    const d = pooled.state.units[0]!.design!;
    expect(d.iterations).toBeGreaterThanOrEqual(20);
    expect(pooled.log.join('\n')).toContain('its processes ran an iteration at speeds more than twice apart, a cold start in some, so each repetition runs at least');
    expect(d.coldStart).toBe('modes');
    expect(designRecord(d, pooled.state.units[0]!.pairs)).toMatchObject({ coldStart: 'modes', pilotPairs: 20 });
    // most processes refilling: sized from the fast ones' iteration (2 ms), not the median's (20 ms),
    // the command's 20 ms then allow about 10 iterations, where the median's would allow 1
    const capped = await schedule({ ...m, pool: { BenchmarkPool: { iterations: 20, share: 0.75, slower: 10 } } }, { 'min-pairs': '20', run: './bench.test -test.run "^$" -test.bench . -test.benchtime 20ms' });
    expect(capped.state.units[0]!.design!.opMs).toBeLessThan(2.5);
    expect(capped.state.units[0]!.design!.iterations).toBeGreaterThanOrEqual(8);
    // the same modes where the pilot's repetitions already ran 20 iterations or more (a burst of the
    // machine's load, not a refill): no cold start, and the pilot is judged
    const long = await schedule({ ...m, nsPerOp: { BenchmarkPool: 200_000 }, pool: { BenchmarkPool: { iterations: 1000, share: 0.5, slower: 10 } } }, { 'min-pairs': '20' });
    expect(long.state.units[0]!.design!.coldStart).toBeUndefined();
    expect(long.log.join('\n')).not.toContain('cold start');
    // processes alike: no floor (the same machine without the pool chooses 5 iterations, as above)
    const warm = await schedule(m, { 'min-pairs': '20' });
    expect(warm.state.units[0]!.design!.iterations).toBe(5);
    expect(warm.log.join('\n')).not.toContain('cold start');
  });

  it("the stopping rules read the pairs after a cold start's pilot, as the report judges them", async () => {
    // the pilot's processes refill a pool in half of them (pairs spread by ±100% and more); the
    // design's, 20 iterations a repetition, by about ±1%
    const m = { nsPerOp: { BenchmarkPool: 2_000_000 }, between: 0.005 ** 2, within: 0.005 ** 2, processMs: 20, gamma: 0, pool: { BenchmarkPool: { iterations: 20, share: 0.5, slower: 10 } } };
    const { state, log } = await schedule(m, { 'min-pairs': '20', 'max-pairs': '200' });
    const u = state.units[0]!;
    expect(u.design!.coldStart).toBe('modes');
    const row = u.rows[0]!;
    const pilot = u.design!.pilot.length;
    const ln = (p: { base: number; head: number }) => Math.abs(Math.log(p.head / p.base));
    expect(row.pairs.slice(0, pilot).filter((p) => ln(p) > 1).length).toBeGreaterThanOrEqual(5);
    // the interval the last check read is the design's pairs' own, not that of every pair
    const check = (pairs: typeof row.pairs) => stopCheck(pairs, { minPairs: 20, maxPairs: 200, precision: 0.005, alpha: 0.05, threshold: 0.02, outliers: 'tukey' });
    expect(row.halfWidth).toBeCloseTo(check(row.pairs.slice(pilot)).halfWidth!, 12);
    expect(Math.abs(row.halfWidth! - check(row.pairs).halfWidth!)).toBeGreaterThan(1e-4);
    expect(log.join('\n')).toContain('a cold start in some');
  });

  it('nothing stops during a pilot: a benchmark precise after six pairs runs the whole pilot, and its design is chosen', async () => {
    // --min-pairs 3: the stopping rules may stop from the third pair; the pilot runs 8 (PILOT_PAIRS.min).
    // An A/A at ±0.1% a run: the precision rule, reading the pilot's pairs, would stop it at the sixth
    const m = { nsPerOp: { BenchmarkA: 1_000 }, between: 0.001 ** 2, within: 0.001 ** 2, processMs: 5 };
    const { state } = await schedule(m, { 'min-pairs': '3', 'max-pairs': '40' });
    const u = state.units[0]!;
    const pilot = u.design!.pilot.length;
    expect(pilot).toBe(8);
    const early = stopCheck(u.rows[0]!.pairs.slice(0, pilot - 1), { minPairs: 3, maxPairs: 40, precision: 0.005, alpha: 0.05, threshold: 0.02, outliers: 'tukey', minKept: 6 });
    expect(early.stop).toBe(true);
    expect(u.design!.phase).toBe('chosen');
    expect(u.pairs).toBeGreaterThanOrEqual(pilot);
  });

  it("nor right after a cold start's pilot, before a pair of its design: the rules would read the pilot's", async () => {
    // every pilot process runs its first iteration 20 times slower, alike on both sides: a cold start
    // (`first`) whose pairs agree closely, so that the precision rule reading them would stop at the pilot's last
    const m = { nsPerOp: { BenchmarkPool: 2_000_000 }, firstOpNs: { BenchmarkPool: 40_000_000 }, between: 0.001 ** 2, within: 0.001 ** 2, processMs: 5, gamma: 0 };
    const { state } = await schedule(m, { 'min-pairs': '3', 'max-pairs': '40' });
    const u = state.units[0]!;
    expect(u.design!.coldStart).toBe('first');
    const pilot = u.design!.pilot.length;
    const onPilot = stopCheck(u.rows[0]!.pairs.slice(0, pilot), { minPairs: 3, maxPairs: 40, precision: 0.005, alpha: 0.05, threshold: 0.02, outliers: 'tukey', minKept: 6 });
    expect(onPilot.stop).toBe(true);
    // judged on the design's pairs, it ran some of them
    expect(u.pairs).toBeGreaterThan(pilot);
  });

  /** Three benchmarks on a machine whose noise is small and alike between and within processes; a pilot of 20 pairs. */
  const three = { nsPerOp: { BenchmarkA: 1000, BenchmarkB: 3000, BenchmarkC: 7000 }, between: 0.005 ** 2, within: 0.005 ** 2, processMs: 20 };
  const pilot20 = { 'min-pairs': '20', 'max-pairs': '80' };
  /** On that machine as it is, every benchmark keeps five repetitions of 10 ms (KEEP). */
  const expectKept = async () => {
    const quiet = await schedule(three, pilot20);
    for (const u of quiet.state.units) expect([u.design!.repetitions, Math.round(u.design!.lengthMs)]).toEqual([5, 10]);
  };

  it('allocation-like noise (a collection of 3 ms after every 15 ms of work, which a 10 ms repetition catches or not): repetitions of 80 ms or more, where the same machine without it keeps 10 ms', async () => {
    await expectKept();
    const { state, log } = await schedule({ ...three, collections: { everyMs: 15, ms: 3 } }, pilot20);
    for (const u of state.units) {
      const d = u.design!;
      expect(d.phase).toBe('chosen');
      // the pilot reads a spread inside processes that falls with length as averaging does
      expect(d.components!.lengthExponent).toBeGreaterThan(0.7);
      expect(Math.sqrt(d.components!.within)).toBeGreaterThan(0.05);
      expect(d.lengthMs).toBeGreaterThanOrEqual(80);
      // and the benchmark ends decided, none flagged (an A/A comparison)
      expect(u.stoppedBecause).toBe('decided');
    }
    expect(log.some((l) => /BenchmarkA: 1 repetition of (640|320|160|80) ms per process/.test(l)), log.join('\n')).toBe(true);
  });

  it('a whole process landing in a slow mode (3 in 10 processes 30% slower): one short repetition per process, more processes, where the same machine without modes keeps five', async () => {
    await expectKept();
    const { state, log } = await schedule({ ...three, modes: { share: 0.3, slower: 1.3 } }, pilot20);
    for (const u of state.units) {
      const d = u.design!;
      expect([d.repetitions, Math.round(d.lengthMs)]).toEqual([1, 10]);
      // a second of budget buys more than twice the processes of the kept design (30 ms each against 70 ms)
      expect(d.predicted!.pairMs).toBeLessThan(0.5 * designScore(d.components!, 5, 10).pairMs);
    }
    expect(log.some((l) => /BenchmarkA: 1 repetition of 10 ms per process .*its processes fall into modes \(\d+ of 20 pilot pairs far from the rest\), so the spreads count them and no design is kept over the model's/.test(l)), log.join('\n')).toBe(true);
    // modes too slight to be evident (2 in 10 processes 10% slower): the spread between processes
    // still dominates, and the design does not buy long repetitions that cannot narrow it
    // (stats/design-model.ts, NARROW_ENOUGH: once the cap on pairs binds, the cheapest of the designs as narrow)
    const slight = await schedule({ ...three, modes: { share: 0.2, slower: 1.1 } }, pilot20);
    for (const u of slight.state.units) {
      const d = u.design!;
      expect(d.repetitions * d.lengthMs).toBeLessThanOrEqual(50);
    }
  });

  it('--design command: runs as the command says, no pilot', async () => {
    const { state, requests } = await schedule({ nsPerOp: { BenchmarkA: 1000 }, between: 0.01, within: 0.0001, processMs: 5 }, { design: 'command' });
    expect(state.units[0]!.design).toBeUndefined();
    expect(requests.every((r) => r.env.PAIRBENCH_COUNT === undefined)).toBe(true);
  });
});

describe('stats/design-model.ts', () => {
  it('the median of k normal values: 1 for one, 1.35 for three, tends to π/2', () => {
    expect(medianEfficiency(1)).toBe(1);
    expect(medianEfficiency(3)).toBeCloseTo(1.346, 3);
    expect(medianEfficiency(101)).toBeCloseTo(Math.PI / 2, 10);
  });

  it("Kalibera and Jones's optimum over repetitions at a fixed length: k* = sqrt(c_p e W / (c_r B)) is what the search finds", () => {
    // c_p = 100 ms, repetitions of 1 ms, B = 0.0001, W = 0.01 (at 1 ms): k* = sqrt(100 × 0.01 / (1 × 0.0001)) = 100 before e_k;
    // among 1, 3, 5 the search takes the largest
    const c = { between: 0.0001, within: 0.01, repetitionMs: 1, lengthExponent: 1, processMs: 100, perRepetitionMs: 0, pairs: 10 };
    expect(chooseDesign(c, { repetitions: [1, 3, 5], lengthsMs: [1] }).repetitions).toBe(5);
    // the other way round: all the noise between processes, so one repetition
    const d = { ...c, between: 0.01, within: 0.0001 };
    expect(chooseDesign(d, { repetitions: [1, 3, 5], lengthsMs: [1] }).repetitions).toBe(1);
    // with lengths to choose, one long repetition beats several short ones of the same total (white noise)
    expect(designScore(c, 1, 5).score).toBeLessThan(designScore(c, 5, 1).score);
  });

  it('a kept design (a warm-up where one competes, five of the shortest length) stands unless another reads the factor better, and only where it competes', () => {
    const keep = { repetitions: 5, factor: 2 };
    const candidates = { repetitions: [1, 3, 5], lengthsMs: [10, 20, 40, 80] };
    // noise inside processes, some between: the model's best is near the kept design
    const c = { between: 0.0004, within: 0.0025, repetitionMs: 10, lengthExponent: 0.5, processMs: 20, perRepetitionMs: 0, pairs: 10, summary: 'min' as const };
    const best = chooseDesign(c, candidates);
    const kept = designScore(c, 5, 10);
    expect(kept.score).toBeLessThanOrEqual(2 * designScore(c, best.repetitions, best.lengthMs).score);
    expect(chooseDesign(c, candidates, undefined, keep)).toMatchObject({ warmup: 0, repetitions: 5, lengthMs: 10 });
    // with a warm-up variant, the kept design runs one
    const variants = [{ warmup: 0, components: c }, { warmup: 1, components: { ...c, within: 0.002 } }];
    expect(chooseDesign(variants, candidates, undefined, keep)).toMatchObject({ warmup: 1, repetitions: 5, lengthMs: 10 });
    // white noise and costly processes: one long repetition reads more than twice as good, and is chosen
    const white = { ...c, between: 0, lengthExponent: 1, processMs: 100, within: 0.01 };
    const long = chooseDesign(white, candidates);
    expect(designScore(white, 5, 10).score).toBeGreaterThan(2 * designScore(white, long.repetitions, long.lengthMs).score);
    expect(chooseDesign(white, candidates, undefined, keep)).toMatchObject({ repetitions: long.repetitions, lengthMs: long.lengthMs });
    // 70 pairs left: the kept design would need about 88, others fewer; it does not compete, and
    // the model's choice among those that would settle stands
    const budget = { pairs: 70, timeMs: 600_000, pairsPerVariance: settlePairsPerVariance(0.05, 0.02) };
    expect(settlesWithin(kept, budget)).toBe(false);
    const within = chooseDesign(c, candidates, budget);
    expect(settlesWithin(designScore(c, within.repetitions, within.lengthMs), budget)).toBe(true);
    expect(chooseDesign(c, candidates, budget, keep)).toEqual(within);
  });

  it('a design that settles within the budget beats a cheaper one that --max-pairs would stop first; none settling, the cheapest', () => {
    // white noise inside processes, little between them: one long repetition is cheapest per unit of
    // precision, but needs about 32 pairs at a threshold of 2%; with 20 pairs left, only several
    // repetitions per process bring the spread per pair low enough
    const c = { between: 0.0001, within: 0.0036, repetitionMs: 10, lengthExponent: 1, processMs: 10, perRepetitionMs: 0, pairs: 10 };
    const candidates = { repetitions: [1, 3, 5], lengthsMs: [10, 20, 40, 80] };
    const perVariance = settlePairsPerVariance(0.05, 0.02);
    const cheapest = chooseDesign(c, candidates);
    expect([cheapest.repetitions, cheapest.lengthMs]).toEqual([1, 80]);
    expect(perVariance * cheapest.pairSd ** 2).toBeGreaterThan(20);
    const budget = { pairs: 20, timeMs: 60_000, pairsPerVariance: perVariance };
    const chosen = chooseDesign(c, candidates, budget);
    expect(settlesWithin(chosen, budget)).toBe(true);
    expect(chosen.repetitions).toBeGreaterThan(1);
    // the soonest of the designs that settle in time: none that settles scores lower
    const all = candidates.repetitions.flatMap((k) => candidates.lengthsMs.map((L) => designScore(c, k, L)));
    const best = Math.min(...all.filter((x) => settlesWithin(x, budget)).map((x) => x.score));
    expect(designScore(c, chosen.repetitions, chosen.lengthMs).score).toBeCloseTo(best, 12);
    // a budget of pairs it fits but no time to run them: nothing settles, so the cheapest per unit of precision
    expect(chooseDesign(c, candidates, { ...budget, timeMs: 2_000 })).toEqual(cheapest);
    // plenty of pairs: the cheapest settles, and is kept
    expect(chooseDesign(c, candidates, { ...budget, pairs: 200 })).toEqual(cheapest);
  });

  it('none settling within the budget: the narrowest interval the budget allows (the cheapest of those as narrow), not the cheapest per second once the cap on pairs binds', () => {
    // a Go sort as its pilot measured it on a busy 2-core machine: ±18.6% between 10 ms repetitions
    // of one process, falling as length^-0.67, ±0.1% between processes, 6 ms to start one
    const c = { between: 0.001 ** 2, within: 0.186 ** 2, repetitionMs: 10, lengthExponent: 0.67, processMs: 6, perRepetitionMs: 0, pairs: 10 };
    const candidates = { repetitions: [1, 3, 5], lengthsMs: [10, 20, 40, 80, 160, 320, 640] };
    const budget = { pairs: 190, timeMs: 55_000, pairsPerVariance: settlePairsPerVariance(0.05, 0.02) };
    const all = candidates.repetitions.flatMap((k) => candidates.lengthsMs.map((L) => ({ k, L, s: designScore(c, k, L) })));
    expect(all.filter((x) => settlesWithin(x.s, budget))).toEqual([]);
    // the cheapest per second: one repetition of 10 ms, ±26% a pair; 190 pairs of it are all it gets
    const cheapest = chooseDesign(c, candidates);
    expect([cheapest.repetitions, cheapest.lengthMs]).toEqual([1, 10]);
    const reach = (d: { pairSd: number; pairMs: number }): number => d.pairSd ** 2 / Math.min(budget.pairs, budget.timeMs / d.pairMs);
    const chosen = chooseDesign(c, candidates, budget);
    // the variance of the estimate within the budget as small as any design's, to within a tenth
    // (what a pilot tells apart: stats/design-model.ts, NARROW_ENOUGH), and of those the cheapest per second
    const least = Math.min(...all.map((x) => reach(x.s)));
    const asNarrow = all.filter((x) => reach(x.s) <= 1.1 * least);
    expect(reach(chosen)).toBeLessThanOrEqual(1.1 * least);
    expect(designScore(c, chosen.repetitions, chosen.lengthMs).score).toBeCloseTo(Math.min(...asNarrow.map((x) => x.s.score)), 12);
    expect(asNarrow.length).toBeGreaterThan(1);
    expect(reach(chosen)).toBeLessThan(reach(cheapest) / 4);
    expect(chosen.lengthMs).toBeGreaterThan(10);
    // where time binds every design, that is the cheapest per second again
    expect(chooseDesign(c, candidates, { ...budget, pairs: 100_000, timeMs: 20_000 })).toEqual(cheapest);
  });

  it('the pairs a design is expected to settle after: (z_alpha sigma / (threshold / 2))^2 with sigma = sd sqrt(pi/3)', () => {
    // alpha 0.05 (z = 1.6449), threshold 2%: half-width ln(1.02) / 2
    expect(settlePairsPerVariance(0.05, 0.02)).toBeCloseTo((1.6448536269514722 ** 2 * (Math.PI / 3)) / (Math.log(1.02) / 2) ** 2, 6);
    // a tenth of the threshold's width needs a hundred times the pairs
    expect(settlePairsPerVariance(0.05, Math.expm1(Math.log(1.02) / 10)) / settlePairsPerVariance(0.05, 0.02)).toBeCloseTo(100, 6);
  });

  it('components: the spread inside processes and between them, read robustly from the pilot', () => {
    const z = gaussian(mulberry32(9));
    const pilot = Array.from({ length: 400 }, () => {
      const proc = () => {
        const level = 0.04 * z();
        return { repetitions: [0, 1, 2].map(() => 1000 * Math.exp(level + 0.02 * z())), wallMs: 50 + 3 * 10 };
      };
      return { base: proc(), head: proc() };
    });
    const c = varianceComponents([{ repetitionMs: 10, pairs: pilot }])!;
    expect(Math.sqrt(c.within)).toBeCloseTo(0.02, 2);
    expect(Math.sqrt(c.between)).toBeCloseTo(0.04, 2);
    expect(c.processMs).toBeCloseTo(50, 6);
    // one length: white noise assumed
    expect(c.lengthExponent).toBe(1);
  });

  it('two pilot lengths give the exponent: 1 for white noise, 0 for noise a longer repetition keeps', () => {
    const z = gaussian(mulberry32(10));
    const group = (lengthMs: number, withinSd: number) => ({
      repetitionMs: lengthMs,
      pairs: Array.from({ length: 400 }, () => {
        const proc = () => {
          const level = 0.01 * z();
          return { repetitions: [0, 1, 2].map(() => 1000 * Math.exp(level + withinSd * z())), wallMs: 20 + 3 * lengthMs };
        };
        return { base: proc(), head: proc() };
      }),
    });
    const white = varianceComponents([group(10, 0.04), group(40, 0.02)])!;
    expect(white.lengthExponent).toBeGreaterThan(0.85);
    expect(Math.sqrt(white.within)).toBeCloseTo(0.04, 2);
    const lasting = varianceComponents([group(10, 0.04), group(40, 0.04)])!;
    expect(lasting.lengthExponent).toBeLessThan(0.15);
    expect(lasting.processMs).toBeCloseTo(20, 6);
  });
});

describe('a warm-up repetition (stats/design-model.ts, warmupEvident; measure/samples.ts, afterWarmup)', () => {
  const pilot = (seed: number, processes: number, first: (z: () => number) => number) => {
    const z = gaussian(mulberry32(seed));
    return Array.from({ length: processes }, () => {
      const level = 0.02 * z();
      return [first(z), 1, 1].map((f, i) => 1000 * Math.exp(level + 0.03 * z()) * (i === 0 ? f : 1));
    });
  };

  it('the test is exact: with repetitions alike, a warm-up is seen in at most 5% of pilots', () => {
    let seen = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) if (warmupEvident(pilot(100 + t, 40, () => 1))) seen++;
    // binomial(2000, <= 0.05): at most 0.05 plus three standard errors (the discrete test holds below 0.05)
    expect(seen / trials).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / trials));
  });

  it('a first repetition slower by a varying amount is seen; too few processes, or fewer than three repetitions, show nothing', () => {
    const slow = (z: () => number) => 1 + 0.3 * Math.abs(z());
    let seen = 0;
    for (let t = 0; t < 200; t++) if (warmupEvident(pilot(5000 + t, 40, slow))) seen++;
    expect(seen).toBeGreaterThanOrEqual(195);
    // two processes: even both first repetitions the largest is p = 1/9
    expect(warmupEvident(pilot(7, 2, () => 3))).toBe(false);
    expect(warmupEvident(pilot(7, 3, () => 3))).toBe(true);
    // a first repetition faster than the rest is no warm-up this looks for
    expect(warmupEvident(pilot(7, 40, () => 0.7))).toBe(false);
    expect(warmupEvident(pilot(7, 40, () => 3).map((r) => r.slice(0, 2)))).toBe(false);
  });

  it('a design with a warm-up pays for it and is chosen when it leaves the noise out; with the same spreads, none', () => {
    const c = { between: 0.0001, within: 0.0004, repetitionMs: 10, lengthExponent: 1, processMs: 20, perRepetitionMs: 0, pairs: 20 };
    // the warm-up costs its repetition: 2 (c_p + (k + w)(L + c_r))
    expect(designScore(c, 3, 10, 1).pairMs).toBe(2 * (20 + 4 * 10));
    expect(designScore(c, 3, 10, 1).pairSd).toBe(designScore(c, 3, 10).pairSd);
    const candidates = { repetitions: [1, 3, 5], lengthsMs: [10, 20, 40] };
    expect(chooseDesign([{ warmup: 0, components: c }, { warmup: 1, components: c }], candidates).warmup).toBe(0);
    const counted = { ...c, within: 0.04 };
    const chosen = chooseDesign([{ warmup: 0, components: counted }, { warmup: 1, components: c }], candidates);
    expect(chosen.warmup).toBe(1);
    expect(chosen.pairSd).toBe(designScore(c, chosen.repetitions, chosen.lengthMs, 1).pairSd);
    // one set of components alone: no warm-up, as before
    expect(chooseDesign(c, candidates).warmup).toBe(0);
  });

  it("a run's value leaves its warm-up out: the median of the repetitions after it, every repetition kept", () => {
    const s = (name: string, repetitions: number[]) => ({ name, value: repetitions[Math.floor(repetitions.length / 2)]!, unit: 'ns', direction: 'lower-is-better' as const, repetitions });
    const out = afterWarmup([s('A', [900, 100, 110, 120]), s('B (allocs/op)', [7, 0, 0]), s('C', [50]), { name: 'D', value: 3, unit: 'ns', direction: 'lower-is-better' as const }], 1);
    expect(out.map((x) => x.name)).toEqual(['A', 'C', 'D']);
    expect(out[0]).toMatchObject({ value: 110, repetitions: [900, 100, 110, 120] });
    // fewer repetitions than the warm-up, or none: as printed
    expect(out[1]).toMatchObject({ value: 50 });
    expect(out[2]).toMatchObject({ value: 3 });
    expect(afterWarmup([s('A', [900, 100, 110])], 0)[0]!.value).toBe(100);
    // an allocation count: the minimum of those after the warm-up
    const bytes = { name: 'A (B/op)', value: 88, unit: 'B', direction: 'lower-is-better' as const, repetitions: [4000, 92, 57, 88], combine: 'min' as const };
    expect(afterWarmup([bytes], 1)[0]).toMatchObject({ value: 57, repetitions: [4000, 92, 57, 88] });
  });

  it("the harness's repetition count is the warm-up's and the design's together", () => {
    const go = selectBenchmarks('./bench.test -test.run "^$" -test.bench .', 'go', ['BenchmarkA'], { iterations: 100, repetitions: 3, warmup: 1 });
    expect(go.env).toMatchObject({ PAIRBENCH_BENCHTIME: '100x', PAIRBENCH_COUNT: '4' });
    expect(selectBenchmarks('./bench.test -test.run "^$" -test.bench .', 'go', ['BenchmarkA'], { iterations: 100, repetitions: 3 }).env.PAIRBENCH_COUNT).toBe('3');
  });
});

describe('designs pooled across a suite', () => {
  it("each benchmark's balance of spreads is shrunk halfway to the suite's, its length exponent is the suite's median", () => {
    const c = (between: number, within: number, gamma: number) => ({ between, within, repetitionMs: 10, lengthExponent: gamma, processMs: 20, perRepetitionMs: 0, pairs: 10 });
    const pooled = poolComponents([c(0.0004, 0.0004, 1), c(0.0004, 0.0004, 0.8), c(0.0004, 0.0004, 0.9), c(0.0016, 0.0001, 0), null]);
    expect(pooled[4]).toBeNull();
    for (const p of pooled.slice(0, 4)) expect(p!.lengthExponent).toBeCloseTo(0.85, 12);
    // the odd one: B / W = 16 against the suite's median of 1 (log-scale halfway: 4), its own W kept
    expect(pooled[3]!.within).toBe(0.0001);
    expect(pooled[3]!.between / pooled[3]!.within).toBeCloseTo(4, 10);
    expect(pooled[0]!.between).toBeCloseTo(0.0004, 12);
  });
});
