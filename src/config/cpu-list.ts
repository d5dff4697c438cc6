/**
 * A cpuset list as Linux writes one (`1`, `0,2`, `2-3`), read without I/O: the report and the
 * results room read a recorded `cpus` with it, and must not reach the machine (config/cpus.ts
 * checks a list against the CPUs this process may use).
 */

/** The CPUs a cpuset list names, in order, or null when it is not one (`0-3,6`). */
export function parseCpuList(text: string): number[] | null {
  if (!/^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/.test(text)) return null;
  const cpus: number[] = [];
  for (const part of text.split(',')) {
    const [from, to = from] = part.split('-').map(Number) as [number, number?];
    if (to! < from || to! - from > 4096) return null;
    for (let c = from; c <= to!; c++) cpus.push(c);
  }
  return cpus;
}
