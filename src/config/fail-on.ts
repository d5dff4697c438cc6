/**
 * The gate: which verdicts fail the comparison (exit 1, a failed step). `regression` by default;
 * `regression,inconclusive` for teams that want a comparison that could not decide to block too;
 * `none` to report without ever failing. Kept as one canonical text, as it is recorded in results.
 */
import { UsageError } from './errors.ts';

/**
 * What the gate says after a PR label accepted an intended regression (or why the label did not
 * count): github/labels.ts finds it out, {@link gateAfterAcceptance} applies it, each report says it.
 */
export interface Acceptance {
  label: string;
  /** the login that added the label, when known */
  by: string | null;
  accepted: boolean;
  /** why a label did not count */
  reason?: string;
}

export type FailOn = 'regression' | 'inconclusive' | 'regression,inconclusive' | 'none';
const FAIL_ON_CHOICES = ['regression', 'inconclusive', 'none'] as const;

/** `regression`, `inconclusive`, both (comma-separated, either order), or `none` alone. */
export function parseFailOn(input: string, values: readonly string[]): FailOn {
  const set = new Set(values);
  if (set.has('none')) {
    if (set.size > 1) throw UsageError.invalid(input, values.join(','), '"none" alone, or regression and/or inconclusive');
    return 'none';
  }
  const parts = FAIL_ON_CHOICES.filter((c) => c !== 'none' && set.has(c));
  return parts.join(',') as FailOn;
}

/** Does this gate name this verdict? The whole gate (a comparison of nothing too) is results/gate.ts's `decideGate`. */
export function gateNames(failOn: FailOn, verdict: 'regression' | 'inconclusive'): boolean {
  return failOn !== 'none' && failOn.split(',').includes(verdict);
}

/**
 * The gate once a pull-request label accepted a regression (github/labels.ts): the label lifts
 * `regression` only; a gate that names `inconclusive` still fails on undecided benchmarks. One rule
 * for the job's exit, the check run and what the comment says of them.
 */
export function gateAfterAcceptance(failOn: FailOn, accepted: boolean): FailOn {
  if (!accepted) return failOn;
  return failOn.split(',').includes('inconclusive') ? 'inconclusive' : 'none';
}
