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
