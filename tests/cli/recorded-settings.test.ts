/**
 * What the results file records of how each benchmark was run (`settings.benchmarks`), end to end:
 * a real git repository, real processes, the real CLI, and `pairbench report` on the file it wrote.
 * How many benchmarks shared a process (`--batch`) and whether each was paired on its own
 * (`--interleave`) shape every pair, so a reader of the file must find them there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairbench, readResults, resultsOf } from '../support/cli.ts';
import { tempDir, tempRepo, type TempRepo } from '../support/repo.ts';

/** Three Go benchmarks, each printed with ±1% of seeded noise (the script ignores the filter: pairbench reads the names it asked for). */
const bench = (names: readonly string[]) =>
  `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); ` +
  names.map((n, i) => `printf "${n}-2 \\t 1000\\t %.3f ns/op\\n", ${100 * (i + 1)}*(1+(rand()-0.5)*0.02)`).join('; ') +
  `; print "PASS"}'\n`;
const BENCH = bench(['BenchmarkA', 'BenchmarkB', 'BenchmarkC']);

describe('the recorded settings of each benchmark', () => {
  let repo: TempRepo;
  let out: string;
  beforeAll(() => {
    repo = tempRepo();
    repo.commit({ 'bench.sh': BENCH }, 'base');
    repo.commit({ 'README': 'docs only\n' }, 'head');
    out = tempDir();
  });
  afterAll(() => repo.remove());

  it('records --batch and --interleave, and pairbench report reads the file back', () => {
    const file = join(out, 'batched.json');
    const res = pairbench(['compare', '--repo', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh {filter}', '--format', 'go', '--interleave', 'benchmark', '--batch', '2', '--design', 'command', '--min-pairs', '6', '--max-pairs', '6', '--seed', '5', '--out', file, '--quiet']);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status, res.stderr).toBe(0);
    const results = readResults(file) as unknown as { settings: { benchmarks: Array<Record<string, unknown>> } };
    expect(results.settings.benchmarks).toHaveLength(1);
    expect(results.settings.benchmarks[0]).toMatchObject({ run: 'sh bench.sh {filter}', format: 'go', interleave: 'benchmark', batch: 2, design: 'command' });
    const again = pairbench(['report', file, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect((resultsOf(again.stdout) as unknown as { settings: { benchmarks: Array<Record<string, unknown>> } }).settings.benchmarks[0]).toMatchObject({ interleave: 'benchmark', batch: 2 });
  });

  it('a batch of long names: the round that names it, longer than one name may be, is written and read back', () => {
    // three names of 400 characters, each within the 512 a name may hold, joined by ", " in a round
    const names = ['A', 'B', 'C'].map((c) => `Benchmark${c}${'x'.repeat(390)}`);
    const dir = tempDir();
    for (const side of ['base', 'head']) {
      mkdirSync(join(dir, side));
      writeFileSync(join(dir, side, 'bench.sh'), bench(names));
    }
    const file = join(out, 'long-batch.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', 'sh bench.sh {filter}', '--format', 'go', '--batch', '3', '--design', 'command', '--min-pairs', '3', '--max-pairs', '3', '--fail-on', 'none', '--out', file, '--quiet']);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status, res.stderr).toBe(0);
    expect(readResults(file).rounds![0]).toEqual([names.join(', ')]);
    const again = pairbench(['report', file]);
    expect(again.status, again.stderr).toBe(0);
  });

  it('leaves both out where the user gave neither', () => {
    const file = join(out, 'plain.json');
    const res = pairbench(['compare', '--repo', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--run', 'sh bench.sh {filter}', '--format', 'go', '--design', 'command', '--min-pairs', '6', '--max-pairs', '6', '--seed', '5', '--out', file, '--quiet']);
    expect(res.status, res.stderr).toBe(0);
    const recorded = (readResults(file) as unknown as { settings: { benchmarks: Array<Record<string, unknown>> } }).settings.benchmarks[0]!;
    expect(recorded).not.toHaveProperty('batch');
    expect(recorded).not.toHaveProperty('interleave');
  });
});
