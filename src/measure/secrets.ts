/**
 * The secrets this process knows, for redacting what its commands print (S4): the values of the
 * secret-looking variables of pairbench's own environment (where the action's token arrives, as
 * `INPUT_GITHUB-TOKEN`), and any value named with `addSecret` (the action's token, wherever it
 * came from). The commands themselves get an environment without the token; what they print is
 * redacted in case they found it anyway.
 */
import { redactor, secretValues } from './redact.ts';

const named = new Set<string>();
let current: ((text: string) => string) | null = null;

/** Adds a value to redact from every output captured from now on (as `core.setSecret` does for the log). */
export function addSecret(value: string): void {
  if (named.has(value)) return;
  named.add(value);
  current = null;
}

/** Redacts captured output with the secrets of this process. */
export function redactOutput(text: string): string {
  current ??= redactor([...secretValues(process.env), ...named]);
  return current(text);
}
