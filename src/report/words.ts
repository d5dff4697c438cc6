/**
 * The sentences every report shares, written once: the counts of the headline, the revisions
 * compared, the suite's change, and the notes of the report model (model.ts `ReportNote`). Each
 * surface supplies only its syntax, as a {@link Markup}: how untrusted text is escaped, and what
 * code and emphasis look like (hyperfine's `MarkupExporter`). Notes name settings the way their
 * reader changes them: CLI flags in the terminal, action inputs in the comment, the check run, the
 * job summary and the HTML report (as findings.ts words findings). Pure.
 */
import { wordDiagnostic, type Surface } from './findings.ts';
import { formatChange, formatChangeInterval, formatLevel } from './format.ts';
import { PLAIN, type Markup } from './markup.ts';
import { rowLevel, type ReportModel, type ReportNote, type Revision, type RowNote } from './model.ts';
import type { BenchmarkResult } from '../results/schema.ts';
import { KIND_LABEL, type VerdictCounts } from './rows.ts';

/** One kind's count as the headline says it. */
export interface CountPart {
  kind: keyof VerdictCounts;
  count: number;
  /** the kind's emoji, for surfaces that show it (it never stands alone: the words say it too) */
  emoji: string;
  /** `2 regressions`, `1 failed`, `14 unchanged` */
  words: string;
}

const ORDER: (keyof VerdictCounts)[] = ['regression', 'failed', 'inconclusive', 'improvement', 'unchanged', 'added', 'removed'];
const PLURAL: Partial<Record<keyof VerdictCounts, string>> = { regression: 'regressions', improvement: 'improvements' };

/** The counts the headline names, worst first, one per benchmark group. */
export function countParts(counts: VerdictCounts): CountPart[] {
  return ORDER.filter((k) => counts[k] > 0).map((k) => ({
    kind: k,
    count: counts[k],
    emoji: KIND_LABEL[k].split(' ')[0]!,
    words: `${counts[k]} ${counts[k] === 1 ? k : (PLURAL[k] ?? k)}`,
  }));
}

/** What the headline says when nothing was counted. */
export function nothingCounted(model: ReportModel): { emoji: string; words: string } {
  return model.results.status === 'failed' ? { emoji: '❌', words: 'no benchmark could be measured' } : { emoji: '', words: 'no benchmarks measured' };
}

/**
 * Why nothing was compared, as the first words of every headline (results/gate.ts):
 * `Nothing compared: every benchmark is on one side only (2 added)`. Null when something was.
 */
export function nothingComparedText(model: ReportModel, m: Markup): string | null {
  const n = model.nothing;
  if (!n) return null;
  const why = (() => {
    switch (n.code) {
      case 'same-commit':
        return `base and head are the same commit (${m.code(n.sha.slice(0, 7), 20)})`;
      case 'no-results':
        return 'no benchmark results';
      case 'failed':
        return n.side ? `the ${n.side}'s ${n.build ? 'build' : 'runs'} failed before any pair` : 'a build or a run failed before any pair';
      case 'one-sided': {
        const sides = [n.added > 0 ? `${n.added} added` : '', n.removed > 0 ? `${n.removed} removed` : ''].filter(Boolean).join(', ');
        return `every benchmark is on one side only (${sides})`;
      }
      case 'no-pairs':
        return 'no pair ran both sides';
    }
  })();
  const gate = model.gate.failOn === null ? '' : model.gate.outcome.reasons.includes('nothing-compared') ? ' (the gate fails)' : ' (the gate allows it)';
  return `Nothing compared: ${why}${gate}`;
}

/** The counts in words, without emoji: `2 regressions, 1 failed, 14 unchanged` (the check run's title, the terminal). */
export function countsText(model: ReportModel): string {
  const parts = countParts(model.counts);
  const counts = parts.length > 0 ? parts.map((p) => p.words).join(', ') : nothingCounted(model).words;
  const nothing = nothingComparedText(model, PLAIN);
  return nothing ? `${nothing}; ${counts}` : counts;
}

/** A revision in prose: its short SHA, ref or directory as code. */
export function revisionText(rev: Revision, m: Markup): string {
  return rev.kind === 'unknown' ? 'unknown' : m.code(rev.text, 60);
}

/** `head bbbbbbb against base aaaaaaa`. */
function comparedText(model: ReportModel, m: Markup): string {
  return `head ${revisionText(model.head, m)} against base ${revisionText(model.base, m)}`;
}

/**
 * The suite's change: `+4.9% [+3.1%, +6.8%] geometric mean change of 3 benchmarks (+ is worse), 95%
 * interval`, or of the one benchmark there is. Null without a change to show.
 */
function suiteText(model: ReportModel, m: Markup): string | null {
  const s = model.suite;
  if (!s) return null;
  const what = s.only ? `change of ${m.text(s.only.name, 60)}` : `geometric mean change of ${s.count} benchmarks`;
  const direction = s.only ? (s.only.higherIsBetter ? ' (as cost: + is worse)' : '') : ' (+ is worse)';
  return `${m.strong(formatChange(s.estimate))} ${formatChangeInterval(s.ci)} ${what}${direction}, ${formatLevel(s.confidence)} interval`;
}

