/**
 * The gate (`--fail-on`): `regression` by default; `regression,inconclusive` fails a comparison
 * that could not decide a benchmark too; `none` never fails. Judged by the real CLI from a results
 * file of seeded pairs: one benchmark clearly unchanged, one too noisy to decide.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Results } from '../../src/results/schema.ts';
import { mulberry32 } from '../../src/schedule/random.ts';
import { pairbench, resultsOf } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

function results(noise: number, effect = 0): Results {
  const rng = mulberry32(99);
  const pairs = (sd: number, shift: number) =>
    Array.from({ length: 12 }, () => ({ base: 10 * (1 + (rng() - 0.5) * sd), head: 10 * (1 + shift) * (1 + (rng() - 0.5) * sd), order: 'base-first' as const }));
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'pr', sha: 'b'.repeat(40) },
    settings: { seed: 1 },
    status: 'complete',
    benchmarks: [
      { name: 'quiet', unit: 'ms', direction: 'lower-is-better', pairs: pairs(0.001, effect) },
      { name: 'noisy', unit: 'ms', direction: 'lower-is-better', pairs: pairs(noise, 0) },
    ],
  };
}

function judge(r: Results, failOn: string[]): { status: number | null; verdicts: Record<string, string>; stderr: string } {
  const file = join(tempDir(), 'r.json');
  writeFileSync(file, JSON.stringify(r));
  const res = pairbench(['report', file, '--json', ...failOn]);
  const judged = (res.stdout ? resultsOf(res.stdout) : { verdict: '', benchmarks: [] }) as { verdict: string; benchmarks: Array<{ name: string; verdict: string }> };
  return { status: res.status, verdicts: Object.fromEntries(judged.benchmarks.map((b) => [b.name, b.verdict])), stderr: res.stderr };
}

describe('--fail-on', () => {
  it('regression,inconclusive exits 1 when a benchmark could not be decided; the default and none exit 0', () => {
    const r = results(0.8);
    const strict = judge(r, ['--fail-on', 'regression,inconclusive']);
    expect(strict.verdicts).toEqual({ quiet: 'unchanged', noisy: 'inconclusive' });
    expect(strict.status).toBe(1);
    expect(judge(r, []).status).toBe(0);
    expect(judge(r, ['--fail-on', 'none']).status).toBe(0);
    expect(judge(r, ['--fail-on', 'inconclusive']).status).toBe(1);
  });

  it('regression,inconclusive still fails on a regression', () => {
    const r = results(0.001, 0.2);
    const strict = judge(r, ['--fail-on', 'regression,inconclusive']);
    expect(strict.verdicts.quiet).toBe('regression');
    expect(strict.status).toBe(1);
    expect(judge(r, ['--fail-on', 'inconclusive']).status).toBe(0);
  });

  it('refuses none with another value, and an unknown value, with exit 2', () => {
    const r = results(0.001);
    const both = judge(r, ['--fail-on', 'none,regression']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--fail-on');
    const bad = judge(r, ['--fail-on', 'always']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('expected one of regression, inconclusive, none');
  });
});
