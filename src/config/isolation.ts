/**
 * `--cpus auto`, the default: whether to bind the measured runs to CPUs of their own, chosen from what the
 * machine offers, and why (pure: the machine is read by config/cpus.ts, `thisHost`).
 *
 * On a small runner pairbench's own process (scheduling, progress, judging, writing the results
 * file) and its run helper share the CPUs with the runs they measure. Bound to every CPU this
 * process may use but the lowest, the runs leave that one to pairbench: on a 2-CPU runner, the runs
 * on one CPU and pairbench on the other, as a single-CPU binding (`--cpus 1`) gave a Go suite's and
 * a JavaScript suite's pairs a fraction of their spread (docs/measuring.md, "Bound to CPUs").
 * It is the default for the formats where it won on every suite measured, the suites the run
 * design was not tuned on included (BOUND_HELPS; docs/measuring.md, "Bound to CPUs": spread per
 * pair and benchmarks decided, A/A, bound and unbound arms in one block), and only there. It
 * changes what multi-threaded code does (Go sizes GOMAXPROCS to the CPUs it may use; V8's compiler
 * threads would share the CPU), which the log and the report say, and `--cpus none` (NOT_BOUND)
 * leaves the runs unbound. Where the machine cannot bind (not Linux, no taskset, one CPU, the CPUs
 * not readable), the runs stay unbound and the reason says why.
 */
import { formatCpuList } from './cpu-list.ts';
import type { CpuHost } from './cpus.ts';

/** What `--cpus auto` (or `none`) chose: the CPUs the runs are bound to (a cpuset list), or null for unbound, and why, in words. */
export interface Isolation {
  /** the value of `--cpus` that chose it */
  asked: 'auto' | 'none';
  cpus: string | null;
  reason: string;
}

/** `--cpus none`: the runs left unbound, as asked. */
export const NOT_BOUND: Isolation = { asked: 'none', cpus: null, reason: 'not bound: --cpus none leaves every measured run free to use any CPU' };

/**
 * The formats whose real suites were measured steadier bound, in interleaved A/A arms on suites the
 * run design was not tuned on (docs/measuring.md, "Bound to CPUs"): Go test binaries,
 * pytest-benchmark and pyperf. Not the JavaScript runners: there a benchmark's process runs several
 * threads (V8's compiler and collector, a runner's workers), and two vitest suites not tuned on
 * decided no more benchmarks bound, with fewer pairs in the budget. Not Criterion: its analysis
 * threads then share the measured CPU, and a crate's suite ran slower and spread wider bound.
 * Formats not measured yet stay unbound.
 */
const BOUND_HELPS: ReadonlySet<string> = new Set(['go', 'pytest-benchmark', 'pyperf']);

/** Whether every format compared is one where binding was measured to help (BOUND_HELPS): else `auto` leaves the runs unbound, as they ran before it was the default, and says nothing. */
export function formatsGainFromBinding(formats: readonly string[]): boolean {
  return formats.every((f) => BOUND_HELPS.has(f));
}

/** Whether this machine can bind the runs, and to which CPUs. */
export function chooseIsolation(host: CpuHost): Isolation {
  if (host.platform !== 'linux') return { asked: 'auto', cpus: null, reason: `not bound: binding runs to CPUs needs Linux (taskset), and this system is ${host.platform}` };
  if (host.allowed === null) return { asked: 'auto', cpus: null, reason: 'not bound: the CPUs this process may use could not be read (/proc/self/status)' };
  const allowed = [...new Set(host.allowed)].sort((a, b) => a - b);
  if (allowed.length < 2) return { asked: 'auto', cpus: null, reason: `not bound: this process may use only CPU ${formatCpuList(allowed)}, none to leave to pairbench's own process` };
  if (!host.taskset) return { asked: 'auto', cpus: null, reason: "not bound: taskset is missing (util-linux's taskset binds the runs)" };
  const runs = allowed.slice(1);
  const list = formatCpuList(runs, Infinity);
  return {
    asked: 'auto',
    cpus: list,
    reason: `bound to CPU${runs.length === 1 ? '' : 's'} ${list}, every CPU this process may use but CPU ${allowed[0]}, which is left to pairbench's own process and its run helper`,
  };
}
