/**
 * The scheduling rules, checked exactly with a scripted runner in place of processes (the seam of
 * src/schedule/runner.ts). The script plays a Go suite: it answers each run with `go test -bench`
 * lines for the benchmarks the run selected, base or head by the run's directory, so every rule
 * (listing, adjacency of a pair's runs, decided benchmarks stopping, retries, the budget) is seen
 * in the exact list of runs the schedule asked for.
 */
import { describe, expect, it } from 'vitest';
import { buildSpec, cliNaming, type RawOptions } from '../../src/config/spec.ts';
import type { RunRequest, RunResult } from '../../src/measure/one-run.ts';
import { PROGRESS_UNITS_PER_PAIR, runSchedule, type LoopState, type Progress } from '../../src/schedule/loop.ts';
import { mulberry32 } from '../../src/schedule/random.ts';
import { logRatios, precisionHalfWidth } from '../../src/stats/index.ts';
import { ProgressPrinter } from '../../src/report/progress.ts';

const BASE = '/revisions/base';
const HEAD = '/revisions/head';

interface Call {
  requests: RunRequest[];
}

/** A Go suite of benchmarks with their base and head times (ns/op); each run adds a little seeded jitter. */
interface Suite {
  /** ns/op on each side; `noise`: the runs' relative spread (default 0.2%); `bytes`: b.SetBytes, which makes Go print MB/s */
  [name: string]: { base: number; head: number; noise?: number; bytes?: number };
}

/** Go's `-test.bench` matching: one pattern per `/` level (testing/match.go), unanchored like Go. */
function goSelects(filter: string | undefined, name: string): boolean {
  if (filter === undefined) return true;
  const levels = filter.split('/');
  const parts = name.split('/');
  return levels.every((re, i) => i >= parts.length || new RegExp(re).test(parts[i]!));
}

function ok(stdout: string, wallMs = 1): RunResult {
  return { outcome: 'ok', exitCode: 0, signal: null, stdout, outputTail: '', wallMs, cpuMs: null, maxRssBytes: null };
}

interface Script {
  suite: Suite;
  /** called for each run; may return a result that replaces the suite's answer (a failure) */
  fail?: (req: RunRequest, runIndex: number) => RunResult | null;
  /** milliseconds each run takes on the scripted clock */
  runMs?: number;
}

function scriptedRunner(script: Script) {
  const calls: Call[] = [];
  const jitter = mulberry32(7);
  let clock = 0;
  let runIndex = 0;
  let inFlight = 0;
  const runner = async (requests: readonly RunRequest[]): Promise<RunResult[]> => {
    expect(inFlight, 'the schedule never runs two requests at once').toBe(0);
    inFlight++;
    calls.push({ requests: [...requests] });
    const out: RunResult[] = [];
    for (const req of requests) {
      clock += script.runMs ?? 1;
      const failure = script.fail?.(req, runIndex++);
      if (failure) {
        out.push(failure);
        continue;
      }
      const side = req.cwd === BASE ? 'base' : 'head';
      const filter = req.command.includes('$PAIRBENCH_FILTER') ? req.env.PAIRBENCH_FILTER : undefined;
      const lines = Object.entries(script.suite)
        .filter(([name]) => goSelects(filter, name))
        .map(([name, t]) => {
          const ns = t[side] * (1 + (t.noise ?? 0.002) * (jitter() - 0.5));
          // Go's MB/s: the bytes of an operation over its time, from the same run
          return `${name}-2 \t 1000\t ${ns.toFixed(3)} ns/op${t.bytes ? `\t ${((t.bytes * 1e3) / ns).toFixed(2)} MB/s` : ''}`;
        });
      out.push(ok(`goos: linux\n${lines.join('\n')}\nPASS\n`));
    }
    await Promise.resolve();
    inFlight--;
    return out;
  };
  return { runner, calls, now: () => clock };
}

function spec(flags: RawOptions) {
  // the pairs in turn, whatever this machine allows: these tests read the order of the runs (at once: tests/cli/pair-runs.test.ts)
  return buildSpec({ format: 'go', seed: '11', 'min-pairs': '6', 'max-pairs': '40', precision: '0.5%', threshold: '2%', 'pair-runs': 'in-turn', ...flags }, { cwd: '/', naming: cliNaming });
}

async function schedule(flags: RawOptions, script: Script, signal?: AbortSignal): Promise<{ state: LoopState; calls: Call[]; log: string[]; now: () => number }> {
  const { runner, calls, now } = scriptedRunner(script);
  const log: string[] = [];
  const state = await runSchedule({
    spec: spec(flags),
    base: { side: 'base', ref: null, sha: null, dir: BASE },
    head: { side: 'head', ref: null, sha: null, dir: HEAD },
    env: {},
    counter: null,
    runner,
    clock: now,
    log: (l) => log.push(l),
    onPair: () => {},
    ...(signal ? { signal } : {}),
  });
  return { state, calls, log, now };
}

