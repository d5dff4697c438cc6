/**
 * The report of `pairbench noise`, in plain words: how noisy this machine is for each benchmark,
 * and which `threshold` and `max-pairs` it supports. An A/A run has no verdict to count: of the
 * report model (model.ts) it shows the revision measured, named as every report names it, and its
 * changes read with the one decimal of every report (format.ts `formatChange`). Pure: results in,
 * text out.
 */
import type { BenchmarkResult, Results } from '../results/schema.ts';
import { readRecordedSetting, recordedOr } from '../results/recorded.ts';
import { slotAdvantage, thresholdToConfigure } from '../stats/noise-floor.ts';
import { MARKDOWN } from './comment.ts';
import { codeBlock, escapeInline } from './escape.ts';
import { formatChange } from './format.ts';
import { formatThreshold } from '../config/values.ts';
import { reportModel } from './model.ts';
import { safeText } from './terminal.ts';
import { PLAIN } from './markup.ts';
import { revisionText } from './words.ts';

const pct = (f: number, digits = 1) => (Number.isFinite(f) ? `${(f * 100).toFixed(digits)}%` : 'n/a');

function sentences(b: BenchmarkResult, threshold: number, maxPairs: number): string[] {
  const n = b.noise!;
  const out: string[] = [];
  out.push(`A single run varies by ${pct(n.singleRunCv)} (CV); within a pair, head/base varies by ${pct(n.pairedCv)}: pairing cancelled ${pct(Math.max(0, n.pairingGain), 0)} of the run-to-run variation.`);
  out.push(`Smallest change compare would detect here (80% power): ${n.detectable.map((d) => `${pct(d.change)} with ${d.pairs} pairs`).join(', ')}.`);
  const forThreshold = Number.isFinite(n.pairsForThreshold) ? `about ${n.pairsForThreshold} pairs` : 'more pairs than is practical';
  out.push(`To detect the ${formatThreshold(threshold)} threshold it needs ${forThreshold}; with max-pairs ${maxPairs}, a threshold of ${thresholdText(n.suggestedThreshold)} or more is resolvable.`);
  if (slotAdvantage(n)) {
    out.push(`Warning: identical sides differ by ${formatChange(n.aaChange)}: the first or second slot of a pair has an advantage here (caches, frequency). Add --warmup or a --prepare step.`);
  }
  return out;
}

function settingsOf(results: Results): { threshold: number; maxPairs: number } {
  // a noise run's max-pairs defaults to 60 (cli/noise-command.ts), not compare's 200; it is always recorded
  const maxPairs = readRecordedSetting(results.settings, 'maxPairs');
  return { threshold: recordedOr(results.settings, 'threshold') as number, maxPairs: maxPairs && 'value' in maxPairs ? Number(maxPairs.value) : 60 };
}

/** A benchmark's own threshold (config file), else the comparison's. */
function thresholdOf(b: BenchmarkResult, fallback: number): number {
  return b.threshold ?? fallback;
}

/** The threshold to configure for a benchmark (stats/noise-floor.ts `thresholdToConfigure`). */
function suggestedThreshold(b: BenchmarkResult, threshold: number, maxPairs: number): number {
  return thresholdToConfigure(b.noise!, threshold, maxPairs);
}

/** A suggested threshold, `n/a` when this machine's noise could not be measured (config/values.ts `formatThreshold`). */
const thresholdText = (f: number) => (Number.isFinite(f) ? formatThreshold(f) : 'n/a');

