/**
 * The outlier rule given to `compare` (`--outliers`) is the one the stopping rule applies too: a
 * comparison that excludes nothing in its verdict must not stop (or go on) because of pairs that
 * the default screen would have excluded.
 *
 * Deterministic benchmarks (--format json): base prints 100 every run; head prints the values of a
 * fixed sequence, one per run, counted in a file of its own directory. Pairs 3 and 5 are a balanced
 * couple of spikes (+40%, -40%) that Tukey's fences exclude; the rest differ by less than ±0.2%.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const HEAD_VALUES = [100.12, 99.91, 140, 100.05, 60, 99.87, 100.09, 99.95, 100.03, 99.93, 100.15, 99.89];

function dirs(): { base: string; head: string } {
  const base = tempDir('pairbench-base-');
  const head = tempDir('pairbench-head-');
  writeFileSync(join(base, 'bench.sh'), `#!/bin/sh\nprintf '[{"name":"parse","value":100,"unit":"ms"}]\\n'\n`);
  writeFileSync(
    join(head, 'bench.sh'),
    `#!/bin/sh\nn=$(cat .count 2>/dev/null || echo 0)\necho $((n + 1)) > .count\n` +
      `v=$(echo "${HEAD_VALUES.join(' ')}" | awk -v i=$((n + 1)) '{ print $i }')\n` +
      `printf '[{"name":"parse","value":%s,"unit":"ms"}]\\n' "$v"\n`,
  );
  return { base, head };
}

function run(outliers: string): { pairs: number; stoppedBecause: string | undefined; outliers: number[] } {
  const { base, head } = dirs();
  const file = join(tempDir(), 'results.json');
  const res = pairbench([
    'compare', '--base-dir', base, '--head-dir', head, '--run', 'sh bench.sh', '--format', 'json', '--warmup', '0',
    '--min-pairs', '6', '--max-pairs', '12', '--precision', '50%', '--outliers', outliers, '--seed', '1', '--out', file, '--quiet',
  ]);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  expect([0, 1]).toContain(res.status);
  const b = readResults(file).benchmarks[0]!;
  return { pairs: b.pairs.length, stoppedBecause: b.stoppedBecause, outliers: b.outliers ?? [] };
}

describe('--outliers reaches the stopping rule', () => {
  it('--outliers none: the two spikes count, seven pairs are enough for precision (as many as the 97.5% interval after an early stop needs)', () => {
    const r = run('none');
    expect(r.outliers).toEqual([]);
    expect(r.stoppedBecause).toBe('precision');
    expect(r.pairs).toBe(7);
  });

  it('--outliers tukey: the spikes are excluded, so it takes two pairs more to have seven usable ones', () => {
    const r = run('tukey');
    expect(r.outliers).toEqual([2, 4]);
    expect(r.stoppedBecause).toBe('precision');
    expect(r.pairs).toBe(9);
  });
});

describe('rows whose every pair is equal are not in the correction (Go allocs/op)', () => {
  it('twenty constant rows beside one benchmark: it stops after the seven pairs a single benchmark needs, and they stay unchanged', () => {
    const base = tempDir('pairbench-base-');
    const head = tempDir('pairbench-head-');
    const constants = Array.from({ length: 20 }, (_, i) => `{"name":"parse (allocs ${i})","value":${34 + i},"unit":"allocs"}`).join(',');
    writeFileSync(join(base, 'bench.sh'), `#!/bin/sh\nprintf '[{"name":"parse","value":100,"unit":"ms"},${constants}]\\n'\n`);
    writeFileSync(
      join(head, 'bench.sh'),
      `#!/bin/sh\nn=$(cat .count 2>/dev/null || echo 0)\necho $((n + 1)) > .count\n` +
        `v=$(echo "${HEAD_VALUES.filter((v) => Math.abs(v - 100) < 1).join(' ')}" | awk -v i=$((n + 1)) '{ print $i }')\n` +
        `printf '[{"name":"parse","value":%s,"unit":"ms"},${constants}]\\n' "$v"\n`,
    );
    const file = join(tempDir(), 'results.json');
    const res = pairbench([
      'compare', '--base-dir', base, '--head-dir', head, '--run', 'sh bench.sh', '--format', 'json', '--warmup', '0', '--interleave', 'suite',
      '--min-pairs', '6', '--max-pairs', '10', '--precision', '50%', '--outliers', 'none', '--seed', '1', '--out', file, '--quiet',
    ]);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const results = readResults(file);
    const parse = results.benchmarks.find((b) => b.name === 'parse')!;
    // with the twenty counted, 1 - alpha/42 would need 11 pairs, more than --max-pairs
    expect(parse.stoppedBecause).toBe('precision');
    expect(parse.pairs.length).toBe(7);
    const constant = results.benchmarks.filter((b) => b.name.startsWith('parse (allocs'));
    expect(constant).toHaveLength(20);
    for (const b of constant) expect(b.verdict).toBe('unchanged');
    expect(parse.change!.tested?.level ?? parse.change!.ciLevel).toBeCloseTo(0.975, 10);
  });
});
