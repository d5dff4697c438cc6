/**
 * The bisect's report has a size of its own, whatever the range: 1,000 commits with long (or
 * hostile) subjects, most of which could not be built, still make a section that fits beside the
 * report in a pull request comment, and the text the command line prints stays short too. The
 * search's summary file keeps every step.
 */
import { describe, expect, it } from 'vitest';
import { renderBisectMarkdown, renderBisectText } from '../../src/report/bisect-report.ts';
import { utf8Bytes } from '../../src/report/escape.ts';
import type { BisectResult, BisectStep } from '../../src/results/bisect-summary.ts';

function sha(i: number): string {
  return i.toString(16).padStart(40, 'a');
}

/** A search of 1,000 commits: the head regressed, every other commit measured or skipped, the first regressing one left among `candidates`. */
function hugeSearch(subject: (i: number) => string, conclusion: BisectResult['conclusion']): BisectResult {
  const n = 1000;
  const commits = Array.from({ length: n }, (_, i) => ({ sha: sha(i + 1), subject: subject(i + 1) }));
  const steps: BisectStep[] = [{ index: n, sha: sha(n), subject: subject(n), outcome: 'regressed', verdict: 'regression', change: { estimate: 0.1, ci: [0.08, 0.12] }, pairs: 30, resultsFile: 'r.json' }];
  for (let k = 1; k < n; k++) {
    steps.push(k % 100 === 0 ? { index: k, sha: sha(k), subject: subject(k), outcome: 'not-regressed', verdict: 'unchanged', change: { estimate: 0, ci: [-0.01, 0.01] }, pairs: 20, resultsFile: `s${k}.json` } : { index: k, sha: sha(k), subject: subject(k), outcome: 'build-failed', pairs: 0, resultsFile: `s${k}.json`, note: 'the build of head failed (exit code 1)' });
  }
  return { kind: 'bisect', benchmark: 'parse', base: { ref: 'main', sha: sha(0) }, head: { ref: 'HEAD', sha: sha(n) }, commits, alpha: 0.05, alphaPerTest: 0.05 / 11, maxTests: 11, threshold: 0.05, stepBudgetMs: 60_000, steps, conclusion };
}

const LONG = (i: number) => `Commit ${i}: ${'a very long subject line '.repeat(400)}`;
const HOSTILE = (i: number) => `${i} ${'|@#<`'.repeat(2000)}`;
const ALL = { kind: 'unseparated', candidates: Array.from({ length: 1000 }, (_, i) => i + 1), why: 'build-failed' } as const;

describe('bisect report size', () => {
  it('keeps the Markdown section under 16 KB for 1,000 commits with long subjects, most of them skipped', () => {
    for (const subject of [LONG, HOSTILE]) {
      for (const conclusion of [ALL, { kind: 'found', first: 1000 } as const]) {
        const md = renderBisectMarkdown(hugeSearch(subject, conclusion));
        expect(utf8Bytes(md)).toBeLessThan(16_000);
        // what was left out is said, and where it is
        expect(md).toMatch(/more commits could not be built/);
        expect(md).toContain("summary file");
        const text = renderBisectText(hugeSearch(subject, conclusion));
        expect(utf8Bytes(text)).toBeLessThan(16_000);
      }
    }
  });

  it('names a long range of candidates by its ends and its length', () => {
    const md = renderBisectMarkdown(hugeSearch(LONG, ALL));
    expect(md).toContain(`The first regressing commit is one of the 1000 commits from \`${sha(1).slice(0, 12)}\` (1/1000`);
    expect(md).toContain(`to \`${sha(1000).slice(0, 12)}\` (1000/1000`);
  });

  it('lists every measured step, and cuts each subject with an ellipsis', () => {
    const md = renderBisectMarkdown(hugeSearch(LONG, ALL));
    const rows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    // the head and the nine measured commits are all in the table
    for (const k of [1000, 100, 500, 900]) expect(rows.some((r) => r.includes(` ${k}/1000 `))).toBe(true);
    for (const r of rows) expect(r.length).toBeLessThan(200);
    expect(md).toContain('…');
  });
});

describe('bisect report words', () => {
  it('says what an inconclusive step counted as not regressed tells', () => {
    const result = hugeSearch((i) => `Commit ${i}`, { kind: 'found', first: 1000 });
    result.steps[100] = { ...result.steps[100]!, outcome: 'not-regressed', verdict: 'inconclusive', change: { estimate: -0.02, ci: [-0.07, 0.03] } };
    const md = renderBisectMarkdown(result);
    expect(md).toContain('no regression beyond the threshold (inconclusive) −2.0% [−7.0%, +3.0%]');
  });
});
