/**
 * One comparison as every report shows it, laid out once from the results: the benchmarks in
 * groups (a benchmark and its metric rows), the counts by kind (one per group), the suite's change
 * with its interval (+ is worse), the revisions compared, the notes a reader acts on, of the
 * comparison and of each benchmark row (as codes and figures; each surface words them, words.ts),
 * the interval's label and each row's own level, how the runs were designed, and what the gate
 * (`fail-on` and an accept label) makes of the verdict.
 *
 * The terminal table, the Markdown comment and job summary, the HTML report, the check run's title
 * and the failing step's message only render this value, so no two of them can disagree on a
 * count, a number or a word: hyperfine's `MarkupExporter` lays out one table and lets each markup
 * supply its syntax, benchstat builds one `Tables` and renders it with `ToText` or `ToCSV`.
 *
 * Pure: results in, a value out.
 */
import { gateNames, type Acceptance, type FailOn } from '../config/fail-on.ts';
import { defaultFailOn } from '../config/spec.ts';
import { formatThreshold } from '../config/values.ts';
import { decideGate, type Conclusion, type GateOutcome, type NothingCompared, gateMetricOf } from '../results/gate.ts';
import { environmentDifferences, toolchainDifferences } from '../results/environment-differences.ts';
import { recordedOr } from '../results/recorded.ts';
import type { BenchmarkResult, Results } from '../results/schema.ts';
import { geomeanChange, type Geomean } from '../stats/geomean.ts';
import type { StoredDiagnostic } from './findings.ts';
import { designSummary, futilitySummary, paceOf } from './designs-note.ts';
import { forestRows, type ForestRow } from './forest.ts';
import { formatLevel, intervalLabel, intervalNote } from './format.ts';
import { benchmarkOfRow, countGroups, groupRows, isTimeUnit, worseChange, type Group, type VerdictCounts } from './rows.ts';
import { sharedFindings, type SharedFindings } from './shared.ts';

export type { Acceptance, Conclusion };

/** A revision as the reports name it: the short SHA, else the ref, else the directory. */
export interface Revision {
  /** untrusted (from the results file): each surface escapes it */
  text: string;
  kind: 'sha' | 'ref' | 'dir' | 'unknown';
}

/** The suite's one number: the geometric mean change of every group's own metric, + is worse. */
interface SuiteChange extends Geomean {
  /** the benchmark it is the change of, when there is only one */
  only: { name: string; higherIsBetter: boolean } | null;
}

/**
 * A note above the table, as a code with its figures: the accept label, an incomplete, partial,
 * failed or running comparison, benchmarks stopped as futile or by the time budget, and what
 * undecided benchmarks do to the gate. Worded per surface by words.ts (`wordNote`).
 */
export type ReportNote =
  | { code: 'accepted'; label: string; by: string | null; regressions: number; inconclusiveHolds: boolean }
  | { code: 'label-ignored'; label: string; by: string | null; reason: string | null }
  | { code: 'incomplete'; shards: number[] }
  | { code: 'partial'; stoppedBecause: string | null }
  | { code: 'failed' }
  | { code: 'running' }
  | { code: 'futile'; count: number; text: string }
  | { code: 'budget-ran-out'; inconclusive: number }
  | { code: 'undecided-gate'; inconclusive: number; gated: boolean }
  /** where the base's build came from, when a build cache is set (settings.buildCacheHit) */
  | { code: 'build-cache'; hit: boolean; key: string }
  /** the action: judging keys the pull request's own config changed, which were not used (its base commit's were) */
  | { code: 'config-ignored'; keys: string[]; path: string }
  /** merged files measured in environments that differ: what differs (results/environment-differences.ts) */
  | { code: 'mixed-environments'; files: number; differences: string[] }
  /** base and head built by different toolchains: which, base first (results/environment-differences.ts) */
  | { code: 'toolchains-differ'; differences: string[] };

/**
 * A note of one benchmark row, as a code with its figures: its excluded outliers, each of its
 * diagnostics, why it stayed inconclusive, runs that failed and were measured again, and whether
 * it ran on one side only. Which rows have which notes is decided here, once; each surface words
 * them (words.ts `wordRowNote`) and only lays them out. `kind` groups notes of one sort, for a
 * surface that shows a few of each and counts the rest.
 */