const SUITE: Suite = {
  BenchmarkParse: { base: 1000, head: 1300 }, // +30%: decided after few pairs
  'BenchmarkSort/n=100': { base: 500, head: 500 },
  'BenchmarkSort/n=1000': { base: 8000, head: 8000 },
};

/** The benchmarks a run selected (its PAIRBENCH_FILTER), or 'all' for a whole-suite run. */
const selected = (req: RunRequest) => (req.command.includes('$PAIRBENCH_FILTER') ? req.env.PAIRBENCH_FILTER! : 'all');
const side = (req: RunRequest) => (req.cwd === BASE ? 'base' : 'head');

describe('benchmark-level interleaving', () => {
  it("lists the suite once per side, then runs base's and head's run of one benchmark back to back, nothing between them", async () => {
    const { state, calls } = await schedule({ run: './bench.test -test.run "^$" -test.bench {filter}' }, { suite: SUITE });
    // listing: one whole-suite run of each side
    expect(calls.slice(0, 2).map((c) => c.requests.map((r) => [side(r), selected(r)]))).toEqual([[['base', '.']], [['head', '.']]]);
    // then every request is one pair: the two runs of one benchmark, one per side, in the pair's order
    const pairCalls = calls.slice(2);
    expect(pairCalls.length).toBeGreaterThan(0);
    for (const c of pairCalls) {
      expect(c.requests).toHaveLength(2);
      expect(new Set(c.requests.map(side))).toEqual(new Set(['base', 'head']));
      expect(selected(c.requests[0]!)).toBe(selected(c.requests[1]!));
      expect(selected(c.requests[0]!)).not.toBe('all');
    }
    // each benchmark is a unit of its own, with its own pairs, and the recorded order is the order run
    expect(state.units.map((u) => u.name).sort()).toEqual(['BenchmarkParse', 'BenchmarkSort/n=100', 'BenchmarkSort/n=1000']);
    const parse = state.rows.get('BenchmarkParse')!;
    const parseCalls = pairCalls.filter((c) => selected(c.requests[0]!) === '^BenchmarkParse$');
    expect(parseCalls.map((c) => `${side(c.requests[0]!)}-first`)).toEqual(parse.pairs.map((p) => p.order));
    // sub-benchmarks are selected on their own, one level of Go's filter at a time
    expect(pairCalls.some((c) => selected(c.requests[0]!) === '^BenchmarkSort$/^n=100$')).toBe(true);
  });

  it('does not run a decided benchmark again, while the undecided ones go on', async () => {
    const suite: Suite = { ...SUITE, 'BenchmarkSort/n=1000': { base: 8000, head: 8160 } }; // +2%, at the threshold: never settles
    const { state, calls } = await schedule({ run: './bench.test -test.bench {filter}', precision: '0.001%' }, { suite });
    const parse = state.units.find((u) => u.name === 'BenchmarkParse')!;
    expect(parse.stoppedBecause).toBe('decided');
    const runsOf = (filter: string) => calls.slice(2).flatMap((c) => c.requests).filter((r) => selected(r) === filter).length;
    expect(runsOf('^BenchmarkParse$')).toBe(2 * parse.pairs);
    // exactly at the threshold: significant at once, its estimate on either side of +2% from pair to
    // pair, so it might still become a regression: it is never given up (allocate.ts: the hopeful
    // reading) and runs to --max-pairs
    const slow = state.units.find((u) => u.name === 'BenchmarkSort/n=1000')!;
    expect(slow.pairs).toBe(40);
    expect(slow.stoppedBecause).toBe('max-pairs');
    // the rounds after Parse stopped do not list it
    const lastParseRound = state.rounds.findLastIndex((r) => r.includes('BenchmarkParse'));
    expect(lastParseRound).toBe(parse.pairs - 1);
    expect(state.rounds.length).toBeGreaterThan(parse.pairs);
    expect(state.rows.get('BenchmarkParse')!.stoppedBecause).toBe('decided');
  });

  it('shuffles the benchmarks of each round, and the same seed replays the same order', async () => {
    const a = await schedule({ run: './bench.test -test.bench {filter}', 'min-pairs': '12', 'max-pairs': '12' }, { suite: SUITE });
    const b = await schedule({ run: './bench.test -test.bench {filter}', 'min-pairs': '12', 'max-pairs': '12' }, { suite: SUITE });
    expect(new Set(a.state.rounds.map((r) => r.join())).size).toBeGreaterThan(1);
    expect(a.state.rounds).toEqual(b.state.rounds);
    expect(a.calls.map((c) => c.requests.map((r) => `${side(r)} ${selected(r)}`))).toEqual(b.calls.map((c) => c.requests.map((r) => `${side(r)} ${selected(r)}`)));
  });

  it('adds -test.bench= itself to a simple command of a Go test binary', async () => {
    const { calls } = await schedule({ run: './bench.test -test.run "^$" -test.benchtime 100ms', iterations: 'harness' }, { suite: SUITE });
    const pair = calls[2]!.requests[0]!;
    expect(pair.command).toBe('./bench.test -test.run "^$" -test.benchtime 100ms -test.bench="$PAIRBENCH_FILTER"');
    expect(pair.env.PAIRBENCH_BENCHTIME).toBeUndefined();
  });

  it('--design command: fixes each Go benchmark\'s iteration count from the listing run, the same on both sides of every pair', async () => {
    const { state, calls, log } = await schedule({ run: './bench.test -test.run "^$" -test.benchtime 100ms', design: 'command' }, { suite: SUITE });
    // 100 ms over the faster side's ns/op in the listing run (the suite's times, ±0.1% jitter): Parse 1000 ns -> 100000, Sort/n=100 500 ns -> 200000, Sort/n=1000 8000 ns -> 12500
    const expected: Record<string, number> = { BenchmarkParse: 100000, 'BenchmarkSort/n=100': 200000, 'BenchmarkSort/n=1000': 12500 };
    for (const u of state.units) expect(Math.abs(u.iterations! / expected[u.name]! - 1), u.name).toBeLessThan(0.002);
    // the listing runs are Go's own sizing
    for (const req of calls[0]!.requests.concat(calls[1]!.requests)) expect(req.command).not.toContain('PAIRBENCH_BENCHTIME');
    for (const call of calls.slice(2)) {
      const [a, b] = call.requests;
      expect(a!.command).toBe('./bench.test -test.run "^$" -test.benchtime 100ms -test.bench="$PAIRBENCH_FILTER" -test.benchtime="$PAIRBENCH_BENCHTIME"');
      expect(a!.env.PAIRBENCH_BENCHTIME).toMatch(/^\d+x$/);
      expect(b!.env.PAIRBENCH_BENCHTIME).toBe(a!.env.PAIRBENCH_BENCHTIME);
      expect(b!.env.PAIRBENCH_FILTER).toBe(a!.env.PAIRBENCH_FILTER);
    }
    expect(log.some((l) => /fixed iteration count \(-test\.benchtime=Nx, N from 12\d{3} to 2\d{5}, from the listing run\)/.test(l)), log.join("\n")).toBe(true);
  });

  it('--design command: leaves the count to Go where pairbench cannot append -test.benchtime, or the command fixes it, and says why', async () => {
    const piped = await schedule({ run: './bench.test -test.bench {filter} | tee out.txt' }, { suite: SUITE });
    expect(piped.state.units.every((u) => u.design === undefined)).toBe(true);
    expect(piped.state.units.every((u) => u.iterations === undefined)).toBe(true);
    expect(piped.log.some((l) => l.includes('Go ramps b.N on every run (iterations not fixed): the run command is not one simple command'))).toBe(true);
    const fixed = await schedule({ run: './bench.test -test.bench {filter} -test.benchtime 500x', design: 'command' }, { suite: SUITE });
    expect(fixed.state.units.every((u) => u.iterations === undefined)).toBe(true);
    expect(fixed.calls.at(-1)!.requests[0]!.command).not.toContain('PAIRBENCH_BENCHTIME');
    // a -test.benchtime that is a shell variable: pairbench cannot size N from it, and says so
    const unreadable = await schedule({ run: './bench.test -test.bench {filter} -test.benchtime "$BENCHTIME"', design: 'command' }, { suite: SUITE });
    expect(unreadable.state.units.every((u) => u.iterations === undefined)).toBe(true);
    expect(unreadable.calls.at(-1)!.requests[0]!.command).not.toContain('PAIRBENCH_BENCHTIME');
    expect(unreadable.log.some((l) => l.includes("Go ramps b.N on every run (iterations not fixed): the run command's -test.benchtime is not a duration pairbench can read")), unreadable.log.join('\n')).toBe(true);
  });

  it('batches several benchmarks per run with batch: n, the two runs of a batch still adjacent', async () => {
    const s = spec({ run: './bench.test -test.bench {filter}' });
    s.benchmarks[0]!.batch = 2;
    const { runner, calls, now } = scriptedRunner({ suite: SUITE });
    const state = await runSchedule({ spec: s, base: { side: 'base', ref: null, sha: null, dir: BASE }, head: { side: 'head', ref: null, sha: null, dir: HEAD }, env: {}, counter: null, runner, clock: now, log: () => {}, onPair: () => {} });
    expect(state.units.map((u) => u.select)).toEqual([['BenchmarkParse', 'BenchmarkSort/n=100'], ['BenchmarkSort/n=1000']]);
    expect(selected(calls[2]!.requests[0]!)).toMatch(/^\^\((BenchmarkParse\|BenchmarkSort|BenchmarkSort\|BenchmarkParse)\)\$\/\^n=100\$$|^\^BenchmarkSort\$\/\^n=1000\$$/);
    // the batch's third benchmark, selected too by Go's per-level filter, is not counted in the batch's pairs
    const batch = state.units[0]!;
    expect(state.rows.get('BenchmarkSort/n=1000')!.pairedBy).toBe('BenchmarkSort/n=1000');
    expect(state.rows.get('BenchmarkParse')!.pairs.length).toBe(batch.pairs);
  });

  it("drops a batch's settled benchmark from its runs while the others run on, each row keeping the pairs it was settled on", async () => {
    // Parse: +30%, steady, decided in a few pairs; Sort/n=100: unchanged but noisy, it needs many more
    const suite: Suite = { BenchmarkParse: { base: 1000, head: 1300 }, 'BenchmarkSort/n=100': { base: 500, head: 500, noise: 0.08 }, 'BenchmarkSort/n=1000': { base: 8000, head: 8000 } };
    const s = spec({ run: './bench.test -test.bench {filter}', 'max-pairs': '60' });
    s.benchmarks[0]!.batch = 2;
    const { runner, calls, now } = scriptedRunner({ suite });
    const reported: string[][] = [];
    const state = await runSchedule({ spec: s, base: { side: 'base', ref: null, sha: null, dir: BASE }, head: { side: 'head', ref: null, sha: null, dir: HEAD }, env: {}, counter: null, runner, clock: now, log: () => {}, onPair: () => {}, progress: (p) => reported.push(p.rows.map((r) => r.key)) });
    const batch = state.units[0]!;
    expect(batch.select).toEqual(['BenchmarkParse', 'BenchmarkSort/n=100']);
    // the progress lines list it while it runs, and not once it has left
    expect(reported.some((keys) => keys.includes('BenchmarkParse'))).toBe(true);
    const last = reported.filter((keys) => keys.length > 0).at(-1)!;
    expect(last).toContain('BenchmarkSort/n=100');
    expect(last).not.toContain('BenchmarkParse');
    expect(batch.left).toEqual(['BenchmarkParse']);
    const parse = state.rows.get('BenchmarkParse')!;
    const sort = state.rows.get('BenchmarkSort/n=100')!;
    expect(parse.stoppedBecause).toBe('decided');
    expect(parse.pairs.length).toBeGreaterThanOrEqual(6); // --min-pairs
    expect(sort.pairs.length).toBe(batch.pairs);
    expect(sort.pairs.length).toBeGreaterThan(parse.pairs.length);
    // the batch's runs: both benchmarks until Parse settled, then Sort/n=100 alone
    const filters = calls.slice(2).flatMap((c) => c.requests).map(selected).filter((f) => f.endsWith('n=100$'));
    expect(filters.filter((f) => f.includes('BenchmarkParse'))).toHaveLength(2 * parse.pairs.length);
    expect(filters.slice(2 * parse.pairs.length).every((f) => !f.includes('BenchmarkParse'))).toBe(true);
    expect(filters.length).toBe(2 * batch.pairs);
  });

  it("lets a batch's futile benchmark leave it while the other runs on to its verdict; the batch as a whole is not given up", async () => {
    // BenchmarkWild's runs vary by ±90%: no 60 pairs settle it; Sort/n=100 is noisy, but 60 pairs do
    const suite: Suite = { BenchmarkWild: { base: 700, head: 700, noise: 1.8 }, 'BenchmarkSort/n=100': { base: 500, head: 500, noise: 0.08 }, BenchmarkParse: { base: 1000, head: 1000 } };
    const s = spec({ run: './bench.test -test.bench {filter}', 'max-pairs': '60', design: 'command' });
    s.benchmarks[0]!.batch = 2;
    const { runner, calls, now } = scriptedRunner({ suite });
    const log: string[] = [];
    const state = await runSchedule({ spec: s, base: { side: 'base', ref: null, sha: null, dir: BASE }, head: { side: 'head', ref: null, sha: null, dir: HEAD }, env: {}, counter: null, runner, clock: now, log: (l) => log.push(l), onPair: () => {} });
    const batch = state.units[0]!;
    expect(batch.select).toEqual(['BenchmarkWild', 'BenchmarkSort/n=100']);
    const wild = state.rows.get('BenchmarkWild')!;
    const sort = state.rows.get('BenchmarkSort/n=100')!;
    expect(wild.stoppedBecause).toBe('futile');
    expect(wild.futility!.hope).toBeGreaterThan(60);
    expect(wild.pairs.length).toBeGreaterThanOrEqual(20);
    expect(batch.left).toEqual(['BenchmarkWild']);
    // the other ran on without it, to its own verdict
    expect(sort.pairs.length).toBe(batch.pairs);
    expect(sort.pairs.length).toBeGreaterThan(wild.pairs.length);
    expect(sort.stoppedBecause).toBe('decided');
    expect(batch.stoppedBecause).toBe('decided');
    const filters = calls.slice(2).flatMap((c) => c.requests).map(selected).filter((f) => f.includes('n=100'));
    expect(filters.filter((f) => f.includes('BenchmarkWild'))).toHaveLength(2 * wild.pairs.length);
    expect(filters.slice(2 * wild.pairs.length).every((f) => !f.includes('BenchmarkWild'))).toBe(true);
    expect(log.some((l) => /^BenchmarkWild: no more pairs: .* it leaves its batch, which runs on without it, and is judged on the pairs it has$/.test(l)), log.join('\n')).toBe(true);
  });

  it('pairs whole runs when the command gives the selection no place, and says how to pair each benchmark', async () => {
    const { state, calls, log } = await schedule({ run: './bench.test -test.bench . | tee out.txt', 'max-pairs': '8' }, { suite: SUITE });
    expect(state.units.map((u) => u.name)).toEqual(['./bench.test -test.bench . | tee out.txt']);
    expect(calls.flatMap((c) => c.requests).every((r) => selected(r) === 'all')).toBe(true);
    expect(log.join('\n')).toContain('{filter}');
    expect(state.rows.get('BenchmarkParse')!.pairs).toHaveLength(8);
  });

  it('with interleave suite, pairs whole runs, the {filter} placeholder selecting everything', async () => {
    const { state, calls } = await schedule({ run: './bench.test -test.bench {filter}', interleave: 'suite', 'max-pairs': '8' }, { suite: SUITE });
    expect(state.units).toHaveLength(1);
    for (const r of calls.flatMap((c) => c.requests)) expect(r.env.PAIRBENCH_FILTER).toBe('.');
  });

  it('pairs only the benchmarks both sides have; one added in head is listed, not paired', async () => {
    const suite: Suite = { ...SUITE, BenchmarkNew: { base: 0, head: 100 } };
    const { runner, calls, now } = scriptedRunner({
      suite,
      fail: (req) => (req.cwd === BASE && selected(req) === 'all' ? ok('BenchmarkParse-2 1 1000 ns/op\nBenchmarkSort/n=100-2 1 500 ns/op\nBenchmarkSort/n=1000-2 1 8000 ns/op\n') : null),
    });
    const state = await runSchedule({ spec: spec({ run: './b.test -test.bench {filter}', 'max-pairs': '6' }), base: { side: 'base', ref: null, sha: null, dir: BASE }, head: { side: 'head', ref: null, sha: null, dir: HEAD }, env: {}, counter: null, runner, clock: now, log: () => {}, onPair: () => {} });
    expect(state.units.map((u) => u.name)).not.toContain('BenchmarkNew');
    const added = state.rows.get('BenchmarkNew')!;
    expect([added.seenBase, added.seenHead, added.pairs.length]).toEqual([0, 1, 0]);
    expect(calls.slice(2).flatMap((c) => c.requests).some((r) => selected(r).includes('BenchmarkNew'))).toBe(false);
  });
});

