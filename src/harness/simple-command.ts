/**
 * Where a simple command ends in a shell command line, so that flags can be appended to one
 * command of several (`a {benchmark} >&2 && cat out.json`): select.ts puts pyperf's sizing flags
 * after the selection, criterion-trim.ts Criterion's `--nresamples` after its `--output-format`.
 * Kept apart from select.ts, which imports the harness registry: a harness module that needs it
 * would otherwise close an import cycle.
 */

/**
 * The index at which the simple command that holds `from` ends: the first operator or redirection
 * the shell reads after it (`|`, `&&`, `;`, `>&2`, `2>err`...), quotes and backslashes minded, a
 * redirection's file descriptor (`2>`) counted with it; the command's length when none follows.
 */
function simpleCommandEnd(command: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < command.length; i++) {
    const c = command[i]!;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '\\') i++;
    else if (c === "'" || c === '"') quote = c;
    else if (/[|&;<>()\n]/.test(c)) {
      let j = i;
      while (j > from && /\d/.test(command[j - 1]!)) j--;
      return j === i || /\s/.test(command[j - 1] ?? ' ') ? j : i;
    }
  }
  return command.length;
}

/** `command` with `text` at the end of the simple command that holds index `from`, before what the shell does next. */
export function appendToSimpleCommand(command: string, from: number, text: string): string {
  const end = simpleCommandEnd(command, from);
  const head = command.slice(0, end).trimEnd();
  const tail = command.slice(end);
  return `${head}${text}${tail === '' ? '' : ` ${tail}`}`;
}
