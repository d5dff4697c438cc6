/**
 * What a command of the command line reads and writes, handed down from main (cli.ts): the
 * process's own streams and environment when pairbench runs, others in a test.
 */

/** A stream to write to; a terminal when `isTTY` (`columns` wide). process.stdout is one. */
interface Out {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface Io {
  stdout: Out;
  stderr: Out;
  env: NodeJS.ProcessEnv;
}
