/** `pairbench compare`: two git revisions (or two directories) measured in randomized pairs. */
import { COMPARE_OPTIONS } from '../config/options.ts';
import { buildSpec, cliNaming } from '../config/spec.ts';
import type { ExitCode } from '../engine.ts';
import { HTML_OPTION, helpLines, loadConfig, optionLine, parseFlags } from './args.ts';
import { debugHost } from './debug.ts';
import { checkOutputs } from './emit.ts';
import type { Io } from './io.ts';
import { runAndReport } from './run-comparison.ts';

function help(all: boolean): string {
  const lines = helpLines([...COMPARE_OPTIONS, HTML_OPTION], all, (o) => optionLine(o, { choices: true }));
  return `Usage: pairbench compare [options]\n\nOptions:\n${lines.join('\n')}\n\nExit status: 0 no gate failed, 1 a regression (with --fail-on regression), 2 bad usage, 3 could not complete, 130 interrupted.`;
}

export async function compare(argv: string[], io: Io): Promise<ExitCode> {
  const { flags } = parseFlags(argv, [...COMPARE_OPTIONS.map((o) => o.name), 'html'], false, [HTML_OPTION]);
  if (flags['help'] || flags['help-all']) {
    io.stdout.write(`${help(flags['help-all'] === true)}\n`);
    return 0;
  }
  const html = typeof flags['html'] === 'string' ? flags['html'] : null;
  delete flags['html'];
  const cwd = process.cwd();
  const config = loadConfig(flags, cwd);
  const spec = buildSpec(flags, { cwd, naming: cliNaming, ...(config ? { config } : {}), ...debugHost(io.env) });
  checkOutputs(spec, html);
  return runAndReport(io, spec, 'compare', { html, configPath: config?.path ?? null });
}
