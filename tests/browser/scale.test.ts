/**
 * S20: `pairbench report --html` of a results file with a million pairs in one benchmark (the cap of
 * the results file) finishes, and its report is small and opens in Chromium: no console error, both
 * plots of the benchmark on screen, each saying how it binned the pairs.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairbench } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { launchBrowser, skipBrowser, type Browser } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  if (!skipBrowser) browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/**
 * A results file of one benchmark with `n` pairs: head 3% slower (±1% from pair to pair), both sides drifting by ±10% over
 * the run, and one pair in 99,991 three times as slow on both sides (a spike the timeline must show).
 */
function writeHugeFile(path: string, n: number): void {
  const pairs: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const base = 10 * (1 + 0.1 * Math.sin((i / n) * 2 * Math.PI)) * (1 + ((i * 7919) % 211) / 10_000) * (i % 99_991 === 7 ? 3 : 1);
    const head = base * 1.03 * (1 + (((i * 104_729) % 2001) - 1000) / 100_000);
    pairs[i] = `{"base":${base.toFixed(6)},"head":${head.toFixed(6)},"order":"${i % 2 ? 'base-first' : 'head-first'}"}`;
  }
  const sha = (c: string) => c.repeat(40);
  writeFileSync(path, `{"schemaVersion":1,"base":{"sha":"${sha('a')}"},"head":{"sha":"${sha('b')}"},"benchmarks":[{"name":"parse/huge 😀","unit":"ms","direction":"lower-is-better","pairs":[${pairs.join(',')}]}]}\n`);
}

describe.skipIf(skipBrowser)('S20: the HTML report of a million pairs', () => {
  it('S20: pairbench report --html of 1,000,000 pairs finishes, and the report (under 10 MB) opens in Chromium with both plots binned', async () => {
    const dir = tempDir();
    const file = join(dir, 'huge.json');
    const html = join(dir, 'huge.html');
    writeHugeFile(file, 1_000_000);
    const res = pairbench(['report', file, '--html', html], { cwd: dir, timeoutMs: 300_000 });
    expect(res.stderr).toBe('');
    // a regression of 3%: the comparison's status, not 3
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/parse\/huge 😀\s.*1000000\s+regression/);
    const size = statSync(html).size;
    expect(size).toBeLessThan(10 * 1024 * 1024);

    const { page, errors } = await browser.page({ width: 1000, height: 900 });
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
    const section = page.locator('section.bench').first();
    const ratios = section.locator('svg.ratios');
    const timeline = section.locator('svg.timeline');
    for (const plot of [ratios, timeline]) {
      const box = await plot.boundingBox();
      expect(box && box.width > 300 && box.height > 80).toBe(true);
    }
    expect(await ratios.locator('text', { hasText: '1,000,000 pairs in 120 bins' }).count()).toBe(1);
    expect(await ratios.locator('rect.bar').count()).toBeGreaterThan(5);
    expect(await ratios.locator('rect.bar').count()).toBeLessThanOrEqual(120);
    expect(await timeline.locator('text', { hasText: 'median of each run of 5,000 pairs' }).count()).toBe(1);
    expect(await timeline.locator('rect.run').count()).toBe(200);
    // the spike: the value axis reaches the slow pairs' 30 ms, though every median is near 10 ms
    expect(await timeline.locator('text.axis').first().textContent()).toMatch(/^3\d\.\d ms$/);
    expect(await section.locator('h3').textContent()).toContain('parse/huge 😀');
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
