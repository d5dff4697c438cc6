/**
 * The samples of printed output in README.md and every docs/*.md page, produced again from the code
 * and compared, so that the docs cannot drift from what pairbench prints (as benchstat's
 * doc_test.go does for its docs).
 *
 * A tested block is marked in a page by a comment on the line before it:
 *
 *   <!-- tested: tests/docs/readme.test.ts: HOW -->
 *
 * HOW is `the whole stdout`, `lines of stdout` or `lines of stderr` (the block's lines appear
 * together, in order, as whole lines of that stream), optionally followed by `of SOURCE` and
 * `, exit N` (the exit status, 0 unless told). Without `of`, the block's first line is the command,
 * `$ pairbench ...`, run through the real CLI from the repository's root; with it, SOURCE is such a
 * command, or one of the renderers in RENDERERS applied to a committed file (`renderBisectText
 * tests/fixtures/docs/bisect.json`), whose text counts as stdout. The block is a fenced code block
 * or a block quote (its `> ` taken off). Every marked block is found and tested; a block that shows
 * a `$ pairbench` command or a `pairbench:` error line without a marker fails the test, so a new
 * sample is tested as soon as it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { refuseUnsupported, WINDOWS_REFUSAL } from '../../src/platform.ts';
import { renderBisectMarkdown, renderBisectText } from '../../src/report/bisect-report.ts';
import type { BisectResult } from '../../src/results/bisect-summary.ts';
import { pairbench, ROOT } from '../support/cli.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const LINES = README.split('\n');

/** The pages whose samples are tested: the README and every page of docs/. */
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const TEXT = new Map(PAGES.map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));

/** Renderers whose output a README block may show, each applied to a committed file. */
const RENDERERS: Record<string, (file: string) => string> = {
  renderBisectText: (file) => renderBisectText(JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as BisectResult),
  renderBisectMarkdown: (file) => renderBisectMarkdown(JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as BisectResult),
};

const MARKER_START = '<!-- tested: tests/docs/readme.test.ts';
const MARKER = /^<!-- tested: tests\/docs\/readme\.test\.ts: (the whole|lines of) (stdout|stderr)(?: of (.+?))?(?:, exit (\d+))? -->$/;

interface Sample {
  /** the page the sample is in */
  page: string;
  /** the page's line number of the marker (1-based) */
  line: number;
  whole: boolean;
  stream: 'stdout' | 'stderr';
  source: string;
  exit: number;
  /** the block's lines that are output (the `$` line taken off) */
  expected: string[];
}

/** The block after the marker at index i of a page's lines: a fenced code block or a block quote, its lines. */
function blockAfter(page: string, pageLines: string[], i: number): { lines: string[]; fenced: boolean } {
  let j = i + 1;
  while (j < pageLines.length && pageLines[j]!.trim() === '') j++;
  if (pageLines[j]?.startsWith('```')) {
    const end = pageLines.findIndex((l, k) => k > j && l.startsWith('```'));
    if (end < 0) throw new Error(`${page}:${j + 1}: the code block never ends`);
    return { lines: pageLines.slice(j + 1, end), fenced: true };
  }
  const quote: string[] = [];
  while (j < pageLines.length && pageLines[j]!.startsWith('>')) quote.push(pageLines[j++]!.replace(/^> ?/, ''));
  if (quote.length === 0) throw new Error(`${page}:${i + 1}: a tested marker must be followed by a code block or a block quote`);
  return { lines: quote, fenced: false };
}

function samples(page: string): Sample[] {
  const pageLines = TEXT.get(page)!.split('\n');
  const found: Sample[] = [];
  pageLines.forEach((text, i) => {
    if (!text.includes(MARKER_START)) return;
    const m = MARKER.exec(text.trim());
    if (!m) throw new Error(`${page}:${i + 1}: a tested marker that does not say how: ${text}`);
    const { lines } = blockAfter(page, pageLines, i);
    let source = m[3];
    let expected = lines;
    if (source === undefined) {
      if (!lines[0]?.startsWith('$ ')) throw new Error(`${page}:${i + 1}: the block shows no \`$ pairbench\` command and the marker names no source`);
      source = lines[0].slice(2);
      expected = lines.slice(1);
    }
    found.push({ page, line: i + 1, whole: m[1] === 'the whole', stream: m[2] as 'stdout' | 'stderr', source, exit: Number(m[4] ?? 0), expected });
  });
  return found;
}

/** The source's output: a CLI run, or a renderer's text (as stdout). */
function produce(source: string): { stdout: string; stderr: string; status: number | null } {
  const words = parse(source);
  if (!words.every((w): w is string => typeof w === 'string')) throw new Error(`not a plain command: ${source}`);
  const [program, ...args] = words;
  if (program === 'pairbench') return pairbench(args);
  const render = RENDERERS[program!];
  if (!render || args.length !== 1) throw new Error(`unknown source ${JSON.stringify(source)}: a \`pairbench\` command, or one of ${Object.keys(RENDERERS).join(', ')} with one file`);
  return { stdout: render(args[0]!), stderr: '', status: 0 };
}

/** Whether `part` appears in `whole` as consecutive whole lines. */
function containsLines(whole: string[], part: string[]): boolean {
  for (let k = 0; k + part.length <= whole.length; k++) {
    if (part.every((l, n) => whole[k + n] === l)) return true;
  }
  return false;
}

const SAMPLES = PAGES.flatMap(samples);

