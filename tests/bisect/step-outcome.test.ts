/**
 * What a bisect step's row teaches the search (bisect/search.ts, `stepOutcomeOf`), on rows the
 * whole pipeline judged: `pairbench compare` in its debug mode (the scripted runner, seeded noise),
 * so each row's verdict and interval are the same on every machine.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stepOutcomeOf } from '../../src/bisect/search.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** The judged row of `./bench` with head `factor` times base and runs of spread `noise`, at threshold 5%. */
function judgedRow(factor: number, noise: number, maxPairs: number) {
  const dir = realpathSync(tempDir('pairbench-step-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'head'));
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ benchmarks: { './bench': { baseMs: 100, factor, noise } } }));
  const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', './bench', '--seed', '42', '--threshold', '5%', '--max-pairs', String(maxPairs), '--out', 'results.json'], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' } });
  expect(res.stderr).not.toMatch(/\n\s+at /);
  return readResults(join(dir, 'results.json')).benchmarks[0]!;
}

describe('bisect steps on judged rows', () => {
  it('counts an inconclusive row whose interval reaches only below +5% as not regressed', () => {
    // 4% faster, ±3% runs, 10 pairs: the interval reaches past −5%, so it is not `unchanged`, but no regression is in it
    const across = judgedRow(0.96, 0.03, 10);
    expect(across.verdict).toBe('inconclusive');
    expect(across.change!.ci[0]).toBeLessThan(-0.05);
    expect(across.change!.ci[1]).toBeLessThan(0.05);
    expect(stepOutcomeOf(across, 0.05)).toBe('not-regressed');
  });

  it('leaves undecided a row whose interval reaches past +5% and below it', () => {
    // 2% slower, ±6% runs, 20 pairs
    const both = judgedRow(1.02, 0.06, 20);
    expect(both.verdict).toBe('inconclusive');
    expect(both.change!.ci[0]).toBeLessThan(0.05);
    expect(both.change!.ci[1]).toBeGreaterThan(0.05);
    expect(stepOutcomeOf(both, 0.05)).toBe('undecided');
  });

  it('counts a regression as regressed and an unchanged row as not regressed', () => {
    expect(stepOutcomeOf(judgedRow(1.1, 0.02, 20), 0.05)).toBe('regressed');
    expect(stepOutcomeOf(judgedRow(1.0, 0.03, 20), 0.05)).toBe('not-regressed');
  });
});
