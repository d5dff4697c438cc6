/** The command line's flags, parsed the same way for every command, and the config file they name. */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, errorCode, fsReason, show } from '../config/errors.ts';
import { LIMITS } from '../config/limits.ts';
import { FileRefused, readRegularFile } from '../config/read-file.ts';
import { COMPARE_OPTIONS, type OptionDef } from '../config/options.ts';
import type { ConfigFile, RawOptions } from '../config/spec.ts';

/** `--html <file>`: the self-contained HTML report, with every plot (compare and report). */
export const HTML_OPTION: OptionDef = { name: 'html', kind: 'string', arg: '<file>', help: 'write the HTML report: plots of every benchmark, self-contained', cliOnly: true, tier: 'user' };

/**
 * The option lines of a command's --help: the user tier, or every option with --help-all (`all`),
 * and then the line that says how many more there are.
 */
export function helpLines(options: readonly OptionDef[], all: boolean, line: (o: OptionDef) => string = (o) => optionLine(o)): string[] {
  const shown = all ? options : options.filter((o) => o.tier === 'user');
  const lines = shown.map(line);
  const more = options.length - shown.length;
  if (more > 0) lines.push(`  ${'--help-all'.padEnd(24)} every option, with the ${more} advanced ones (docs/reference.md says why each is there)`);
  return lines;
}

/**
 * One option's line of a command's --help: the flag and its value, its help, then its choices
 * (when `choices`) and its default (`fallback` replaces the option's own; null shows none).
 */
export function optionLine(o: OptionDef, opts: { choices?: boolean; fallback?: string | null } = {}): string {
  const flag = `--${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg ?? '<value>'}`}`;
  const shown = opts.fallback !== undefined ? opts.fallback : o.default !== undefined ? ` (default: ${o.default})` : '';
  const choices = opts.choices && o.choices && o.kind !== 'list' ? ` [${o.choices.join(', ')}]` : '';
  return `  ${flag.padEnd(24)} ${o.help}${choices}${shown ?? ''}`;
}

/**
 * Parses flags with node:util's parseArgs in its lenient mode, reading its tokens: each mistake is
 * then told apart by what the token is (an unknown name, a missing value, a value that looks like
 * an option), never by the wording of Node's own messages, and gets our one-line usage error.
 */
export function parseFlags(argv: string[], names: readonly string[], allowPositionals: boolean, extra: readonly OptionDef[] = []): { flags: RawOptions; positionals: string[] } {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' }, 'help-all': { type: 'boolean' } };
  for (const name of names) {
    const def = [...COMPARE_OPTIONS, ...extra].find((o) => o.name === name)!;
    options[name] = { type: def.kind === 'boolean' ? 'boolean' : 'string' };
  }
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const flags: RawOptions = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      if (!allowPositionals) throw new UsageError(token.value, `unexpected argument ${show(token.value)}; options start with --`);
      positionals.push(token.value);
      continue;
    }
    const flag = token.rawName;
    const type = Object.hasOwn(options, token.name) ? options[token.name]!.type : undefined;
    if (type === undefined) throw new UsageError(flag, `${flag}: unknown option; run with --help for the list`);
    if (type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(flag, `${flag}: takes no value; got ${show(token.value)}`);
      flags[token.name] = true;
      continue;
    }
    if (token.value === undefined) throw new UsageError(flag, `${flag}: a value is missing`);
    if (!token.inlineValue && token.value.length > 1 && token.value.startsWith('-')) {
      throw new UsageError(flag, `${flag}: its value is missing or starts with a dash; write ${flag}=<value> if you mean it`);
    }
    flags[token.name] = token.value;
  }
  return { flags, positionals };
}

/** The file of --config, read; undefined without the flag. */
export function loadConfig(flags: RawOptions, cwd: string): ConfigFile | undefined {
  if (typeof flags['config'] !== 'string') return undefined;
  const path = flags['config'];
  try {
    return { path, text: readRegularFile(resolve(cwd, path), LIMITS.configBytes).toString('utf8') };
  } catch (err) {
    if (err instanceof FileRefused) {
      const { why } = err;
      throw new UsageError('--config', `--config: got ${show(path)}, ${'kind' in why ? err.message : `a file of ${why.bytes ?? `more than ${why.cap}`} bytes`}; expected a YAML file${'kind' in why ? '' : ` of at most ${LIMITS.configBytes} bytes`}`);
    }
    const code = errorCode(err);
    if (code === 'ENOENT') throw UsageError.invalid('--config', path, 'a readable YAML file');
    if (code === 'EISDIR') throw new UsageError('--config', `--config: got ${show(path)}, a folder; expected a YAML file`);
    throw new UsageError('--config', `--config: got ${show(path)}, which cannot be read (${fsReason(err)}); expected a readable YAML file`);
  }
}
