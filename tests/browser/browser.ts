/**
 * Chromium for the browser tests: Debian's package (`apt-get install chromium`), driven by
 * playwright-core, which downloads no browser. Each test gets a fresh, empty profile.
 *
 * Where Chromium is missing the browser tests are skipped with a message, except under CI=true,
 * where a missing browser fails them: CI must not pass without having looked.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Marked } from 'marked';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = process.env['CI'] === 'true';

if (!HAS_CHROMIUM && !IN_CI) console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (sudo apt-get install -y chromium)`);

/** Whether to skip the browser tests here; under CI=true a missing Chromium is a failure instead. */
export const skipBrowser = !HAS_CHROMIUM && !IN_CI;

export interface Browser {
  context: BrowserContext;
  /** a new page that records console errors and page errors */
  page(viewport?: { width: number; height: number }, colorScheme?: 'light' | 'dark'): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!HAS_CHROMIUM) throw new Error(`Chromium is required for the browser tests and is missing at ${CHROMIUM}: sudo apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), 'pairbench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // nothing a report shows may come from the network
  await context.route(/^(https?|wss?):/, (route) => route.abort());
  return {
    context,
    async page(viewport = { width: 1000, height: 800 }, colorScheme = 'light') {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
      return { page, errors };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const ROOT = resolve(import.meta.dirname, '../..');
const GITHUB_CSS = readFileSync(join(ROOT, 'node_modules/github-markdown-css/github-markdown-light.css'), 'utf8');

/**
 * A comment as GitHub shows it: GitHub-flavoured Markdown (tables, fenced code, raw `<details>`)
 * rendered by marked, in GitHub's own Markdown stylesheet (github-markdown-css), in a column as
 * wide as GitHub's conversation view gives it.
 */
export function gfmPage(markdown: string): string {
  const html = new Marked({ gfm: true }).parse(markdown, { async: false });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><style>${GITHUB_CSS}\nbody{margin:0}.markdown-body{box-sizing:border-box;max-width:890px;margin:0 auto;padding:16px}</style></head><body><article class="markdown-body">${html}</article></body></html>`;
}
