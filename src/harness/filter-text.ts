/**
 * The text every format's selection is written in: regular expressions that match exactly some
 * names, result names split at ` > `, and the test of a run command pairbench may append a flag to.
 */

/** Escapes the characters that regular expressions (RE2, ECMAScript, POSIX ERE, Rust regex) treat specially. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** The anchored expression matching exactly `names` (`^a$`, `^(a|b)$`), metacharacters escaped. */
export function anchoredAlternation(names: readonly string[]): string {
  const alternatives = names.map(escapeRegex);
  return alternatives.length === 1 ? `^${alternatives[0]}$` : `^(${alternatives.join('|')})$`;
}

/** How the parsers of vitest, mitata, node:bench and Catch2 join the parts of a name. */
export const SEPARATOR = ' > ';

/** The names' ` > `-separated parts. */
export const parts = (name: string): string[] => name.split(SEPARATOR);

/** Every prefix of `xs` of length 1 to `xs.length`, each joined by `join`. */
export function prefixes(xs: readonly string[], join: (p: readonly string[]) => string): string[] {
  return xs.map((_, i) => join(xs.slice(0, i + 1)));
}

/** True when nothing in the command (outside quotes) joins, pipes or redirects commands. */
export function isSimpleCommand(command: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if ('|&;<>`\n'.includes(c) || (c === '$' && command[i + 1] === '(')) return false;
  }
  return quote === null;
}
