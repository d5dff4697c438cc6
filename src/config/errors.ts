/**
 * A usage error: a bad flag, action input or config value. It is reported as one line that names
 * the input, the value and what is expected, with exit status 2 and never a stack trace.
 */
export class UsageError extends Error {
  readonly input: string;
  constructor(input: string, message: string) {
    super(message);
    this.name = 'UsageError';
    this.input = input;
  }

  /** The standard shape: `--max-pairs: got "abc"; expected a whole number ≥ 1`. */
  static invalid(input: string, value: unknown, expected: string): UsageError {
    return new UsageError(input, `${input}: got ${show(value)}; expected ${expected}`);
  }
}

/** Shows a user's value in a message: quoted, and cut when long so a message stays one line. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const oneLine = (text ?? String(value)).replace(/[\r\n]+/g, ' ');
  const cut = oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
  return JSON.stringify(cut);
}