/** The line under the headline: the suite's change, what was compared, and the threshold it was judged by. */
export function summaryText(model: ReportModel, m: Markup): string {
  const suite = suiteText(model, m);
  return `${suite ? `${suite} · ` : ''}${comparedText(model, m)} · ${model.thresholdText}`;
}

/** A note worded for one surface: its icon, whether it warns, and its sentence. */
export interface WordedNote {
  icon: string;
  warning: boolean;
  text: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The note in words for `surface`, in `m`'s syntax. */
export function wordNote(note: ReportNote, surface: Surface, m: Markup): WordedNote {
  const cli = surface === 'cli';
  // how the reader changes a setting: a flag, or an action input
  const set = (name: string, value?: string): string => (cli ? `--${name}${value === undefined ? '' : ` ${value}`}` : m.code(value === undefined ? name : `${name}: ${value}`, 80));
  switch (note.code) {
    case 'accepted': {
      const label = m.code(note.label, 60);
      const who = note.by ? m.text(`@${note.by}`, 60) : 'someone';
      if (note.regressions === 0) return { icon: '✅', warning: false, text: `The label ${label} (added by ${who}) accepts a regression; there is none.` };
      // the label accepts a regression only: an inconclusive gate still holds
      return note.inconclusiveHolds
        ? { icon: '✅', warning: false, text: `${m.strong('Regression accepted')}: ${who} added the label ${label}, so the regression does not fail the gate; the inconclusive benchmarks still do (${set('fail-on')} names inconclusive).` }
        : { icon: '✅', warning: false, text: `${m.strong('Regression accepted')}: ${who} added the label ${label}, so the gate passes. Remove the label to gate again.` };
    }
    case 'label-ignored': {
      const who = note.by ? `@${note.by}` : 'someone';
      return { icon: '⚠️', warning: true, text: `The label ${m.code(note.label, 60)} was ignored: ${m.text(note.reason ?? `${who} cannot write to this repository`, 200)}. Only a label added by someone with write access accepts a regression.` };
    }
    case 'incomplete':
      if (cli) return { icon: '⚠️', warning: true, text: `incomplete: shard ${note.shards.join(', ')} is missing, so the verdict is at most inconclusive; check that shard's job and its results file` };
      return {
        icon: '⚠️',
        warning: true,
        text: `${m.strong(`Incomplete: shard ${note.shards.join(', ')} missing.`)} Its benchmarks were not measured or its results file was not found, so the verdict is at most ${m.em('inconclusive')}. Check that shard's job and its artifact upload.`,
      };
    case 'partial': {
      const why = note.stoppedBecause;
      const reason =
        why === 'interrupted'
          ? `the run was interrupted (${cli ? 'a signal' : 'cancelled workflow or a signal'})`
          : why === 'max-time'
            ? `the time budget (${set('max-time')}) ran out in the middle of a round`
            : `it stopped early${why ? ` (${m.text(why, 40)})` : ''}`;
      return { icon: '⚠️', warning: true, text: `${m.strong('Partial results')}: ${reason}. Verdicts use the pairs measured until then; benchmarks without enough pairs are inconclusive. Rerun, or raise ${set('max-time')}.` };
    }
    case 'failed':
      return { icon: '❌', warning: true, text: `${m.strong('The comparison could not be completed')}: a build or a benchmark command failed (see ${m.em('Failures')} below). Verdicts use the pairs measured before the failure.` };
    case 'running':
      return { icon: '⏳', warning: false, text: `${m.strong('Still running')}: this report shows the pairs measured so far.` };
    case 'futile':
      return { icon: '⏱️', warning: false, text: `${m.text(note.text, 400)}. Raise ${set('max-time')}, or run on a quieter ${cli ? 'machine' : 'runner'}.` };
    case 'budget-ran-out':
      return { icon: '⏱️', warning: false, text: `The time budget (${set('max-time')}) ran out before every benchmark was settled: inconclusive benchmarks need more pairs. Raise ${set('max-time')} or ${set('max-pairs')}.` };
    case 'undecided-gate': {
      const n = plural(note.inconclusive, 'benchmark');
      const them = note.inconclusive === 1 ? 'it' : 'them';
      if (cli) {
        return note.gated
          ? { icon: '🟡', warning: false, text: `${n} inconclusive, and --fail-on names inconclusive: the run fails on ${them} (exit 1). Give ${them} more pairs (--max-time) or a quieter machine.` }
          : { icon: '🟡', warning: false, text: `${n} inconclusive: the run passes on ${them}. To block on undecided benchmarks, use --fail-on regression,inconclusive.` };
      }
      return note.gated
        ? { icon: '🟡', warning: false, text: `${n} inconclusive, and ${set('fail-on')} names inconclusive: the job fails on ${them} (the check run is neutral). Give ${them} more pairs (${set('max-time')}) or a quieter runner.` }
        : { icon: '🟡', warning: false, text: `${n} inconclusive: the check run is neutral and the job passes on ${them}. To block on undecided benchmarks, set ${set('fail-on', 'regression,inconclusive')}.` };
    }
    case 'config-ignored':
      // the keys are names from a fixed list; the path is an input
      return { icon: '🔒', warning: true, text: `${m.strong('Judged with the base commit\'s settings:')} this revision's ${m.code(note.path, 200)} changes ${note.keys.join(', ')}, which are not used to judge it; they come from the base commit's ${m.code(note.path, 200)} and the inputs.` };
    case 'mixed-environments':
      return { icon: '⚠️', warning: true, text: `${m.strong('Different environments')}: the ${note.files} environments of the merged results differ in ${m.text(note.differences.join(', '), 600)}; each benchmark's pairs share one machine, but benchmarks from different shards are not measured alike.` };
    case 'toolchains-differ':
      return { icon: '⚠️', warning: true, text: `${m.strong('Different toolchains')}: base and head were built by different toolchains, ${m.text(note.differences.join(', '), 600)} (base / head): a change may be the toolchain's, not the code's.` };
    case 'build-cache':
      // only build outputs come from the cache, never a measured value
      return note.hit
        ? { icon: '📦', warning: false, text: `${m.strong('Base build:')} restored from the build cache (${m.code(note.key, 200)}), not rebuilt; head was built. Only build outputs are cached: every pair was measured in this run.` }
        : { icon: '📦', warning: false, text: `${m.strong('Base build:')} not in the build cache (${m.code(note.key, 200)}): built in this run.` };
  }
}

/** How many characters of a benchmark's name a note shows: the terminal all of them (folded by the table), the others a table cell's worth. */
const NAME_CHARS: Record<Surface, number> = { cli: Number.MAX_SAFE_INTEGER, action: 100 };

/**
 * A benchmark row's note (model.ts `RowNote`) in words for `surface`, in `m`'s syntax, the
 * benchmark named first: `parse: inconclusive after 40 pairs; about 120 pairs in all would likely
 * settle it (--max-pairs, --max-time)`. Pair numbers count from 1, as the pairs tables do.
 */
export function wordRowNote(note: RowNote, surface: Surface, m: Markup): WordedNote & { about: string } {
  const cli = surface === 'cli';
  const name = cli ? m.text(note.name, NAME_CHARS.cli) : m.strong(m.text(note.name, NAME_CHARS.action));
  // `about`: the note without the benchmark's name, for a surface that shows it under the name
  const said = (icon: string, warning: boolean, text: string) => ({ icon, warning, text: `${name}: ${cli && warning ? 'warning: ' : ''}${text}`, about: text });
  const set = (...names: string[]): string => names.map((n) => (cli ? `--${n}` : m.code(n, 40))).join(', ');
  switch (note.code) {
    case 'outliers-excluded':
      return said('ℹ️', false, `${note.pairs.length} outlier pair(s) excluded (pairs ${note.pairs.map((i) => i + 1).join(', ')})`);
    case 'diagnostic': {
      const d = note.diagnostic;
      // worded in CLI flags for the terminal, in action inputs (`metric: cpu`) where the reader edits a workflow
      return said(d.severity === 'warning' ? '⚠️' : 'ℹ️', d.severity === 'warning', m.text(wordDiagnostic(d, surface), cli ? NAME_CHARS.cli : 1000));
    }
    case 'inconclusive': {
      const why = note.futility
        ? ` (no more pairs: it needed about ${note.futility.need}, the budget left gave at most ${note.futility.affordable})`
        : note.stoppedBecause
          ? ` (stopped by ${m.text(note.stoppedBecause, 40)})`
          : '';
      const settle = note.pairsToSettle ? `; about ${note.pairsToSettle} pairs in all would likely settle it (${set('max-pairs', 'max-time')})` : '';
      return said('🟡', false, `inconclusive after ${note.pairs} pairs${why}${settle}`);
    }
    case 'runs-failed': {
      const sides = [note.base > 0 ? `base ${note.base}` : '', note.head > 0 ? `head ${note.head}` : ''].filter(Boolean).join(', ');
      return said('⚠️', true, `some runs failed and were measured again (${sides}); a flaky benchmark command is worth fixing`);
    }
    case 'added':
      if (note.metricOnly) return said('🆕', false, "printed by head's runs only (base's print no such metric): not judged");
      return cli ? said('🆕', false, 'only in head (new benchmark)') : { icon: '🆕', warning: false, text: `${name} is new in head: nothing to compare against.`, about: 'new in head: nothing to compare against.' };
    case 'removed':
      if (note.metricOnly) return said('➖', false, "printed by base's runs only (head's print no such metric): not judged");
      return cli ? said('➖', false, 'only in base (removed benchmark)') : { icon: '➖', warning: false, text: `${name} is gone in head: it ran in base only.`, about: 'gone in head: it ran in base only.' };
  }
}

/**
 * A row's own interval level as every surface shows it after the interval: ` (99.5%)` when the
 * stopping rule raised it above the level the header names (`header`), else nothing.
 */
export function rowLevelText(b: BenchmarkResult, header: string): string {
  const level = rowLevel(b, header);
  return level === null ? '' : ` (${level})`;
}
