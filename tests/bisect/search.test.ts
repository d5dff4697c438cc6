/**
 * The search's state (src/bisect/search.ts), driven by a known answer: at every commit from
 * `first` on, the benchmark regresses. Whatever the answer, the search names it within its planned
 * tests; a commit that cannot be built beside it leaves the two unseparated.
 */
import { describe, expect, it } from 'vitest';
import { conclude, nextCommit, recordStep, startSearch, stepOutcomeOf, testsPlanned, type StepOutcome } from '../../src/bisect/search.ts';
import type { BenchmarkResult } from '../../src/results/schema.ts';

function drive(n: number, outcome: (k: number) => StepOutcome) {
  let state = startSearch(n);
  const visited: number[] = [];
  for (let k = nextCommit(state); k !== null; k = nextCommit(state)) {
    visited.push(k);
    state = recordStep(state, k, outcome(k));
  }
  return { state, visited, conclusion: conclude(state) };
}

describe('bisect search', () => {
  it('names every possible first regressing commit within 1 + ceil(log2 n) tests, the head first', () => {
    for (let n = 1; n <= 40; n++) {
      for (let first = 1; first <= n; first++) {
        const run = drive(n, (k) => (k >= first ? 'regressed' : 'not-regressed'));
        expect(run.conclusion).toEqual({ kind: 'found', first });
        expect(run.visited[0]).toBe(n);
        expect(run.state.tests).toBeLessThanOrEqual(testsPlanned(n));
      }
    }
    expect(testsPlanned(1)).toBe(1);
    expect(testsPlanned(7)).toBe(4);
    expect(testsPlanned(8)).toBe(4);
    expect(testsPlanned(9)).toBe(5);
  });

  it('ends at once when the head does not regress, or cannot be built', () => {
    expect(drive(6, () => 'not-regressed')).toMatchObject({ visited: [6], conclusion: { kind: 'no-regression' } });
    expect(drive(6, () => 'build-failed')).toMatchObject({ visited: [6], conclusion: { kind: 'head-undecided' } });
    expect(drive(6, () => 'undecided')).toMatchObject({ visited: [6], conclusion: { kind: 'head-undecided' } });
  });

  it('skips a commit that cannot be built, spends no test on it, and measures its neighbour', () => {
    const run = drive(8, (k) => (k === 2 ? 'build-failed' : k >= 4 ? 'regressed' : 'not-regressed'));
    expect(run.conclusion).toEqual({ kind: 'found', first: 4 });
    expect(run.state.skipped).toEqual([2]);
    expect(run.visited).toContain(2);
    expect(run.state.tests).toBe(run.visited.length - 1);
  });

  it('leaves a skipped commit and the regressing one after it unseparated', () => {
    const run = drive(8, (k) => (k === 3 ? 'build-failed' : k >= 4 ? 'regressed' : 'not-regressed'));
    expect(run.conclusion).toEqual({ kind: 'unseparated', candidates: [3, 4], why: 'build-failed' });
  });

  it('stops where a step cannot decide, naming the range left', () => {
    const run = drive(8, (k) => (k === 4 ? 'undecided' : k >= 6 ? 'regressed' : 'not-regressed'));
    expect(run.conclusion).toEqual({ kind: 'unseparated', candidates: [1, 2, 3, 4, 5, 6, 7, 8], why: 'undecided' });
  });

  it('stops when the planned tests are used up, so the error stays within alpha', () => {
    // the middle commit cannot be built: the halvings of 8 commits then need 4 tests, and 1 + 3 were planned
    const run = drive(8, (k) => (k === 4 ? 'build-failed' : k === 8 ? 'regressed' : 'not-regressed'));
    expect(run.visited).toEqual([8, 4, 3, 5, 6]);
    expect(run.state.tests).toBe(testsPlanned(8));
    expect(run.conclusion).toEqual({ kind: 'unseparated', candidates: [7, 8], why: 'tests-used' });
  });
});

/** A judged row of one step: its verdict and its interval at the step's level (0.99 here). */
function row(verdict: BenchmarkResult['verdict'], ci: [number, number], extra: Partial<BenchmarkResult> = {}, achievedConfidence = 0.99): BenchmarkResult {
  return { name: 'parse', unit: 'ms', direction: 'lower-is-better', threshold: 0.05, verdict, pairs: [], change: { estimate: (ci[0] + ci[1]) / 2, ci, confidence: 0.99, ciLevel: 0.99, achievedConfidence, pValue: 0.5 }, ...extra };
}

describe('what a step teaches the search', () => {
  it('counts a step whose interval excludes a regression beyond the threshold as not regressed, though its verdict is inconclusive', () => {
    expect(stepOutcomeOf(row('regression', [0.08, 0.12]), 0.05)).toBe('regressed');
    expect(stepOutcomeOf(row('unchanged', [-0.01, 0.01]), 0.05)).toBe('not-regressed');
    expect(stepOutcomeOf(row('improvement', [-0.12, -0.08]), 0.05)).toBe('not-regressed');
    // it crosses −threshold: unchanged or an improvement, a regression it is not
    expect(stepOutcomeOf(row('inconclusive', [-0.07, 0.02]), 0.05)).toBe('not-regressed');
    // significant, within the threshold
    expect(stepOutcomeOf(row('inconclusive', [0.01, 0.04]), 0.05)).toBe('not-regressed');
    // the row's own threshold counts
    expect(stepOutcomeOf(row('inconclusive', [-0.07, 0.02], { threshold: 0.01 }), 0.05)).toBe('undecided');
  });

  it('leaves undecided only a step whose interval holds both possibilities, or that has too few pairs for its level', () => {
    expect(stepOutcomeOf(row('inconclusive', [-0.01, 0.07]), 0.05)).toBe('undecided');
    expect(stepOutcomeOf(row('inconclusive', [0.02, 0.09]), 0.05)).toBe('undecided');
    expect(stepOutcomeOf(row('inconclusive', [-0.02, 0.02], {}, 0.9), 0.05)).toBe('undecided');
    expect(stepOutcomeOf(row('inconclusive', [-0.02, 0.02], { change: null }), 0.05)).toBe('undecided');
    expect(stepOutcomeOf(undefined, 0.05)).toBe('undecided');
  });

  it('reads a regression of a higher-is-better benchmark as a drop', () => {
    expect(stepOutcomeOf(row('inconclusive', [-0.02, 0.07], { direction: 'higher-is-better' }), 0.05)).toBe('not-regressed');
    expect(stepOutcomeOf(row('inconclusive', [-0.07, 0.02], { direction: 'higher-is-better' }), 0.05)).toBe('undecided');
  });

  it('finds the first regressing commit when every commit before it is measured with an interval across −threshold', () => {
    // the noisy commits before the 6th of 8: each interval reaches below −5%, none above +5%
    const run = drive(8, (k) => stepOutcomeOf(k >= 6 ? row('regression', [0.08, 0.12]) : row('inconclusive', [-0.07, 0.03]), 0.05));
    expect(run.conclusion).toEqual({ kind: 'found', first: 6 });
  });
});
