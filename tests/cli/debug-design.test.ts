/**
 * The design of a Go suite's runs (schedule/choose-design.ts) on the scripted runner
 * (schedule/scripted-runner.ts, `goBenchmarks`): the real command line, with seeded noise of two
 * kinds that five short repetitions per process handle worst. Where a repetition catches a pause (a
 * garbage collection) or not, the design runs longer repetitions; where a whole process lands in
 * a slow mode, one repetition per process, so that more processes average the modes out. Each
 * over several seeds: with the default kept over the model whatever the pilot shows (five
 * repetitions of 10 ms), both fail (checked by restoring that rule once).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const GO_BENCHMARKS = { BenchmarkA: { nsPerOp: 20_000 }, BenchmarkB: { nsPerOp: 50_000 }, BenchmarkC: { nsPerOp: 100_000 } };

/** `pairbench compare` of a scripted Go suite (base/ against head/, an A/A), its benchmarks' designs as the results file records them. */
function designsOf(suite: Record<string, unknown>, seed: number): Array<{ name: string; repetitions: number; lengthMs: number; log: string; verdict: string | undefined }> {
  const dir = realpathSync(tempDir('pairbench-design-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'head'));
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ seed, benchmarks: { '*': { baseMs: 50, noise: 0.01, repetitionNoise: 0.01, goBenchmarks: GO_BENCHMARKS, ...suite } } }));
  const slowed = Object.values((suite['goBenchmarks'] ?? {}) as Record<string, { factor?: number }>).some((b) => (b.factor ?? 1) > 1);
  const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', 'go test -bench=.', '--format', 'go', '--seed', String(seed), '--min-pairs', '20', '--out', 'results.json'], {
    cwd: dir,
    env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' },
  });
  expect(res.status, res.stderr).toBe(slowed ? 1 : 0);
  const results = readResults(join(dir, 'results.json'));
  return results.benchmarks.map((b) => {
    const design = b.design!;
    expect(design.chosen).toBe(true);
    const log = res.stderr.split('\n').find((l) => l.startsWith(`${b.name}: `) && l.includes('per process')) ?? '';
    return { name: b.name, repetitions: design.repetitions, lengthMs: design.lengthMs, log, verdict: b.verdict };
  });
}

const SEEDS = [1, 2, 3];

describe('the design of a Go suite on the scripted runner', () => {
  it('pauses a short repetition catches or not (a collection): repetitions of 80 ms or more, mostly one per process', () => {
    // a 3 ms pause every 20 ms on average: a 10 ms repetition catches none, one or two
    const all = SEEDS.flatMap((seed) => designsOf({ pauses: { perMs: 0.05, ms: 3 } }, seed));
    expect(all).toHaveLength(3 * SEEDS.length);
    for (const d of all) {
      expect(d.lengthMs, `${d.name}: ${d.log}`).toBeGreaterThanOrEqual(80);
    }
    expect(all.filter((d) => d.repetitions === 1).length).toBeGreaterThanOrEqual(Math.ceil((2 / 3) * all.length));
    // the log says why, where the pilot's robust spreads would have read the pauses away
    expect(all.some((d) => d.log.includes('its repetitions fall into modes'))).toBe(true);
  });

  it('a whole process landing in a slow mode (bimodal processes): one repetition per process, the most processes', () => {
    // three processes in ten run 30% slower in all their repetitions
    const all = SEEDS.flatMap((seed) => designsOf({ slowMode: { probability: 0.3, factor: 1.3 } }, seed));
    expect(all).toHaveLength(3 * SEEDS.length);
    // a pilot of 20 pairs may show too few of them apart (about 8 expected, 4 needed), or its
    // median among the slow ones: nearly every benchmark, not each (8 of these 9; 0 with the
    // default kept whatever the pilot shows)
    const single = all.filter((d) => d.repetitions === 1 && d.lengthMs < 50 && d.log.includes('its processes fall into modes'));
    expect(single.length, all.map((d) => `${d.name}: ${d.log}`).join('\n')).toBeGreaterThanOrEqual(all.length - 2);
  });

  it("plays head's factor per Go benchmark: the one slowed by 10% is a regression, the others unchanged", () => {
    const all = designsOf({ goBenchmarks: { ...GO_BENCHMARKS, BenchmarkB: { nsPerOp: 50_000, factor: 1.1 } } }, 1);
    expect(all.map((d) => [d.name, d.verdict])).toEqual([
      ['BenchmarkA', 'unchanged'],
      ['BenchmarkB', 'regression'],
      ['BenchmarkC', 'unchanged'],
    ]);
  });

  it('with neither, the suite keeps its design: the script plays the same runs as before', () => {
    const all = designsOf({}, 1);
    for (const d of all) {
      expect(d.log, d.name).not.toContain('fall into modes');
    }
  });
});
