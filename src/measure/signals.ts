/** Signal names from their numbers, as this system numbers them (the run helper reports numbers). */
import { constants } from 'node:os';

const NAMES = new Map<number, string>();
for (const [name, n] of Object.entries(constants.signals)) if (!NAMES.has(n)) NAMES.set(n, name);

/** `SIGKILL` for 9 here; `signal 64` for a number this system has no name for. */
export function signalName(n: number): string {
  return NAMES.get(n) ?? `signal ${n}`;
}
