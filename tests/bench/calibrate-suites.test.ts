/**
 * The whole-suite cells of `npm run bench:calibration` (bench/lib/calibrate-suites.ts): a trial runs
 * the real schedule behind a simulated machine, each benchmark paired on its own or, with `batch`,
 * several a process sharing its noise. Seeded: the same seed gives the same trial.
 */
import { describe, expect, it } from 'vitest';
import { SUITE_SIZE, suiteTrial } from '../../bench/lib/calibrate-suites.ts';

describe('calibrate-suites', () => {
  it('runs a batched suite through the schedule: every benchmark judged, the same trial for the same seed', async () => {
    const job = { kind: 'suite' as const, change: 0, allocation: true, batch: 4, alpha: 0.05, trials: 1, seed: 1 };
    const a = await suiteTrial(job, 77);
    expect(a.verdicts).toHaveLength(SUITE_SIZE);
    expect(a.pairs).toBeGreaterThan(SUITE_SIZE * 10);
    expect(await suiteTrial(job, 77)).toEqual(a);
    // paired one a process, the same seed draws the same benchmarks but runs them otherwise
    const alone = await suiteTrial({ ...job, batch: undefined }, 77);
    expect(alone.verdicts).toHaveLength(SUITE_SIZE);
    expect(alone.pairs).not.toBe(a.pairs);
  });

  it('slows the first benchmarks of a batched suite: a change of ten thresholds is found in them, and nothing else is called changed', async () => {
    const t = await suiteTrial({ kind: 'suite', change: 0.2, changed: 4, allocation: true, batch: 4, noise: [0.005, 0.02], alpha: 0.05, trials: 1, seed: 1 }, 5);
    expect(t.detected).toBe(4);
    expect(t.falseCalls).toBe(0);
  });
});
