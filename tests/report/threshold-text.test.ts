/**
 * A threshold reads the same wherever it is printed (config/values.ts `formatThreshold`): the HTML
 * report, a finding, the noise report, the replay command and the rejudge notes, as the percentage
 * that was set (`1.25%`), never rounded to one decimal on one surface and two on another.
 */
import { describe, expect, it } from 'vitest';
import { formatThreshold } from '../../src/config/values.ts';
import { withNoiseFloors } from '../../src/noise-run.ts';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderNoiseMarkdown, renderNoiseText } from '../../src/report/noise-report.ts';
import { replayLines } from '../../src/report/replay.ts';
import { bench, results } from './markdown-fixtures.ts';

describe('a threshold of 1.25%', () => {
  const settings = { alpha: 0.05, threshold: 0.0125, maxPairs: 60, seed: 1 };
  const r = results([bench('parse', 'unchanged', 0, { n: 60 })], { settings });

  it('is printed by one formatter, with its digits', () => {
    expect(formatThreshold(0.0125)).toBe('1.25%');
    expect(formatThreshold(0.02)).toBe('2%');
    expect(formatThreshold(0.005)).toBe('0.5%');
  });

  it('reads 1.25% in the HTML report, a finding, the noise reports and the replay command', () => {
    expect(renderHtml(r)).toContain('threshold ±1.25%');
    const finding = { code: 'high-noise', severity: 'warning', figures: { pairedCv: 0.05, pairs: 30, detectable: 0.07, pairsForThreshold: 400, threshold: 0.0125, metric: null } } as const;
    expect(wordDiagnostic(finding, 'cli')).toContain('(the threshold is 1.25%)');
    const aa = withNoiseFloors(r, { alpha: 0.05, threshold: 0.0125, maxPairs: 60 });
    expect(renderNoiseText(aa)).toContain('To detect the 1.25% threshold');
    expect(renderNoiseMarkdown(aa)).toMatch(/\| parse \| 60 \| .* \| 1\.25% \| /);
    expect(replayLines(r).replay).toContain('--threshold 1.25%');
  });
});
