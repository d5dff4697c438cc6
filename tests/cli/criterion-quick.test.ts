/**
 * Through the real CLI: a Criterion bench executable (here a script that reads its arguments as
 * Criterion does, prints bencher lines, and saves its medians under $CRITERION_HOME) gets
 * `--quick` on every run that selects one benchmark under the default `--design auto`, and not on
 * the listing run that names them; the quick run's nameless line is read as the selected
 * benchmark's, its value the median it saved. One that refuses the flag, as Criterion 0.3 does, has
 * its runs made again without it, with no failure counted; `--design command` never adds it.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/**
 * kernels/checksum and kernels/sort, printed as 1,458 ns and saved as 1458.375 and 1458.75. Each
 * run appends its arguments to args.txt. `old`: refuses --quick as clap 2 does in Criterion 0.3.
 */
function fakeCriterion(dir: string, old: boolean): string {
  const exe = join(dir, 'kernels');
  writeFileSync(
    exe,
    `#!/bin/sh
echo "$*" >> "${join(dir, 'args.txt')}"
quick=no; filter=.; prev=
for a in "$@"; do
  case "$a" in --quick) quick=yes ;; -*) ;; *) [ "$prev" = --output-format ] || [ "$prev" = --nresamples ] || filter="$a" ;; esac
  prev="$a"
done
if [ $quick = yes ] && ${old ? 'true' : 'false'}; then
  echo "error: Found argument '--quick' which wasn't expected, or isn't valid in this context" >&2
  exit 1
fi
for b in checksum:1458.375 sort:1458.75; do
  name="kernels/\${b%%:*}"
  printf '%s' "$name" | grep -Eq -- "$filter" || continue
  mkdir -p "$CRITERION_HOME/$name/new"
  printf '{"title":"%s"}' "$name" > "$CRITERION_HOME/$name/new/benchmark.json"
  printf '{"median":{"point_estimate":%s}}' "\${b#*:}" > "$CRITERION_HOME/$name/new/estimates.json"
  if [ $quick = yes ]; then printf 'bench:       1,458 ns/iter (+/- 9)\\n'; else printf 'test %s ... bench:       1,458 ns/iter (+/- 9)\\n' "$name"; fi
done
`,
  );
  chmodSync(exe, 0o755);
  return exe;
}

function compare(opts: { old?: boolean; design?: 'auto' | 'command' } = {}) {
  const dir = tempDir();
  const exe = fakeCriterion(dir, opts.old ?? false);
  const out = join(dir, 'results.json');
  const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', `${exe} --bench --output-format bencher {filter}`, '--format', 'bencher', '--design', opts.design ?? 'auto', '--min-pairs', '3', '--max-pairs', '3', '--fail-on', 'none', '--out', out], { env: { TMPDIR: tempDir() } });
  expect(res.status, res.stdout + res.stderr).toBe(0);
  const args = readFileSync(join(dir, 'args.txt'), 'utf8').trim().split('\n');
  const results = readResults(out);
  const values = Object.fromEntries(results.benchmarks.map((b) => [b.name, [...new Set(b.pairs.flatMap((p) => [p.base, p.head]))]]));
  return { log: res.stdout + res.stderr, args, values, results };
}

describe("Criterion's quick mode, one benchmark a run", () => {
  it('--design auto: each run of one benchmark gets --quick, the listing run does not, and the values are the saved medians', () => {
    const { log, args, values } = compare();
    // the listing run once per side, then three pairs of each benchmark
    expect(args.length).toBe(2 + 3 * 2 * 2);
    expect(args.slice(0, 2).every((a) => !a.includes('--quick'))).toBe(true);
    expect(args.slice(2).every((a) => / --nresamples 1000 --quick$/.test(a) && /\^kernels\/(checksum|sort)\$/.test(a))).toBe(true);
    expect(values).toEqual({ 'kernels/checksum': [1458.375], 'kernels/sort': [1458.75] });
    expect(log).toContain('Each run that selects one benchmark gets --quick');
  });

  it('a Criterion that refuses --quick (0.3): its runs are made again without it, no failure counted', () => {
    const { log, args, values, results } = compare({ old: true });
    const refused = args.filter((a) => a.includes('--quick'));
    // one refusal: the suite's runs go without the flag from then on. Where the pairs ran at once
    // (--pair-runs auto on a free two-CPU machine), both sides' first runs may start together,
    // before either refused: at most one refusal a side
    if (/^at once: /.test(String(results.settings?.['atOnce'] ?? ''))) {
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeLessThanOrEqual(2);
    } else {
      expect(refused.length).toBe(1);
    }
    expect(args.filter((a) => !a.includes('--quick')).length).toBe(2 + 3 * 2 * 2);
    expect(values).toEqual({ 'kernels/checksum': [1458.375], 'kernels/sort': [1458.75] });
    expect(log).toMatch(/(base|head)'s run refused --quick \(a version without it\): every run goes without it from now on/);
    expect(results.failures ?? []).toEqual([]);
    expect(results.benchmarks.every((b) => b.pairs.length === 3 && (b.failedRuns?.base ?? 0) === 0 && (b.failedRuns?.head ?? 0) === 0)).toBe(true);
  });

  it('--design command runs the command as written: no --quick, and the printed values', () => {
    const { args, values, log } = compare({ design: 'command' });
    expect(args.some((a) => a.includes('--quick'))).toBe(false);
    expect(values).toEqual({ 'kernels/checksum': [1458], 'kernels/sort': [1458] });
    expect(log).not.toContain('--quick');
  });
});
