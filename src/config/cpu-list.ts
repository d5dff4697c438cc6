/**
 * A cpuset list as Linux writes one (`1`, `0,2`, `2-3`), read without I/O: the report and the
 * results room read a recorded `cpus` with it, and must not reach the machine (config/cpus.ts
 * checks a list against the CPUs this process may use).
 *
 * Bounded, because a recorded list comes from a results file that may come from anywhere: a CPU
 * number is below MAX_CPUS (Linux numbers at most 8,192 CPUs, its NR_CPUS ceiling), and a list
 * names each CPU once at most, so no list of any length expands to more than MAX_CPUS entries.
 */

/** CPU numbers run from 0 to MAX_CPUS - 1: Linux's largest NR_CPUS (8,192). */
export const MAX_CPUS = 8192;

/** The CPUs a cpuset list names, in order, or null when it is not one (`0-3,6`) or names a CPU past MAX_CPUS - 1 or twice. */
export function parseCpuList(text: string): number[] | null {
  // the longest list that names each CPU once is well below this; a longer text is not one
  if (text.length > 8 * MAX_CPUS || !/^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/.test(text)) return null;
  const cpus: number[] = [];
  const seen = new Set<number>();
  for (const part of text.split(',')) {
    const [from, to = from] = part.split('-').map(Number) as [number, number?];
    if (to! < from || to! >= MAX_CPUS) return null;
    for (let c = from; c <= to!; c++) {
      if (seen.has(c)) return null;
      seen.add(c);
      cpus.push(c);
    }
  }
  return cpus;
}

/** CPUs as a short cpuset list (`0-3,6`), the first `most` ranges then `…`: a message stays one short line. */
export function formatCpuList(cpus: readonly number[], most = 8): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return ranges.length > most ? `${ranges.slice(0, most).join(',')},…` : ranges.join(',');
}
