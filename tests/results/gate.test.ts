/**
 * The gate's one rule (src/results/gate.ts): a comparison of nothing fails unless allowed; what is
 * not a comparison of nothing (an A/A run, changed-only's deliberate skip, a run still going) is
 * judged by its verdicts alone.
 */
import { describe, expect, it } from 'vitest';
import type { FailOn } from '../../src/config/fail-on.ts';
import { decideGate, nothingCompared } from '../../src/results/gate.ts';
import type { Results } from '../../src/results/schema.ts';

const pair = { base: 1, head: 1, order: 'base-first' as const };
function results(over: Partial<Results> = {}): Results {
  return { schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, status: 'complete', verdict: 'unchanged', benchmarks: [{ name: 'x', unit: 'ms', direction: 'lower-is-better', verdict: 'unchanged', pairs: [pair] }], ...over };
}

describe('nothingCompared', () => {
  it('is null once one pair ran both sides of two commits', () => {
    expect(nothingCompared(results())).toBeNull();
  });

  it('names each way of comparing nothing', () => {
    expect(nothingCompared(results({ head: { sha: 'A'.repeat(40) } }))).toEqual({ code: 'same-commit', sha: 'a'.repeat(40) });
    expect(nothingCompared(results({ benchmarks: [] }))).toEqual({ code: 'no-results' });
    expect(nothingCompared(results({ status: 'failed', benchmarks: [], failures: [{ side: 'base', kind: 'build', message: 'make failed' }] }))).toEqual({ code: 'failed', side: 'base', build: true });
    const oneSided = (name: string, presence: 'added' | 'removed') => ({ name, unit: 'ns', direction: 'lower-is-better' as const, presence, pairs: [] });
    expect(nothingCompared(results({ benchmarks: [oneSided('a', 'added'), oneSided('b', 'removed'), oneSided('c', 'added')] }))).toEqual({ code: 'one-sided', added: 2, removed: 1 });
    expect(nothingCompared(results({ status: 'partial', benchmarks: [{ name: 'x', unit: 'ms', direction: 'lower-is-better', pairs: [] }] }))).toEqual({ code: 'no-pairs' });
  });

  it('is null for an A/A run, a run still going, and changed-only measuring nothing by choice', () => {
    expect(nothingCompared(results({ kind: 'noise', head: { sha: 'a'.repeat(40) } }))).toBeNull();
    expect(nothingCompared(results({ status: 'running', benchmarks: [] }))).toBeNull();
    expect(nothingCompared(results({ benchmarks: [], notRun: [{ name: 'x', why: 'nothing under its paths changed' }] }))).toBeNull();
  });
});

const gateFails = (failOn: FailOn, r: Results, accepted = false) => decideGate(r, failOn, accepted).fails;

describe('the gate fails', () => {
  const nothing = results({ benchmarks: [] });
  it('fails a comparison of nothing by default, whatever the verdict; passes it when allowed or with fail-on none', () => {
    expect(gateFails('regression', nothing)).toBe(true);
    expect(gateFails('regression', { ...nothing, settings: { allowNothingCompared: true } })).toBe(false);
    expect(gateFails('none', nothing)).toBe(false);
  });

  it('an accept label lifts a regression, never a comparison of nothing', () => {
    expect(gateFails('regression', nothing, true)).toBe(true);
    const regression = results({ verdict: 'regression' });
    expect(gateFails('regression', regression)).toBe(true);
    expect(gateFails('regression', regression, true)).toBe(false);
  });
});

