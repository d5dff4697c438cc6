/**
 * Through the real CLI: a Criterion bench executable (here a script that prints bencher lines in
 * whole nanoseconds and saves its medians under $CRITERION_HOME, as Criterion does) gets a
 * CRITERION_HOME of pairbench's on every run under the default `--design auto`, emptied before each
 * run and removed at the end, and its values are the saved medians; the printed values stay where
 * the user's environment names the folder, and under `--design command`.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/**
 * Prints kernels/checksum and kernels/sort as 1,458 ns and saves their medians: 1458.375 for
 * checksum, and for sort 1461.5, which a whole-nanosecond line would not print as 1,458 (a file
 * that is not this run's). Records the folder it was given, and whether it found it empty.
 */
function fakeCriterion(dir: string): string {
  const exe = join(dir, 'kernels');
  writeFileSync(
    exe,
    `#!/bin/sh
if [ -n "$CRITERION_HOME" ] && [ -e "$CRITERION_HOME/kernels" ]; then state=left; else state=empty; fi
echo "\${CRITERION_HOME:-unset} $state" >> "${join(dir, 'homes.txt')}"
for b in checksum:1458.375 sort:1461.5; do
  name="kernels/\${b%%:*}"
  if [ -n "$CRITERION_HOME" ]; then
    mkdir -p "$CRITERION_HOME/$name/new"
    printf '{"title":"%s"}' "$name" > "$CRITERION_HOME/$name/new/benchmark.json"
    printf '{"median":{"point_estimate":%s}}' "\${b#*:}" > "$CRITERION_HOME/$name/new/estimates.json"
  fi
  printf 'test %s ... bench:       1,458 ns/iter (+/- 9)\\n' "$name"
done
`,
  );
  chmodSync(exe, 0o755);
  return exe;
}

function compare(design: 'auto' | 'command', env: Record<string, string> = {}) {
  const dir = tempDir();
  const tmp = tempDir();
  const exe = fakeCriterion(dir);
  const out = join(dir, 'results.json');
  const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', `${exe} --bench --output-format bencher`, '--format', 'bencher', '--design', design, '--min-pairs', '3', '--max-pairs', '3', '--fail-on', 'none', '--out', out], { env: { TMPDIR: tmp, ...env } });
  expect(res.status, res.stdout + res.stderr).toBe(0);
  const homes = readFileSync(join(dir, 'homes.txt'), 'utf8').trim().split('\n');
  const values = Object.fromEntries(readResults(out).benchmarks.map((b) => [b.name, [...new Set(b.pairs.flatMap((p) => [p.base, p.head]))]]));
  return { log: res.stdout + res.stderr, homes, values, tmp };
}

describe("a Criterion run's saved medians", () => {
  it('--design auto: each run gets an empty CRITERION_HOME of its side, the saved median replaces the printed value where it cuts to it, and the folder is gone at the end', () => {
    const { log, homes, values, tmp } = compare('auto');
    // the listing run once per side, then three pairs of the one run that holds both benchmarks
    expect(homes.length).toBe(2 + 3 * 2);
    expect(homes.every((h) => / empty$/.test(h))).toBe(true);
    const folders = new Set(homes.map((h) => h.split(' ')[0]!));
    expect(folders.size).toBe(2);
    for (const f of folders) expect(f.startsWith(join(tmp, 'pairbench-files-')) && /\/(base|head)$/.test(f)).toBe(true);
    expect(values).toEqual({ 'kernels/checksum': [1458.375], 'kernels/sort': [1458] });
    expect(log).toContain("Each run gets CRITERION_HOME set to a folder of pairbench's, and its values are read from the files it saves there");
    expect(readdirSync(tmp).filter((f) => f.startsWith('pairbench-files-'))).toEqual([]);
  });

  it("keeps the printed values where the user's environment sets CRITERION_HOME, and under --design command", () => {
    const own = tempDir();
    const mine = compare('auto', { CRITERION_HOME: own });
    expect(mine.homes.every((h) => h.startsWith(`${own} `))).toBe(true);
    expect(mine.values).toEqual({ 'kernels/checksum': [1458], 'kernels/sort': [1458] });
    expect(mine.log).not.toContain('CRITERION_HOME set to');
    const asWritten = compare('command');
    expect(asWritten.homes.every((h) => h === 'unset empty')).toBe(true);
    expect(asWritten.values).toEqual({ 'kernels/checksum': [1458], 'kernels/sort': [1458] });
  });
});
