/**
 * The absolute floor (`min-change`, src/stats/floor.ts): a change must be beyond the threshold and
 * beyond the floor to count, so the margin a benchmark is read against is the larger of its
 * threshold and the floor's share of its base.
 */
import { describe, expect, it } from 'vitest';
import { parseMinChange } from '../../src/config/values.ts';
import { floorInUnit, marginWithFloor, unitFamily } from '../../src/stats/floor.ts';

const at = (base: number) => [{ base }, { base: base * 0.9 }, { base: base * 1.1 }];

describe('min-change', () => {
  it('raises the margin to the floor over the base median: 1µs over 40 ns is 2500%, over 2 ms 0.05% (the threshold stays)', () => {
    const floors = parseMinChange('--min-change', '1µs');
    const ns = floorInUnit(floors, 'ns')!;
    expect(ns.amount).toBe(1000);
    expect(marginWithFloor(0.02, ns.amount, at(40))).toBeCloseTo(25, 12);
    const ms = floorInUnit(floors, 'ms')!;
    expect(ms.amount).toBeCloseTo(0.001, 15);
    expect(marginWithFloor(0.02, ms.amount, at(2))).toBe(0.02);
  });

  it('applies a floor to its own unit family only: a time floor to no size, count or rate', () => {
    const floors = parseMinChange('--min-change', '5ms,1KB');
    expect(floorInUnit(floors, 'B')).toEqual({ amount: 1000, text: '1KB' });
    expect(floorInUnit(floors, 's')).toEqual({ amount: 0.005, text: '5ms' });
    expect(floorInUnit(floors, 'allocs/op')).toBeNull();
    expect(floorInUnit(floors, 'B/s')).toBeNull();
    expect(floorInUnit(parseMinChange('--min-change', '100'), 'instructions')).toEqual({ amount: 100, text: '100' });
    expect(unitFamily('MB/s')).toBeNull();
    expect(unitFamily('KiB')).toEqual({ family: 'bytes', scale: 1024 });
  });

  it('keeps the threshold without a floor or without a positive base', () => {
    expect(marginWithFloor(0.02, null, at(40))).toBe(0.02);
    expect(marginWithFloor(0.02, 1000, [])).toBe(0.02);
    expect(marginWithFloor(0.02, 1000, [{ base: 0 }])).toBe(0.02);
  });

  it('refuses what is not an amount, a unit it does not know, and two floors of one family, naming the input', () => {
    for (const bad of ['', '5 parsecs', '-1ms', '0ms', '5ms,1s', 'ms']) {
      expect(() => parseMinChange('--min-change', bad), bad).toThrow(/^--min-change: got .*; expected a change greater than 0 in a benchmark's own unit/);
    }
    expect(parseMinChange('--min-change', '200ns')).toEqual([{ family: 'time', amount: 200, text: '200ns' }]);
    expect(parseMinChange('--min-change', '1.5 MiB')).toEqual([{ family: 'bytes', amount: 1.5 * 1024 * 1024, text: '1.5 MiB' }]);
  });
});
