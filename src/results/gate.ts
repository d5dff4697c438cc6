/**
 * The gate, decided in one place for every exit status and every surface: {@link decideGate}
 * gives one {@link GateOutcome}, and the command line's exit status (engine.ts, results/rejudge.ts),
 * the action's step status after an accept label (action/outputs.ts), the check run's conclusion,
 * the failing step's message and each report's words (report/model.ts) all read it; none of them
 * weighs a verdict against `fail-on` again.
 *
 * A comparison that compared nothing fails the gate: a required check that passes on "0
 * benchmarks compared" is a gate that silently vanished (a base whose build failed, every
 * benchmark present on one side only, no result file, a base that is the head itself). Only
 * `allow-nothing-compared`, recorded by the run or the judging that applies it in
 * `settings.allowNothingCompared` (never taken from an untrusted file: results/rejudge.ts
 * overwrites it), or `fail-on: none` lets it pass, and every headline still says that nothing
 * was compared.
 */
import { gateAfterAcceptance, gateNames, type FailOn } from '../config/fail-on.ts';
import type { GateMetric } from '../config/options.ts';
import type { Results } from './schema.ts';

/**
 * Why nothing was compared:
 * - `same-commit`: base and head resolve to one commit, so any difference is noise;
 * - `no-results`: not one benchmark in the results (a `report` of no file, an empty suite);
 * - `failed`: a build or every run of a side failed before any pair ran both sides;
 * - `one-sided`: every benchmark is present on one side only (added or removed);
 * - `no-pairs`: benchmarks without a single pair of both sides, for another reason.
 */
export type NothingCompared =
  | { code: 'same-commit'; sha: string }
  | { code: 'no-results' }
  | { code: 'failed'; side: 'base' | 'head' | null; build: boolean }
  | { code: 'one-sided'; added: number; removed: number }
  | { code: 'no-pairs' };

type Judged = Pick<Results, 'kind' | 'status' | 'base' | 'head' | 'benchmarks' | 'notRun' | 'failures'>;

/**
 * Why the results compare nothing, or null when at least one pair ran both sides of two
 * different revisions. An A/A run (`pairbench noise`) compares one revision by design, a run
 * still going has not finished, and changed-only's "no benchmark's paths changed" chose to
 * measure nothing (its own report says so): none of them is a comparison of nothing.
 */
export function nothingCompared(results: Judged): NothingCompared | null {
  if (results.kind === 'noise' || results.status === 'running') return null;
  if (results.benchmarks.length === 0 && (results.notRun?.length ?? 0) > 0) return null;
  const base = results.base.sha?.toLowerCase();
  const head = results.head.sha?.toLowerCase();
  if (base && head && base === head) return { code: 'same-commit', sha: head };
  // a pair (or a pair with one side at 0) holds a run of each side
  if (results.benchmarks.some((b) => b.pairs.length + (b.oneSidedPairs?.length ?? 0) > 0)) return null;
  const failures = [...(results.failures ?? []), ...results.benchmarks.flatMap((b) => (b.failure ? [b.failure] : []))];
  if (failures.length > 0 || results.status === 'failed') {
    const sides = new Set(failures.map((f) => f.side));
    return { code: 'failed', side: sides.size === 1 ? [...sides][0]! : null, build: failures.some((f) => f.kind === 'build') };
  }
  if (results.benchmarks.length === 0) return { code: 'no-results' };
  const added = results.benchmarks.filter((b) => b.presence === 'added').length;
  const removed = results.benchmarks.filter((b) => b.presence === 'removed').length;
  if (added + removed === results.benchmarks.length) return { code: 'one-sided', added, removed };
  return { code: 'no-pairs' };
}

/**
 * `gate-metric`: which rows the gate weighs, as recorded by the run or the judging that applies it
 * (never taken from an untrusted file: results/rejudge.ts overwrites it). `instructions`: the
 * instruction counts only (rows of unit `instructions`), so that a wall time on a noisy machine
 * never fails a gate meant for counts; `wall`: every row but the counts; `any` (not recorded): every row.
 */
export function gateMetricOf(results: Pick<Results, 'settings'>): GateMetric {
  const m = results.settings?.['gateMetric'];
  return m === 'instructions' || m === 'wall' ? m : 'any';
}

/** Whether the gate weighs a row of this unit under `gate-metric`. */
function gated(metric: GateMetric, unit: string): boolean {
  return metric === 'any' || (unit === 'instructions') === (metric === 'instructions');
}