describe('scheduling rules', () => {
  it("counts a benchmark's MB/s, the reciprocal of its time, out of the family the stopping rules read", async () => {
    const suite: Suite = {
      BenchmarkParse: { base: 1000, head: 1300, bytes: 4096 },
      BenchmarkHash: { base: 500, head: 500, noise: 0.02, bytes: 64 },
      BenchmarkSort: { base: 8000, head: 8000, noise: 0.02 },
    };
    const { state } = await schedule({ run: './bench.test' }, { suite });
    const mbps = [...state.rows.values()].filter((r) => r.key.endsWith('(MB/s)'));
    expect(mbps.map((r) => [r.key, r.reciprocalOf])).toEqual([
      ['BenchmarkParse (MB/s)', 'BenchmarkParse'],
      ['BenchmarkHash (MB/s)', 'BenchmarkHash'],
    ]);
    expect(mbps.every((r) => r.varies)).toBe(true);
    // three times vary, and their two throughputs with them: a family of three
    expect(state.varyingRows).toBe(3);
  });

  it('retries a run that fails once, measuring the pair again side by side, and counts the failed run', async () => {
    let failed = false;
    const { state, log } = await schedule(
      { run: './bench.test -test.bench {filter}', 'max-pairs': '6' },
      {
        suite: SUITE,
        fail: (req, i) => {
          if (failed || i < 4 || req.cwd !== HEAD) return null;
          failed = true;
          return { ...ok(''), outcome: 'exit', exitCode: 1, outputTail: 'flaky' };
        },
      },
    );
    expect(state.failed).toBe(false);
    expect(state.jobs[0]!.failedRuns).toEqual({ base: 0, head: 1 });
    expect(log.some((l) => l.includes('retrying (1/2)'))).toBe(true);
    for (const row of state.rows.values()) if (!row.key.includes('(')) expect(row.pairs.length, row.key).toBe(6);
  });

  it('fails the benchmark after three failures in a row, with the exit code and output', async () => {
    const { state } = await schedule(
      { run: './bench.test -test.bench {filter}' },
      { suite: SUITE, fail: (req, i) => (i >= 2 && req.cwd === BASE ? { ...ok(''), outcome: 'exit', exitCode: 7, outputTail: 'boom' } : null) },
    );
    expect(state.failed).toBe(true);
    expect(state.jobs[0]!.failure).toMatchObject({ side: 'base', exitCode: 7, stderrTail: 'boom' });
    expect(state.jobs[0]!.failure!.message).toContain('3 times in a row');
    expect(state.units.every((u) => !u.running)).toBe(true);
    expect(state.stoppedBecause).toBe('error');
  });

  it('gives no more pairs to a benchmark that could not be decided within --max-pairs even on a hopeful reading (futile), and says why', async () => {
    // BenchmarkWild's runs vary by ±90%: thousands of pairs would settle it, and even a change of
    // ten thresholds (20%) would take more than the 60 pairs --max-pairs allows
    const suite: Suite = { ...SUITE, BenchmarkWild: { base: 700, head: 700, noise: 1.8 } };
    const { state, calls, log } = await schedule({ run: './bench.test -test.bench {filter}', 'max-pairs': '60', design: 'command' }, { suite });
    const wild = state.units.find((u) => u.name === 'BenchmarkWild')!;
    expect(wild.stoppedBecause).toBe('futile');
    expect(wild.pairs).toBeGreaterThanOrEqual(20);
    expect(wild.pairs).toBeLessThan(60);
    expect(wild.futility!.hope).toBeGreaterThan(60);
    // after it was given up, no run of it was requested
    const runs = calls.slice(2).flatMap((c) => c.requests).filter((r) => selected(r) === '^BenchmarkWild$');
    expect(runs).toHaveLength(2 * wild.pairs);
    expect(log.some((l) => /^BenchmarkWild: no more pairs: it needs about \d+ pairs to be decided at the spread of its \d+ so far \(\d+ at best\), and --max-pairs is 60; it is judged on the pairs it has$/.test(l)), log.join('\n')).toBe(true);
    expect(state.rows.get('BenchmarkWild')!.stoppedBecause).toBe('futile');
  });

  it('keeps measuring a benchmark that cannot be shown unchanged while a change of ten thresholds could still show (a long shot), and detects a large one', async () => {
    // runs vary by ±40%: far too noisy to be shown within ±2% in 60 pairs (it was given up after
    // 20), but a change of 20% would show within them; BenchmarkNoisySlow is 50% slower in head
    const suite: Suite = { ...SUITE, BenchmarkNoisy: { base: 700, head: 700, noise: 0.8 }, BenchmarkNoisySlow: { base: 700, head: 1050, noise: 0.8 } };
    const { state, log } = await schedule({ run: './bench.test -test.bench {filter}', 'max-pairs': '60', design: 'command' }, { suite });
    const noisy = state.units.find((u) => u.name === 'BenchmarkNoisy')!;
    expect(noisy.stoppedBecause).toBe('max-pairs');
    expect(noisy.pairs).toBe(60);
    expect(noisy.futility).toBeUndefined();
    const slow = state.units.find((u) => u.name === 'BenchmarkNoisySlow')!;
    expect(slow.stoppedBecause).toBe('decided');
    expect(slow.pairs).toBeGreaterThan(20);
    expect(log.some((l) => l.includes('no more pairs'))).toBe(false);
  });

  it('without --precision, stops a benchmark by the precision rule at a quarter of its threshold, not at a fixed 1%', async () => {
    // a change exactly at the threshold is never settled by the betting test, so the precision rule
    // ends it: once the sign-blind half-width of its pairs (about the change itself, here, spread
    // by ±0.1% of jitter) falls below the precision
    const at = (threshold: number): Suite => ({ 'BenchmarkSort/n=1000': { base: 8000, head: 8000 * (1 + threshold) } });
    const stopsAt = async (flags: RawOptions, threshold: number): Promise<{ pairs: number; half: number; before: number }> => {
      const { state } = await schedule({ run: './bench.test -test.bench {filter}', 'max-pairs': '200', design: 'command', precision: undefined, threshold: `${threshold * 100}%`, ...flags }, { suite: at(threshold) });
      const row = state.rows.get('BenchmarkSort/n=1000')!;
      expect(row.stoppedBecause).toBe('precision');
      const d = logRatios(row.pairs);
      // the sign-blind half-width the rule reads (stats/stop.ts, `precisionHalfWidth`)
      return { pairs: row.pairs.length, half: precisionHalfWidth(d, 0.05, 'tukey'), before: precisionHalfWidth(d.subarray(0, d.length - 1), 0.05, 'tukey') };
    };
    const quarter = await stopsAt({}, 0.02);
    expect(quarter.half).toBeLessThan(0.005);
    expect(quarter.before).toBeGreaterThanOrEqual(0.005);
    // --precision 1% given: the old default, far fewer pairs (four times fewer by normal theory; over
    // sign patterns of sizes all about 2%, the Walsh averages and so the widths come in steps of
    // about 1%: 29 pairs against 67 here)
    const given = await stopsAt({ precision: '1%' }, 0.02);
    expect(given.half).toBeLessThan(0.01);
    expect(given.before).toBeGreaterThanOrEqual(0.01);
    expect(quarter.pairs).toBeGreaterThan(2 * given.pairs);
    // it follows the threshold: a quarter of 4% is 1%
    const wider = await stopsAt({}, 0.04);
    expect(wider.half).toBeLessThan(0.01);
    expect(wider.before).toBeGreaterThanOrEqual(0.01);
    // and is not recorded as a setting, so judging or replaying the file follows the threshold too
    expect(buildSpec({ run: './bench' }, { cwd: '/', naming: cliNaming }).precision).toBeNull();
  });

  it('stops at the time budget without starting a pair that cannot finish, mid-round', async () => {
    // each run takes 1 s on the scripted clock: listing 2 s, then 2 s per pair; 3 benchmarks per round
    const { state, calls, now } = await schedule({ run: './bench.test -test.bench {filter}', 'max-time': '17s', 'min-pairs': '2', precision: '0.0001%' }, { suite: SUITE, runMs: 1000 });
    expect(state.stoppedBecause).toBe('max-time');
    // 2 s listing + pairs of 2 s: no pair that would end past 17 s is started
    expect(now()).toBeLessThanOrEqual(17_000);
    expect(now()).toBeGreaterThan(17_000 - 2000);
    expect(calls.length).toBe(2 + 7);
    expect(state.units.every((u) => u.stoppedBecause === 'max-time' || u.stoppedBecause === 'decided')).toBe(true);
  });

  it('a budget spent in the middle of a round stops it there: mid-round', async () => {
    // min pairs 20: every benchmark gets its pair in every round; rounds of 6 s after 2 s of listing
    const { state, calls } = await schedule({ run: './bench.test -test.bench {filter}', 'max-time': '16s', 'min-pairs': '20', 'max-pairs': '40', precision: '0.0001%' }, { suite: SUITE, runMs: 1000 });
    expect(state.stoppedBecause).toBe('max-time');
    // two rounds end at 14 s; the third round's first pair ends at 16 s, and nothing is left for its second
    expect(calls.length).toBe(2 + 6 + 1);
    expect(state.midRound).toBe(true);
    expect(state.units.every((u) => u.stoppedBecause === 'max-time' || u.stoppedBecause === 'decided')).toBe(true);
  });

  it('stops at once on an interrupt, with status interrupted and the pairs kept', async () => {
    const controller = new AbortController();
    const { state } = await schedule(
      { run: './bench.test -test.bench {filter}' },
      { suite: SUITE, fail: (_req, i) => (i === 9 ? (controller.abort(), { ...ok(''), outcome: 'cancelled' }) : null) },
      controller.signal,
    );
    expect(state.stoppedBecause).toBe('interrupted');
    expect(state.midRound).toBe(true);
    expect([...state.rows.values()].reduce((s, r) => s + r.pairs.length, 0)).toBe(3);
  });
});

