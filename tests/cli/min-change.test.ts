/**
 * `--min-change` (stats/floor.ts) judged by the real command line from results files of seeded
 * pairs: a +30% change of 40 ns is no regression at `--min-change 1µs`, a +30% change of 2 ms
 * still is; the report shows the absolute change beside the relative one. A floor of another unit
 * family than a benchmark measures is one line and exit status 2.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionNaming } from '../../src/config/spec.ts';
import { readResultsFile } from '../../src/results/read.ts';
import { rejudge } from '../../src/results/rejudge.ts';
import { mulberry32 } from '../../src/schedule/random.ts';
import { pairbench, resultsOf } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** 30 pairs of each benchmark, head 30% slower with ±1% noise per run. */
function thirtyPercent(benchmarks: Array<{ name: string; unit: string; base: number; minChange?: string }>): string {
  const rng = mulberry32(5);
  const file = join(tempDir(), 'results.json');
  const pairs = (base: number) => Array.from({ length: 30 }, (_, i) => ({ base: base * (1 + (rng() - 0.5) * 0.02), head: base * 1.3 * (1 + (rng() - 0.5) * 0.02), order: i % 2 ? 'head-first' : 'base-first' }));
  writeFileSync(
    file,
    JSON.stringify({
      schemaVersion: 1,
      base: { sha: 'a'.repeat(40) },
      head: { sha: 'b'.repeat(40) },
      status: 'complete',
      settings: { seed: 1 },
      benchmarks: benchmarks.map((b) => ({ name: b.name, unit: b.unit, direction: 'lower-is-better', ...(b.minChange ? { minChange: b.minChange } : {}), pairs: pairs(b.base) })),
    }),
  );
  return file;
}

function verdicts(stdout: string): Record<string, string> {
  return Object.fromEntries(resultsOf(stdout).benchmarks.map((b) => [b.name, b.verdict ?? '']));
}

describe('--min-change', () => {
  const file = thirtyPercent([
    { name: 'tiny', unit: 'ns', base: 40 },
    { name: 'slow', unit: 'ms', base: 2 },
  ]);

  it('without it, +30% of 40 ns and of 2 ms are both regressions', () => {
    const res = pairbench(['report', file, '--json']);
    expect(verdicts(res.stdout)).toEqual({ tiny: 'regression', slow: 'regression' });
  });

  it('at 1µs, +30% of 40 ns is not a regression and +30% of 2 ms still is; the report shows the absolute change', () => {
    const res = pairbench(['report', file, '--json', '--min-change', '1µs']);
    expect(verdicts(res.stdout), res.stderr).toEqual({ tiny: 'unchanged', slow: 'regression' });
    expect((resultsOf(res.stdout) as unknown as { settings: { minChange: string } }).settings.minChange).toBe('1µs');
    const table = pairbench(['report', file, '--min-change', '1µs']);
    expect(table.status).toBe(1);
    // the relative change with its interval and that interval's own level (the header spans 90–95%), then the absolute one and the floor, in the row's unit
    expect(table.stdout).toMatch(/^tiny .* \+(29|30)\.\d% \[\+\d+\.\d%, \+\d+\.\d%\] \(90%\) \(\+1[12]\.\d ns, min-change 1\.00 µs\) .* unchanged$/m);
    expect(table.stdout).toContain('which lies within ±threshold (or within the min-change, where that is wider)');
    expect(table.stdout).toMatch(/^slow .* \+(29|30)\.\d% \[\+\d+\.\d%, \+\d+\.\d%\] \(95%\) \(\+(59\d|60\d) µs, min-change 1\.00 µs\) .* regression$/m);
  });

  it("a benchmark's own min-change (its config entry, in the results) holds it below the floor", () => {
    const own = thirtyPercent([{ name: 'tiny', unit: 'ns', base: 40, minChange: '1µs' }]);
    expect(verdicts(pairbench(['report', own, '--json']).stdout)).toEqual({ tiny: 'unchanged' });
  });

  it('memory in bytes: a floor of 1KB holds +30% of 400 B, and a time floor does not apply to it', () => {
    const mem = thirtyPercent([{ name: 'alloc', unit: 'B', base: 400 }]);
    expect(verdicts(pairbench(['report', mem, '--json', '--min-change', '1KB']).stdout)).toEqual({ alloc: 'unchanged' });
    expect(verdicts(pairbench(['report', mem, '--json', '--min-change', '1ms']).stdout)).toEqual({ alloc: 'regression' });
  });

  it('a floor of another family than the benchmark measures: one line, exit 2', () => {
    const res = pairbench(['compare', '--base-dir', '.', '--head-dir', '.', '--run', 'true', '--min-change', '1KB'], { cwd: tempDir() });
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('pairbench: --min-change: got "1KB", a size in bytes, but the benchmark "true" measures time; expected a time such as 5ms or 200ns');
  });

  it("a config entry's min-change of another family than its metric: one line naming the entry, exit 2", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bench.yml'), 'benchmarks:\n  - name: peak\n    run: "true"\n    metric: rss\n    min-change: 5ms\n');
    const res = pairbench(['compare', '--base-dir', '.', '--head-dir', '.', '--config', 'bench.yml'], { cwd: dir });
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('pairbench: --config bench.yml: benchmark "peak" min-change: got "5ms", a time, but the benchmark "peak" measures size in bytes; expected a size such as 1KB');
  });
});

describe('min-change from a results file', () => {
  it("an untrusted file (the action's mode: report) sets no floor: its benchmark's own and its recorded one are not used", () => {
    const file = readResultsFile(thirtyPercent([{ name: 'tiny', unit: 'ns', base: 40, minChange: '1s' }]));
    const forged = { ...file, settings: { ...file.settings, minChange: '1s' } };
    const given = { alpha: 0.05, threshold: 0.02, outliers: 'tukey' as const, correction: 'holm' as const };
    const untrusted = rejudge(forged, { trustRecorded: false, given, failOn: 'regression', naming: actionNaming });
    expect(untrusted.results.benchmarks[0]!.verdict).toBe('regression');
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.notes.join(' ')).toContain('min-change "1s", a min-change of its own for 1 benchmark');
    // one's own file (pairbench report): the benchmark's own floor is kept
    const own = rejudge(forged, { trustRecorded: true, given: {}, failOn: 'regression', naming: actionNaming });
    expect(own.results.benchmarks[0]!.verdict).toBe('unchanged');
  });
});