/** Whether the gate as applied lets a comparison of nothing pass (`allow-nothing-compared`). */
function nothingAllowed(results: Pick<Results, 'settings'>): boolean {
  return results.settings?.['allowNothingCompared'] === true;
}

/** A check run's conclusion. */
export type Conclusion = 'success' | 'failure' | 'neutral';

/**
 * Why a comparison does not pass, most serious first: the run failed (exit status 3, whatever the
 * gate), nothing was compared and the gate does not allow it, or a verdict the gate names.
 */
type GateReason = 'failure' | 'nothing-compared' | 'regression' | 'inconclusive';

/** A benchmark row whose verdict the gate names. */
interface GatedRow {
  name: string;
  metric?: string | undefined;
  verdict: 'regression' | 'inconclusive';
}

/** What the gate makes of one judged comparison: every surface reads this value. */
export interface GateOutcome {
  /** the gate as given (`fail-on`) */
  failOn: FailOn;
  /** whether an accept label counts */
  accepted: boolean;
  /** the gate once the label is weighed (config/fail-on.ts `gateAfterAcceptance`) */
  effective: FailOn;
  /** why nothing was compared, null when something was */
  nothing: NothingCompared | null;
  /** a comparison of nothing passes by `allow-nothing-compared` (or `fail-on: none`) */
  nothingAllowed: boolean;
  /** whether the gate fails: a comparison of nothing it does not allow, or a verdict it names */
  fails: boolean;
  /** why the comparison does not pass, most serious first; empty when it passes */
  reasons: GateReason[];
  /**
   * The rows whose verdict the effective gate names, in the file's order: benchmarks measured on
   * both sides only (one added or removed is reported, never gated: results/judge-file.ts).
   */
  failing: GatedRow[];
  /** the exit status: 3 a run that failed, 1 the gate fails, 0 it passes */
  exitCode: 0 | 1 | 3;
  /**
   * The check run's conclusion. failure: a failed run, a comparison of nothing the gate does not
   * allow, or a regression the gate names; neutral: an inconclusive verdict (with any `fail-on`:
   * the job's own status carries that gate), a partial run, a regression the gate lets through, or
   * a comparison of nothing it allows; success: only unchanged and improved benchmarks.
   */
  conclusion: Conclusion;
}

/**
 * The gate's outcome for judged results under `failOn`, with an accept label when `accepted`.
 * `fail-on: none` never fails; a comparison of nothing fails unless allowed (an accept label,
 * which accepts a regression, does not lift it); otherwise the verdicts the gate names fail it,
 * the comparison's (a missing shard makes it inconclusive) or a row's.
 */
export function decideGate(results: Judged & Pick<Results, 'settings' | 'verdict'>, failOn: FailOn, accepted = false): GateOutcome {
  const effective = gateAfterAcceptance(failOn, accepted);
  const nothing = nothingCompared(results);
  const allowed = failOn === 'none' || nothingAllowed(results);
  const failing: GatedRow[] = [];
  const metric = gateMetricOf(results);
  for (const b of results.benchmarks) {
    const v = b.verdict;
    if ((b.presence ?? 'both') !== 'both' || (v !== 'regression' && v !== 'inconclusive') || !gateNames(effective, v) || !gated(metric, b.unit)) continue;
    failing.push({ name: b.name, ...(b.metric !== undefined ? { metric: b.metric } : {}), verdict: v });
  }
  const reasons: GateReason[] = [];
  if (results.status === 'failed') reasons.push('failure');
  if (nothing) {
    if (!allowed) reasons.push('nothing-compared');
  } else {
    // the comparison's own verdict (a missing shard) counts for a gate over every row; a gate over one metric weighs its rows
    const named = (v: 'regression' | 'inconclusive') => (metric === 'any' && results.verdict === v && gateNames(effective, v)) || failing.some((r) => r.verdict === v);
    if (named('regression')) reasons.push('regression');
    if (named('inconclusive')) reasons.push('inconclusive');
  }
  const fails = reasons.some((r) => r !== 'failure');
  const exitCode = results.status === 'failed' ? 3 : fails ? 1 : 0;
  const conclusion: Conclusion =
    results.status === 'failed' || reasons.includes('nothing-compared') || reasons.includes('regression')
      ? 'failure'
      : nothing || (results.verdict !== 'unchanged' && results.verdict !== 'improvement') || results.status === 'partial'
        ? 'neutral'
        : 'success';
  return { failOn, accepted, effective, nothing, nothingAllowed: nothing !== null && allowed, fails, reasons, failing, exitCode, conclusion };
}
