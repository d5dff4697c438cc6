/**
 * A command's words for `--shell none`: split by POSIX shell word rules (single and double quotes,
 * backslash escapes) without any expansion, by shell-quote's parser. Whatever needs a shell is
 * refused rather than passed on literally: operators (`|`, `&&`, `;`, `>`...), variables (`$HOME`),
 * globs (`*.txt`) and comments, and backquotes. A leading `~` is not expanded either.
 *
 * The spec refuses a command that cannot be split when it is read, before anything is built; the
 * run executes the same words (measure/argv.ts). One split for both, here, where both can read it.
 */
import { parse } from 'shell-quote';

export type ShellMode = 'sh' | 'none';

/** The words of a plain command, or why it needs a shell. */
export function splitCommand(command: string): { argv: string[] } | { error: string } {
  const variables: string[] = [];
  const words = parse(command, (name: string) => {
    variables.push(name);
    return '';
  });
  if (variables.length > 0) {
    return { error: variables[0] ? `it uses the variable $${variables[0]}, which needs a shell` : 'it uses a $ expansion, which needs a shell' };
  }
  const argv: string[] = [];
  for (const w of words) {
    if (typeof w === 'string') {
      if (w.includes('`')) return { error: 'it holds a command substitution (`...`), which needs a shell' };
      argv.push(w);
      continue;
    }
    if ('comment' in w) return { error: 'it holds a comment (#), which needs a shell' };
    if (w.op === 'glob') return { error: `it holds the pattern ${w.pattern}, which needs a shell` };
    return { error: `it holds the shell operator ${w.op}` };
  }
  if (argv.length === 0) return { error: 'it is empty' };
  return { argv };
}
