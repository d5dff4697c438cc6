/**
 * How busy other work keeps each CPU, read from Linux's /proc/stat over a short window before
 * anything is measured: `--pair-runs auto` runs both sides of a pair at once only where the two
 * CPUs are free (config/at-once.ts, `keepAtOnce`).
 *
 * Why. At once, each side has a CPU of its own, so what the machine does to both at that moment
 * cancels in the pair's ratio (duet benchmarking, Bulej et al., ICPE 2020); but work that runs on one
 * of the two CPUs, and not the other, slows one side alone (measured: docs/measuring.md, "Both
 * sides at once").
 *
 * Busy is user, nice, system, irq and softirq time; idle, iowait and steal (the host's, which falls
 * on a virtual CPU whatever runs in it) are not. Null where /proc/stat cannot be read (not Linux).
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The window over which the CPUs are read, ms: long enough to catch work that comes and goes in tens of ms. */
const CPU_LOAD_WINDOW_MS = 500;

interface CpuTimes {
  busy: number;
  total: number;
}

/** Each CPU's cumulative busy and total time (in clock ticks), by its number; null where unreadable. */
function readCpuTimes(): Map<string, CpuTimes> | null {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  const out = new Map<string, CpuTimes>();
  for (const line of text.split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    // user nice system idle iowait irq softirq steal (guest time is counted in user and nice)
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0] = m[2]!.trim().split(/\s+/).map(Number);
    const busy = user + nice + system + irq + softirq;
    out.set(m[1]!, { busy, total: busy + idle + iowait });
  }
  return out.size > 0 ? out : null;
}

/**
 * The share of the window each of `cpus` was kept busy, by its number (0 to 1): null where the
 * machine cannot say.
 */
export async function sampleCpuLoad(cpus: readonly string[], windowMs = CPU_LOAD_WINDOW_MS): Promise<ReadonlyMap<string, number> | null> {
  const before = readCpuTimes();
  if (!before) return null;
  await sleep(windowMs);
  const after = readCpuTimes();
  if (!after) return null;
  const out = new Map<string, number>();
  for (const cpu of cpus) {
    const a = before.get(cpu);
    const b = after.get(cpu);
    if (!a || !b) return null;
    const total = b.total - a.total;
    out.set(cpu, total > 0 ? Math.min(1, Math.max(0, (b.busy - a.busy) / total)) : 0);
  }
  return out;
}
