/**
 * What pairbench says about itself: `--help` (the commands; each command's own --help is in its
 * file), `--version`, and the line for a command it does not know.
 */
import { UsageError, show } from '../config/errors.ts';
import type { ExitCode } from '../engine.ts';
import { VERSION } from '../version.ts';
import type { Io } from './io.ts';

const USAGE = `pairbench ${VERSION}: catch performance regressions with randomized pairs

Usage:
  pairbench compare [options]          compare two git revisions (or two directories)
  pairbench report <results.json>...   judge saved results again from their raw pairs
  pairbench noise [options]            A/A run: this machine's noise floor and smallest detectable change
  pairbench bisect --base <rev> --benchmark <name> [options]
                                       the first commit of --base..--head that regresses a benchmark
  pairbench --help | --version

Run \`pairbench compare --help\` for the options.`;

/** The first argument when it names no command: the version, the usage (status 2 without any argument), or a usage error. */
export function about(first: string | undefined, io: Io): ExitCode {
  switch (first) {
    case '--version':
    case '-v':
      io.stdout.write(`${VERSION}\n`);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      io.stdout.write(`${USAGE}\n`);
      return first === undefined ? 2 : 0;
    default:
      throw new UsageError(first, `unknown command ${show(first)}; expected compare, report, noise or bisect (see pairbench --help)`);
  }
}
