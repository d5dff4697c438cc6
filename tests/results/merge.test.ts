/**
 * Shards: four results files of one comparison, merged by `pairbench report`, judge exactly as the
 * unsharded comparison of the same pairs; a missing shard, a shard of another head and a forged
 * file are reported as such.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BenchmarkSpec } from '../../src/config/spec.ts';
import type { Results } from '../../src/results/schema.ts';
import { mulberry32 } from '../../src/schedule/random.ts';
import { selectShard } from '../../src/schedule/shard.ts';
import { mergeResults } from '../../src/results/merge.ts';
import { pairbench, resultsOf } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const BASE = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);

/** 12 benchmarks with seeded noise; some slower in head, some faster, most unchanged. */
function fullResults(): Results {
  const rng = mulberry32(2024);
  const effects = [0.1, 0, 0, -0.08, 0, 0.03, 0, 0, 0.2, 0, 0, 0.015];
  return {
    schemaVersion: 1,
    base: { ref: 'main', sha: BASE },
    head: { ref: 'pr', sha: HEAD },
    settings: { seed: 1 },
    status: 'complete',
    benchmarks: effects.map((effect, i) => ({
      name: `bench-${String(i).padStart(2, '0')}`,
      unit: 'ms',
      direction: 'lower-is-better' as const,
      pairs: Array.from({ length: 25 }, () => {
        const machine = 1 + rng() * 0.3; // what the machine does to both sides of a pair
        return { base: 10 * machine * (1 + (rng() - 0.5) * 0.02), head: 10 * (1 + effect) * machine * (1 + (rng() - 0.5) * 0.02), order: rng() < 0.5 ? ('base-first' as const) : ('head-first' as const) };
      }),
    })),
  };
}

function shardOf(full: Results, index: number, count: number): Results {
  const specs = full.benchmarks.map((b) => ({ name: b.name }) as BenchmarkSpec);
  const mine = new Set(selectShard(specs, { index, count }).map((s) => s.name));
  return { ...full, shard: { index, count }, benchmarks: full.benchmarks.filter((b) => mine.has(b.name)) };
}

type Judged = { verdict: string; status: string; missingShards?: number[]; benchmarks: { name: string; verdict: string; change: { pValue: number; pAdjusted: number; estimate: number } }[] };

function report(files: string[], extra: string[] = []): { status: number | null; judged: Judged | null; stderr: string; stdout: string } {
  const res = pairbench(['report', ...files, '--json', ...extra]);
  let judged: Judged | null = null;
  try {
    judged = resultsOf(res.stdout) as Judged;
  } catch {
    judged = null;
  }
  return { status: res.status, judged, stderr: res.stderr, stdout: res.stdout };
}

