/**
 * The spreads behind `npm run bench:go-combine` (bench/lib/combine.ts): processes of a known
 * structure, summarised by the median, the least and the mean of their repetitions.
 */
import { describe, expect, it } from 'vitest';
import { combineSpreads } from '../../bench/lib/combine.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

describe('the spread of pairs of processes, by how a process makes its time', () => {
  it('reads each way from the repetitions after the warm-up, and leaves out processes too short or with a value not > 0', () => {
    const [s] = combineSpreads([{ name: 'B', processes: [{ reps: [100, 1, 2, 3] }, { reps: [100, 2, 4, 6] }, { reps: [100, 1, 2] }, { reps: [100, 1, 0, 3] }] }], 1, 3);
    // two processes kept: values 2 and 4 (median), 1 and 2 (least), 2 and 4 (mean); d = ±ln 2 or ±ln 2
    expect(s!.median.robust).toBeCloseTo(1.482602218505602 * Math.log(2), 12);
    expect(s!.min.sd).toBeCloseTo(Math.sqrt(2) * Math.log(2), 12);
    expect(s!.mean.sd).toBeCloseTo(Math.sqrt(2) * Math.log(2), 12);
    expect(combineSpreads([{ name: 'C', processes: [{ reps: [1, 2] }] }], 0, 2)).toEqual([]);
  });

  it('interference that only adds: the least pairs processes far more narrowly than the median; noise that does not (normal): the median does', () => {
    const z = gaussian(mulberry32(11));
    const u = mulberry32(12);
    const processes = (burst: number) =>
      Array.from({ length: 30 }, () => ({ reps: Array.from({ length: 6 }, () => 1000 * Math.exp(0.02 * z()) * (u() < burst ? 1.5 : 1)) }));
    const [bursty] = combineSpreads([{ name: 'bursty', processes: processes(0.4) }], 1, 5);
    const [normal] = combineSpreads([{ name: 'normal', processes: processes(0) }], 1, 5);
    expect(bursty!.min.robust).toBeLessThan(0.6 * bursty!.median.robust);
    expect(normal!.median.robust).toBeLessThan(normal!.min.robust);
  });
});
