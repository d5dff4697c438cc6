/**
 * `--pair-runs auto` (the default, with `--cpus auto`) and `at-once`: both sides of every pair
 * started together, each bound to a CPU of its own, the pair's coin choosing which side gets which
 * (pure: the machine is read by config/cpus.ts, `thisHost`).
 *
 * Why. A shared machine slows and speeds up as a whole (a neighbour's burst, the host's frequency,
 * a noisy cache): two runs made one after the other see two moments of it, two runs made at once
 * see the same one, so the pair's ratio cancels it. This is duet benchmarking (Bulej, Horký, Tůma,
 * Farquet and Prokopec, "Duet Benchmarking: Improving Measurement Accuracy in the Cloud", ICPE
 * 2020). The pair's coin, which in turn decides which side runs first, here decides which side gets
 * the first of the two CPUs, so a difference between the CPUs is noise spread over both sides, never
 * a bias, and with no change the sides stay exchangeable: the sign-flip test stays exact
 * (docs/statistics.md, "Both sides at once").
 *
 * What it costs. The two runs share the machine's caches, memory bandwidth and power, so a
 * benchmark bound by them reads a change against a busier machine than it would alone; every run is
 * bound to one CPU, so multi-threaded code (Go's GOMAXPROCS, a runner's workers) runs on one; and
 * pairbench's own process has no CPU of its own while a pair runs (it only waits for it). It needs
 * Linux with taskset and two CPUs this process may use; elsewhere the pairs run in turn and the
 * reason says why.
 */
import { formatCpuList } from './cpu-list.ts';
import type { CpuHost } from './cpus.ts';

/** The two CPUs the sides of a pair are bound to (a coin choosing which gets the first), or null where the pairs run in turn, and why. */
export interface AtOnce {
  cpus: readonly [string, string] | null;
  reason: string;
}

/**
 * The CPUs of `--pair-runs auto` or `at-once` on this machine. `listed`: the CPUs of `--cpus <list>` (its
 * first two are used), or null for `--cpus auto`, which takes the two highest CPUs this process may
 * use, leaving any lower ones to pairbench's own process and the system.
 */
export function chooseAtOnce(host: CpuHost, listed: readonly number[] | null): AtOnce {
  const inTurn = (why: string): AtOnce => ({ cpus: null, reason: `in turn: ${why}` });
  if (host.platform !== 'linux') return inTurn(`running both sides at once binds each to a CPU of its own, which needs Linux (taskset), and this system is ${host.platform}`);
  if (!host.taskset) return inTurn("taskset is missing (util-linux's taskset binds each side to its CPU)");
  let two: number[];
  if (listed !== null) {
    two = listed.slice(0, 2);
  } else {
    if (host.allowed === null) return inTurn('the CPUs this process may use could not be read (/proc/self/status)');
    const allowed = [...new Set(host.allowed)].sort((a, b) => a - b);
    if (allowed.length < 2) return inTurn(`this process may use only CPU ${formatCpuList(allowed)}, and both sides at once need two`);
    two = allowed.slice(-2);
  }
  const [a, b] = two.map(String) as [string, string];
  return { cpus: [a, b], reason: `at once: both sides of every pair started together, one on CPU ${a} and one on CPU ${b}, the pair's coin choosing which` };
}

/**
 * The share of its time other work may keep either of the two CPUs busy, read just before the
 * comparison, for `--pair-runs auto` to run the pairs at once: above it, what runs on one CPU would
 * slow one side of each pair alone, so the pairs run in turn (measure/cpu-load.ts says why).
 */
export const AT_ONCE_BUSY_LIMIT = 0.25;

/**
 * `--pair-runs auto`: the pairs at once, as chosen, while the two CPUs are free of other work; in
 * turn, and why, where `busy` (each CPU's busy share: measure/cpu-load.ts) says another job keeps
 * one of them busy. A choice made from the machine before any pair is measured, never from a pair,
 * so with no change every pair's sign stays a fair coin.
 */
export function keepAtOnce(atOnce: AtOnce, busy: ReadonlyMap<string, number> | null): AtOnce {
  if (!atOnce.cpus || !busy) return atOnce;
  const worst = atOnce.cpus.map((cpu) => ({ cpu, share: busy.get(cpu) ?? 0 })).sort((a, b) => b.share - a.share)[0]!;
  if (worst.share <= AT_ONCE_BUSY_LIMIT) return atOnce;
  return {
    cpus: null,
    reason: `in turn: other work kept CPU ${worst.cpu} busy ${Math.round(worst.share * 100)}% of the time just before measuring, and at once what runs on one CPU slows one side of each pair alone`,
  };
}
