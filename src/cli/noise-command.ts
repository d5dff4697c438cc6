/** `pairbench noise`: an A/A run, one revision on both sides, for this machine's noise floor. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../config/errors.ts';
import { COMPARE_OPTIONS, NOISE_DEFAULTS, type OptionDef } from '../config/options.ts';
import { buildSpec, cliNaming } from '../config/spec.ts';
import type { ExitCode } from '../engine.ts';
import { checkRevision } from '../revisions/git.ts';
import { helpLines, loadConfig, optionLine, parseFlags } from './args.ts';
import { debugHost } from './debug.ts';
import { checkOutputs } from './emit.ts';
import type { Io } from './io.ts';
import { runAndReport } from './run-comparison.ts';

/** `noise` measures one revision: a directory (default: the current one), or a git revision in two worktrees. */
const NOISE_EXTRA: OptionDef[] = [
  { name: 'dir', kind: 'string', arg: '<dir>', help: 'the directory measured on both sides (default: the current directory)', tier: 'user' },
  { name: 'rev', kind: 'string', arg: '<rev>', help: 'measure this git revision instead, checked out and built twice (two builds of one commit)', tier: 'user' },
];
const NOISE_OPTIONS = [
  ...COMPARE_OPTIONS.filter((o) => !['base', 'head', 'base-dir', 'head-dir', 'fail-on', 'min-pairs', 'shard', 'build-cache', 'build-cache-key', 'build-cache-dir', 'changed-only', 'paths-mode', 'paths-ignore'].includes(o.name)),
  ...NOISE_EXTRA,
];

function help(all: boolean): string {
  const lines = helpLines(NOISE_OPTIONS, all, (o) => optionLine(o, o.name === 'max-pairs' ? { fallback: ` (default for noise: ${NOISE_DEFAULTS['max-pairs']})` } : {}));
  return `Usage: pairbench noise [options]\n\nAn A/A run: the same revision on both sides of every pair, for --max-pairs pairs (no early stop).\nPrints this machine's noise (single-run CV, paired CV) and the smallest change compare would\ndetect here with 30, 100 and 300 pairs: run it once on your runner to pick threshold and max-pairs.\n\nOptions:\n${lines.join('\n')}`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function noise(argv: string[], io: Io): Promise<ExitCode> {
  const { flags } = parseFlags(argv, NOISE_OPTIONS.map((o) => o.name), false, NOISE_EXTRA);
  if (flags['help'] || flags['help-all']) {
    io.stdout.write(`${help(flags['help-all'] === true)}\n`);
    return 0;
  }
  const { dir, rev, ...rest } = flags;
  if (dir !== undefined && rev !== undefined) throw new UsageError('--dir', '--dir and --rev cannot be used together: measure a directory or a git revision');
  // Checked here, so that messages name --dir and --rev, the flags the user typed.
  if (typeof dir === 'string' && !isDirectory(resolve(process.cwd(), dir))) throw UsageError.invalid('--dir', dir, 'an existing directory');
  if (typeof rev === 'string') checkRevision('--rev', rev);
  const side = rev !== undefined ? { base: rev, head: rev } : { 'base-dir': dir ?? '.', 'head-dir': dir ?? '.' };
  const cwd = process.cwd();
  const config = loadConfig(flags, cwd);
  // every noise run takes all its max-pairs (noise-run.ts), so no min-pairs, not even a config
  // file's, may refuse a small max-pairs
  const spec = buildSpec({ ...rest, ...side, 'min-pairs': '1' }, { cwd, naming: cliNaming, defaults: NOISE_DEFAULTS, ...(config ? { config } : {}), ...debugHost(io.env) });
  if (rev !== undefined) spec.base = spec.head;
  checkOutputs(spec);
  return runAndReport(io, spec, 'noise');
}
