/**
 * Sharding: a large suite is split over matrix jobs, each measuring its own benchmarks in pairs on
 * its own runner (pairs never cross runners). Shard i of n takes every n-th benchmark, counting in
 * the order of their names from the i-th, so a benchmark stays on its shard across reruns.
 */
import type { BenchmarkSpec } from '../config/spec.ts';

export function selectShard(benchmarks: readonly BenchmarkSpec[], shard: { index: number; count: number }): BenchmarkSpec[] {
  if (shard.count === 1) return benchmarks.slice();
  const byName = benchmarks.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const mine = new Set(byName.filter((_, k) => k % shard.count === shard.index - 1));
  return benchmarks.filter((b) => mine.has(b));
}
