/**
 * Where the budget goes (src/schedule/allocate.ts), as a pure function of what each unit's pairs
 * predict: the units that still need pairs, cheapest first, before the ones that already have what
 * they likely need; futility from the hopeful reading alone.
 */
import { describe, expect, it } from 'vitest';
import { allocate, type Candidate } from '../../src/schedule/allocate.ts';

const opts = { minPairs: 10, maxPairs: 200, budgetLeftMs: 10_000 };
const unit = (name: string, pairs: number, expected: number, extra: Partial<Candidate> = {}): Candidate => ({ name, pairs, need: expected, hope: Math.ceil(expected / 4), expected, paceMs: 100, ...extra });

describe('allocate', () => {
  it('ranks the units that still need pairs by what they likely need (expected), cheapest first', () => {
    // the same hope, but b likely needs far fewer pairs: b first; c does not fit after it and waits
    const plan = allocate([unit('a', 30, 120, { hope: 40 }), unit('b', 30, 60, { hope: 40 }), unit('c', 30, 110, { hope: 40 })], { ...opts, budgetLeftMs: 12_000 });
    expect(plan.run).toEqual(['b', 'c']);
    expect(plan.waiting).toEqual(['a']);
    expect(plan.futile).toEqual([]);
  });

  it('a unit that has the pairs it likely needs waits while another that still needs pairs waits for the budget', () => {
    const plan = allocate([unit('done', 90, 80), unit('near', 30, 60), unit('far', 30, 120)], { ...opts, budgetLeftMs: 4_000 });
    expect(plan.run).toEqual(['near']);
    expect(plan.waiting.sort()).toEqual(['done', 'far']);
  });

  it('it gets pairs again once every unit that still needs pairs is running', () => {
    const plan = allocate([unit('done', 90, 80), unit('near', 30, 60)], opts);
    expect(plan.run).toEqual(['near', 'done']);
    expect(plan.waiting).toEqual([]);
  });

  it('futility reads the hopeful reading only: a unit whose hope fits is never futile, however much it likely needs', () => {
    const plan = allocate([unit('costly', 30, 400, { hope: 60 }), unit('hopeless', 30, 400, { hope: 250 })], opts);
    expect(plan.futile.map((f) => f.name)).toEqual(['hopeless']);
    expect(plan.run).toEqual(['costly']);
  });

  it('a unit whose design changed after its pilot is not called futile before 20 pairs of that design, however wild its pilot', () => {
    // 20 pairs in all, 10 of them the pilot's: its hope (from every pair) is far beyond max pairs
    const young = allocate([unit('designed', 20, 4000, { hope: 1000, designPairs: 10 })], opts);
    expect(young.futile).toEqual([]);
    expect(young.run).toEqual(['designed']);
    // with 20 pairs of its design it is judged as any other
    expect(allocate([unit('designed', 30, 4000, { hope: 1000, designPairs: 20 })], opts).futile.map((f) => f.name)).toEqual(['designed']);
    // the pairs it still takes before it is judged count against the budget left of the others
    const shared = allocate([unit('designed', 20, 4000, { hope: 1000, designPairs: 10 }), unit('a', 30, 60, { hope: 40, paceMs: 100 }), unit('b', 30, 70, { hope: 40, paceMs: 100 })], { ...opts, budgetLeftMs: 7_500 });
    expect(shared.run).toEqual(['designed', 'a']);
    expect(shared.waiting).toEqual(['b']);
  });

  it('a unit that cannot be shown unchanged but could still show a change of ten thresholds is a long shot: measured while nothing waits, never futile', () => {
    // hope 250 > max pairs 200: it cannot be shown unchanged; reach 120 fits within them
    const longShot = unit('noisy', 30, 400, { hope: 250, reach: 120 });
    const alone = allocate([longShot], opts);
    expect(alone.futile).toEqual([]);
    expect(alone.longShots).toEqual(['noisy']);
    expect(alone.run).toEqual(['noisy']);
    // behind a unit that can be decided and waits for the budget, it waits too
    const crowded = allocate([longShot, unit('near', 30, 60), unit('far', 30, 130)], { ...opts, budgetLeftMs: 12_000 });
    expect(crowded.run).toEqual(['near']);
    expect(crowded.waiting.sort()).toEqual(['far', 'noisy']);
    expect(crowded.futile).toEqual([]);
  });

  it('a unit that could show neither that it is unchanged nor a change of ten thresholds within the budget is futile', () => {
    const plan = allocate([unit('wild', 30, 4000, { hope: 900, reach: 700 }), unit('slow', 30, 400, { hope: 250, reach: 150, paceMs: 1_000 }), unit('unknown', 30, 400, { hope: 250 })], opts);
    // wild: reach beyond max pairs; slow: 120 more pairs at 1 s each do not fit in the 10 s left; unknown: no reach
    expect(plan.futile.map((f) => f.name)).toEqual(['wild', 'slow', 'unknown']);
    expect(plan.longShots).toEqual([]);
    expect(plan.run).toEqual([]);
  });

  it('without an expected count, the hope ranks as before', () => {
    const plan = allocate([unit('a', 30, 0, { expected: undefined, hope: 90 }), unit('b', 30, 0, { expected: undefined, hope: 50 })], { ...opts, budgetLeftMs: 7_000 });
    expect(plan.run).toEqual(['b']);
    expect(plan.waiting).toEqual(['a']);
  });
});
