/**
 * Counts of 0 (Go's `0 B/op`, `0 allocs/op`), end to end: real git repositories, real processes,
 * the real CLI and `pairbench report` on the file it wrote. The benchmark prints Go's lines with
 * seeded noise on its time, so no assertion depends on how fast this machine is.
 *
 * A count both sides print as 0 is an equal pair, and its row is `unchanged`; a count one side
 * prints as 0 and the other does not is no new or removed benchmark, and it keeps its row from
 * `unchanged` (results/one-sided-zeros.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairbench, readResults, resultsOf } from '../support/cli.ts';
import { tempDir, tempRepo, type TempRepo } from '../support/repo.ts';

/**
 * A script printing two Go benchmarks: `BenchmarkQuiet`, which allocates nothing, and
 * `BenchmarkPool`, which allocates `poolBytes` bytes an operation (0: nothing). Times 100 and 200
 * ns/op, ±1%.
 */
function goBench(poolBytes: number): string {
  const line = (name: string, ns: number, bytes: string, allocs: string) =>
    `printf "${name}-2 \\t 1000\\t %.3f ns/op\\t ${bytes} B/op\\t ${allocs} allocs/op\\n", ${ns}*(1+(rand()-0.5)*0.02)`;
  return (
    `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); ` +
    `${line('BenchmarkQuiet', 100, '0', '0')}; ` +
    `${line('BenchmarkPool', 200, String(poolBytes), poolBytes > 0 ? '1' : '0')}; ` +
    `print "PASS"}'\n`
  );
}

describe('counts of 0', () => {
  let repo: TempRepo;
  let out: string;
  beforeAll(() => {
    repo = tempRepo();
    repo.commit({ 'bench.sh': goBench(0) }, 'base: no allocation');
    repo.commit({ 'README': 'docs only\n' }, 'docs');
    repo.commit({ 'bench.sh': goBench(16) }, 'head: BenchmarkPool allocates 16 bytes an operation');
    out = tempDir();
  });
  afterAll(() => repo.remove());

  const compare = (base: string, head: string, file: string) =>
    pairbench(['compare', '--repo', repo.dir, '--base', base, '--head', head, '--run', 'sh bench.sh', '--format', 'go', '--max-pairs', '20', '--seed', '3', '--out', file, '--quiet']);

  it('judges a count both sides print as 0 as equal pairs: unchanged, with every pair kept', () => {
    const file = join(out, 'aa.json');
    const res = compare('HEAD~2', 'HEAD~1', file);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.status).toBe(0);
    const results = readResults(file);
    const rows = new Map(results.benchmarks.map((b) => [b.name, b]));
    for (const name of ['BenchmarkQuiet (B/op)', 'BenchmarkQuiet (allocs/op)', 'BenchmarkPool (B/op)', 'BenchmarkPool (allocs/op)']) {
      const b = rows.get(name)!;
      expect(b, name).toBeDefined();
      expect(b.presence, name).toBe('both');
      expect(b.verdict, name).toBe('unchanged');
      expect(b.pairs.length, name).toBe(rows.get('BenchmarkQuiet')!.pairs.length);
      for (const p of b.pairs) expect([p.base, p.head], name).toEqual([0, 0]);
      expect(b.change!.estimate, name).toBe(0);
      expect(b.oneSidedPairs, name).toBeUndefined();
    }
    expect(results.verdict).toBe('unchanged');
  });

  it('calls a count that head prints above 0 in every pair where base prints 0 a regression, not a new benchmark', () => {
    const file = join(out, 'alloc.json');
    const res = compare('HEAD~1', 'HEAD', file);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    // the default gate fails on a regression
    expect(res.status).toBe(1);
    const results = readResults(file);
    const rows = new Map(results.benchmarks.map((b) => [b.name, b]));
    const pairs = rows.get('BenchmarkPool')!.pairs.length;
    for (const [name, value] of [['BenchmarkPool (B/op)', 16], ['BenchmarkPool (allocs/op)', 1]] as const) {
      const b = rows.get(name)!;
      expect(b.presence, name).toBe('both');
      expect(b.verdict, name).toBe('regression');
      // no ratio states a change from 0: no change shown, each side's values are
      expect(b.change, name).toBeNull();
      expect([b.base!.median, b.head!.median], name).toEqual([0, value]);
      expect(b.pairs, name).toEqual([]);
      // every pair kept, with its values: base printed 0, head what it allocates
      expect(b.oneSidedPairs, name).toHaveLength(pairs);
      for (const p of b.oneSidedPairs!) expect([p.base, p.head], name).toEqual([0, value]);
      const finding = b.diagnostics!.find((d) => d.code === 'one-sided-zeros');
      expect(finding?.severity, name).toBe('warning');
      expect(finding?.figures, name).toMatchObject({ baseZero: pairs, headZero: 0, pairs: 0, decided: 'regression' });
      // nothing says the opposite: no "no usable pairs" beside the call
      expect(b.diagnostics!.map((d) => d.code), name).not.toContain('too-few-pairs');
    }
    expect(rows.get('BenchmarkQuiet (allocs/op)')!.verdict).toBe('unchanged');
    expect(rows.get('BenchmarkPool')!.verdict).toBe('unchanged');
    expect(results.verdict).toBe('regression');
    expect(res.stdout).toContain(`BenchmarkPool (allocs/op): warning: In ${pairs} pairs base printed 0 and head did not, in none the other way round: a pair with one side at 0 forms no ratio, and no other pair was measured.`);
    expect(res.stdout).toContain('it is called a regression, with no percentage, since none can state a change from 0');
    expect(res.stdout).not.toMatch(/only in head|new benchmark/);

    // judged again from the file: the same verdicts, the finding made once, the Markdown says it
    const md = join(out, 'alloc.md');
    const again = pairbench(['report', file, '--markdown', md, '--json']);
    expect(again.status).toBe(1);
    const rejudged = resultsOf(again.stdout) as typeof results;
    const b = rejudged.benchmarks.find((x) => x.name === 'BenchmarkPool (B/op)')!;
    expect(b.verdict).toBe('regression');
    expect(b.diagnostics!.filter((d) => d.code === 'one-sided-zeros')).toHaveLength(1);
    const comment = readFileSync(md, 'utf8');
    expect(comment).toMatch(/\| 🔴 regression \| ↳ \| B\/op \| \*\*from 0\*\* \| 0 B → 16\.0 B \| 0 \+ \d+ with a 0 \|/);
  });
});
