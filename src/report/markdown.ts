/**
 * The Markdown report: the body of the sticky PR comment, the check-run summary and the job summary.
 * Pure: a results file in, a string out.
 *
 * Layout, most important first:
 *   1. the hidden marker `<!-- pairbench:<id> -->` (sticky comments only);
 *   2. one actionable line: counts by verdict and the worst regression;
 *   3. notes on a partial or failed run, and on a cut report;
 *   4. the table: benchmark, base and head (median ± MAD), the paired spread, change with its interval (at the level of the verdict), adjusted p, verdict;
 *   5. failures (which revision, exit code, the tail of stderr), benchmarks added or removed;
 *   6. collapsed details: diagnostics, the chart, pairs and outliers, how it was measured and how to replay it.
 *
 * Every string from the results file goes through `escape.ts` (S6). Past `maxLength` (UTF-8 bytes, so
 * the bound holds for GitHub's character limits too) whole rows and sections are left out, the most
 * important kept first, with a note that says where the full report is (S8).
 */
import type { BenchmarkResult, Failure, Results } from '../results/schema.ts';
import type { Verdict } from '../stats/types.ts';
import { chartLegend, renderChart } from './chart.ts';
import { codeBlock, codeSpan, escapeInline, markerFor, safeUrl, tail, utf8Bytes } from './escape.ts';
import { wordDiagnostic } from './findings.ts';
import { formatCv, formatP, formatPercent, formatSpread, formatValue, intervalLabel, intervalNote, spreadName, VERDICT_EMOJI } from './format.ts';

/** GitHub's limits, with a margin (UTF-8 bytes). */
export const REPORT_LIMITS = {
  /** an issue comment: 65,536 characters */
  comment: 65_000,
  /** a check run's `output.summary`: 65,535 bytes */
  checkSummary: 65_000,
  /** a step's job summary: 1 MiB */
  jobSummary: 1_000_000,
} as const;

export interface MarkdownContext {
  /** shown at the start of the headline; default `pairbench` */
  title?: string;
  /** the sticky comment's id: when set, the marker `<!-- pairbench:<id> -->` is the first line */
  commentId?: string;
  /** the workflow run, linked from the report */
  runUrl?: string;
  /** a command line that replays this comparison locally */
  replayCommand?: string;
  /** the report's size limit in UTF-8 bytes; default {@link REPORT_LIMITS.comment} */
  maxLength?: number;
  /** where the full report is when this one is cut (trusted Markdown); default: the job summary and the results file */
  fullReportHint?: string;
}

/** Longest benchmark name shown in the table; the details show up to the results file's own limit. */
const NAME_CELL_CHARS = 100;

/** Emoji and word: the verdict reads without colour. */
const verdictLabel = (v: Verdict): string => `${VERDICT_EMOJI[v]} ${v}`;

/** A value with its unit in readable units (`51.2 ms`, `1.50 MiB`); the unit may come from an untrusted file. */
function value(v: number, unit: string): string {
  return escapeInline(formatValue(v, unit), 60);
}

// ---------------------------------------------------------------------------------------------
// Classifying benchmarks

type RowKind = Verdict | 'failed' | 'added' | 'removed' | 'no-data';

function rowKind(b: BenchmarkResult): RowKind {
  if (b.presence === 'added') return 'added';
  if (b.presence === 'removed') return 'removed';
  // A failed benchmark is judged `inconclusive` (it cannot pass the gate silently); show why.
  if (b.failure) return 'failed';
  if (b.verdict) return b.verdict;
  return 'no-data';
}

const KIND_ORDER: Record<RowKind, number> = {
  regression: 0,
  failed: 1,
  inconclusive: 2,
  improvement: 3,
  unchanged: 4,
  added: 5,
  removed: 6,
  'no-data': 7,
};

/** How much worse head is than base (positive = worse), in the benchmark's own direction. */
function badness(b: BenchmarkResult): number {
  const e = b.change?.estimate;
  if (e === undefined || !Number.isFinite(e)) return 0;
  return b.direction === 'higher-is-better' ? -e : e;
}

/**
 * Report order: regressions (worst first), failures, inconclusive, improvements (best first),
 * unchanged, added, removed. This is also the order in which rows survive a cut.
 */