export type RowNote = {
  name: string;
  kind: string;
  /** said once for all the benchmarks that share it (shared.ts): the short surfaces leave it out, a benchmark's own section keeps it */
  folded: boolean;
} & (
  | { code: 'outliers-excluded'; pairs: number[] }
  /** `brief`: false for a finding the full reports (comment, HTML) give and a terminal's short list leaves to them */
  | { code: 'diagnostic'; diagnostic: StoredDiagnostic; brief: boolean }
  | { code: 'inconclusive'; pairs: number; pairsToSettle: number | null; stoppedBecause: string | null; futility: { need: number; affordable: number } | null }
  | { code: 'runs-failed'; base: number; head: number }
  /** `metricOnly`: an extra metric of a benchmark both sides ran, printed by one side's runs only (no new benchmark) */
  | { code: 'added' | 'removed'; metricOnly: boolean }
);

/** The notes of every benchmark row, in the file's order (see {@link RowNote}). */
function rowNotesOf(results: Results, shared: SharedFindings): RowNote[] {
  const benchmarks = results.benchmarks;
  const notes: RowNote[] = [];
  const ownerOf = benchmarkOfRow(benchmarks);
  const presenceOf = new Map(benchmarks.map((b) => [b.name, b.presence ?? 'both']));
  // at once (--pair-runs auto or at-once), a pair's first slot was a CPU, not a turn: its order effect says so
  const atOnce = /^at once: /.test(String(results.settings?.['atOnce'] ?? ''));
  for (const b of benchmarks) {
    const name = b.name;
    // a throughput read from its time excludes its time's pairs: said once, with the time
    if (b.outliers && b.outliers.length > 0 && b.change?.readFrom === undefined) notes.push({ name, kind: 'outliers excluded', folded: false, code: 'outliers-excluded', pairs: [...b.outliers] });
    for (const stored of b.diagnostics ?? []) {
      const d = atOnce && stored.code === 'order-effect' && stored.figures ? { ...stored, figures: { ...stored.figures, atOnce: true } } : stored;
      // identical pairs are expected of counts (B/op, allocs/op); for times they point at a coarse clock
      if (d.code === 'all-equal' && !isTimeUnit(b.unit)) continue;
      // pairs kept against a one-sided exclusion, within chance: in the results and the full reports
      notes.push({ name, kind: d.code, folded: shared.folded.has(d.code), code: 'diagnostic', diagnostic: d, brief: !((d.code as string) === 'outliers-kept' && d.severity === 'info') });
    }
    if (!b.failure && b.verdict === 'inconclusive') {
      const stopped = b.stoppedBecause && b.stoppedBecause !== 'precision' && b.stoppedBecause !== 'decided' ? b.stoppedBecause : null;
      const futility = b.stoppedBecause === 'futile' && b.futility ? { need: b.futility.need, affordable: b.futility.affordable } : null;
      if (b.pairsToSettle || stopped) {
        notes.push({ name, kind: b.pairsToSettle ? 'inconclusive' : `stopped by ${stopped}`, folded: shared.folded.has('settle'), code: 'inconclusive', pairs: b.pairs.length, pairsToSettle: b.pairsToSettle ?? null, stoppedBecause: stopped, futility });
      }
    }
    if (b.failedRuns && !b.failure) notes.push({ name, kind: 'runs failed', folded: false, code: 'runs-failed', base: b.failedRuns.base, head: b.failedRuns.head });
    const metricOnly = ownerOf(b) !== b.name && (presenceOf.get(ownerOf(b)) ?? 'both') === 'both';
    if (b.presence === 'added') notes.push({ name, kind: 'only in head', folded: false, code: 'added', metricOnly });
    if (b.presence === 'removed') notes.push({ name, kind: 'only in base', folded: false, code: 'removed', metricOnly });
  }
  return notes;
}

/**
 * A row's own interval level, when it is not the one the table's header names (`header`, the
 * model's `interval.label`): "99%" for an interval the stopping rule raised. Every surface shows it beside the interval.
 */
export function rowLevel(b: BenchmarkResult, header: string): string | null {
  const l = b.change?.ciLevel;
  if (typeof l !== 'number' || !(l > 0 && l < 1)) return null;
  const own = formatLevel(l);
  return own === header ? null : own;
}

/**
 * What `fail-on` and an accept label make of the verdict: the gate's one outcome (results/gate.ts
 * `decideGate`), which the exit status, the check run and every report's words read.
 */
interface GateState {
  /** the gate the job applies, when the report is rendered for it; null otherwise */
  failOn: FailOn | null;
  acceptance: Acceptance | null;
  /** the outcome under `failOn`, or under the default gate when it is not known (the check run's conclusion then) */
  outcome: GateOutcome;
}

