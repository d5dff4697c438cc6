/**
 * A threshold reads the same wherever it is printed (config/values.ts `formatThreshold`): the
 * terminal, the comment and the HTML report's summary line, the HTML report's rows, a finding, the
 * noise report, the replay command and the rejudge notes, as the percentage that was set (`1.25%`),
 * never rounded to one decimal on one surface and two on another. It is read from text once
 * (config/spec.ts `parseOptionValue`), and its default is written once (config/options.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionDef } from '../../src/config/options.ts';
import { optionDefault } from '../../src/config/spec.ts';
import { formatThreshold } from '../../src/config/values.ts';
import { withNoiseFloors } from '../../src/noise-run.ts';
import { wordDiagnostic } from '../../src/report/findings.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderNoiseMarkdown, renderNoiseText } from '../../src/report/noise-report.ts';
import { replayLines } from '../../src/report/replay.ts';
import { pairbench, readResults, ROOT } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { regression50, writeResults } from '../support/results-files.ts';
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

describe('--threshold 2.5% from the flag to every surface', () => {
  it('is read once into 0.025, recorded as that number, and printed as 2.5% by the terminal, the comment, the HTML report and the replay line', () => {
    const dir = tempDir('pairbench-threshold-');
    const file = writeResults(dir, 'results.json', regression50());
    const [md, html, out] = ['report.md', 'report.html', 'judged.json'].map((f) => join(dir, f)) as [string, string, string];
    const res = pairbench(['report', file, '--threshold', '2.5%', '--markdown', md, '--html', html, '--out', out]);
    expect(res.status, res.stderr).toBe(1);
    // the number judged with, as the results file records it: never text
    expect(readResults(out).settings?.['threshold']).toBe(0.025);
    const surfaces = { terminal: res.stdout, comment: readFileSync(md, 'utf8'), html: readFileSync(html, 'utf8') };
    for (const [surface, text] of Object.entries(surfaces)) {
      expect(text, surface).toContain('threshold ±2.5%');
      // every threshold a surface names is this one, in these digits
      for (const m of text.matchAll(/threshold ±([\d.]+%)/g)) expect(m[1], surface).toBe('2.5%');
    }
    // the replay lines: the comparison run again, and the file judged again
    for (const text of [surfaces.comment, surfaces.html]) {
      expect(text).toContain('--seed 1 --threshold 2.5% --max-pairs 30');
      expect(text).toContain(`pairbench report ${file} --threshold 2.5%`);
    }
  });

  it('a threshold given as a fraction (0.025) reads back the same', () => {
    const dir = tempDir('pairbench-threshold-');
    const file = writeResults(dir, 'results.json', regression50());
    const res = pairbench(['report', file, '--threshold', '0.025']);
    expect(res.stdout).toContain('threshold ±2.5%');
  });
});

describe('a threshold is read from text in one place', () => {
  /**
   * Every text that becomes a threshold (a flag, an input, a config file's global and per-benchmark
   * values, a results file's settings) goes through config/spec.ts `parseOptionValue`, whose
   * `percent` kind is the one call of `parsePercent`: a second reader could accept what the flag
   * refuses, or read `2` as 2% where the flag reads 200%.
   */
  it('parsePercent is called once in src/, by parseOptionValue', () => {
    const calls: string[] = [];
    for (const f of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!f.endsWith('.ts')) continue;
      const text = readFileSync(join(ROOT, 'src', f), 'utf8');
      for (const m of text.matchAll(/\bparsePercent\(/g)) {
        const before = text.slice(0, m.index);
        if (/export function $/.test(before)) continue;
        const fn = [...before.matchAll(/^export function (\w+)/gm)].at(-1)?.[1];
        calls.push(`${f}: ${fn ?? '?'}`);
      }
    }
    expect(calls).toEqual([`config${sep}spec.ts: parseOptionValue`]);
  });

  it("the threshold's default is written once, in the option table, and read through it", () => {
    expect(optionDef('threshold')?.default).toBe('2%');
    expect(optionDefault('threshold')).toBe(0.02);
    for (const f of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!f.endsWith('.ts') || f === join('config', 'options.ts')) continue;
      const code = readFileSync(join(ROOT, 'src', f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, f).not.toMatch(/\?\?\s*0\.02\b|['"]2%['"]/);
    }
  });
});
