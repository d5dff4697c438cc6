/**
 * The report of `pairbench noise`, in plain words: how noisy this machine is for each benchmark,
 * and which `threshold` and `max-pairs` it supports. Both surfaces, the terminal's text and the
 * Markdown summary, word the one noise report model (noise-model.ts): every figure, which threshold
 * is resolvable and which to configure, is decided there. Changes read with the one decimal of every
 * report (format.ts `formatChange`), thresholds as every surface prints them (config/values.ts
 * `formatThreshold`). Pure: results in, text out.
 */
import { formatThreshold } from '../config/values.ts';
import type { Results } from '../results/schema.ts';
import { MARKDOWN } from './comment.ts';
import { codeBlock, escapeInline } from './escape.ts';
import { formatChange } from './format.ts';
import { PLAIN } from './markup.ts';
import { noiseReportModel, type NoiseReportModel, type NoiseRow } from './noise-model.ts';
import { safeText } from './terminal.ts';
import { revisionText } from './words.ts';

const pct = (f: number, digits = 1) => (Number.isFinite(f) ? `${(f * 100).toFixed(digits)}%` : 'n/a');

/** A threshold, `n/a` when this machine's noise could not give one. */
const thresholdText = (f: number | null) => (f === null ? 'n/a' : formatThreshold(f));

function sentences(r: NoiseRow, maxPairs: number): string[] {
  const out: string[] = [];
  out.push(`A single run varies by ${pct(r.singleRunCv)} (CV); within a pair, head/base varies by ${pct(r.pairedCv)}: pairing cancelled ${pct(r.pairingGain, 0)} of the run-to-run variation.`);
  out.push(`Smallest change compare would detect here (80% power): ${r.detectable.map((d) => `${pct(d.change)} with ${d.pairs} pairs`).join(', ')}.`);
  const forThreshold = r.pairsForThreshold !== null ? `about ${r.pairsForThreshold} pairs` : 'more pairs than is practical';
  const resolvable = r.smallestResolvable !== null ? `a threshold of ${formatThreshold(r.smallestResolvable)} or more is resolvable` : 'no threshold is resolvable (too few pairs for any change to reach significance)';
  out.push(`To detect the ${formatThreshold(r.threshold)} threshold it needs ${forThreshold}; with max-pairs ${maxPairs}, ${resolvable}.`);
  if (r.slotAdvantage !== null) {
    out.push(`Warning: identical sides differ by ${formatChange(r.slotAdvantage)}: the first or second slot of a pair has an advantage here (caches, frequency). Add --warmup or a --prepare step.`);
  }
  return out;
}

/** The terminal's text of the noise report model. */
function noiseText(model: NoiseReportModel): string {
  const rev = revisionText(model.revision, PLAIN);
  const lines: string[] = [`Noise floor of this machine (A/A: the same revision, ${rev}, on both sides, ${model.cores ?? '?'} cores, ${safeText(model.cpu ?? 'unknown CPU')})`, ''];
  for (const r of model.benchmarks) {
    if (!r.measured) {
      lines.push(`${safeText(r.name)}: too few pairs to measure the noise (${r.pairs}).`);
      continue;
    }
    lines.push(`${safeText(r.name)} (${r.pairs} pairs):`);
    for (const s of sentences(r, model.maxPairs)) lines.push(`  ${s}`);
    lines.push('');
  }
  if (model.suggestedThreshold !== null) {
    lines.push(`Suggested settings: threshold: ${thresholdText(model.suggestedThreshold)}, max-pairs: ${model.maxPairs} (or more pairs for a smaller threshold).`);
  }
  return lines.join('\n').trimEnd();
}

export function renderNoiseText(results: Results): string {
  return noiseText(noiseReportModel(results));
}

/**
 * The Markdown report (job summary of `mode: noise`): one table with each benchmark's noise, its
 * own threshold, the pairs that threshold needs here and the threshold to configure; then the
 * suggested settings as a config file. Said once: per-benchmark prose is only for warnings.
 */
function noiseMarkdown(model: NoiseReportModel): string {
  const { maxPairs } = model;
  const rows = model.benchmarks.filter((b): b is NoiseRow => b.measured);
  const unmeasured = model.benchmarks.filter((b) => !b.measured);
  const lines = [
    '### pairbench noise: the noise floor of this runner',
    '',
    `An A/A run: the same revision, ${revisionText(model.revision, MARKDOWN)}, on both sides of every pair, ${model.cores ?? '?'} cores, ${escapeInline(model.cpu ?? 'unknown CPU', 120)}. A change smaller than the detectable one is lost in this machine's noise at that many pairs (80% power).`,
    '',
    `| benchmark | pairs | single-run CV | paired CV | detectable with 30 / 100 / 300 pairs | threshold | pairs it needs | suggested threshold (max-pairs ${maxPairs}) |`,
    '|---|---:|---:|---:|---|---:|---:|---:|',
  ];
  for (const r of rows) {
    const needs = r.pairsForThreshold !== null ? `about ${r.pairsForThreshold}` : 'too many';
    lines.push(`| ${escapeInline(r.name, 200)} | ${r.pairs} | ${pct(r.singleRunCv)} | ${pct(r.pairedCv)} | ${r.detectable.map((d) => pct(d.change)).join(' / ')} | ${formatThreshold(r.threshold)} | ${needs} | ${thresholdText(r.suggested)} |`);
  }
  if (unmeasured.length > 0) lines.push('', `Too few pairs to measure the noise of ${unmeasured.map((u) => `**${escapeInline(u.name, 200)}**`).join(', ')}.`);
  const warnings = rows.filter((r) => r.slotAdvantage !== null);
  if (warnings.length > 0) {
    lines.push('', '⚠️ Identical sides differ, so the first or second slot of a pair has an advantage here (caches, frequency); add `warmup` or a `prepare` step:');
    for (const r of warnings) lines.push(`- **${escapeInline(r.name, 200)}**: ${formatChange(r.slotAdvantage!)}`);
  }
  if (rows.length > 0) {
    const yaml = [`max-pairs: ${maxPairs}`, 'benchmarks:'];
    for (const r of rows) {
      const why = r.resolved ? `resolved in about ${r.pairsForThreshold} pairs here` : `${formatThreshold(r.threshold)} would need about ${r.pairsForThreshold ?? 'too many'} pairs`;
      // inside a code block names are shown as they are; only line breaks could break the YAML
      yaml.push(`  - name: ${JSON.stringify(r.name.replace(/[\r\n]+/g, ' ').slice(0, 200))}`, `    threshold: ${thresholdText(r.suggested)}   # ${why}`);
    }
    lines.push('', 'Suggested settings for this runner (the `run` of each benchmark stays as it is):', '', codeBlock(yaml.join('\n'), 'yaml'));
  }
  return lines.join('\n');
}

export function renderNoiseMarkdown(results: Results): string {
  return noiseMarkdown(noiseReportModel(results));
}