describe('progress', () => {
  it('says, for each benchmark still undecided, about how many pairs it needs and whether that fits the budget', async () => {
    const suite: Suite = { ...SUITE, 'BenchmarkSort/n=1000': { base: 8000, head: 8160 } }; // at the threshold
    const { runner, now } = scriptedRunner({ suite, runMs: 100 });
    const seen: Array<{ line: string; list: string[] }> = [];
    await runSchedule({
      spec: spec({ run: './bench.test -test.bench {filter}', precision: '0.001%', 'max-time': '20s' }),
      base: { side: 'base', ref: null, sha: null, dir: BASE },
      head: { side: 'head', ref: null, sha: null, dir: HEAD },
      env: {},
      counter: null,
      runner,
      clock: now,
      log: () => {},
      onPair: () => {},
      progress: (p) => seen.push({ line: ProgressPrinter.line(p, 40), list: ProgressPrinter.list(p) }),
    });
    // before any prediction: measuring their first pairs
    expect(seen[0]!.list.every((l) => l.endsWith('measuring its first pairs'))).toBe(true);
    // later: a need in pairs, and whether it fits
    const predicted = seen.find((s) => s.list.some((l) => /needs about \d+ more pairs?, (fits the budget|waits for the budget left)/.test(l)));
    expect(predicted, seen.map((s) => s.line).join('\n')).toBeDefined();
    expect(predicted!.line).toMatch(/ · \d+ fits? the budget( \(about \d+(-\d+)? more pairs?( each)?\))?/);
  });

  it('while a benchmark runs, never says 0 ms left nor that it needs no more pairs, though its prediction was made before its last pair', async () => {
    const suite: Suite = { ...SUITE, 'BenchmarkSort/n=1000': { base: 8000, head: 8160 } }; // at the threshold
    const { runner, now } = scriptedRunner({ suite, runMs: 100 });
    const seen: Progress[] = [];
    await runSchedule({
      spec: spec({ run: './bench.test -test.bench {filter}', precision: '0.001%', 'max-time': '20s' }),
      base: { side: 'base', ref: null, sha: null, dir: BASE },
      head: { side: 'head', ref: null, sha: null, dir: HEAD },
      env: {},
      counter: null,
      runner,
      clock: now,
      log: () => {},
      onPair: () => {},
      progress: (p) => seen.push({ ...p, rows: p.rows, undecided: p.undecided }),
    });
    const running = seen.filter((p) => p.jobsRunning > 0 && p.undecided.some((u) => u.more !== null));
    expect(running.length).toBeGreaterThan(0);
    for (const p of running) {
      expect(p.remainingMs, ProgressPrinter.line(p, 200)).toBeGreaterThan(0);
      expect(p.remainingAtMostMs!).toBeGreaterThanOrEqual(p.remainingMs!);
      for (const u of p.undecided) if (u.more !== null) expect(u.more, u.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('shows no interval until a benchmark has the pairs for one (6 at alpha 0.05), then its ±', async () => {
    const { runner, now } = scriptedRunner({ suite: SUITE });
    const lines: Array<{ pairs: number; line: string; halfWidth: number | null }> = [];
    await runSchedule({
      spec: spec({ run: './bench.test -test.bench {filter}', 'min-pairs': '8', 'max-pairs': '8' }),
      base: { side: 'base', ref: null, sha: null, dir: BASE },
      head: { side: 'head', ref: null, sha: null, dir: HEAD },
      env: {},
      counter: null,
      runner,
      clock: now,
      log: () => {},
      onPair: () => {},
      progress: (p) => {
        const row = p.rows.find((r) => r.key === 'BenchmarkParse');
        if (!row) return; // decided: not among the running units' rows
        lines.push({ pairs: row.pairs.length, line: ProgressPrinter.line({ ...p, rows: [row] }, 8), halfWidth: row.halfWidth });
      },
    });
    const early = lines.filter((l) => l.pairs >= 1 && l.pairs < 6 && l.line.includes('BenchmarkParse'));
    expect(early.length).toBeGreaterThan(0);
    for (const l of early) {
      expect(l.halfWidth).toBeNull();
      expect(l.line).not.toContain('±');
    }
    const later = lines.filter((l) => l.pairs >= 6);
    expect(later.length).toBeGreaterThan(0);
    for (const l of later) expect(l.line, l.line).toMatch(/BenchmarkParse \+30(\.\d+)?% ±\d+\.\d%/);
  });
});

describe('progress at scale', () => {
  /** A `--format json` suite of `n` benchmarks paired one by one, the runner answering at once; the clock moves a second per reading, so it never holds a report back. */
  async function reports(n: number) {
    const names = Array.from({ length: n }, (_, i) => `case_${i}`);
    const all = JSON.stringify(names.map((name) => ({ name, value: 100, unit: 'ns' })));
    const jitter = mulberry32(n);
    const runner = async (requests: readonly RunRequest[]): Promise<RunResult[]> =>
      requests.map((req) => {
        const one = req.env.PAIRBENCH_BENCHMARK_1;
        return ok(one === undefined ? all : `[{"name":${JSON.stringify(one)},"value":${100 * (1 + 0.01 * (jitter() - 0.5))},"unit":"ns"}]`);
      });
    let clock = 0;
    const seen = { reports: 0, listed: 0, rows: 0, lastPairsDone: 0 };
    const state = await runSchedule({
      spec: buildSpec({ format: 'json', run: 'suite {benchmark}', seed: '1', 'min-pairs': '3', 'max-pairs': '3', warmup: '0', 'max-time': '596h', 'pair-runs': 'in-turn' }, { cwd: '/', naming: cliNaming }),
      base: { side: 'base', ref: null, sha: null, dir: BASE },
      head: { side: 'head', ref: null, sha: null, dir: HEAD },
      env: {},
      counter: null,
      runner,
      clock: () => (clock += 1000),
      log: () => {},
      onPair: () => {},
      progress: (p) => {
        // read as the terminal's line reads it: every row and every undecided unit
        seen.reports++;
        seen.rows += p.rows.length;
        seen.listed += (p.undecided ?? []).length;
        seen.lastPairsDone = p.pairsDone;
      },
    });
    const pairs = state.units.reduce((s, u) => s + u.pairs, 0);
    return { ...seen, pairs };
  }

  it('S11: the progress reports of a round of 4,000 benchmarks list O(1) units per pair, not every unit after every pair (a round stays linear)', async () => {
    const { pairs, listed, rows, reports: count, lastPairsDone } = await reports(4000);
    expect(pairs).toBe(3 * 4000);
    expect(lastPairsDone).toBe(pairs);
    // a report after every pair would list 4,000 units each time: 12,000 × 4,000
    expect(listed).toBeLessThanOrEqual((PROGRESS_UNITS_PER_PAIR + 1) * pairs);
    expect(rows).toBeLessThanOrEqual((PROGRESS_UNITS_PER_PAIR + 1) * pairs);
    expect(count).toBeGreaterThanOrEqual(3 * (4000 / PROGRESS_UNITS_PER_PAIR) - 3);
  });

  it('a suite of a few benchmarks still reports after every pair when the clock allows', async () => {
    const { pairs, reports: count } = await reports(10);
    // one after each pair, and one forced at the end of each of the 3 rounds
    expect(count).toBe(pairs + 3);
  });
});
