/** The progress lines (src/report/progress.ts) rendered from given progress: the pairs still needed and the time left. */
import { describe, expect, it } from 'vitest';
import { ProgressPrinter, type Progress } from '../../src/report/progress.ts';

const BASE: Progress = { round: 161, pairsDone: 162, jobsRunning: 1, jobsTotal: 1, remainingMs: 500, remainingAtMostMs: 19_000, rows: [] };

describe('progress lines', () => {
  it('lists how many more pairs an undecided benchmark needs, not a count it may already have', () => {
    const p: Progress = { ...BASE, undecided: [{ name: 'BenchmarkSort/n=100', pairs: 162, more: 1, waiting: false }, { name: 'BenchmarkParse', pairs: 40, more: 25, waiting: true }] };
    expect(ProgressPrinter.list(p)).toEqual([
      '  BenchmarkSort/n=100: 162 pairs, needs about 1 more pair, fits the budget',
      '  BenchmarkParse: 40 pairs, needs about 25 more pairs, waits for the budget left after the benchmarks nearer a verdict',
    ]);
    expect(ProgressPrinter.standing(p)).toBe(' · 1 fits the budget (about 1 more pair), 1 waits');
    const two: Progress = { ...p, undecided: [{ name: 'a', pairs: 10, more: 40, waiting: false }, { name: 'b', pairs: 10, more: 120, waiting: false }] };
    expect(ProgressPrinter.standing(two)).toBe(' · 2 fit the budget (about 40-120 more pairs each)');
  });

  it('says the time left with the most it can be, so a prediction of one more pair never reads as all that is left', () => {
    expect(ProgressPrinter.line(BASE, 200)).toBe('round 162 of at most 200 · 162 pairs in all · 1/1 running · ~500ms left (at most 19s)');
    // where the two agree, one figure
    expect(ProgressPrinter.timeLeft({ remainingMs: 40_000, remainingAtMostMs: 40_200 })).toBe(' · ~40s left');
    // before any pace: the budget alone
    expect(ProgressPrinter.timeLeft({ remainingMs: null, remainingAtMostMs: 600_000 })).toBe(' · at most 10m00s left');
    expect(ProgressPrinter.timeLeft({ remainingMs: null, remainingAtMostMs: null })).toBe('');
  });
});