describe('README.md and docs/*.md: the samples of printed output', () => {
  it('tests the README and every page of docs/', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES).toContain('docs/cli.md');
  });

  it.each(PAGES)('%s: marks every block that shows a pairbench command run or an error line', (page) => {
    const pageLines = TEXT.get(page)!.split('\n');
    const unmarked: number[] = [];
    pageLines.forEach((text, i) => {
      if (!text.startsWith('```')) return;
      const previous = pageLines.slice(0, i).findLast((l) => l.trim() !== '') ?? '';
      const opening = pageLines.slice(0, i).filter((l) => l.startsWith('```')).length % 2 === 0;
      if (!opening) return;
      const body = pageLines.slice(i + 1, pageLines.findIndex((l, k) => k > i && l.startsWith('```')));
      const shows = body.some((l) => l.startsWith('$ pairbench') || /^pairbench: /.test(l));
      if (shows && !previous.includes(MARKER_START)) unmarked.push(i + 1);
    });
    expect(unmarked).toEqual([]);
  });

  it('finds the marked samples', () => {
    // the samples at the time of writing: the demo's table in the README; help, an error line, the demo's table,
    // a not-run line and the bisect's text in docs/cli.md; the bisect's comment section in docs/action.md
    expect(SAMPLES.filter((s) => s.page === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(SAMPLES.length).toBeGreaterThanOrEqual(7);
    for (const s of SAMPLES) expect(s.expected.length, `${s.page}:${s.line}`).toBeGreaterThan(0);
  });

  for (const s of SAMPLES) {
    it(`${s.page}:${s.line}: ${s.whole ? 'the whole' : 'lines of'} ${s.stream} of ${s.source}`, () => {
      const out = produce(s.source);
      expect(out.status, out.stderr).toBe(s.exit);
      const text = out[s.stream];
      if (s.whole) {
        expect(text.replace(/\n$/, '')).toBe(s.expected.join('\n'));
      } else {
        const lines = text.split('\n');
        expect(containsLines(lines, s.expected), `${s.page}:${s.line} expects these lines:\n${s.expected.join('\n')}\n\n${s.stream} was:\n${text}`).toBe(true);
      }
    });
  }
});

describe('README.md: the refusals quoted in its text', () => {
  it('quotes the refusal of Windows as the code words it', () => {
    expect(README).toContain(`refused at start: \`${WINDOWS_REFUSAL}\``);
    expect(refuseUnsupported('win32', process.versions.node)).toBe(WINDOWS_REFUSAL);
  });

  it('quotes the refusal of an old Node.js as the code words it', () => {
    const quoted = /`(pairbench needs Node\.js [^`]*)`/.exec(README);
    expect(quoted).not.toBeNull();
    const version = /this is Node\.js (v[\d.]+)\.$/.exec(quoted![1]!)?.[1];
    expect(version).toBeDefined();
    expect(refuseUnsupported('linux', version!)).toBe(quoted![1]);
  });

  it("quotes (docs/action.md) the report's build cache note as `pairbench report` prints it from a file of a restored build", () => {
    const quoted = /`(Base build: restored from the build cache \(…\)[^`]*)`/.exec(TEXT.get('docs/action.md')!);
    expect(quoted).not.toBeNull();
    const escaped = quoted![1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('…', '[^)]+');
    const out = pairbench(['report', 'tests/fixtures/docs/build-cache-results.json']);
    expect(out.status, out.stderr).toBe(1); // the demo's regression, with the gate's default
    expect(out.stdout).toMatch(new RegExp(`^${escaped}`, 'm'));
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('README.md: the way in for a repository adding the action', () => {
  const headings = (() => {
    const seen = new Map<string, number>();
    const anchors = new Set<string>();
    let fenced = false;
    for (const l of LINES) {
      if (l.startsWith('```')) fenced = !fenced;
      const m = !fenced && /^#{1,6} (.+)$/.exec(l);
      if (!m) continue;
      const base = slug(m[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    return anchors;
  })();

  it("shows the action's workflow step within the first 60 lines", () => {
    const at = LINES.findIndex((l) => /^\s*- uses: pairbench\/pairbench@\S+/.test(l));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at + 1).toBeLessThanOrEqual(60);
  });

  it('has a table of contents near the top whose every link is a heading of the README', () => {
    const start = LINES.findIndex((l) => l.startsWith('**Contents**'));
    expect(start).toBeGreaterThanOrEqual(0);
    expect(start + 1).toBeLessThanOrEqual(30);
    const toc: string[] = [];
    for (let k = start + 1; k < LINES.length && LINES[k]!.startsWith('- '); k++) toc.push(LINES[k]!);
    const links = toc.flatMap((l) => [...l.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!));
    expect(links.length).toBeGreaterThanOrEqual(8);
    expect(links.filter((a) => !headings.has(a))).toEqual([]);
    // every top-level section is listed
    const sections = LINES.filter((l) => l.startsWith('## ')).map((l) => slug(l.slice(3)));
    expect(sections.filter((a) => !links.includes(a))).toEqual([]);
  });

  it('pins one ref of the action everywhere, the major tag that the release paragraph describes', () => {
    // the workflow steps of the README's YAML blocks
    const refs = new Set([...README.matchAll(/^\s*- uses: pairbench\/pairbench@(\S+)$/gm)].map((m) => m[1]!));
    expect([...refs]).toEqual(['v1']);
    // the paragraph under the quick start's workflow says what the ref is and what to use before the first release
    const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('## Command line'));
    expect(quickStart).toContain('`@v1` is the major tag, moved to each release');
    const releases = README.slice(README.indexOf('## Releases'));
    expect(releases).toContain('the major tag (`v1`)');
    expect(releases).toContain('`uses: pairbench/pairbench@v1`');
  });
});
