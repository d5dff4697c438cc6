/**
 * The command line: `pairbench compare | report | noise | bisect`. It reads as the pipeline: the
 * first argument picks the command, its module in cli/ parses the rest and runs it, and every
 * error ends as one line and the contract's exit status (0, 1, 2, 3, 130).
 */
import { PairbenchError, errorCode } from './config/errors.ts';
import type { ExitCode } from './engine.ts';
import { bisect } from './cli/bisect-command.ts';
import { compare } from './cli/compare.ts';
import { about } from './cli/help.ts';
import type { Io } from './cli/io.ts';
import { noise } from './cli/noise-command.ts';
import { report } from './cli/report.ts';

const COMMANDS: Record<string, (argv: string[], io: Io) => Promise<ExitCode>> = { compare, report, noise, bisect };

export async function main(argv: string[], io: Io): Promise<ExitCode> {
  const [first, ...rest] = argv;
  try {
    const command = first !== undefined && Object.hasOwn(COMMANDS, first) ? COMMANDS[first]! : null;
    return command ? await command(rest, io) : about(first, io);
  } catch (err) {
    // a PairbenchError carries its status (2 bad usage, 3 could not complete); anything else is 3
    if (err instanceof PairbenchError) {
      io.stderr.write(`pairbench: ${err.message}\n`);
      return err.exitCode;
    }
    io.stderr.write(`pairbench: could not complete: ${err instanceof Error ? err.message : String(err)}\n`);
    if (io.env.PAIRBENCH_DEBUG && err instanceof Error) io.stderr.write(`${err.stack}\n`);
    return 3;
  }
}

/**
 * The command line as a process: argv, the real streams and the exit status. bin.ts calls it
 * once it has checked the Node.js version; `node src/cli.ts` (the sources run directly) too.
 */
export function run(): void {
  // A reader that stops early (`pairbench report r.json | head`) closes the pipe: what is left to
  // print has no one to read it, and the run ends with its own status instead of a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err) => {
      if (errorCode(err) !== 'EPIPE') throw err;
    });
  }
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      process.stderr.write(`pairbench: could not complete: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 3;
    },
  );
}

if (import.meta.main) run();
