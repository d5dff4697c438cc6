/**
 * The HTML report as text: self-contained, every untrusted string escaped (S6), every benchmark
 * with its plots; and `--html` on the command line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { pairbench } from '../support/cli.ts';
import { HOSTILE_NAMES, bench, goSuite, results } from './markdown-fixtures.ts';
import { tempDir } from '../support/repo.ts';

describe('renderHtml', () => {
  it('is self-contained: no script, no external resource, a policy that forbids both', () => {
    const html = renderHtml(goSuite());
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
    expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
    expect(html).toContain('@media (prefers-color-scheme:dark)');
  });

  it('S6: escapes every benchmark name, environment string and ref', () => {
    const r = results(
      HOSTILE_NAMES.map((name, i) => bench(name, i % 2 ? 'regression' : 'unchanged', i % 2 ? 0.05 : 0.001)),
      { head: { ref: '<script>alert(1)</script>', sha: null }, environment: { os: '<b>os</b>', cpu: '"><svg onload=alert(1)>', cores: 2 } },
    );
    const html = renderHtml(r);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>os');
    expect(html).not.toContain('<svg onload');
    expect(html).not.toContain('<!-- pairbench');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('has a section with two plots for every result, changed ones first', () => {
    const html = renderHtml(goSuite());
    const sections = [...html.matchAll(/<section class="bench"[^>]*><h3[^>]*><span class="k-(\w+)">/g)].map((m) => m[1]);
    expect(sections).toHaveLength(11);
    expect(sections.slice(0, 2)).toEqual(['regression', 'regression']);
    expect(html.match(/class="plot ratios"/g)).toHaveLength(11);
    expect(html.match(/class="plot timeline"/g)).toHaveLength(11);
  });
});

describe('--html', () => {
  it('says once, at the top, what many benchmarks share, as the comment does; each section keeps its own', () => {
    const noisy = (i: number) => ({ code: 'high-noise', severity: 'warning', figures: { pairedCv: 0.05 + i / 100, pairs: 20, detectable: 0.07, pairsForThreshold: 400, threshold: 0.02, metric: null } }) as const;
    const go = { code: 'go-noise', severity: 'info', figures: { allocsPerOp: 3, oneThread: false } } as const;
    const html = renderHtml(results(Array.from({ length: 6 }, (_, i) => bench(`BenchmarkParse/case${i}`, 'inconclusive', 0.01, { diagnostics: [noisy(i), go] }))));
    const top = html.slice(0, html.indexOf('<h2>'));
    expect(top).toContain('<p class="note warning">⚠️ <strong>6 of 6 benchmarks are noisy even in pairs</strong>');
    expect(top).toContain('varies by 5.0% to 10.0% (CV)');
    expect(top).toContain('<strong>6 of the noisy benchmarks are Go benchmarks whose own code or command can cut their noise</strong>');
    expect(top.match(/noisy even in pairs/g)).toHaveLength(1);
    // every benchmark's section still says its own
    expect(html.slice(html.indexOf('<h2>Each benchmark')).match(/Noisy even in pairs/g)).toHaveLength(6);
    // two benchmarks share nothing worth a line at the top
    const two = renderHtml(results(Array.from({ length: 2 }, (_, i) => bench(`BenchmarkParse/case${i}`, 'inconclusive', 0.01, { diagnostics: [noisy(i), go] }))));
    expect(two.slice(0, two.indexOf('<h2>'))).not.toContain('noisy even in pairs');
  });

  it('pairbench report writes the HTML report of a results file', () => {
    const dir = tempDir('pairbench-html-');
    writeFileSync(join(dir, 'r.json'), JSON.stringify(goSuite()));
    const res = pairbench(['report', join(dir, 'r.json'), '--html', join(dir, 'r.html'), '--fail-on', 'none']);
    expect(res.status, res.stderr).toBe(0);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<svg class="plot forest"');
    expect(pairbench(['report', '--help']).stdout).toMatch(/--html <file> +write the HTML report/);
    expect(pairbench(['compare', '--help']).stdout).toMatch(/--html <file> +write the HTML report/);
  });
});
