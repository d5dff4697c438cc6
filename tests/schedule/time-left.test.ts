/** The time left and the pairs still needed that the progress lines show (src/schedule/time-left.ts), from given units. */
import { describe, expect, it } from 'vitest';
import { paceOf, pairsStillNeeded, timeLeft } from '../../src/schedule/time-left.ts';

describe('time left', () => {
  it('a running unit whose predicted need it already has still counts one more pair, never 0 ms', () => {
    // 162 pairs of 500 ms each, the prediction made before the last of them: 162 in all
    const unit = { pairs: 162, pairMsTotal: 162 * 500, need: 162 };
    expect(pairsStillNeeded(unit, 200)).toBe(1);
    const left = timeLeft([unit], 200, 600_000);
    expect(left.expectedMs).toBe(500);
    // what --max-pairs still allows: 38 more pairs
    expect(left.boundMs).toBe(38 * 500);
  });

  it('counts the pairs still predicted at each unit\'s own pace, an unknown need as the pairs allowed', () => {
    const units = [
      { pairs: 10, pairMsTotal: 1000, need: 30 }, // 20 more at 100 ms
      { pairs: 10, pairMsTotal: 5000, need: null }, // 90 more allowed at 500 ms
    ];
    const left = timeLeft(units, 100, Infinity);
    expect(left.expectedMs).toBe(20 * 100 + 90 * 500);
    expect(left.boundMs).toBe(90 * 100 + 90 * 500);
  });

  it('is bounded by the budget left, and by --max-pairs however large the need', () => {
    const unit = { pairs: 10, pairMsTotal: 10_000, need: 1000 };
    expect(pairsStillNeeded(unit, 50)).toBe(40);
    expect(timeLeft([unit], 50, 30_000)).toEqual({ expectedMs: 30_000, boundMs: 30_000 });
    expect(timeLeft([unit], 50, -5)).toEqual({ expectedMs: 0, boundMs: 0 });
    // at --max-pairs mid-round (it stops at the check after the round): nothing more
    expect(pairsStillNeeded({ pairs: 50, need: 80 }, 50)).toBe(0);
  });

  it('takes a unit not yet paired at the mean pace of the others; before any pace, only the budget bounds it', () => {
    const left = timeLeft([{ pairs: 4, pairMsTotal: 400, need: 10 }, { pairs: 0, pairMsTotal: 0, need: null }], 10, Infinity);
    expect(left.expectedMs).toBe(6 * 100 + 10 * 100);
    expect(timeLeft([{ pairs: 0, pairMsTotal: 0, need: null }], 10, 60_000)).toEqual({ expectedMs: null, boundMs: 60_000 });
    expect(timeLeft([{ pairs: 0, pairMsTotal: 0, need: null }], 10, Infinity)).toEqual({ expectedMs: null, boundMs: null });
    expect(timeLeft([], 10, 60_000)).toEqual({ expectedMs: 0, boundMs: 0 });
  });

  it("reads a unit's pace from its pairs since its runs last changed (a batch's settled benchmark left them), else from all", () => {
    expect(paceOf({ pairs: 0, pairMsTotal: 0 })).toBe(0);
    expect(paceOf({ pairs: 10, pairMsTotal: 5000 })).toBe(500);
    // ten pairs of 500 ms, then four of 200 ms once the batch ran fewer benchmarks
    expect(paceOf({ pairs: 14, pairMsTotal: 5800, paceSince: { pairs: 10, ms: 5000 } })).toBe(200);
    // no pair since the change: the pace so far, until one comes
    expect(paceOf({ pairs: 10, pairMsTotal: 5000, paceSince: { pairs: 10, ms: 5000 } })).toBe(500);
    expect(timeLeft([{ pairs: 14, pairMsTotal: 5800, paceSince: { pairs: 10, ms: 5000 }, need: 20 }], 100, Infinity).expectedMs).toBe(6 * 200);
  });
});
