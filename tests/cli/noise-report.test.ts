/**
 * The A/A noise report renders one model (src/report/noise-model.ts): a seeded noise run of three
 * benchmarks on the scripted runner (PAIRBENCH_DEBUG_RUNNER: the real `pairbench noise`, its
 * results file and reports, with no process timed) gives figures that follow the statistical rules
 * of stats/noise-floor.ts, and the terminal's text and the Markdown report show the same ones: the pairs
 * each threshold needs, the smallest threshold max-pairs resolves, the threshold to configure, and
 * one suggestion for the run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatThreshold } from '../../src/config/values.ts';
import { noiseReportModel, type NoiseRow } from '../../src/report/noise-model.ts';
import { minimumDetectableChange, pairsToDetect } from '../../src/stats/power.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/**
 * quiet (runs ±1%): the run's 2% threshold is resolved well within 30 pairs; noisy (±8%, its own 3%
 * threshold from the config file) needs more than 30 pairs for it; loose (±8%, its own 5%).
 */
function seededRun() {
  const dir = tempDir('pairbench-noise-report-');
  writeFileSync(join(dir, 'pairbench.yml'), ['benchmarks:', '  - name: quiet', '    run: ./quiet', '  - name: noisy', '    run: ./noisy', '    threshold: 3%', '  - name: loose', '    run: ./loose', '    threshold: 5%', ''].join('\n'));
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ seed: 7, benchmarks: { quiet: { baseMs: 10, noise: 0.01 }, noisy: { baseMs: 10, noise: 0.08 }, loose: { baseMs: 10, noise: 0.08 } } }));
  const out = join(dir, 'results.json');
  const markdown = join(dir, 'noise.md');
  const res = pairbench(['noise', '--dir', dir, '--config', join(dir, 'pairbench.yml'), '--seed', '3', '--max-pairs', '30', '--out', out, '--markdown', markdown], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: join(dir, 'script.json') } });
  expect(res.status, res.stderr).toBe(0);
  return { text: res.stdout, markdown: readFileSync(markdown, 'utf8'), results: readResults(out) };
}

describe('the noise report model of a seeded A/A run', () => {
  const run = seededRun();
  const model = noiseReportModel(run.results);
  const rows = model.benchmarks.filter((b): b is NoiseRow => b.measured);
  const row = (name: string) => rows.find((r) => r.name === name)!;

  it("computes each benchmark's figures once, by the rules of stats/noise-floor.ts", () => {
    expect(model.maxPairs).toBe(30);
    expect(model.threshold).toBe(0.02);
    expect(rows.map((r) => [r.name, r.pairs, r.threshold, r.ownThreshold]).sort()).toEqual([
      ['loose', 30, 0.05, true],
      ['noisy', 30, 0.03, true],
      ['quiet', 30, 0.02, false],
    ]);
    for (const r of rows) {
      const noise = run.results.benchmarks.find((b) => b.name === r.name)!.noise!;
      // the pairs its threshold needs, at 80% power, and whether max-pairs reaches them
      expect(r.pairsForThreshold).toBe(pairsToDetect(noise.pairedLogSd, r.threshold, 0.05));
      expect(r.resolved).toBe(r.pairsForThreshold! <= 30);
      // the smallest threshold 30 pairs resolve: the detectable change at 30 pairs, rounded up to 0.5%
      const atMax = minimumDetectableChange(noise.pairedLogSd, 30, 0.05);
      expect(r.smallestResolvable).toBeCloseTo(Math.max(0.005, Math.ceil(atMax * 200) / 200), 12);
      // the threshold to configure: its own when resolved, else the smallest resolvable
      expect(r.suggested).toBe(r.resolved ? r.threshold : Math.max(r.threshold, r.smallestResolvable!));
    }
    expect(row('quiet').resolved).toBe(true);
    expect(row('quiet').smallestResolvable).toBeLessThan(0.02);
    expect(row('noisy').resolved).toBe(false);
    expect(row('noisy').suggested).toBeGreaterThan(0.03);
    // one suggestion for the run: from the benchmarks judged by its threshold (quiet's, resolved: the
    // threshold as set), neither the smallest it resolves nor a threshold of another benchmark's own
    expect(model.suggestedThreshold).toBe(0.02);
  });

  it('the terminal and the Markdown report show the same figures', () => {
    for (const r of rows) {
      const needs = `about ${r.pairsForThreshold}`;
      // the terminal: the pairs its threshold needs, and the smallest threshold max-pairs resolves
      expect(run.text).toContain(`To detect the ${formatThreshold(r.threshold)} threshold it needs ${needs} pairs; with max-pairs 30, a threshold of ${formatThreshold(r.smallestResolvable!)} or more is resolvable.`);
      // the Markdown table: the same threshold, pairs and threshold to configure, and the same in its YAML
      const line = run.markdown.split('\n').find((l) => l.startsWith(`| ${r.name} |`));
      expect(line).toContain(`| ${formatThreshold(r.threshold)} | ${needs} | ${formatThreshold(r.suggested!)} |`);
      expect(run.markdown).toContain(`- name: "${r.name}"\n    threshold: ${formatThreshold(r.suggested!)}   # `);
    }
    // the one suggestion of the terminal is the threshold the Markdown report suggests for the benchmarks judged by the run's threshold
    const suggested = /Suggested settings: threshold: ([\d.]+%), max-pairs: 30/.exec(run.text)?.[1];
    expect(suggested).toBe(formatThreshold(model.suggestedThreshold!));
    expect(run.markdown).toContain(`- name: "quiet"\n    threshold: ${suggested}   # resolved in about ${row('quiet').pairsForThreshold} pairs here`);
    expect(run.markdown).toContain('suggested threshold (max-pairs 30)');
  });
});
