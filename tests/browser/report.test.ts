/**
 * The comment and the HTML report in a real browser (Chromium, playwright-core): they load without
 * a console error, every plot is visible with the marks it should have, the forest plot's text
 * lines up in GitHub's code font, and at 400 px (a phone) the verdict column is on screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import type { Results } from '../../src/results/schema.ts';
import { bench, goSuite, results } from '../report/markdown-fixtures.ts';
import { gfmPage, launchBrowser, skipBrowser, type Browser } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  if (!skipBrowser) browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** The Go suite with outliers in one benchmark and a diagnostic, as a demanding case for the plots. */
function suite(): Results {
  const r = goSuite();
  const parse = r.benchmarks.find((b) => b.name === 'go/BenchmarkParse')!;
  parse.outliers = [3, 17];
  parse.outliersKept = [40];
  parse.diagnostics = [{ code: 'drift', severity: 'info', message: 'both sides drifted by 4% over the run; the ratio did not' }];
  return r;
}

describe.skipIf(skipBrowser)('the comment, rendered as GitHub renders it', () => {
  for (const [what, make] of [
    ['the demo (one benchmark)', () => results([bench('demo (work.c)', 'regression', 0.1, { unit: 'ms', n: 40 })])],
    ['a Go suite of 11 rows', suite],
  ] as const) {
    it(`${what}: loads cleanly, the forest plot lines up, the verdict column is on screen at 400 px`, async () => {
      const md = renderMarkdown(make(), { commentId: 'perf', runUrl: 'https://github.com/o/r/actions/runs/1' });
      const { page, errors } = await browser.page({ width: 400, height: 900 });
      await page.setContent(gfmPage(md), { waitUntil: 'load' });
      expect(errors).toEqual([]);

      // the forest plot: a visible code block whose lines are all as wide as their characters in a monospace font
      const plot = page.locator('pre', { hasText: 'o estimate' });
      await expect.poll(() => plot.isVisible()).toBe(true);
      // (in the page: the code block's lines measured in its own font)
      const widths = (await page.evaluate(`(() => {
        const pre = [...document.querySelectorAll('pre')].find((p) => p.textContent.includes('o estimate'));
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = getComputedStyle(pre).font;
        const cell = ctx.measureText('M').width;
        return pre.textContent.split('\\n').filter((l) => l.length > 0).map((l) => Math.abs(ctx.measureText(l).width - l.length * cell));
      })()`)) as number[];
      expect(widths.length).toBeGreaterThan(4);
      expect(Math.max(...widths)).toBeLessThan(0.5);
      const rows = (await plot.textContent())!.split('\n').slice(2).filter((l) => l.length > 60 && /[o<>]/.test(l.slice(0, 33)));
      expect(rows.length).toBeGreaterThan(0);

      // the table: verdict first, on screen at 400 px
      const cell = page.locator('table').first().locator('tbody tr').first().locator('td').first();
      await expect.poll(() => cell.isVisible()).toBe(true);
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(400);
      expect(await cell.textContent()).toMatch(/^🔴 regression$/);
      await page.close();
    }, 60_000);
  }
});

describe.skipIf(skipBrowser)('the HTML report', () => {
  it('loads with no console error and no request, in light and dark', async () => {
    const html = renderHtml(suite());
    const light = await browser.page();
    await light.page.setContent(html, { waitUntil: 'load' });
    expect(light.errors).toEqual([]);
    const dark = await browser.page(undefined, 'dark');
    await dark.page.setContent(html, { waitUntil: 'load' });
    expect(dark.errors).toEqual([]);
    const bg = (p: typeof light.page) => p.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(await bg(light.page)).toBe('rgb(255, 255, 255)');
    expect(await bg(dark.page)).toBe('rgb(13, 17, 23)');
    await light.page.close();
    await dark.page.close();
  }, 60_000);

  it('every plot is visible, with its marks: a forest row per benchmark, a dot per pair, × per excluded outlier', async () => {
    const r = suite();
    const { page, errors } = await browser.page();
    await page.setContent(renderHtml(r), { waitUntil: 'load' });
    const plots = page.locator('svg.plot');
    const count = await plots.count();
    // the forest plot, and two plots per result
    expect(count).toBe(1 + 2 * r.benchmarks.length);
    for (let i = 0; i < count; i++) {
      const box = await plots.nth(i).boundingBox();
      expect(box && box.width > 100 && box.height > 50).toBe(true);
    }
    const forest = page.locator('svg.forest');
    // one row per benchmark's own metric, the changed derived metric (MB/s), and the geometric mean
    expect(await forest.locator('g.row').count()).toBe(4 + 1 + 1);
    expect(await forest.locator('g.row.regression circle.estimate').count()).toBe(2);
    expect(await forest.locator('g.row.improvement circle.estimate').count()).toBe(1);
    expect(await forest.getAttribute('role')).toBe('img');
    expect(await forest.locator('desc').textContent()).toMatch(/worse to the right/);

    const parse = page.locator('section.bench', { has: page.locator('h3', { hasText: /go\/BenchmarkParse\s+time/ }) });
    expect(await parse.locator('ul.diag li', { hasText: 'both sides drifted' }).count()).toBe(1);
    const ratios = parse.locator('svg.ratios');
    expect(await ratios.locator('circle.pair').count()).toBe(200 - 2 - 1);
    expect(await ratios.locator('circle.flagged').count()).toBe(1);
    expect(await ratios.locator('path.outlier').count()).toBe(2);
    const timeline = parse.locator('svg.timeline');
    expect(await timeline.locator('circle.base').count()).toBe(200);
    expect(await timeline.locator('rect.head').count()).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('at 400 px the verdict column is on screen', async () => {
    const { page } = await browser.page({ width: 400, height: 800 });
    await page.setContent(renderHtml(suite()), { waitUntil: 'load' });
    const cell = page.locator('table tbody tr').first().locator('td').first();
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(400);
    expect(await cell.textContent()).toBe('🔴 regression');
    const forest = (await page.locator('svg.forest').boundingBox())!;
    expect(forest.width).toBeLessThanOrEqual(400);
    await page.close();
  }, 60_000);
});
