/**
 * The failing step's message in the action (`core.setFailed`, shown on the pull request's checks
 * and as the job's annotation): which benchmark groups fail the gate and by how much, read from the
 * report model like every other surface, so its counts and changes are the comment's. Plain text:
 * the runner prints it as an `::error::` line, escaped by `@actions/core`. Pure.
 */
import { formatChange, formatChangeInterval } from './format.ts';
import type { ReportModel } from './model.ts';
import type { Row } from './rows.ts';
import { nothingComparedText } from './words.ts';
import { PLAIN } from './markup.ts';

/** Names at most, in the message. */
const NAMED = 10;

/** A name for a one-line message: its first 80 characters. */
const short = (name: string) => name.slice(0, 80);

/** A row as the message names it: `parse`, `parse [cpu]`, or `parse (MB/s)` for a metric beside its benchmark. */
function rowName(r: Row, derived: boolean): string {
  const what = derived ? ` (${r.metric})` : r.result.metric && r.result.metric !== 'wall' ? ` [${r.result.metric}]` : '';
  return `${short(r.name)}${what}`;
}

/** Every regression with its size, the first ten: `pairbench: 2 regressions beyond the threshold: parse +10.0% [+9.2%, +10.8%]; …`. */
function regressionMessage(model: ReportModel): string {
  const rows = model.groups.filter((g) => g.kind === 'regression');
  const named = rows.map((g) => {
    const r = [g.primary, ...g.derived].find((x) => x.kind === 'regression') ?? g.primary;
    const c = r.result.change;
    const size = c ? ` ${formatChange(c.estimate)} ${formatChangeInterval(c.ci)}` : '';
    return `${rowName(r, r !== g.primary)}${size}`;
  });
  const list = `${named.slice(0, NAMED).join('; ')}${named.length > NAMED ? `; and ${named.length - NAMED} more` : ''}`;
  return `pairbench: ${rows.length} regression${rows.length === 1 ? '' : 's'} beyond the threshold: ${list}. Set fail-on: none to report without failing, or add the accept label to accept an intended regression.`;
}

/**
 * The benchmarks left undecided, when the gate names inconclusive: every group with a row judged
 * inconclusive, a failed benchmark among them (it is judged inconclusive, so it cannot pass the
 * gate silently).
 */
function undecidedMessage(model: ReportModel): string {
  const open = model.groups.filter((g) => [g.primary, ...g.derived].some((r) => r.result.verdict === 'inconclusive' && r.result.presence !== 'added' && r.result.presence !== 'removed'));
  const names = open.map((g) => rowName(g.primary, false));
  const failed = open.filter((g) => g.kind === 'failed').length;
  const n = open.length;
  const which = `(${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''})`;
  const what = failed > 0 ? `${n} benchmark${n === 1 ? '' : 's'} undecided ${which}, ${failed} of them failed (a failed benchmark counts as inconclusive)` : `${n} benchmark${n === 1 ? '' : 's'} inconclusive ${which}`;
  return `pairbench: ${what}, and fail-on names inconclusive: give ${n === 1 ? 'it' : 'them'} more pairs (max-time, max-pairs) or a quieter runner, or set fail-on: regression.`;
}

/**
 * The message of a step the gate fails (exit status 1), by the gate's own reason (results/gate.ts):
 * a comparison of nothing, else the regressions when they fail it, else the undecided benchmarks.
 */
export function failingStepMessage(model: ReportModel): string {
  const { reasons } = model.gate.outcome;
  const nothing = nothingComparedText(model, PLAIN);
  if (reasons.includes('nothing-compared') && nothing) return `pairbench: ${nothing}. Check the base and the benchmarks; for the pull request that adds the first benchmarks, set allow-nothing-compared: true.`;
  return reasons.includes('regression') ? regressionMessage(model) : undecidedMessage(model);
}