export function reportOrder(benchmarks: readonly BenchmarkResult[]): BenchmarkResult[] {
  return benchmarks
    .map((b, i) => ({ b, i, k: KIND_ORDER[rowKind(b)], bad: badness(b) }))
    .sort((x, y) => {
      if (x.k !== y.k) return x.k - y.k;
      const kind = rowKind(x.b);
      if (kind === 'regression' || kind === 'inconclusive') return y.bad - x.bad || x.i - y.i;
      if (kind === 'improvement') return x.bad - y.bad || x.i - y.i;
      return x.i - y.i;
    })
    .map((x) => x.b);
}

export interface VerdictCounts {
  regression: number;
  improvement: number;
  inconclusive: number;
  unchanged: number;
  failed: number;
  added: number;
  removed: number;
}

export function countVerdicts(results: Results): VerdictCounts {
  const c: VerdictCounts = { regression: 0, improvement: 0, inconclusive: 0, unchanged: 0, failed: 0, added: 0, removed: 0 };
  for (const b of results.benchmarks) {
    const k = rowKind(b);
    if (k !== 'no-data') c[k]++;
  }
  return c;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function shortSha(sha: string | null | undefined): string | null {
  return sha && /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : null;
}

/** How a revision is named in prose: the short SHA, else the ref, else the directory. */
function revisionLabel(rev: Results['base']): string {
  const sha = shortSha(rev.sha);
  if (sha) return codeSpan(sha);
  if (rev.ref) return codeSpan(rev.ref, 60);
  if (rev.dir) return codeSpan(rev.dir, 60);
  return 'unknown';
}

/**
 * The actionable line: `🔴 2 regressions, 🟢 1 improvement, 14 unchanged`, then the worst regression
 * and what was compared. Reads without colour: every emoji has its word.
 */
export function headline(results: Results, title = 'pairbench'): string {
  const c = countVerdicts(results);
  const parts: string[] = [];
  if (c.regression) parts.push(`🔴 **${plural(c.regression, 'regression')}**`);
  if (c.failed) parts.push(`❌ **${plural(c.failed, 'failed benchmark')}**`);
  if (c.inconclusive) parts.push(`🟡 ${c.inconclusive} inconclusive`);
  if (c.improvement) parts.push(`🟢 ${plural(c.improvement, 'improvement')}`);
  if (c.unchanged) parts.push(`⚪ ${c.unchanged} unchanged`);
  if (c.added) parts.push(`🆕 ${c.added} added`);
  if (c.removed) parts.push(`➖ ${c.removed} removed`);
  if (parts.length === 0) parts.push(results.status === 'failed' ? '❌ **no benchmark could be measured**' : 'no benchmarks measured');
  let line = `**${escapeInline(title, 80)}**: ${parts.join(', ')}`;
  const worst = reportOrder(results.benchmarks)[0];
  if (worst && rowKind(worst) === 'regression' && worst.change) {
    line += ` — worst: **${escapeInline(worst.name, 60)}** ${formatPercent(worst.change.estimate)} ${formatInterval(worst.change.ci)}`;
  }
  line += ` (head ${revisionLabel(results.head)} against base ${revisionLabel(results.base)})`;
  return line;
}

function formatInterval(ci: readonly [number, number]): string {
  return `[${formatPercent(ci[0])}, ${formatPercent(ci[1])}]`;
}

// ---------------------------------------------------------------------------------------------
// Pieces of the report

function statusNotes(results: Results): string[] {
  const notes: string[] = [];
  const why = results.stoppedBecause;
  const missing = results.missingShards ?? [];
  if (missing.length > 0) {
    notes.push(`> ⚠️ **Incomplete: shard ${missing.join(', ')} missing.** Its benchmarks were not measured or its results file was not found, so the verdict is at most *inconclusive*. Check that shard's job and its artifact upload.`);
  } else if (results.status === 'partial') {
    const reason =
      why === 'interrupted'
        ? 'the run was interrupted (cancelled workflow or a signal)'
        : why === 'max-time'
          ? 'the time budget (`max-time`) ran out in the middle of a round'
          : `it stopped early${why ? ` (${escapeInline(why, 40)})` : ''}`;
    notes.push(`> ⚠️ **Partial results**: ${reason}. Verdicts use the pairs measured until then; benchmarks without enough pairs are inconclusive. Rerun, or raise \`max-time\`.`);
  } else if (results.status === 'failed') {
    notes.push('> ❌ **The comparison could not be completed**: a build or a benchmark command failed (see *Failures* below). Verdicts use the pairs measured before the failure.');
  } else if (results.status === 'running') {
    notes.push('> ⏳ **Still running**: this report shows the pairs measured so far.');
  }
  if (results.status !== 'partial' && why === 'max-time' && countVerdicts(results).inconclusive > 0) {
    notes.push('> ⏱️ The time budget (`max-time`) ran out before every benchmark was settled: inconclusive benchmarks need more pairs. Raise `max-time` or `max-pairs`.');
  }
  return notes;
}

function sideCell(b: BenchmarkResult, side: 'base' | 'head'): string {
  const s = b[side];
  if (!s || !Number.isFinite(s.median)) return '—';
  return `${value(s.median, b.unit)} ${formatSpread(s)}`;
}

function verdictCell(b: BenchmarkResult): string {
  const k = rowKind(b);
  switch (k) {
    case 'failed':
      return `❌ failed (${b.failure?.side ?? '?'})`;
    case 'added':
      return '🆕 added';
    case 'removed':
      return '➖ removed';
    case 'no-data':
      return '— not judged';
    default:
      return verdictLabel(k);
  }
}

function tableRow(b: BenchmarkResult, paired: boolean): string {
  const change = b.change ? `${formatPercent(b.change.estimate)} ${formatInterval(b.change.ci)}` : '—';
  const p = b.change ? escapeInline(formatP(b.change.pAdjusted ?? b.change.pValue)) : '—';
  const pairedSpread = b.pairedMad !== undefined && Number.isFinite(b.pairedMad) ? formatCv(b.pairedMad) : '—';
  const cells = [escapeInline(b.name, NAME_CELL_CHARS), sideCell(b, 'base'), sideCell(b, 'head'), ...(paired ? [pairedSpread] : []), change, p, verdictCell(b)];
  return `| ${cells.join(' | ')} |`;
}

/** Spreads: MAD × 1.4826 relative to the median (CV for older files); `paired`: the same of head/base across pairs. */
const tableHead = (confidence: string, spread: string, paired: boolean): string =>
  `| benchmark | base (median ± ${spread}) | head (median ± ${spread}) |${paired ? ' paired ± MAD |' : ''} change [${confidence} interval] | p (adj.) | verdict |\n|---|--:|--:|${paired ? '--:|' : ''}--:|--:|---|`;

function failureBlock(f: Failure & { benchmark?: string | undefined }): string {
  const what =
    f.kind === 'build'
      ? 'build failed'
      : f.kind === 'timeout'
        ? 'timed out'
        : f.kind === 'signal'
          ? `was killed by ${escapeInline(f.signal ?? 'a signal', 20)}`
          : f.kind === 'parse'
            ? 'printed output that could not be parsed'
            : f.kind === 'spawn'
              ? 'could not be started'
              : 'exited with an error';
  const code = f.exitCode !== undefined && f.exitCode !== null ? ` (exit code ${f.exitCode})` : '';
  const bench = f.benchmark ? ` benchmark **${escapeInline(f.benchmark, NAME_CELL_CHARS)}**` : '';
  let out = `- **${f.side}**${bench}: ${what}${code}. ${escapeInline(f.message, 300)}`;
  if (f.stderrTail && f.stderrTail.trim() !== '') {
    out += `\n  <details><summary>stderr (last lines)</summary>\n\n${indent(codeBlock(tail(f.stderrTail), 'text'), '  ')}\n\n  </details>`;
  }
  return out;
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/** All failures: the results' own list, plus benchmark failures not already in it. */
function allFailures(results: Results): (Failure & { benchmark?: string | undefined })[] {
  const list: (Failure & { benchmark?: string | undefined })[] = (results.failures ?? []).map((f) => ({ ...f }));
  for (const b of results.benchmarks) {
    if (!b.failure) continue;
    const f = b.failure;
    // The engine lists a benchmark's failure both on the benchmark and in `failures`: show it once, named.
    const same = list.find((x) => x.side === f.side && x.kind === f.kind && x.message === f.message && (x.benchmark === undefined || x.benchmark === b.name));
    if (same) same.benchmark ??= b.name;
    else list.push({ ...f, benchmark: b.name });
  }
  return list;
}

function pairsBlock(b: BenchmarkResult): string {
  const excluded = new Set(b.outliers ?? []);
  const kept = new Set(b.outliersKept ?? []);
  // Inside a code block nothing is interpreted; the unit is the only text from the file, so cut it.
  const unit = b.unit.slice(0, 16);
  const lines = [`    #  order       ${'base'.padStart(14)}  ${'head'.padStart(14)}  head/base`];
  b.pairs.forEach((p, i) => {
    const note = excluded.has(i) ? '  outlier, excluded' : kept.has(i) ? '  outlier, kept' : '';
    lines.push(
      `${String(i + 1).padStart(5)}  ${p.order.padEnd(10)}  ${formatValue(p.base, unit).padStart(14)}  ${formatValue(p.head, unit).padStart(14)}  ${(p.head / p.base).toFixed(4).padStart(9)}${note}`,
    );
  });
  const summary = `${escapeInline(b.name, NAME_CELL_CHARS)}: ${plural(b.pairs.length, 'pair')}, ${plural(excluded.size, 'outlier')} excluded${kept.size ? `, ${kept.size} flagged but kept (they lean to one side)` : ''}`;
  return `<details><summary>${summary}</summary>\n\n${codeBlock(lines.join('\n'), 'text')}\n\n</details>`;
}

function diagnosticsItems(ordered: readonly BenchmarkResult[]): string[] {
  const items: string[] = [];
  for (const b of ordered) {
    for (const d of b.diagnostics ?? []) {
      const icon = d.severity === 'warning' ? '⚠️' : 'ℹ️';
      // worded in action inputs (`metric: cpu`), not CLI flags: the reader edits a workflow
      items.push(`- ${icon} **${escapeInline(b.name, NAME_CELL_CHARS)}** (${escapeInline(d.code, 40)}): ${escapeInline(wordDiagnostic(d, 'action'), 1000)}`);
    }
  }
  return items;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command line that replays the comparison from what the results file records (its settings and
 * seed): with one benchmark, its `--run`; with several, the same config file is needed.
 */
export function replayFromResults(results: Results): string {
  const args = ['npx', 'pairbench', 'compare'];
  const base = results.base.sha ?? results.base.ref;
  const head = results.head.sha ?? results.head.ref;
  if (base) args.push('--base', base);
  if (head) args.push('--head', head);
  const s = results.settings ?? {};
  const put = (flag: string, v: unknown, show: (x: number) => string = String) => {
    if (typeof v === 'string' && v !== '') args.push(`--${flag}`, v);
    else if (typeof v === 'number' && Number.isFinite(v)) args.push(`--${flag}`, show(v));
  };
  const pct = (x: number) => `${Number((x * 100).toPrecision(6))}%`;
  const secs = (ms: number) => `${Number((ms / 1000).toPrecision(6))}s`;
  put('build', s['build']);
  const benches = Array.isArray(s['benchmarks']) ? (s['benchmarks'] as unknown[]) : [];
  let needsConfig = false;
  if (benches.length === 1 && typeof benches[0] === 'object' && benches[0] !== null) {
    const b = benches[0] as Record<string, unknown>;
    put('run', b['run']);
    if (b['name'] !== b['run']) put('name', b['name']);
    if (b['format'] !== 'time') put('format', b['format']);
    if (Array.isArray(b['metrics']) && b['metrics'].join(',') !== 'wall') put('metric', b['metrics'].join(','));
    put('prepare', b['prepare']);
  } else if (benches.length > 1) needsConfig = true;
  put('seed', s['seed']);
  put('threshold', s['threshold'], pct);
  put('alpha', s['alpha']);
  put('outliers', s['outliers']);
  put('correction', s['correction']);
  put('min-pairs', s['minPairs']);
  put('max-pairs', s['maxPairs']);
  put('max-time', s['maxTimeMs'], secs);
  put('precision', s['precision'], pct);
  put('warmup', s['warmup']);
  put('timeout', s['timeoutMs'], secs);
  if (needsConfig) args.push('--config', 'pairbench.yml');
  return args.map(shellQuote).join(' ');
}

function settingValue(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return escapeInline(text, 200);
}

function aboutSection(results: Results, ctx: MarkdownContext): string {
  const lines: string[] = [];
  const rev = (label: string, r: Results['base']) => {
    const bits = [r.ref && r.ref !== r.sha ? `ref ${codeSpan(r.ref, 100)}` : null, r.sha ? `commit ${codeSpan(r.sha, 64)}` : null, r.dir ? `directory ${codeSpan(r.dir, 100)}` : null].filter(Boolean);
    return `- **${label}**: ${bits.length ? bits.join(', ') : 'unknown'}`;
  };
  lines.push(rev('base', results.base), rev('head', results.head));
  const env = results.environment;
  if (env) {
    const bits = [env.os, env.cpu, env.cores !== undefined ? `${env.cores} cores` : undefined, env.node ? `Node ${env.node}` : undefined, env.runner]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .map((x) => escapeInline(x, 120));
    if (bits.length) lines.push(`- **environment**: ${bits.join(', ')}`);
  }
  const settings = results.settings ?? {};
  if (settings['seed'] !== undefined) lines.push(`- **seed**: ${settingValue(settings['seed'])} (the order of pairs; replaying with it gives the same order)`);
  const rest = Object.entries(settings).filter(([k]) => k !== 'seed' && k !== 'benchmarks').slice(0, 40);
  if (rest.length) lines.push(`- **settings**: ${rest.map(([k, v]) => `${escapeInline(k, 40)} = ${settingValue(v)}`).join('; ')}`);
  if (results.stoppedBecause) lines.push(`- **stopped because**: ${escapeInline(results.stoppedBecause, 40)}`);
  if (results.rounds) lines.push(`- **rounds**: ${results.rounds.length}`);
  if (results.shard && results.shard.count > 1) lines.push(`- **shard**: ${results.shard.index}/${results.shard.count}`);
  if (results.tool) lines.push(`- **tool**: ${escapeInline(results.tool.name, 40)} ${escapeInline(results.tool.version, 40)}`);
  const run = safeUrl(ctx.runUrl);
  if (run) lines.push(`- **workflow run**: [${escapeInline(run.replace(/^https?:\/\//, ''), 120)}](${run})`);
  const replay = ctx.replayCommand ?? replayFromResults(results);
  lines.push('', 'Replay this comparison locally:', '', codeBlock(replay.slice(0, 4000), 'sh'), '', 'or judge the saved results again with other settings:', '', codeBlock('npx pairbench report pairbench-results.json --threshold 2% --alpha 0.05', 'sh'));
  return `<details><summary>How this was measured</summary>\n\n${lines.join('\n')}\n\n</details>`;
}

function addedRemoved(ordered: readonly BenchmarkResult[]): string[] {
  const items: string[] = [];
  for (const b of ordered) {
    if (b.presence === 'added') items.push(`- 🆕 **${escapeInline(b.name, NAME_CELL_CHARS)}** is new in head: nothing to compare against.`);
    if (b.presence === 'removed') items.push(`- ➖ **${escapeInline(b.name, NAME_CELL_CHARS)}** is gone in head: it ran in base only.`);
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Assembly under a size limit

/** A byte budget: pieces are taken while they fit. */
class Budget {
  used = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  take(text: string, extra = 1): boolean {
    const n = utf8Bytes(text) + extra;
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }
}

/** Room kept for the note that says the report was cut. */
const CUT_NOTE_RESERVE = 600;

/**
 * Renders the report. The result is at most `ctx.maxLength` UTF-8 bytes (default: a comment's limit).
 */
export function renderMarkdown(results: Results, ctx: MarkdownContext = {}): string {
  const limit = ctx.maxLength ?? REPORT_LIMITS.comment;
  const budget = new Budget(limit - CUT_NOTE_RESERVE);
  const ordered = reportOrder(results.benchmarks);
  let cut = false;

  const marker = ctx.commentId !== undefined ? markerFor(ctx.commentId) : null;
  const head = [marker, headline(results, ctx.title)].filter((x): x is string => x !== null).join('\n');
  budget.take(head, 2);
  const notes = statusNotes(results);
  for (const n of notes) budget.take(n, 2);

  // What must survive, in order: how it was measured (small), the first failure, the table's rows.
  const about = aboutSection(results, ctx);
  const aboutFits = budget.take(about, 2);
  if (!aboutFits) cut = true;

  const failures = allFailures(results);
  const failureTexts: string[] = [];
  for (const f of failures) {
    const text = failureBlock(f);
    if (budget.take(text)) failureTexts.push(text);
    else cut = true;
  }

  const confidence = intervalLabel(results);
  const spread = spreadName(ordered);
  const paired = ordered.some((b) => b.pairedMad !== undefined);
  const rows: string[] = [];
  if (ordered.length > 0) {
    budget.take(tableHead(confidence, spread, paired), 3);
    for (const b of ordered) {
      const row = tableRow(b, paired);
      if (!budget.take(row)) {
        cut = true;
        break;
      }
      rows.push(row);
    }
  }

  const takeAll = (items: string[]): string[] => {
    const taken = items.filter((item) => budget.take(item));
    if (taken.length < items.length) cut = true;
    return taken;
  };
  const addRem = takeAll(addedRemoved(ordered));
  const diag = takeAll(diagnosticsItems(ordered));

  let chartText: string | null = null;
  const threshold = typeof results.settings?.['threshold'] === 'number' ? (results.settings['threshold'] as number) : 0.02;
  const chart = renderChart(ordered, { threshold, maxBars: 25, confidence });
  if (chart) {
    const more = chart.shown < chart.total ? ` Showing the first ${chart.shown} of ${chart.total} benchmarks in the table's order.` : '';
    const text = `<details><summary>Chart of the changes</summary>\n\n${codeBlock(chart.source, 'mermaid')}\n\n${chartLegend(confidence)}${more}\n\n</details>`;
    if (budget.take(text, 2)) chartText = text;
    else cut = true;
  }

  const pairTexts: string[] = [];
  for (const b of ordered) {
    if (b.pairs.length === 0) continue;
    const text = pairsBlock(b);
    if (budget.take(text)) pairTexts.push(text);
    else cut = true;
  }

  // Assemble in reading order.
  const out: string[] = [head];
  if (cut) {
    const shown = rows.length < ordered.length ? ` It shows ${rows.length} of ${ordered.length} benchmarks, regressions first.` : '';
    const where = ctx.fullReportHint ?? 'The full report is in the job summary of the workflow run and in the results file (artifact).';
    const run = safeUrl(ctx.runUrl);
    const link = run ? ` [Open the workflow run](${run}).` : '';
    out.push(`> ✂️ **This report is cut to fit GitHub's size limit.**${shown} ${where}${link}`);
  }
  out.push(...notes);
  if (rows.length) out.push(`${tableHead(confidence, spread, paired)}\n${rows.join('\n')}`);
  // why the intervals are at the level shown, when it is not 1 - alpha (several benchmarks, early stops)
  const levelNote = rows.length ? intervalNote(results) : null;
  if (levelNote && budget.take(levelNote, 14)) out.push(`<sub>${escapeInline(levelNote, 400)}</sub>`);
  if (failureTexts.length) out.push(`**Failures**\n\n${failureTexts.join('\n')}`);
  if (addRem.length) out.push(`**Benchmarks added or removed**\n\n${addRem.join('\n')}`);
  if (diag.length) out.push(`<details><summary>Diagnostics (${diag.length})</summary>\n\n${diag.join('\n')}\n\n</details>`);
  if (chartText) out.push(chartText);
  if (pairTexts.length) out.push(`<details><summary>Pairs and outliers</summary>\n\n${pairTexts.join('\n\n')}\n\n</details>`);
  if (aboutFits) out.push(about);
  let text = `${out.join('\n\n')}\n`;
  if (utf8Bytes(text) > limit) text = hardCut(text, limit);
  return text;
}

/** Last resort for absurdly small limits: cut at a line boundary below the limit. */
function hardCut(text: string, limit: number): string {
  const note = '\n\n✂️ (cut to fit the size limit)\n';
  const room = Math.max(0, limit - utf8Bytes(note));
  const buf = Buffer.from(text, 'utf8').subarray(0, room);
  let s = buf.toString('utf8').replace(/\uFFFD$/, '');
  const nl = s.lastIndexOf('\n');
  if (nl > 0) s = s.slice(0, nl);
  return s + note;
}
