/**
 * The report of `pairbench noise`, in plain words: how noisy this machine is for each benchmark,
 * and which `threshold` and `max-pairs` it supports. Pure: results in, text out.
 */
import type { BenchmarkResult, Results } from '../results/schema.ts';
import { escapeInline } from './escape.ts';
import { formatPercent } from './format.ts';
import { safeText } from './terminal.ts';

const pct = (f: number, digits = 1) => (Number.isFinite(f) ? `${(f * 100).toFixed(digits)}%` : 'n/a');

function sentences(b: BenchmarkResult, threshold: number, maxPairs: number): string[] {
  const n = b.noise!;
  const out: string[] = [];
  out.push(`A single run varies by ${pct(n.singleRunCv)} (CV); within a pair, head/base varies by ${pct(n.pairedCv)}: pairing cancelled ${pct(Math.max(0, n.pairingGain), 0)} of the run-to-run variation.`);
  out.push(`Smallest change compare would detect here (80% power): ${n.detectable.map((d) => `${pct(d.change, 2)} with ${d.pairs} pairs`).join(', ')}.`);
  const forThreshold = Number.isFinite(n.pairsForThreshold) ? `about ${n.pairsForThreshold} pairs` : 'more pairs than is practical';
  out.push(`To detect the ${pct(threshold, 1)} threshold it needs ${forThreshold}; with max-pairs ${maxPairs}, a threshold of ${pct(n.suggestedThreshold, 1)} or more is resolvable.`);
  if (Math.abs(n.aaChange) > Math.max(0.005, 3 * n.pairedLogSd / Math.sqrt(Math.max(1, n.pairs)))) {
    out.push(`Warning: identical sides differ by ${formatPercent(n.aaChange)}: the first or second slot of a pair has an advantage here (caches, frequency). Add --warmup or a --prepare step.`);
  }
  return out;
}

function settingsOf(results: Results): { threshold: number; maxPairs: number } {
  const s = results.settings ?? {};
  return { threshold: Number(s['threshold'] ?? 0.02), maxPairs: Number(s['maxPairs'] ?? 60) };
}

export function renderNoiseText(results: Results): string {
  const { threshold, maxPairs } = settingsOf(results);
  const lines: string[] = [`Noise floor of this machine (A/A: the same revision on both sides, ${results.environment?.cores ?? '?'} cores, ${safeText(results.environment?.cpu ?? 'unknown CPU')})`, ''];
  for (const b of results.benchmarks) {
    if (!b.noise) {
      lines.push(`${safeText(b.name)}: too few pairs to measure the noise (${b.pairs.length}).`);
      continue;
    }
    lines.push(`${safeText(b.name)} (${b.noise.pairs} pairs):`);
    for (const s of sentences(b, threshold, maxPairs)) lines.push(`  ${s}`);
    lines.push('');
  }
  const floors = results.benchmarks.flatMap((b) => (b.noise ? [b.noise.suggestedThreshold] : []));
  if (floors.length > 0) {
    lines.push(`Suggested settings: threshold: ${pct(floors.reduce((a, b) => Math.max(a, b)), 1)}, max-pairs: ${maxPairs} (or more pairs for a smaller threshold).`);
  }
  return lines.join('\n').trimEnd();
}

export function renderNoiseMarkdown(results: Results): string {
  const { threshold, maxPairs } = settingsOf(results);
  const lines = ['### pairbench noise: the noise floor of this runner', '', '| benchmark | pairs | single-run CV | paired CV | detectable with 30 / 100 / 300 pairs |', '|---|---:|---:|---:|---|'];
  for (const b of results.benchmarks) {
    if (!b.noise) continue;
    const n = b.noise;
    lines.push(`| ${escapeInline(b.name, 200)} | ${n.pairs} | ${pct(n.singleRunCv)} | ${pct(n.pairedCv)} | ${n.detectable.map((d) => pct(d.change, 2)).join(' / ')} |`);
  }
  lines.push('');
  for (const b of results.benchmarks) {
    if (!b.noise) continue;
    lines.push(`**${escapeInline(b.name, 200)}**: ${sentences(b, threshold, maxPairs).map((s) => escapeInline(s)).join(' ')}`, '');
  }
  return lines.join('\n');
}
