/**
 * What the example tests (tests/examples/) no longer assert of real timings, asserted here on the
 * command line's debug mode (src/schedule/scripted-runner.ts), where every run's noise is drawn from
 * a seed: the whole pipeline, from a config of three benchmarks to the results file, at the
 * defaults a user gets (threshold 2%, alpha 0.05). A benchmark slowed by 15% is a regression; an
 * untouched one whose runs spread as a quiet machine's is `unchanged`, decided by its equivalence
 * interval within ±2%, before --max-pairs; one whose pairs spread as a busy machine's (13% a pair,
 * as a Go sort's in a CI run beside other work) ends `inconclusive` at --max-pairs, saying how many
 * pairs would settle it, and is never flagged.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

function debugConfig(seed: number): { status: number | null; dir: string; stdout: string } {
  const dir = realpathSync(tempDir('pairbench-debug-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'head'));
  // the spread of ln(run): a pair's difference spreads sqrt(2) times as much (0.092 → 13% a pair)
  const script = { seed, benchmarks: { checksum: { baseMs: 50, factor: 1.15, noise: 0.01 }, 'sort quiet': { baseMs: 20, noise: 0.003 }, 'sort busy': { baseMs: 20, noise: 0.092 } } };
  writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
  writeFileSync(join(dir, 'pairbench.yml'), ['benchmarks:', '  - name: checksum', '    run: ./checksum', '  - name: sort quiet', '    run: ./sort-quiet', '  - name: sort busy', '    run: ./sort-busy', ''].join('\n'));
  const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--config', 'pairbench.yml', '--seed', '42', '--out', 'results.json', '--quiet'], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' } });
  return { status: res.status, dir, stdout: res.stdout };
}

describe('verdicts at the defaults, on seeded noise', () => {
  it.each([1, 2, 3])('noise seed %i: the slowed benchmark regresses, the quiet untouched one is unchanged within ±2%, the busy one inconclusive at --max-pairs and never flagged', (seed) => {
    const res = debugConfig(seed);
    expect(res.status, res.stdout).toBe(1);
    const byName = new Map(readResults(join(res.dir, 'results.json')).benchmarks.map((b) => [b.name, b]));
    const checksum = byName.get('checksum')!;
    expect(checksum.verdict).toBe('regression');
    expect(checksum.change!.estimate).toBeGreaterThan(0.1);
    expect(checksum.stoppedBecause).toBe('decided');

    const quiet = byName.get('sort quiet')!;
    expect(quiet.verdict, res.stdout).toBe('unchanged');
    expect(quiet.change!.basis).toBe('equivalence');
    expect(quiet.change!.ci[0]).toBeGreaterThanOrEqual(-0.02);
    expect(quiet.change!.ci[1]).toBeLessThanOrEqual(0.02);
    expect(quiet.pairs.length).toBeLessThan(200);

    const busy = byName.get('sort busy')!;
    expect(busy.verdict, res.stdout).toBe('inconclusive');
    expect(busy.stoppedBecause, res.stdout).toBe("max-pairs");
    expect(busy.pairs).toHaveLength(200);
    expect(busy.pairsToSettle!).toBeGreaterThan(200);
  });
});
