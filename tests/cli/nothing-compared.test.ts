/**
 * `pairbench compare` never passes a comparison of nothing in silence (results/gate.ts): a base
 * that resolves to the head's commit, a base whose build fails, a results file of no benchmark.
 * The real command line on a real git repository, measuring with the scripted runner of its
 * debug mode (PAIRBENCH_DEBUG_RUNNER), so no test depends on how noisy the machine is.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

function compare(args: string[], files: Record<string, string>[] = [{ README: 'one\n' }]) {
  const repo = tempRepo();
  files.forEach((f, i) => repo.commit(f, `commit ${i}`));
  const out = realpathSync(tempDir());
  writeFileSync(join(out, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 10, factor: 1, noise: 0.01 } } }));
  const res = pairbench(['compare', '--run', './bench', '--seed', '3', '--max-pairs', '12', '--out', join(out, 'results.json'), ...args], { cwd: repo.dir, env: { PAIRBENCH_DEBUG_RUNNER: join(out, 'script.json') } });
  return { ...res, results: join(out, 'results.json'), sha: repo.git('rev-parse', 'HEAD') };
}

describe('a comparison of nothing', () => {
  it('a base that resolves to the head: the headline says so and the gate fails (exit 1)', () => {
    const res = compare(['--base', 'HEAD', '--head', 'main']);
    expect(res.stdout).toContain(`Nothing compared: base and head are the same commit (${res.sha.slice(0, 7)}) (the gate fails); 1 unchanged`);
    expect(res.status, res.stderr).toBe(1);
  });

  it('--allow-nothing-compared passes it, and the headline still says nothing was compared', () => {
    const res = compare(['--base', 'HEAD', '--head', 'main', '--allow-nothing-compared']);
    expect(res.stdout).toContain('Nothing compared: base and head are the same commit');
    expect(res.stdout).toContain('(the gate allows it); 1 unchanged');
    expect(res.status, res.stderr).toBe(0);
    expect(readResults(res.results).settings?.['allowNothingCompared']).toBe(true);
  });

  it("the base's build failed: the headline says nothing was compared, with the failure's exit status 3", () => {
    const res = compare(['--base', 'HEAD~1', '--head', 'HEAD', '--build', 'test -f ok'], [{ README: 'one\n' }, { ok: '' }]);
    expect(res.stdout).toContain("Nothing compared: the base's build failed before any pair");
    expect(res.status, res.stderr).toBe(3);
  });

  it('report of a results file with no benchmark: exit 1, and 0 with --allow-nothing-compared', () => {
    const file = join(tempDir(), 'empty.json');
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, status: 'complete', benchmarks: [] }));
    const failed = pairbench(['report', file]);
    expect(failed.stdout).toContain('Nothing compared: no benchmark results (the gate fails)');
    expect(failed.status, failed.stderr).toBe(1);
    const allowed = pairbench(['report', file, '--allow-nothing-compared']);
    expect(allowed.stdout).toContain('Nothing compared: no benchmark results (the gate allows it)');
    expect(allowed.status, allowed.stderr).toBe(0);
  });

  it('a results file cannot allow itself: a recorded allowNothingCompared is not the gate of report', () => {
    const file = join(tempDir(), 'forged.json');
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, base: { sha: 'a'.repeat(40) }, head: { sha: 'b'.repeat(40) }, status: 'complete', settings: { allowNothingCompared: true }, benchmarks: [{ name: 'x', unit: 'ns', direction: 'lower-is-better', presence: 'added', pairs: [] }] }));
    const res = pairbench(['report', file]);
    expect(res.stdout).toContain('Nothing compared: every benchmark is on one side only (1 added) (the gate fails)');
    expect(res.status, res.stderr).toBe(1);
  });
});
