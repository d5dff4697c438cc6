/**
 * The terminal report: one table row per benchmark, then what a user needs to act on it
 * (diagnostics, failures, why measuring stopped). Pure: results in, text out.
 */
import type { BenchmarkResult, Results } from '../results/schema.ts';
import type { Verdict } from '../stats/types.ts';
import { stripControls } from './escape.ts';
import { confidenceLabel, formatCv, formatDuration, formatP, formatPercent, formatValue, verdictCounts } from './format.ts';

export interface TerminalOptions {
  color: boolean;
}

const TIME_UNITS = new Set(['ns', 'us', 'µs', 'ms', 's']);

const COLORS: Record<Verdict, string> = { regression: '31', improvement: '32', unchanged: '2', inconclusive: '33' };

function paint(text: string, code: string, on: boolean): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}

/** Untrusted text (benchmark names, command output) without escape sequences or controls, before it reaches a terminal. */
export function safeText(text: string): string {
  return stripControls(text);
}

function sideCell(side: BenchmarkResult['base'], unit: string): string {
  return side ? `${formatValue(side.median, unit)} ${formatCv(side.cv)}` : '—';
}

function changeCell(b: BenchmarkResult): string {
  if (!b.change) return '—';
  const [lo, hi] = b.change.ci;
  return `${formatPercent(b.change.estimate)} [${formatPercent(lo)}, ${formatPercent(hi)}]`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => visible(r[i] ?? ''))));
  return rows.map((r) => r.map((c, i) => c + ' '.repeat(widths[i]! - visible(c))).join('  ').trimEnd());
}

function visible(text: string): number {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/\x1b\[[0-9;]*m/g, '')].length;
}

const FOLD_AT = 3;

/** `, stopped by max-time`, when an inconclusive benchmark's budget, not its rules, ended it. */
function stoppedBy(b: BenchmarkResult): string {
  return b.stoppedBecause && b.stoppedBecause !== 'precision' && b.stoppedBecause !== 'decided' ? ` (stopped by ${b.stoppedBecause})` : '';
}

/**
 * When FOLD_AT or more benchmarks are noisy even in pairs, or inconclusive, one line says so for
 * all of them (with the range of their figures), instead of the same note per benchmark.
 */
function sharedNotes(benchmarks: readonly BenchmarkResult[]): { lines: string[]; folded: Set<string> } {
  const lines: string[] = [];
  const folded = new Set<string>();
  const names = (bs: readonly BenchmarkResult[]) => `${bs.slice(0, 3).map((b) => safeText(b.name)).join(', ')}${bs.length > 3 ? `, and ${bs.length - 3} more` : ''}`;
  const noisy = benchmarks.filter((b) => (b.diagnostics ?? []).some((d) => d.code === 'high-noise'));
  if (noisy.length >= FOLD_AT) {
    folded.add('high-noise');
    lines.push(
      `warning: ${noisy.length} of ${benchmarks.length} benchmarks are noisy even in pairs (${names(noisy)}): the ratio head/base moves a lot from pair to pair, so small changes need many pairs. ` +
        'To cut the noise itself: run on a quieter machine (a dedicated runner, no parallel jobs), make one run do more work, or pair each benchmark on its own (--interleave benchmark).',
    );
  }
  const open = benchmarks.filter((b) => b.verdict === 'inconclusive' && b.pairsToSettle);
  if (open.length >= FOLD_AT) {
    folded.add('settle');
    const counts = open.map((b) => b.pairsToSettle!).sort((x, y) => x - y);
    const mid = counts[Math.floor(counts.length / 2)]!;
    lines.push(
      `${open.length} benchmarks are inconclusive (${names(open)}): about ${mid} pairs each (${counts[0]}-${counts[counts.length - 1]}) would likely settle half of them; raise --max-time (or --max-pairs), or gate on them with --fail-on regression,inconclusive.`,
    );
  }
  return { lines, folded };
}

