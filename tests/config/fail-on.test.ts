import { describe, expect, it } from 'vitest';
import { gateAfterAcceptance, gateNames, parseFailOn, type FailOn } from '../../src/config/fail-on.ts';

type Verdict = 'regression' | 'inconclusive' | 'unchanged';
/** Whether a gate names any of the verdicts. */
const gateFails = (failOn: FailOn, verdicts: Verdict[]) => verdicts.some((v) => v !== 'unchanged' && gateNames(failOn, v));
const results = (...verdicts: Verdict[]) => verdicts;

describe('the gate (fail-on)', () => {
  it('reads a list in either order, and none only alone', () => {
    expect(parseFailOn('--fail-on', ['inconclusive', 'regression'])).toBe('regression,inconclusive');
    expect(parseFailOn('--fail-on', ['regression'])).toBe('regression');
    expect(parseFailOn('--fail-on', ['none'])).toBe('none');
    expect(() => parseFailOn('--fail-on', ['none', 'regression'])).toThrow(/--fail-on.*none,regression.*"none" alone/);
  });

  it('fails on the verdicts it names, and never with none', () => {
    expect(gateFails('regression', results('unchanged', 'regression'))).toBe(true);
    expect(gateFails('regression', results('unchanged', 'inconclusive'))).toBe(false);
    expect(gateFails('regression,inconclusive', results('unchanged', 'inconclusive'))).toBe(true);
    expect(gateFails('none', results('regression', 'inconclusive'))).toBe(false);
  });

  it('an accepted label lifts the regression only: a gate that names inconclusive still holds', () => {
    expect(gateAfterAcceptance('regression', true)).toBe('none');
    expect(gateAfterAcceptance('regression,inconclusive', true)).toBe('inconclusive');
    expect(gateAfterAcceptance('inconclusive', true)).toBe('inconclusive');
    expect(gateAfterAcceptance('none', true)).toBe('none');
    for (const gate of ['regression', 'regression,inconclusive', 'inconclusive', 'none'] as const) expect(gateAfterAcceptance(gate, false)).toBe(gate);
    // what that means for a comparison with a regression and an undecided benchmark
    const mixed = results('regression', 'inconclusive');
    expect(gateFails(gateAfterAcceptance('regression', true), mixed)).toBe(false);
    expect(gateFails(gateAfterAcceptance('regression,inconclusive', true), mixed)).toBe(true);
  });
});
