/**
 * The errors pairbench reports to its user. Each carries the exit status it means (the contract's
 * table: 2 usage, 3 could not complete), so the entry points never guess it from the error's type
 * or text: `err.exitCode` is the status, `err.message` the one line shown.
 */
export class PairbenchError extends Error {
  /** the exit status this error means: 2 (bad usage, nothing was run) or 3 (could not complete) */
  readonly exitCode: 2 | 3;
  constructor(message: string, exitCode: 2 | 3) {
    super(message);
    this.name = 'PairbenchError';
    this.exitCode = exitCode;
  }
}

/**
 * A usage error: a bad flag, action input or config value. It is reported as one line that names
 * the input, the value and what is expected, with exit status 2 and never a stack trace.
 */
export class UsageError extends PairbenchError {
  readonly input: string;
  constructor(input: string, message: string) {
    super(message, 2);
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

/** What a file-system error code means, in words, with the code: `permission denied (EACCES)`. */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file is larger than allowed',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EEXIST: 'it already exists',
  EIO: 'input/output error',
};

/** The error code of a Node.js system error (`ENOENT`, ...), or undefined for any other error. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A file-system error in words, classified by its code (never by Node's English message). */
export function fsReason(err: unknown): string {
  const code = errorCode(err);
  if (code === undefined) return err instanceof Error ? err.message : String(err);
  return `${FS_REASONS[code] ?? 'the system refused it'} (${code})`;
}
