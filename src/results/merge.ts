/**
 * Merging results files of one comparison (shards measured on separate runners). Pairs never
 * cross files: each benchmark keeps the pairs its own shard measured. The multiple-comparison
 * correction is applied afterwards, across all benchmarks of all shards, by judging the merge.
 */
import { UsageError, show } from '../config/errors.ts';
import { LIMITS } from '../config/limits.ts';
import { mergedEnvironments } from './environment-differences.ts';
import type { Results } from './schema.ts';
import { estimateFileBytes } from './writer.ts';

const STATUS_RANK: Record<NonNullable<Results['status']>, number> = { complete: 0, running: 1, partial: 2, failed: 3 };

/**
 * More results files than shards of one comparison are refused before any is read: the command
 * line's `report` and the action's `mode: report` merge the same number at most.
 */
export function checkResultsFileCount(input: string, count: number): void {
  if (count > LIMITS.shards) throw new UsageError(input, `${input}: got ${count} results files; expected at most ${LIMITS.shards} (one per shard)`);
}

/**
 * A merge is refused before it makes a file `pairbench report` would refuse to read back: more
 * benchmarks than a results file holds, or more bytes than it reads by the writer's estimate
 * (the one `compare` stops measuring by).
 */
function checkMergedSize(files: readonly Results[]): void {
  let benchmarks = 0;
  let pairs = 0;
  let nameChars = 0;
  for (const f of files) {
    benchmarks += f.benchmarks.length;
    for (const b of f.benchmarks) {
      pairs += b.pairs.length + (b.oneSidedPairs?.length ?? 0);
      nameChars += b.name.length;
    }
  }
  const fix = 'report fewer shards at a time';
  if (benchmarks > LIMITS.benchmarks) {
    throw new UsageError('report', `report: the files hold ${benchmarks} benchmarks in all; a results file holds at most ${LIMITS.benchmarks}, as many as pairbench report reads: ${fix}`);
  }
  const bytes = estimateFileBytes(benchmarks, pairs, nameChars);
  if (bytes > LIMITS.fileBytes) {
    const mib = (n: number) => Math.ceil(n / 2 ** 20);
    throw new UsageError('report', `report: the files hold ${pairs} pairs of ${benchmarks} benchmarks in all, a results file of about ${mib(bytes)} MiB; pairbench report reads at most ${mib(LIMITS.fileBytes)} MiB: ${fix}`);
  }
}

export function mergeResults(files: Results[], names: string[]): Results {
  const first = files[0];
  if (!first) throw new UsageError('report', 'report: no results files to merge');
  files.forEach((f, i) => {
    for (const side of ['base', 'head'] as const) {
      const a = first[side].sha ?? null;
      const b = f[side].sha ?? null;
      if (a !== b) {
        throw new UsageError(names[i] ?? 'report', `${names[i]}: its ${side} is ${show(b ?? 'a directory')} but ${names[0]}'s is ${show(a ?? 'a directory')}; shards of one comparison must measure the same revisions`);
      }
    }
  });
  checkResultsFileCount('report', files.length);
  checkMergedSize(files);
  const benchmarks: Results['benchmarks'] = [];
  const seen = new Map<string, string>();
  files.forEach((f, i) => {
    for (const b of f.benchmarks) {
      const key = `${b.name}\u0000${b.metric ?? ''}`;
      if (seen.has(key)) {
        throw new UsageError(names[i] ?? 'report', `${names[i]}: benchmark ${show(b.name)} is also in ${seen.get(key)}; a benchmark belongs to one shard`);
      }
      seen.set(key, names[i] ?? String(i));
      benchmarks.push(b);
    }
  });
  // A shard that is missing makes the comparison incomplete, never silently smaller.
  const counts = new Set(files.map((f) => f.shard?.count ?? 1));
  if (counts.size > 1) {
    throw new UsageError('report', `report: the files come from different shard counts (${[...counts].join(', ')}); merge the shards of one run`);
  }
  const count = [...counts][0]!;
  const indices = files.map((f) => f.shard?.index ?? 1);
  const outside = indices.findIndex((k) => k > count);
  if (outside >= 0) {
    throw new UsageError(names[outside] ?? 'report', `${names[outside]}: shard ${indices[outside]}/${count} is not a shard of ${count} (the index is larger than the count); expected i/n with 1 ≤ i ≤ n`);
  }
  const twice = indices.find((k, i) => indices.indexOf(k) !== i);
  if (twice !== undefined && count > 1) throw new UsageError('report', `report: shard ${twice}/${count} is given twice`);
  const present = new Set(files.map((f) => f.shard?.index ?? 1));
  const missing = count > 1 ? [...Array(count).keys()].map((k) => k + 1).filter((k) => !present.has(k)) : [];
  const worst = files.reduce<NonNullable<Results['status']>>((w, f) => {
    const s = f.status ?? 'complete';
    return STATUS_RANK[s] > STATUS_RANK[w] ? s : w;
  }, 'complete');
  const failures = files.flatMap((f) => f.failures ?? []);
  // shards of runners that differ: each environment is kept, and every report says so (environment-differences.ts)
  const environments = mergedEnvironments(files);
  return {
    ...first,
    status: missing.length > 0 && worst === 'complete' ? 'partial' : worst,
    stoppedBecause: missing.length > 0 ? `missing shard ${missing.map((m) => `${m}/${count}`).join(', ')}` : (first.stoppedBecause ?? 'precision'),
    shard: undefined,
    // one file keeps its rounds; shards ran side by side, so their rounds make no one sequence
    rounds: files.length === 1 ? first.rounds : undefined,
    ...(missing.length > 0 ? { missingShards: missing } : {}),
    ...(failures.length > 0 ? { failures } : {}),
    ...(environments ? { environments } : {}),
    benchmarks,
  };
}