describe('decideGate: one outcome, with its reasons and the rows that fail it', () => {
  const row = (name: string, verdict: 'regression' | 'inconclusive' | 'unchanged', presence?: 'added') => ({ name, unit: 'ms', direction: 'lower-is-better' as const, verdict, pairs: presence ? [] : [pair], ...(presence ? { presence } : {}) });
  const mixed = results({ verdict: 'regression', benchmarks: [row('a', 'regression'), row('b', 'inconclusive'), row('c', 'unchanged'), row('d', 'inconclusive', 'added')] });

  it('names the rows whose verdict the gate names, never a benchmark on one side only', () => {
    expect(decideGate(mixed, 'regression')).toMatchObject({ fails: true, reasons: ['regression'], failing: [{ name: 'a', verdict: 'regression' }], exitCode: 1, conclusion: 'failure' });
    expect(decideGate(mixed, 'regression,inconclusive').failing.map((r) => r.name)).toEqual(['a', 'b']);
    expect(decideGate(mixed, 'inconclusive')).toMatchObject({ reasons: ['inconclusive'], exitCode: 1, conclusion: 'neutral' });
    expect(decideGate(mixed, 'none')).toMatchObject({ fails: false, reasons: [], failing: [], exitCode: 0, conclusion: 'neutral' });
  });

  it('an accept label leaves only the undecided rows to a gate that names them', () => {
    expect(decideGate(mixed, 'regression,inconclusive', true)).toMatchObject({ effective: 'inconclusive', reasons: ['inconclusive'], exitCode: 1, conclusion: 'neutral' });
    expect(decideGate(mixed, 'regression', true)).toMatchObject({ effective: 'none', reasons: [], exitCode: 0 });
  });

  it('a failed run exits 3 whatever the gate, and its check run fails', () => {
    expect(decideGate({ ...mixed, status: 'failed' }, 'none')).toMatchObject({ reasons: ['failure'], fails: false, exitCode: 3, conclusion: 'failure' });
    expect(decideGate({ ...mixed, status: 'failed' }, 'regression')).toMatchObject({ reasons: ['failure', 'regression'], exitCode: 3 });
  });

  it('a comparison of nothing is its own reason, and the verdicts are not weighed', () => {
    const none = results({ verdict: 'inconclusive', benchmarks: [row('d', 'inconclusive', 'added')] });
    expect(decideGate(none, 'regression,inconclusive')).toMatchObject({ reasons: ['nothing-compared'], nothing: { code: 'one-sided' }, exitCode: 1, conclusion: 'failure' });
    expect(decideGate({ ...none, settings: { allowNothingCompared: true } }, 'regression,inconclusive')).toMatchObject({ reasons: [], nothingAllowed: true, exitCode: 0, conclusion: 'neutral' });
  });
});

describe('gate-metric: which rows the gate weighs', () => {
  const row = (name: string, unit: string, verdict: 'regression' | 'inconclusive' | 'unchanged') => ({ name, unit, direction: 'lower-is-better' as const, verdict, pairs: [pair] });
  // a wall row that regressed (a noisy runner) beside instruction counts that did not, and the other way round
  const wallRegressed = results({ verdict: 'regression', benchmarks: [row('BenchmarkParse', 'ns', 'regression'), row('BenchmarkParse (instructions)', 'instructions', 'unchanged')] });
  const countRegressed = results({ verdict: 'regression', benchmarks: [row('BenchmarkParse', 'ns', 'unchanged'), row('BenchmarkParse (instructions)', 'instructions', 'regression')] });
  const withGate = (r: Results, gateMetric?: 'instructions' | 'wall'): Results => ({ ...r, settings: { ...(gateMetric ? { gateMetric } : {}) } });

  it('any (not recorded): every row, and the comparison\'s own verdict', () => {
    expect(decideGate(withGate(wallRegressed), 'regression')).toMatchObject({ fails: true, failing: [{ name: 'BenchmarkParse' }] });
    expect(decideGate(withGate(countRegressed), 'regression')).toMatchObject({ fails: true, failing: [{ name: 'BenchmarkParse (instructions)' }] });
  });

  it('instructions: only the counts; a regressed wall row passes, with a neutral check run', () => {
    expect(decideGate(withGate(wallRegressed, 'instructions'), 'regression')).toMatchObject({ fails: false, reasons: [], failing: [], exitCode: 0, conclusion: 'neutral' });
    expect(decideGate(withGate(countRegressed, 'instructions'), 'regression')).toMatchObject({ fails: true, failing: [{ name: 'BenchmarkParse (instructions)' }], exitCode: 1, conclusion: 'failure' });
  });

  it('wall: every row but the counts', () => {
    expect(decideGate(withGate(wallRegressed, 'wall'), 'regression')).toMatchObject({ fails: true, failing: [{ name: 'BenchmarkParse' }] });
    expect(decideGate(withGate(countRegressed, 'wall'), 'regression')).toMatchObject({ fails: false, exitCode: 0 });
  });

  it('a value the gate does not know weighs every row (a forged file is judged by the full gate)', () => {
    expect(decideGate({ ...wallRegressed, settings: { gateMetric: 'nothing' } }, 'regression').fails).toBe(true);
  });
});
