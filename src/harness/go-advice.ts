/**
 * What a Go benchmark that stays noisy in pairs could change in its own code or command, said
 * beside the noise warning (the `go-noise` finding; report/findings.ts words it).
 *
 * Why these levers (their measured effect: docs/measuring.md, "How runs are designed", and
 * examples/go-suite/README.md):
 * - a benchmark that allocates in its timed loop leaves the collector's work to land on one run or
 *   the next, so the two runs of a pair pay for different collections;
 * - with more than one thread, the collector's background workers run on another core, whose
 *   share of a shared runner varies from run to run; on one thread (`-test.cpu 1`, `GOMAXPROCS=1`)
 *   or bound to one CPU (`--cpus`) both runs of a pair meet the same contention.
 * pairbench changes neither by default (it would change what the user's code does); it says so,
 * with the figures of this benchmark. Read from the results file alone (the recorded run command
 * and `cpus` setting, the benchmark's `allocs/op` row, there with `b.ReportAllocs()` or
 * `-benchmem`: results/advice.ts), so `pairbench report` says it again.
 */
import { median } from '../stats/describe.ts';
import type { Finding } from '../stats/types.ts';
import type { NoisyBenchmark } from './harness.ts';

/** `-test.cpu 1` (or `=1`), or `GOMAXPROCS=1` in the environment the command sets. */
const ONE_THREAD = /(?:^|\s)-(?:test\.)?cpu(?:=|\s+)1(?:\s|$)|(?:^|\s)GOMAXPROCS=1(?:\s|$)/;

/** The `go-noise` finding of a noisy Go benchmark that allocates or runs on more than one thread; else none. */
export function goAdvice(noisy: NoisyBenchmark): Finding[] {
  // allocations, not bytes: a few bytes per op amortized over a run (a one-time allocation) are
  // no allocation in the loop
  const allocs = noisy.metric('allocs/op');
  const perOp = allocs && allocs.length > 0 ? median(allocs) : null;
  const allocsPerOp = perOp !== null && perOp >= 1 ? perOp : null;
  const oneThread = ONE_THREAD.test(noisy.run) || noisy.boundToOneCpu;
  if (allocsPerOp === null && oneThread) return [];
  return [{ code: 'go-noise', severity: 'info', figures: { allocsPerOp, oneThread } }];
}
