/**
 * What a benchmark's harness advises beside the warning of a benchmark that stays noisy even in
 * pairs (harness/harness.ts, `advice`: Go's allocations and threads, JavaScript's `--batch` and
 * `--cpus`). Read from the results file alone (the recorded format, run command, `interleave`,
 * `batch` and `cpus`, the benchmark's other metrics), so `pairbench report` says it again.
 */
import { harnessOf } from '../harness/registry.ts';
import type { NoisyBenchmark } from '../harness/harness.ts';
import type { Finding } from '../stats/types.ts';
import { boundToOneCpu, pairsWholeRuns, recordedOf } from './recorded.ts';
import type { BenchmarkResult, Results } from './schema.ts';

/**
 * The advice of the harness of `b`'s recorded format, for the time row of a benchmark that is
 * noisy even in pairs (`high-noise` among `findings`); none for another row (an extra metric,
 * `<name> (<metric>)`), a quiet one, or a format whose harness advises nothing.
 */
export function harnessAdvice(b: BenchmarkResult, findings: readonly Finding[], results: Results): Finding[] {
  if (!findings.some((f) => f.code === 'high-noise')) return [];
  const recorded = recordedOf(results, b.name);
  const harness = recorded?.format === undefined ? undefined : harnessOf(recorded.format);
  if (!recorded || !harness || / \([^()]+\)$/.test(b.name)) return [];
  const noisy: NoisyBenchmark = {
    run: recorded.run ?? '',
    boundToOneCpu: boundToOneCpu(results.settings),
    // whole runs of the suite (asked for, or where the command gives the selection no place)
    // share one process among all its benchmarks
    batched: () => (recorded.batch ?? 1) > 1 || recorded.interleave === 'suite' || pairsWholeRuns(results),
    metric: (metric) => results.benchmarks.find((r) => r.name === `${b.name} (${metric})`)?.pairs.map((p) => p.head) ?? null,
  };
  return harness.advice(noisy);
}
