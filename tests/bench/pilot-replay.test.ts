/**
 * bench/lib/pilot-replay.ts: designs read from recorded long processes, chosen from pilots drawn
 * from one half of them and scored on the other, on recordings whose noise has a known structure.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/machine.ts';
import { FIXED, KEEP, KEEP_RULE, heldSpread, readChoice, replay, shapeValue, shapes, type RecordedBenchmark, type RecordedProcess } from '../../bench/lib/pilot-replay.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

/** A standard normal from a uniform source (Box–Muller). */
function normal(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/**
 * A benchmark of `processes` processes of 16 repetitions of 10 ms (100 ns an iteration, 100,000 a
 * repetition): each process at its own level (sd `between` on the log scale), each repetition with
 * white noise of sd `within`, and with probability `burst` at half speed for the whole repetition.
 */
function recording(name: string, seed: number, spec: { between: number; within: number; burst?: number }, processes = 24): RecordedBenchmark {
  const rand = mulberry32(seed);
  const procs: RecordedProcess[] = Array.from({ length: processes }, () => {
    const level = spec.between * normal(rand);
    const reps = Array.from({ length: 16 }, () => 100 * Math.exp(level + spec.within * normal(rand)) * (rand() < (spec.burst ?? 0) ? 2 : 1));
    return { reps, wallMs: 40 + reps.reduce((t, v) => t + (v * 1e5) / 1e6, 0) };
  });
  return { name, opNs: 100, iterations: 100_000, processMs: 40, processes: procs };
}

const options = { draws: 6, pilotPairs: 10, reads: [6], budgetMs: 600_000, maxPairs: 200, threshold: 0.02, alpha: 0.05, maxLengthMs: 100 };

describe('a design read from recorded repetitions', () => {
  it('is the least of its k repetitions after its warm-ups (a Go time), a longer repetition the mean of consecutive recorded ones', () => {
    expect(shapeValue([10, 2, 1, 3, 100], { w: 1, k: 3, L: 1 })).toBeCloseTo(Math.log(1), 12);
    expect(shapeValue([0.5, 2, 4, 3, 100], { w: 1, k: 3, L: 1 })).toBeCloseTo(Math.log(2), 12);
    expect(shapeValue([10, 1, 2, 3, 100], { w: 1, k: 3, L: 1 }, 'median')).toBeCloseTo(Math.log(2), 12);
    expect(shapeValue([1, 3, 5, 7], { w: 0, k: 1, L: 2 })).toBeCloseTo(Math.log(2), 12);
    expect(shapeValue([1, 3, 5, 7], { w: 1, k: 1, L: 2 })).toBeCloseTo(Math.log(6), 12);
    // every design formable from 16 repetitions, none longer
    expect(shapes(16).every((d) => (d.w + d.k) * d.L <= 16)).toBe(true);
    expect(shapes(16).some((d) => d.L === 8 && d.k === 1 && d.w === 1)).toBe(true);
    expect(shapes(16).some((d) => d.L === 8 && d.k === 3)).toBe(false);
  });

  it('bursts that take a whole repetition: the median of five leaves them out, one long repetition averages them in', () => {
    const r = recording('bursty', 1, { between: 0.003, within: 0.01, burst: 0.15 });
    const median5 = heldSpread(r.processes, { w: 1, k: 5, L: 1 });
    const long = heldSpread(r.processes, { w: 0, k: 1, L: 8 });
    expect(long).toBeGreaterThan(10 * median5);
    // and a pilot of ten pairs reads it: it keeps a median of several
    const pilot = Array.from({ length: 10 }, (_, i) => [r.processes[2 * i]!, r.processes[2 * i + 1]!] as const);
    expect(readChoice(r, pilot, 6).k).toBeGreaterThanOrEqual(3);
    expect(readChoice(r, pilot, 6, KEEP)).toEqual(KEEP);
  });

  it('white noise inside a process and none between: longer repetitions average it away', () => {
    const r = recording('white', 2, { between: 0, within: 0.08 });
    const short = heldSpread(r.processes, { w: 0, k: 1, L: 1 });
    const long = heldSpread(r.processes, { w: 0, k: 1, L: 8 });
    // eight times the length, about an eighth of the variance
    expect(long).toBeLessThan(short / 4);
    expect(long).toBeGreaterThan(short / 16);
  });
});

describe('the replay', () => {
  // the white one with more processes: its designs differ by less than the bursty one's, and a held-out half of 12 processes reads a spread to within a fifth or so
  const rows = [recording('steady', 3, { between: 0.004, within: 0.004 }), recording('bursty', 4, { between: 0.003, within: 0.01, burst: 0.15 }), recording('white', 5, { between: 0, within: 0.08 }, 80)];
  const r = replay(rows, 16, { ...options, rand: mulberry32(9) });

  it('scores every rule in every draw, and the same seed gives the same replay', () => {
    expect(r.rules).toEqual(['auto', 'read 6', KEEP_RULE, ...FIXED.map(([rule]) => rule)]);
    for (const rule of r.rules) {
      expect(r.settled.get(rule)).toHaveLength(options.draws);
      for (const b of r.outcomes.get(rule)!) expect(b).toHaveLength(options.draws);
    }
    const again = replay(rows, 16, { ...options, rand: mulberry32(9) });
    expect(again.settled).toEqual(r.settled);
  });

  it('a steady benchmark settles under every rule; a bursty one always under the median of five, far less often under one long repetition', () => {
    for (const rule of r.rules) expect(r.outcomes.get(rule)![0]!.every((o) => o.settles)).toBe(true);
    const bursty = (rule: string) => r.outcomes.get(rule)![1]!;
    expect(bursty('fixed 1 × 80 ms').filter((o) => o.settles).length).toBeLessThanOrEqual(options.draws / 2);
    expect(bursty('fixed 1 warm-up + 5 × 10 ms').every((o) => o.settles)).toBe(true);
    expect(bursty(KEEP_RULE).every((o) => o.settles)).toBe(true);
    // its variance per second on the held-out half: one long repetition's many times the median of five's (over the draws: the
    // number of bursts a long repetition averages in is lumpy, 0, 1 or 2 mostly, and two processes with as many differ little)
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
    expect(med(bursty('fixed 1 × 80 ms').map((o) => o.ratio!))).toBeGreaterThan(20 * med(bursty('fixed 1 warm-up + 5 × 10 ms').map((o) => o.ratio!)));
  });

  it('white noise: one long repetition is nearer the best than five short ones', () => {
    const white = (rule: string) => r.outcomes.get(rule)![2]!.map((o) => o.ratio!);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    expect(mean(white('fixed 1 × 80 ms'))).toBeLessThan(mean(white('fixed 5 × 10 ms')));
  });
});

describe('npm run bench:go-pilot-replay, given what it cannot read', () => {
  it('exits 2 with one line naming the option and the value', () => {
    const replayScript = join(ROOT, 'bench/go-pilot-replay.ts');
    for (const [args, line] of [
      [['--from', '/nonexistent/recording.json'], /^--from \/nonexistent\/recording\.json: ENOENT.*\(expected the JSON file bench:go-design-review wrote\)$/],
      [['--draws', 'x'], /^--draws x: expected a whole number of at least 1$/],
    ] as const) {
      const r = spawnSync(process.execPath, [replayScript, ...args], { cwd: ROOT, encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(line);
    }
  });
});
