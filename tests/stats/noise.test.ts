/**
 * What an A/A run (stats/noise-floor.ts) concludes for its report: whether a slot of the pair has an
 * advantage, and which threshold to configure on this machine.
 */
import { describe, expect, it } from 'vitest';
import { noiseFloor, slotAdvantage, thresholdToConfigure } from '../../src/stats/noise-floor.ts';
import type { Pair } from '../../src/stats/types.ts';

/** `n` pairs with head/base = (1 + shift) × a spread of ±1% around it, alternating in order. */
function pairs(n: number, shift: number): Pair[] {
  return Array.from({ length: n }, (_, i) => {
    const base = 100 + (i % 5);
    const wobble = 1 + (((i * 37) % 21) - 10) / 1000;
    return { base, head: base * (1 + shift) * wobble, order: i % 2 === 0 ? 'base-first' : 'head-first' };
  });
}

describe('an A/A run', () => {
  const opts = { alpha: 0.05, threshold: 0.02, maxPairs: 60 };

  it('finds a slot advantage when identical sides differ beyond three standard errors and 0.5%', () => {
    expect(slotAdvantage(noiseFloor(pairs(60, 0.03), opts))).toBe(true);
    expect(slotAdvantage(noiseFloor(pairs(60, 0), opts))).toBe(false);
    // beyond three standard errors but within 0.5%: no advantage worth a warning
    expect(slotAdvantage({ aaChange: 0.004, pairedLogSd: 0.001, pairs: 100 })).toBe(false);
    // beyond 0.5% but within three standard errors: chance
    expect(slotAdvantage({ aaChange: 0.02, pairedLogSd: 0.1, pairs: 100 })).toBe(false);
    expect(slotAdvantage({ aaChange: -0.02, pairedLogSd: 0.01, pairs: 100 })).toBe(true);
  });

  it('keeps the threshold max-pairs resolves, else raises it to what max-pairs resolves', () => {
    expect(thresholdToConfigure({ pairsForThreshold: 40, suggestedThreshold: 0.01 }, 0.02, 60)).toBe(0.02);
    expect(thresholdToConfigure({ pairsForThreshold: 400, suggestedThreshold: 0.035 }, 0.02, 60)).toBe(0.035);
    expect(thresholdToConfigure({ pairsForThreshold: Number.POSITIVE_INFINITY, suggestedThreshold: Number.NaN }, 0.02, 60)).toBe(0.02);
  });
});