export function renderTerminal(results: Results, opts: TerminalOptions): string {
  const lines: string[] = [];
  const color = opts.color;
  const benchmarks = results.benchmarks;
  const verdicts = benchmarks.filter((b) => (b.presence ?? 'both') === 'both').map((b) => (b.verdict ?? 'inconclusive') as Verdict);
  const rows: string[][] = [['benchmark', 'base (median ±cv)', 'head (median ±cv)', `change [${confidenceLabel(results.settings)} CI]`, 'p (adj.)', 'pairs', 'verdict']];
  for (const b of benchmarks) {
    const verdict = (b.verdict ?? 'inconclusive') as Verdict;
    const kept = b.pairs.length - (b.outliers?.length ?? 0);
    const presence = b.presence && b.presence !== 'both' ? b.presence : null;
    rows.push([
      safeText(b.name) + (b.metric && !b.name.endsWith(`[${b.metric}]`) && b.metric !== 'wall' ? ` [${b.metric}]` : ''),
      sideCell(b.base, b.unit),
      sideCell(b.head, b.unit),
      changeCell(b),
      b.change ? formatP(b.change.pAdjusted ?? b.change.pValue) : '—',
      b.outliers && b.outliers.length > 0 ? `${kept}+${b.outliers.length}` : String(b.pairs.length),
      presence ? presence : b.failure ? paint('failed', '31', color) : paint(verdict, COLORS[verdict], color),
    ]);
  }
  lines.push(...table(rows));
  lines.push('');
  const status = results.status === 'complete' ? '' : ` (${results.status}: ${results.stoppedBecause})`;
  lines.push(`${paint(String(results.verdict ?? 'inconclusive').toUpperCase(), COLORS[(results.verdict ?? 'inconclusive') as Verdict], color)}: ${verdictCounts(verdicts)}${status}`);
  if (results.geomean !== undefined && results.geomean !== null && benchmarks.length > 1) {
    lines.push(`geometric mean of the changes: ${formatPercent(results.geomean)}`);
  }

  const notes: string[] = [];
  if (results.missingShards && results.missingShards.length > 0) {
    notes.push(`warning: incomplete: shard ${results.missingShards.join(', ')} is missing, so the verdict is at most inconclusive; check that shard's job and its results file`);
  }
  // Notes that most benchmarks of a suite share are said once, not once per benchmark.
  const shared = sharedNotes(benchmarks);
  notes.push(...shared.lines);
  for (const b of benchmarks) {
    const name = safeText(b.name);
    if (b.outliers && b.outliers.length > 0) notes.push(`${name}: ${b.outliers.length} outlier pair(s) excluded (pairs ${b.outliers.join(', ')})`);
    for (const d of b.diagnostics ?? []) {
      // identical pairs are expected of counts (B/op, allocs/op); for times they point at a coarse clock
      if (d.code === 'all-equal' && !TIME_UNITS.has(b.unit)) continue;
      // pairs kept against a one-sided exclusion, within chance: in the results and the Markdown details
      if ((d.code as string) === 'outliers-kept' && d.severity === 'info') continue;
      if (shared.folded.has(d.code)) continue;
      notes.push(`${name}: ${d.severity === 'warning' ? 'warning: ' : ''}${safeText(d.message)}`);
    }
    if (!shared.folded.has('settle')) {
      if (b.verdict === 'inconclusive' && b.pairsToSettle) notes.push(`${name}: inconclusive after ${b.pairs.length} pairs${stoppedBy(b)}; about ${b.pairsToSettle} pairs in all would likely settle it (--max-pairs, --max-time)`);
      else if (b.verdict === 'inconclusive' && stoppedBy(b)) notes.push(`${name}: inconclusive after ${b.pairs.length} pairs${stoppedBy(b)}`);
    }
    if (b.failedRuns && !b.failure) {
      const sides = (['base', 'head'] as const).filter((s) => b.failedRuns![s] > 0).map((s) => `${s} ${b.failedRuns![s]}`);
      notes.push(`${name}: warning: some runs failed and were measured again (${sides.join(', ')}); a flaky benchmark command is worth fixing`);
    }
    if (b.presence === 'added') notes.push(`${name}: only in head (new benchmark)`);
    if (b.presence === 'removed') notes.push(`${name}: only in base (removed benchmark)`);
  }
  for (const f of results.failures ?? []) {
    notes.push(`${f.side} failed${'benchmark' in f && f.benchmark ? ` in ${safeText(String(f.benchmark))}` : ''}: ${safeText(f.message)}`);
    if (f.stderrTail) notes.push(...f.stderrTail.trimEnd().split('\n').slice(-10).map((l) => `  | ${safeText(l)}`));
  }
  if (notes.length > 0) {
    lines.push('');
    lines.push(...notes);
  }
  const started = results.startedAt ? Date.parse(results.startedAt) : NaN;
  const finished = results.finishedAt ? Date.parse(results.finishedAt) : NaN;
  const seed = results.settings?.['seed'];
  const took = Number.isFinite(started) && Number.isFinite(finished) ? `, took ${formatDuration(finished - started)}` : '';
  lines.push('');
  lines.push(`seed ${seed ?? '?'}${took}; replay the pair order with --seed ${seed ?? '?'}`);
  return lines.join('\n');
}
