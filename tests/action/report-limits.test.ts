/**
 * The job summary and the pull request comment stay within GitHub's limits whatever follows the
 * report: a bisect's sections of 1.2 MB (1,000 commits with long subjects, three searches) left
 * the job summary over 1 MiB, which GitHub rejects whole, and made the report's own limit negative,
 * so no comment was written at all. Now the sections take at most half of each limit, cut at a line
 * with a note that says where every step is, and the report keeps the rest.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/action/publish.ts';
import { renderSummary } from '../../src/action/summary.ts';
import type { Outcome } from '../../src/action/outcome.ts';
import { markerFor, utf8Bytes } from '../../src/report/escape.ts';
import { REPORT_LIMITS } from '../../src/report/markdown.ts';
import { readResultsFile } from '../../src/results/read.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const results = readResultsFile(join(ROOT, 'tests/fixtures/docs/demo-results.json'));
const settings = { failOn: 'regression', resultsPath: '/tmp/out/pairbench-results.json', htmlPath: '/tmp/out/pairbench-report.html', commentId: 'default', specSource: null, configIgnored: [] as string[] } as const;

/** Three bisect sections of 400 KB each: a table row per commit, each with a long subject. */
function hugeAppendix(): string {
  const section = (i: number) => [`### Bisect of bench${i}`, '', '| Step | Commit | Against the base | Pairs |', '| ---: | --- | --- | ---: |', ...Array.from({ length: 1000 }, (_, k) => `| ${k + 1} | \`abcdef012345\` ${k + 1}/1000 ${'long subject '.repeat(30)} | could not be built: skipped | 0 |`)].join('\n');
  return [1, 2, 3].map(section).join('\n');
}

const outcome: Outcome = { results, exitCode: 1, replay: { resultsFiles: ['pairbench-results.json'] }, appendix: hugeAppendix() };

describe("the action's reports within GitHub's limits", () => {
  it('cuts a job summary with 1.2 MB of bisect sections below 1 MiB, keeping the report whole and saying where the steps are', () => {
    expect(utf8Bytes(outcome.appendix)).toBeGreaterThan(1_100_000);
    const summary = renderSummary(outcome, settings, undefined, null);
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(REPORT_LIMITS.jobSummary);
    expect(REPORT_LIMITS.jobSummary).toBeLessThan(2 ** 20);
    // the report comes first and whole: its own table and its end, then the first section
    const report = renderSummary({ ...outcome, appendix: '' }, settings, undefined, null);
    expect(summary.startsWith(report.trimEnd())).toBe(true);
    expect(summary).toContain('### Bisect of bench1');
    expect(summary).toMatch(/cut to fit GitHub's size limit.*pairbench-results\.bisect-<n>\.json/);
  });

  it('still writes a comment under 65,536 characters, starting with its marker, when the sections alone are over the limit', () => {
    for (const limit of [REPORT_LIMITS.comment, Math.floor(REPORT_LIMITS.comment / 2)]) {
      const body = renderComment(outcome, settings, { fullReportHint: 'hint', replay: outcome.replay, acceptance: null, failOn: settings.failOn }, limit);
      expect(utf8Bytes(body)).toBeLessThanOrEqual(limit);
      expect(body.length).toBeLessThan(65_536);
      expect(body.startsWith(markerFor('default'))).toBe(true);
      // the report's verdicts are there, and the note says the rest is in the job summary
      expect(body).toContain('### Bisect of bench1');
      expect(body).toMatch(/cut to fit GitHub's size limit.*job summary/);
    }
  });
});
