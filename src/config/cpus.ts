/**
 * `--cpus`: the CPUs every measured run of both sides is bound to (Linux, `taskset -c`), given as
 * a cpuset list as Linux writes one (`1`, `0,2`, `2-3`), or `auto` (the default) or `none`.
 *
 * Why the runs are bound by default (`auto`, config/isolation.ts). On a small runner a benchmark's
 * process moves between cores and shares them with the runtime's own threads and with pairbench's
 * own process; bound to CPUs of their own, the runs of a pair land alike, so their pairs spread far
 * less (measured on real suites, those the run design was not tuned on among them:
 * docs/measuring.md, "Bound to CPUs"). Binding changes what the code does: Go sizes GOMAXPROCS
 * from the CPUs it may use, so a Go benchmark bound to one CPU runs its Go code on one thread
 * (b.RunParallel, the collector's workers), and any multi-threaded benchmark is measured on the
 * CPUs given. The log and the report say so, and `none` leaves the runs unbound.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { UsageError, show } from './errors.ts';
import { MAX_CPUS, formatCpuList, parseCpuList } from './cpu-list.ts';

export { parseCpuList };

/** What `--cpus` needs of the machine: Linux, the CPUs this process may use, and taskset. */
export interface CpuHost {
  platform: NodeJS.Platform;
  /** the CPUs this process may use (Cpus_allowed_list), null when they cannot be read */
  allowed: number[] | null;
  /** whether `taskset` runs */
  taskset: boolean;
}

/** The CPUs this process may use (Linux's Cpus_allowed_list), null where they cannot be read. */
export function allowedCpus(): number[] | null {
  if (process.platform !== 'linux') return null;
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    return parseCpuList(/^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? '');
  } catch {
    return null;
  }
}

/** This machine, read for `--cpus auto` (the default) and to check a list of CPUs; never for `--cpus none`. */
export function thisHost(): CpuHost {
  const allowed = allowedCpus();
  const taskset = process.platform === 'linux' && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
  return { platform: process.platform, allowed, taskset };
}

/**
 * A cpuset list as given (trimmed), or one message naming the input, the value and what is expected:
 * the syntax alone, as a recorded `cpus` setting is read back (results/recorded.ts) on any machine.
 * `orAuto`: the option, which also takes `auto` and `none` (config/isolation.ts), says so.
 */
export function checkCpuList(input: string, value: string, orAuto = false): string {
  const cpus = parseCpuList(value.trim());
  if (cpus === null || cpus.length === 0) throw UsageError.invalid(input, value, `a list of CPUs as Linux writes one, each once and below ${MAX_CPUS}, such as 1, 0,2 or 2-3${orAuto ? ', or auto, or none' : ''}`);
  return value.trim();
}

/**
 * `--cpus` checked against the machine: the list as given, once it names CPUs this process may use
 * on a Linux machine with taskset; else one message naming the input, the value and what is expected.
 */
export function parseCpus(input: string, value: string, host: CpuHost = thisHost()): string {
  const cpus = parseCpuList(checkCpuList(input, value))!;
  if (host.platform !== 'linux') throw new UsageError(input, `${input}: got ${show(value)}, but binding runs to CPUs needs Linux (taskset); this system is ${host.platform}; expected no ${input} here`);
  if (host.allowed !== null) {
    const outside = cpus.filter((c) => !host.allowed!.includes(c));
    if (outside.length > 0) throw new UsageError(input, `${input}: got ${show(value)}, but this process may use only CPUs ${formatCpuList(host.allowed)} (CPU ${formatCpuList(outside)} ${outside.length === 1 ? 'is' : 'are'} not among them); expected CPUs among those`);
  }
  if (!host.taskset) throw new UsageError(input, `${input}: got ${show(value)}, but taskset is missing; expected util-linux's taskset (sudo apt-get install -y util-linux)`);
  return value.trim();
}
