/**
 * Through the real CLI: a Criterion bench executable (here a script that prints bencher lines and
 * records its arguments) gets `--nresamples 1000` on every run under the default `--design auto`,
 * the log says how each run goes, and `--design command` runs it as written.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

function fakeCriterion(dir: string): string {
  const exe = join(dir, 'kernels');
  // prints the benchmarks its filter selects, as Criterion's --output-format bencher does, and appends its arguments to args.txt
  writeFileSync(
    exe,
    `#!/bin/sh
echo "$*" >> "${join(dir, 'args.txt')}"
for b in kernels/checksum kernels/sort; do
  if printf '%s\\n' "$b" | grep -Eq "$FILTER"; then printf 'test %s ... bench:       1,458 ns/iter (+/- 9)\\n' "$b"; fi
done
`,
  );
  chmodSync(exe, 0o755);
  return exe;
}

describe("a Criterion run trimmed to what pairbench reads", () => {
  it('--design auto adds --nresamples 1000 to every run and says so; --design command does not', () => {
    for (const design of ['auto', 'command'] as const) {
      const dir = tempDir();
      const exe = fakeCriterion(dir);
      const out = join(dir, 'results.json');
      const run = `FILTER={filter} ${exe} --bench --output-format bencher`;
      const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--format', 'bencher', '--design', design, '--min-pairs', '3', '--max-pairs', '3', '--fail-on', 'none', '--out', out]);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      const calls = readFileSync(join(dir, 'args.txt'), 'utf8').trim().split('\n');
      // the listing run once per side, then three pairs of each of the two benchmarks
      expect(calls.length).toBe(2 + 3 * 2 * 2);
      const said = 'Each run gets --nresamples 1000, which leaves the values pairbench reads as they are';
      if (design === 'auto') {
        // the listing run as trimmed; each run of one benchmark also in Criterion's quick mode (tests/cli/criterion-quick.test.ts)
        expect(calls.slice(0, 2).every((c) => c === '--bench --output-format bencher --nresamples 1000')).toBe(true);
        expect(calls.slice(2).every((c) => c === '--bench --output-format bencher --nresamples 1000 --quick')).toBe(true);
        expect(res.stdout + res.stderr).toContain(said);
      } else {
        expect(calls.every((c) => c === '--bench --output-format bencher')).toBe(true);
        expect(res.stdout + res.stderr).not.toContain('--nresamples');
      }
      expect(readResults(out).benchmarks.map((b) => b.name).sort()).toEqual(['kernels/checksum', 'kernels/sort']);
    }
  });
});