describe('merging shards', () => {
  const dir = tempDir();
  const full = fullResults();
  const fullFile = join(dir, 'full.json');
  const shardFiles = [1, 2, 3, 4].map((i) => join(dir, `shard-${i}.json`));
  beforeAll(() => {
    writeFileSync(fullFile, JSON.stringify(full));
    shardFiles.forEach((f, k) => writeFileSync(f, JSON.stringify(shardOf(full, k + 1, 4))));
  });

  it('four shards merged give the verdicts and adjusted p-values of the unsharded comparison', () => {
    const whole = report([fullFile]);
    const merged = report(shardFiles);
    expect(whole.judged).not.toBeNull();
    expect(merged.judged).not.toBeNull();
    expect(merged.status).toBe(whole.status);
    expect(merged.judged!.verdict).toBe(whole.judged!.verdict);
    expect(merged.judged!.verdict).toBe('regression');
    const byName = (j: Judged) => new Map(j.benchmarks.map((b) => [b.name, b]));
    const w = byName(whole.judged!);
    const m = byName(merged.judged!);
    expect([...m.keys()].sort()).toEqual([...w.keys()].sort());
    for (const [name, b] of w) {
      expect(m.get(name)!.verdict).toBe(b.verdict);
      expect(m.get(name)!.change.pAdjusted).toBe(b.change.pAdjusted);
      expect(m.get(name)!.change.estimate).toBe(b.change.estimate);
    }
    // the correction spans all shards: adjusted p-values are larger than the shard-alone ones would be
    const alone = report([shardFiles[0]!]);
    const first = alone.judged!.benchmarks[0]!;
    expect(m.get(first.name)!.change.pAdjusted).toBeGreaterThanOrEqual(first.change.pAdjusted);
  });

  it('report of one file keeps its rounds; shards, run side by side, make no one sequence of rounds', () => {
    const withRounds = join(dir, 'rounds.json');
    const rounds = [full.benchmarks.map((b) => b.name), full.benchmarks.map((b) => b.name).reverse()];
    writeFileSync(withRounds, JSON.stringify({ ...full, rounds }));
    const one = resultsOf(pairbench(['report', withRounds, '--json']).stdout) as { rounds?: string[][] };
    expect(one.rounds).toEqual(rounds);
    const shardsWithRounds = shardFiles.slice(0, 2).map((f, k) => {
      const file = join(dir, `rounds-shard-${k + 1}.json`);
      writeFileSync(file, JSON.stringify({ ...shardOf(full, k + 1, 2), rounds }));
      return file;
    });
    const merged = resultsOf(pairbench(['report', ...shardsWithRounds, '--json']).stdout) as { rounds?: string[][] };
    expect(merged.rounds).toBeUndefined();
  });

  it('a missing shard is named and makes the verdict at most inconclusive', () => {
    // shard 1 holds bench-08 (+20%) and shard 3 the only other big one; drop shard 3
    const res = report([shardFiles[0]!, shardFiles[1]!, shardFiles[3]!]);
    expect(res.judged!.missingShards).toEqual([3]);
    expect(res.judged!.status).toBe('partial');
    expect(['inconclusive', 'regression']).toContain(res.judged!.verdict);
    const text = pairbench(['report', shardFiles[1]!, shardFiles[3]!]);
    expect(text.stdout).toMatch(/incomplete: shard 1, 3 is missing/);
  });

  it('a shard with only unchanged benchmarks and a missing sibling is inconclusive, never unchanged', () => {
    const quiet = { ...shardOf(full, 2, 4), benchmarks: shardOf(full, 2, 4).benchmarks.filter((b) => ['bench-01', 'bench-02'].includes(b.name)) };
    const file = join(dir, 'quiet.json');
    writeFileSync(file, JSON.stringify(quiet));
    const res = report([file]);
    expect(res.judged!.verdict).toBe('inconclusive');
  });

  it('S15: a results file that claims shard 5/2 is refused, alone or merged, naming the file', () => {
    const bogus = join(dir, 'shard-5-of-2.json');
    writeFileSync(bogus, JSON.stringify({ ...shardOf(full, 2, 2), shard: { index: 5, count: 2 } }));
    const first = join(dir, 'shard-1-of-2.json');
    writeFileSync(first, JSON.stringify(shardOf(full, 1, 2)));
    for (const files of [[bogus], [first, bogus]]) {
      const res = report(files);
      expect(res.status).toBe(2);
      expect(res.stderr).toMatch(/^pairbench: .*shard-5-of-2\.json: shard: 5\/2 is not a shard .*; expected i\/n with 1 ≤ i ≤ n\n$/);
    }
  });

  it('a shard of another head SHA is refused, naming the file', () => {
    const other = join(dir, 'other-head.json');
    writeFileSync(other, JSON.stringify({ ...shardOf(full, 2, 4), head: { ref: 'x', sha: 'c'.repeat(40) } }));
    const res = report([shardFiles[0]!, other]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/other-head\.json: its head is "c{40}" but .*shard-1\.json's is "b{40}"/);
  });

  it.each([
    ['wrong schema', { schemaVersion: 2, base: {}, head: {}, benchmarks: [] }, /schemaVersion/],
    ['a huge name', { ...full, benchmarks: [{ ...full.benchmarks[0]!, name: 'x'.repeat(100_000) }] }, /benchmarks\[0\]\.name/],
    ['a negative sample', { ...full, benchmarks: [{ ...full.benchmarks[0]!, pairs: [{ base: -1, head: 1, order: 'base-first' }] }] }, /must be 0 or greater/],
    ['a one-sided pair with no 0', { ...full, benchmarks: [{ ...full.benchmarks[0]!, oneSidedPairs: [{ base: 1, head: 2, order: 'base-first' }] }] }, /oneSidedPairs\[0\].*exactly one of base and head must be 0/],
    ['a pair with one side at 0', { ...full, benchmarks: [{ ...full.benchmarks[0]!, pairs: [{ base: 0, head: 1, order: 'base-first' }] }] }, /pairs\[0\].*both be greater than 0, or both 0/],
    ['not JSON', 'not json at all', /not valid JSON/],
  ])('a forged file (%s) is refused with a clear message', (_what, doc, message) => {
    const file = join(dir, `forged-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
    const res = report([file]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('takes a file with only the raw pairs, as another tool would write it', () => {
    const minimal = {
      schemaVersion: 1,
      base: { sha: BASE },
      head: { sha: HEAD },
      benchmarks: [{ name: 'x', unit: 'ms', direction: 'lower-is-better', pairs: full.benchmarks[0]!.pairs }],
    };
    const file = join(dir, 'minimal.json');
    writeFileSync(file, JSON.stringify(minimal));
    const res = report([file]);
    expect(res.status).toBe(1);
    expect(res.judged!.benchmarks[0]!.verdict).toBe('regression');
  });
});

describe('S20: a merge never makes a file pairbench report would refuse', () => {
  const shard = (index: number, count: number, benchmarks: Results['benchmarks']): Results => ({ schemaVersion: 1, base: { ref: 'main', sha: BASE }, head: { ref: 'pr', sha: HEAD }, status: 'complete', shard: { index, count }, benchmarks });
  const one = (name: string, pairs: Results['benchmarks'][number]['pairs']): Results['benchmarks'][number] => ({ name, unit: 'ms', direction: 'lower-is-better', pairs });

  it('S20: three valid shards of 40,000 benchmarks each are refused in one line, exit 2: a results file holds 100,000', () => {
    const dir = tempDir();
    const pair = [{ base: 1, head: 1, order: 'base-first' as const }];
    const files = [1, 2, 3].map((k) => {
      const path = join(dir, `shard-${k}.json`);
      writeFileSync(path, JSON.stringify(shard(k, 3, Array.from({ length: 40_000 }, (_, i) => one(`s${k}-b${i}`, pair)))));
      return path;
    });
    const res = report(files, ['--out', join(dir, 'merged.json')]);
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr.trim()).toBe('pairbench: report: the files hold 120000 benchmarks in all; a results file holds at most 100000, as many as pairbench report reads: report fewer shards at a time');
  });

  it('S20: shards whose merged file would outgrow the 256 MiB report reads are refused before it is written', () => {
    // four shards of one benchmark with a million pairs each: each file is readable, the merged one (about 320 MB) not
    const pairs = Array.from({ length: 1_000_000 }, () => ({ base: 51.234567891234, head: 52.01234567891, order: 'head-first' as const }));
    const shards = [1, 2, 3, 4].map((k) => shard(k, 4, [one(`b${k}`, pairs)]));
    expect(() => mergeResults(shards, ['s1.json', 's2.json', 's3.json', 's4.json'])).toThrow(/^report: the files hold 4000000 pairs of 4 benchmarks in all, a results file of about \d+ MiB; pairbench report reads at most 256 MiB: report fewer shards at a time$/);
    expect(mergeResults(shards.slice(0, 2).map((s, i) => ({ ...s, shard: { index: i + 1, count: 2 } })), ['s1.json', 's2.json']).benchmarks).toHaveLength(2);
  });

  it('S20: more files than shards of one comparison (1000) are refused before any is read', () => {
    const res = report(Array.from({ length: 1001 }, (_, i) => `/no/such/shard-${i}.json`));
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('pairbench: report: got 1001 results files; expected at most 1000 (one per shard)');
  });
});