export interface ReportModel {
  results: Results;
  /** shown in headings; untrusted */
  title: string;
  /** report order: regressions (worst first), failures, inconclusive, improvements, unchanged, added, removed */
  groups: Group[];
  /** one count per benchmark group, everywhere */
  counts: VerdictCounts;
  suite: SuiteChange | null;
  base: Revision;
  head: Revision;
  /** the level the intervals are shown at ("95%", "99.375%") and, when it is not 1 − alpha, why */
  interval: { label: string; note: string | null };
  /** how the runs were designed, once for the comparison (designs-note.ts) */
  designs: string | null;
  /** why benchmarks stopped undecided before the budget ran out (designs-note.ts) */
  futility: { count: number; text: string } | null;
  notes: ReportNote[];
  /** each benchmark row's own notes, in the file's order */
  rowNotes: RowNote[];
  /** findings that many benchmarks share, said once for all of them on every surface (shared.ts) */
  shared: SharedFindings;
  gate: GateState;
  /** why nothing was compared (results/gate.ts): every surface's headline says it; null when something was */
  nothing: NothingCompared | null;
  /** the forest plot's rows (each group's own metric, and its other metrics that changed), and the suite's row under them */
  forest: { rows: ForestRow[]; summary: ForestRow | null };
  threshold: number;
  /**
   * The threshold as every surface prints it (config/values.ts `formatThreshold`), with how many
   * benchmarks judged by one of their own (a config file's), when any is
   */
  thresholdText: string;
  alpha: number;
}

export interface ModelOptions {
  /** shown in headings; default `pairbench` */
  title?: string | undefined;
  /** the gate (`fail-on`) the job applies */
  failOn?: FailOn | undefined;
  /** a PR label that accepts a regression */
  acceptance?: Acceptance | null | undefined;
  /** the action: the judging keys the head's config file changed from the base commit's, not used to judge it */
  configIgnored?: { keys: string[]; path: string } | undefined;
}

function thresholdOf(results: Results): number {
  return recordedOr(results.settings, 'threshold') as number;
}

/**
 * `threshold ±2.5%`, and `(2 benchmarks have their own)` when some were judged by another; with
 * `gate-metric`, which rows the gate weighed (`gated on instruction counts only`).
 */
function thresholdTextOf(results: Results, threshold: number): string {
  const own = results.benchmarks.filter((b) => b.threshold !== undefined && b.threshold !== threshold).length;
  const metric = gateMetricOf(results);
  const gatedOn = metric === 'instructions' ? ' · gated on instruction counts only' : metric === 'wall' ? ' · gated on every row but the instruction counts' : '';
  return `threshold ±${formatThreshold(threshold)}${own === 0 ? '' : ` (${own} benchmark${own === 1 ? ' has its' : 's have their'} own)`}${gatedOn}`;
}

function alphaOf(results: Results): number {
  return recordedOr(results.settings, 'alpha') as number;
}

/** How a revision is named in prose: the short SHA, else the ref, else the directory. */
function revisionOf(rev: Results['base']): Revision {
  if (rev.sha && /^[0-9a-f]{7,64}$/i.test(rev.sha)) return { text: rev.sha.slice(0, 7).toLowerCase(), kind: 'sha' };
  if (rev.ref) return { text: rev.ref, kind: 'ref' };
  if (rev.dir) return { text: rev.dir, kind: 'dir' };
  return { text: 'unknown', kind: 'unknown' };
}

/**
 * The coverage an interval is reported with: its own level when the results give one, else the
 * comparison's confidence. After an early stop the interval is computed at a raised fixed-sample
 * level (`change.level`) precisely so that it keeps this coverage; the geometric mean reads it at
 * the coverage, which keeps that guarantee (and gives one benchmark its own interval back).
 */
function levelOf(b: BenchmarkResult, alpha: number): number {
  const c = b.change as (NonNullable<BenchmarkResult['change']> & { ciLevel?: number }) | null | undefined;
  const l = c?.ciLevel ?? c?.confidence ?? 1 - alpha;
  return typeof l === 'number' && l > 0 && l < 1 ? l : 1 - alpha;
}

/**
 * The geometric mean change of every group's own metric, + is worse (a throughput turned into the
 * cost it adds), with its interval: derived metrics (B/op, MB/s) restate their benchmark and are
 * left out, as are benchmarks measured on one side only.
 */
