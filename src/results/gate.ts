/**
 * The gate, decided in one place for every exit status and every surface: the command line's
 * (engine.ts, `report`), the action's step status after an accept label (action/outputs.ts) and
 * the check run's conclusion and each report's words (report/model.ts).
 *
 * A comparison that compared nothing fails the gate: a required check that passes on "0
 * benchmarks compared" is a gate that silently vanished (a base whose build failed, every
 * benchmark present on one side only, no result file, a base that is the head itself). Only
 * `allow-nothing-compared`, recorded by the run or the judging that applies it in
 * `settings.allowNothingCompared` (never taken from an untrusted file: results/rejudge.ts
 * overwrites it), or `fail-on: none` lets it pass, and every headline still says that nothing
 * was compared.
 */
import { gateAfterAcceptance, verdictsFail, type FailOn } from '../config/fail-on.ts';
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

/** Whether the gate as applied lets a comparison of nothing pass (`allow-nothing-compared`). */
export function nothingAllowed(results: Pick<Results, 'settings'>): boolean {
  return results.settings?.['allowNothingCompared'] === true;
}

/**
 * Does the gate fail for these results? `fail-on: none` never fails; a comparison of nothing
 * fails unless allowed (an accept label, which accepts a regression, does not lift it); otherwise
 * the verdicts the gate names fail it, once an accept label is weighed (config/fail-on.ts).
 */
export function gateFails(failOn: FailOn, results: Judged & Pick<Results, 'settings' | 'verdict'>, accepted = false): boolean {
  if (failOn === 'none') return false;
  if (nothingCompared(results)) return !nothingAllowed(results);
  return verdictsFail(gateAfterAcceptance(failOn, accepted), results);
}