export function renderNoiseText(results: Results): string {
  const { threshold, maxPairs } = settingsOf(results);
  const rev = revisionText(reportModel(results).head, PLAIN);
  const lines: string[] = [`Noise floor of this machine (A/A: the same revision, ${rev}, on both sides, ${results.environment?.cores ?? '?'} cores, ${safeText(results.environment?.cpu ?? 'unknown CPU')})`, ''];
  for (const b of results.benchmarks) {
    if (!b.noise) {
      lines.push(`${safeText(b.name)}: too few pairs to measure the noise (${b.pairs.length}).`);
      continue;
    }
    lines.push(`${safeText(b.name)} (${b.noise.pairs} pairs):`);
    for (const s of sentences(b, thresholdOf(b, threshold), maxPairs)) lines.push(`  ${s}`);
    lines.push('');
  }
  const floors = results.benchmarks.flatMap((b) => (b.noise ? [b.noise.suggestedThreshold] : []));
  if (floors.length > 0) {
    lines.push(`Suggested settings: threshold: ${thresholdText(floors.reduce((a, b) => Math.max(a, b)))}, max-pairs: ${maxPairs} (or more pairs for a smaller threshold).`);
  }
  return lines.join('\n').trimEnd();
}

/**
 * The Markdown report (job summary of `mode: noise`): one table with each benchmark's noise, its
 * own threshold, the pairs that threshold needs here and the threshold to configure; then the
 * suggested settings as a config file. Said once: per-benchmark prose is only for warnings.
 */
export function renderNoiseMarkdown(results: Results): string {
  const { threshold, maxPairs } = settingsOf(results);
  const measured = results.benchmarks.filter((b) => b.noise);
  const lines = [
    '### pairbench noise: the noise floor of this runner',
    '',
    `An A/A run: the same revision, ${revisionText(reportModel(results).head, MARKDOWN)}, on both sides of every pair, ${results.environment?.cores ?? '?'} cores, ${escapeInline(results.environment?.cpu ?? 'unknown CPU', 120)}. A change smaller than the detectable one is lost in this machine's noise at that many pairs (80% power).`,
    '',
    `| benchmark | pairs | single-run CV | paired CV | detectable with 30 / 100 / 300 pairs | threshold | pairs it needs | suggested threshold (max-pairs ${maxPairs}) |`,
    '|---|---:|---:|---:|---|---:|---:|---:|',
  ];
  for (const b of measured) {
    const n = b.noise!;
    const own = thresholdOf(b, threshold);
    const needs = Number.isFinite(n.pairsForThreshold) ? `about ${n.pairsForThreshold}` : 'too many';
    lines.push(`| ${escapeInline(b.name, 200)} | ${n.pairs} | ${pct(n.singleRunCv)} | ${pct(n.pairedCv)} | ${n.detectable.map((d) => pct(d.change)).join(' / ')} | ${formatThreshold(own)} | ${needs} | ${thresholdText(suggestedThreshold(b, own, maxPairs))} |`);
  }
  const skipped = results.benchmarks.filter((b) => !b.noise);
  if (skipped.length > 0) lines.push('', `Too few pairs to measure the noise of ${skipped.map((b) => `**${escapeInline(b.name, 200)}**`).join(', ')}.`);
  const warnings = measured.filter((b) => slotAdvantage(b.noise!));
  if (warnings.length > 0) {
    lines.push('', '⚠️ Identical sides differ, so the first or second slot of a pair has an advantage here (caches, frequency); add `warmup` or a `prepare` step:');
    for (const b of warnings) lines.push(`- **${escapeInline(b.name, 200)}**: ${formatChange(b.noise!.aaChange)}`);
  }
  if (measured.length > 0) {
    const yaml = [`max-pairs: ${maxPairs}`, 'benchmarks:'];
    for (const b of measured) {
      const own = thresholdOf(b, threshold);
      const suggested = suggestedThreshold(b, own, maxPairs);
      const why = suggested === own ? `resolved in about ${b.noise!.pairsForThreshold} pairs here` : `${formatThreshold(own)} would need about ${Number.isFinite(b.noise!.pairsForThreshold) ? b.noise!.pairsForThreshold : 'too many'} pairs`;
      // inside a code block names are shown as they are; only line breaks could break the YAML
      yaml.push(`  - name: ${JSON.stringify(b.name.replace(/[\r\n]+/g, ' ').slice(0, 200))}`, `    threshold: ${thresholdText(suggested)}   # ${why}`);
    }
    lines.push('', 'Suggested settings for this runner (the `run` of each benchmark stays as it is):', '', codeBlock(yaml.join('\n'), 'yaml'));
  }
  return lines.join('\n');
}
