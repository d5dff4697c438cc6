/**
 * `--cpus auto`: whether to bind the measured runs to CPUs of their own, chosen from what the
 * machine offers, and why (pure: the machine is read by config/cpus.ts, `thisHost`).
 *
 * On a small runner pairbench's own process (scheduling, progress, judging, writing the results
 * file) and its run helper share the CPUs with the runs they measure. Bound to every CPU this
 * process may use but the lowest, the runs leave that one to pairbench: on a 2-CPU runner, the runs
 * on one CPU and pairbench on the other, as a single-CPU binding (`--cpus 1`) gave a Go suite's and
 * a JavaScript suite's pairs a fraction of their spread (docs/measuring.md, "Bound to one CPU").
 * It changes what multi-threaded code does (Go sizes GOMAXPROCS to the CPUs it may use; V8's
 * compiler threads share the CPU), so it is chosen, never the default; where the machine cannot
 * bind (not Linux, no taskset, one CPU, the CPUs not readable), the runs stay unbound and the
 * reason says why.
 */
import { formatCpuList } from './cpu-list.ts';
import type { CpuHost } from './cpus.ts';

/** What `--cpus auto` chose: the CPUs the runs are bound to (a cpuset list), or null for unbound, and why, in words. */
export interface Isolation {
  cpus: string | null;
  reason: string;
}

export function chooseIsolation(host: CpuHost): Isolation {
  if (host.platform !== 'linux') return { cpus: null, reason: `not bound: binding runs to CPUs needs Linux (taskset), and this system is ${host.platform}` };
  if (host.allowed === null) return { cpus: null, reason: 'not bound: the CPUs this process may use could not be read (/proc/self/status)' };
  const allowed = [...new Set(host.allowed)].sort((a, b) => a - b);
  if (allowed.length < 2) return { cpus: null, reason: `not bound: this process may use only CPU ${formatCpuList(allowed)}, none to leave to pairbench's own process` };
  if (!host.taskset) return { cpus: null, reason: "not bound: taskset is missing (util-linux's taskset binds the runs)" };
  const runs = allowed.slice(1);
  const list = formatCpuList(runs, Infinity);
  return {
    cpus: list,
    reason: `bound to CPU${runs.length === 1 ? '' : 's'} ${list}, every CPU this process may use but CPU ${allowed[0]}, which is left to pairbench's own process and its run helper`,
  };
}
