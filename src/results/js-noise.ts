/**
 * What a JavaScript benchmark that stays noisy in pairs could change in how it is run, said beside
 * the noise warning (the `js-noise` finding; report/findings.ts words it).
 *
 * Why these two levers. A JavaScript benchmark's noise is mostly each process's own: what V8's JIT
 * tiers and its collector made of the code in that process, not the machine's moment, so base and
 * head of one pair hardly move together and pairing cancels little of it (the between-process
 * level of Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time", ISMM). Only more
 * processes, or steadier ones, narrow an interval:
 * - more benchmarks per process (`--batch`) buy more pairs where a process start (vitest's, about
 *   a second) costs more than a benchmark;
 * - binding both sides to one CPU (`--cpus`) puts V8's compiler and collector threads on the
 *   code's core, so that the two runs of a pair meet the same contention and move together.
 * The measured effect of each, on a real vitest suite: docs/performance.md and
 * docs/harnesses.md, "JavaScript and TypeScript".
 * pairbench changes neither by default (binding puts V8's compiler and collector threads on the
 * code's core, which changes what a multi-threaded benchmark measures); it says so. Read from the
 * results file alone (the recorded format, `interleave`, `batch` and `cpus`), so `pairbench
 * report` says it again.
 */
import type { Finding } from '../stats/types.ts';
import { boundToOneCpu, pairsWholeRuns, recordedOf } from './recorded.ts';
import type { BenchmarkResult, Results } from './schema.ts';

/** The formats of JavaScript harnesses: each run a Node process with its own JIT. */
const JS_FORMATS: ReadonlySet<string> = new Set(['vitest', 'mitata', 'benchmarkjs']);

/**
 * The `js-noise` finding for the time row of a benchmark of a JavaScript harness that is noisy
 * even in pairs (`high-noise` among `findings`), when its runs were neither bound to one CPU nor
 * several benchmarks to a process; else none.
 */
export function jsNoiseNote(b: BenchmarkResult, findings: readonly Finding[], results: Results): Finding[] {
  if (!findings.some((f) => f.code === 'high-noise')) return [];
  const recorded = recordedOf(results, b.name);
  if (recorded?.format === undefined || !JS_FORMATS.has(recorded.format) || / \([^()]+\)$/.test(b.name)) return [];
  const bound = boundToOneCpu(results.settings?.['cpus']);
  // whole runs of the suite (asked for, or where the command gives the selection no place) already
  // share one process among all its benchmarks
  const batched = (recorded.batch ?? 1) > 1 || recorded.interleave === 'suite' || pairsWholeRuns(results);
  if (bound && batched) return [];
  return [{ code: 'js-noise', severity: 'info', figures: { bound, batched } }];
}
