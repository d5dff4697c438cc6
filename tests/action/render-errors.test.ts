/**
 * Every report renders inside the action's one error path (S15): whatever the results hold, a
 * renderer that throws fails the step with one `::error::` line and exit status 1, never an uncaught
 * stack trace. The step runs in a child process as the runner runs it; the results given to the
 * reports are a file's text that the renderers cannot lay out (no benchmark list), so the real
 * renderers throw.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/repo.ts';

const root = resolve(import.meta.dirname, '../..');

describe('S15: a report that cannot be rendered', () => {
  it('fails the step with one line, no stack trace, in compare and report mode', () => {
    for (const mode of ['compare', 'report'] as const) {
      const dir = tempDir('pairbench-render-');
      const resultsPath = join(dir, 'pairbench-results.json');
      writeFileSync(join(dir, 'summary.md'), '');
      writeFileSync(join(dir, 'output.txt'), '');
      const script = `
        import { reportOutcome } from ${JSON.stringify(join(root, 'src/action/steps.ts'))};
        const results = { schemaVersion: 1, kind: 'compare', status: 'complete', base: { ref: 'main', sha: null }, head: { ref: 'f', sha: null }, settings: {}, benchmarks: null };
        const settings = { mode: ${JSON.stringify(mode)}, token: '', comment: 'never', commentId: 'x', checkName: null, resultsPath: ${JSON.stringify(resultsPath)}, reportPath: ${JSON.stringify(join(dir, 'r.md'))}, htmlPath: ${JSON.stringify(join(dir, 'r.html'))}, failOn: 'regression', judge: {} };
        await reportOutcome({ results, exitCode: 0, replay: {}, appendix: '' }, settings, { target: { pull: null }, payload: {} }, null, process.env, undefined);
      `;
      const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'], GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output.txt'), GITHUB_REPOSITORY: 'octo/repo' },
      });
      const out = res.stdout + res.stderr;
      expect(res.status, out).toBe(1);
      const errors = out.split('\n').filter((l) => l.startsWith('::error::'));
      expect(errors, out).toHaveLength(1);
      expect(errors[0]).toMatch(/^::error::pairbench could not write its report \(TypeError: .+\); the results file .*pairbench-results\.json holds everything measured\.$/);
      expect(out).not.toMatch(/^\s+at /m);
      expect(readFileSync(join(dir, 'output.txt'), 'utf8')).not.toContain('verdict');
    }
  });
});