function suiteChange(results: Results, groups: readonly Group[] = groupRows(results.benchmarks)): SuiteChange | null {
  const alpha = alphaOf(results);
  const members = groups.flatMap((g) => {
    const w = worseChange(g.primary.result);
    return w && g.primary.kind !== 'added' && g.primary.kind !== 'removed' ? [{ group: g, input: { ...w, level: levelOf(g.primary.result, alpha) } }] : [];
  });
  const inputs = members.map((m) => m.input);
  // one benchmark: its own interval at its own level, as its row shows it; several: at 1 - alpha
  const g = geomeanChange(inputs, inputs.length === 1 ? inputs[0]!.level : 1 - alpha);
  if (!g) return null;
  // the one benchmark geomeanChange could use (a finite change and interval, above −100%)
  const usable = (x: (typeof inputs)[number]) => [x.estimate, x.ci[0], x.ci[1]].every((v) => Number.isFinite(v) && v > -1);
  const one = g.count === 1 ? members.find((m) => usable(m.input))?.group : undefined;
  return { ...g, only: one ? { name: one.primary.name, higherIsBetter: one.primary.result.direction === 'higher-is-better' } : null };
}

function gateOf(results: Results, opts: ModelOptions): GateState {
  const failOn = opts.failOn ?? null;
  const acceptance = opts.acceptance ?? null;
  return { failOn, acceptance, outcome: decideGate(results, failOn ?? defaultFailOn(), acceptance?.accepted === true) };
}

function notesOf(results: Results, counts: VerdictCounts, gate: GateState, futility: ReportModel['futility'], configIgnored: ModelOptions['configIgnored']): ReportNote[] {
  const notes: ReportNote[] = [];
  if (configIgnored && configIgnored.keys.length > 0) notes.push({ code: 'config-ignored', keys: configIgnored.keys, path: configIgnored.path });
  const a = gate.acceptance;
  if (a?.accepted) {
    notes.push({ code: 'accepted', label: a.label, by: a.by, regressions: counts.regression, inconclusiveHolds: gate.outcome.reasons.includes('inconclusive') });
  } else if (a) {
    notes.push({ code: 'label-ignored', label: a.label, by: a.by, reason: a.reason ?? null });
  }
  const missing = results.missingShards ?? [];
  if (missing.length > 0) notes.push({ code: 'incomplete', shards: [...missing] });
  else if (results.status === 'partial') notes.push({ code: 'partial', stoppedBecause: results.stoppedBecause ?? null });
  else if (results.status === 'failed') notes.push({ code: 'failed' });
  else if (results.status === 'running') notes.push({ code: 'running' });
  if (futility) notes.push({ code: 'futile', count: futility.count, text: futility.text });
  else if (results.status !== 'partial' && results.stoppedBecause === 'max-time' && counts.inconclusive > 0) notes.push({ code: 'budget-ran-out', inconclusive: counts.inconclusive });
  if (gate.failOn !== null && counts.inconclusive > 0) notes.push({ code: 'undecided-gate', inconclusive: counts.inconclusive, gated: gateNames(gate.outcome.effective, 'inconclusive') });
  const hit = results.settings?.['buildCacheHit'];
  const key = results.settings?.['buildCacheKey'];
  if (typeof hit === 'boolean' && typeof key === 'string') notes.push({ code: 'build-cache', hit, key });
  const environments = results.environments ?? [];
  const mixed = environmentDifferences(environments);
  if (mixed.length > 0) notes.push({ code: 'mixed-environments', files: environments.length, differences: mixed });
  const toolchains = toolchainDifferences(results.environment);
  if (toolchains.length > 0) notes.push({ code: 'toolchains-differ', differences: toolchains });
  return notes;
}

/** The report of a comparison, laid out once for every surface. */
export function reportModel(results: Results, opts: ModelOptions = {}): ReportModel {
  const groups = groupRows(results.benchmarks);
  const counts = countGroups(groups);
  const threshold = thresholdOf(results);
  const suite = suiteChange(results, groups);
  const gate = gateOf(results, opts);
  const futility = futilitySummary(results.benchmarks, paceOf(results));
  const shared = sharedFindings(results);
  const summary: ForestRow | null = suite && suite.count > 1 ? { label: 'geometric mean', kind: 'no-data', estimate: suite.estimate, ci: suite.ci, threshold, shown: suite.estimate } : null;
  return {
    results,
    title: opts.title ?? 'pairbench',
    groups,
    counts,
    suite,
    base: revisionOf(results.base),
    head: revisionOf(results.head),
    interval: { label: intervalLabel(results), note: intervalNote(results) },
    designs: designSummary(results.benchmarks),
    futility,
    notes: notesOf(results, counts, gate, futility, opts.configIgnored),
    rowNotes: rowNotesOf(results, shared),
    shared,
    gate,
    nothing: gate.outcome.nothing,
    forest: { rows: forestRows(groups, threshold), summary },
    threshold,
    thresholdText: thresholdTextOf(results, threshold),
    alpha: alphaOf(results),
  };
}
