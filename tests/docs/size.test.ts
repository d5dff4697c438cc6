/**
 * The README is a user's way in, not the manual: at most 400 lines, the workflow's YAML within its
 * first 60 (as the best-liked actions keep theirs), and no commit of this repository named in it,
 * since a SHA in a README is stale by the next commit. docs/statistics.md says the method as it is
 * now, at most 300 lines, with no dates or commits (how the design came to be is in
 * docs/design-notes.md). Reference pages and past runs live in docs/ and bench/results/HISTORY.md.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const lineCount = (text: string): number => text.replace(/\n$/, '').split('\n').length;

/** The runs of 7 to 40 hex digits in a text that name a commit of the repository at `repo`. */
function commitsNamed(text: string, repo: string): string[] {
  const runs = [...new Set([...text.matchAll(/(?<![0-9A-Za-z])[0-9a-fA-F]{7,40}(?![0-9A-Za-z])/g)].map((m) => m[0].toLowerCase()))];
  if (runs.length === 0) return [];
  const res = spawnSync('git', ['cat-file', '--batch-check'], { cwd: repo, input: runs.join('\n') + '\n', encoding: 'utf8' });
  expect(res.status, res.stderr).toBe(0);
  // one answer per run: `<sha> commit <size>`, `<run> missing`, or `<run> ambiguous` (taken as a commit: it may be one)
  const answers = res.stdout.trimEnd().split('\n');
  return runs.filter((_, k) => / commit \d+$| ambiguous$/.test(answers[k]!));
}

describe('README.md: a way in, not the manual', () => {
  const readme = read('README.md');
  const lines = readme.split('\n');

  it('is at most 400 lines', () => {
    expect(lineCount(readme)).toBeLessThanOrEqual(400);
  });

  it("shows the workflow's YAML within its first 60 lines", () => {
    const fence = lines.findIndex((l) => l.startsWith('```yaml'));
    const uses = lines.findIndex((l) => /^\s*- uses: pairbench\/pairbench@/.test(l));
    expect(fence).toBeGreaterThanOrEqual(0);
    expect(uses).toBeGreaterThan(fence);
    expect(uses + 1).toBeLessThanOrEqual(60);
  });

  it('names no commit of this repository', () => {
    expect(commitsNamed(readme, ROOT)).toEqual([]);
  });

  it('the check finds a commit named in a text, short or whole, and passes over other hex', () => {
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(commitsNamed(`measured at ${head.slice(0, 7)} and again at ${head}.`, ROOT)).toEqual([head.slice(0, 7), head]);
    expect(commitsNamed('seed 0000000, colour #deadbeef0, `0x1234567`', ROOT)).toEqual([]);
  });
});

describe('docs/statistics.md: the method as it is now', () => {
  const text = read('docs/statistics.md');

  it('is at most 300 lines', () => {
    expect(lineCount(text)).toBeLessThanOrEqual(300);
  });

  it('names no date and no commit of this repository', () => {
    expect(text.match(/\b20\d\d-\d\d-\d\d\b/g) ?? []).toEqual([]);
    expect(commitsNamed(text, ROOT)).toEqual([]);
  });
});
