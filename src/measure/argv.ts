/**
 * How a command becomes the argv that is executed: through `/bin/sh -c` (`--shell sh`, the
 * default), or split into words and executed directly (`--shell none`, as hyperfine's `-N`), so
 * that no shell is started per run and pairbench's overhead is only its fork and exec. The words
 * are split as the spec checked them when it was read (config/command.ts).
 */
import { splitCommand, type ShellMode } from '../config/command.ts';

/** The argv that runs a command in the given mode (a command that cannot be split is refused earlier, in the spec). */
export function commandArgv(command: string, shell: ShellMode = 'sh'): string[] {
  if (shell === 'sh') return ['/bin/sh', '-c', command];
  const split = splitCommand(command);
  if ('error' in split) throw new Error(`--shell none: the command ${JSON.stringify(command)} cannot run without a shell: ${split.error}`);
  return split.argv;
}
