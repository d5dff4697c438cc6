/**
 * What a JavaScript benchmark that stays noisy in pairs could change in how it is run, said beside
 * the noise warning (the `js-noise` finding; report/findings.ts words it).
 *
 * Measured on this project's 2-core machine, an A/A of five vitest benchmarks of @rgrove/parse-xml
 * (0.5 s of measuring each) in ten minutes (bench/results/suites-js-aa-*-2026-12-02.md): a
 * process's median of its thousands of iterations moved by 4-11% from one process to the next, and
 * base and head of one pair hardly moved together (a correlation of 0.2-0.5). The noise is each
 * process's own, what V8's JIT and collector made of the code in it, not the machine's moment, so
 * only more processes, or steadier ones, narrow an interval:
 * - one benchmark per process, a pair cost 2.6 s (two vitest starts): 20 to 88 pairs a benchmark,
 *   ±8.6% a pair, 2 of 5 `unchanged`;
 * - five per process (`--batch 5`), 1.4 s a benchmark: 88 pairs each, ±6.1%, 3 of 5;
 * - one per process bound to one CPU (`--cpus 1`): ±3.6%, 5 of 5, the last verdict after 9 min
 *   24 s; base and head of a pair moved together (a correlation of 0.5-0.85), so pairing cancelled
 *   most of what remained;
 * - five per process and bound: 87 pairs each, ±4.7%, 5 of 5.
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
