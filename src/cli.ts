/**
 * The command line: `pairbench compare | report`. A thin edge: it turns flags into a Spec, runs the
 * engine, prints the report and exits with the contract's status (0, 1, 2, 3, 130).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PairbenchError, UsageError, errorCode, fsReason, show } from './config/errors.ts';
import { parseFailOn } from './config/fail-on.ts';
import { COMPARE_OPTIONS, type OptionDef } from './config/options.ts';
import { buildSpec, cliNaming, parseOptionValue, type RawOptions, type Spec } from './config/spec.ts';
import { runCompare, type ExitCode } from './engine.ts';
import { checkRevision } from './revisions/git.ts';
import { readResultsFile } from './results/read.ts';
import { mergeResults } from './results/merge.ts';
import { rejudge } from './results/rejudge.ts';
import type { Results } from './results/schema.ts';
import { writeReportFile } from './results/atomic.ts';
import { checkOutputPath, resultsText, writeJudgedFile } from './results/writer.ts';
import { commandsOf, renderMarkdown, type ReplaySource } from './report/markdown.ts';
import { renderHtml } from './report/html.ts';
import { renderNoiseMarkdown, renderNoiseText } from './report/noise.ts';
import { runNoise } from './noise.ts';
import { localBuildCache } from './revisions/local-cache.ts';
import { BISECT_OPTIONS, bisect } from './bisect/cli.ts';
import { ProgressPrinter } from './report/progress.ts';
import { renderTerminal } from './report/terminal.ts';
import type { Correction, OutlierRule } from './stats/types.ts';
import { VERSION } from './version.ts';

const USAGE = `pairbench ${VERSION}: catch performance regressions with randomized pairs

Usage:
  pairbench compare [options]          compare two git revisions (or two directories)
  pairbench report <results.json>...   judge saved results again from their raw pairs
  pairbench noise [options]            A/A run: this machine's noise floor and smallest detectable change
  pairbench bisect --base <rev> --benchmark <name> [options]
                                       the first commit of --base..--head that regresses a benchmark
  pairbench --help | --version

Run \`pairbench compare --help\` for the options.`;

function compareHelp(): string {
  const lines = COMPARE_OPTIONS.map((o) => {
    const flag = `--${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg ?? '<value>'}`}`;
    const def = o.default !== undefined ? ` (default: ${o.default})` : '';
    const choices = o.choices && o.kind !== 'list' ? ` [${o.choices.join(', ')}]` : '';
    return `  ${flag.padEnd(24)} ${o.help}${choices}${def}`;
  });
  lines.push(`  ${'--html <file>'.padEnd(24)} ${HTML_OPTION.help}`);
  return `Usage: pairbench compare [options]\n\nOptions:\n${lines.join('\n')}\n\nExit status: 0 no gate failed, 1 a regression (with --fail-on regression), 2 bad usage, 3 could not complete, 130 interrupted.`;
}

const REPORT_OPTIONS = ['alpha', 'threshold', 'outliers', 'correction', 'fail-on', 'markdown', 'out', 'json', 'html'] as const;

/** `--html <file>`: the self-contained HTML report, with every plot (compare and report). */
const HTML_OPTION: OptionDef = { name: 'html', kind: 'string', arg: '<file>', help: 'write the HTML report: plots of every benchmark, self-contained', cliOnly: true };

function reportHelp(): string {
  const lines = REPORT_OPTIONS.map((name) => [...COMPARE_OPTIONS, HTML_OPTION].find((o) => o.name === name)!).map((o) => `  --${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg}`}`.padEnd(26) + o.help);
  return `Usage: pairbench report <results.json>... [options]\n\nRecomputes every statistic from the raw pairs in the files (several files: shards of one comparison).\n\nOptions:\n${lines.join('\n')}`;
}

/** `noise` measures one revision: a directory (default: the current one), or a git revision in two worktrees. */
const NOISE_EXTRA: OptionDef[] = [
  { name: 'dir', kind: 'string', arg: '<dir>', help: 'the directory measured on both sides (default: the current directory)' },
  { name: 'rev', kind: 'string', arg: '<rev>', help: 'measure this git revision instead, checked out and built twice (two builds of one commit)' },
];
const NOISE_OPTIONS = [
  ...COMPARE_OPTIONS.filter((o) => !['base', 'head', 'base-dir', 'head-dir', 'fail-on', 'min-pairs', 'shard', 'build-cache', 'build-cache-key', 'build-cache-dir', 'changed-only', 'paths-mode', 'paths-ignore'].includes(o.name)),
  ...NOISE_EXTRA,
];

function noiseHelp(): string {
  const lines = NOISE_OPTIONS.map((o) => `  ${`--${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg ?? '<value>'}`}`.padEnd(24)} ${o.help}${o.name === 'max-pairs' ? ' (default for noise: 60)' : o.default !== undefined ? ` (default: ${o.default})` : ''}`);
  return `Usage: pairbench noise [options]\n\nAn A/A run: the same revision on both sides of every pair, for --max-pairs pairs (no early stop).\nPrints this machine's noise (single-run CV, paired CV) and the smallest change compare would\ndetect here with 30, 100 and 300 pairs: run it once on your runner to pick threshold and max-pairs.\n\nOptions:\n${lines.join('\n')}`;
}

/**
 * Parses flags with node:util's parseArgs in its lenient mode, reading its tokens: each mistake is
 * then told apart by what the token is (an unknown name, a missing value, a value that looks like
 * an option), never by the wording of Node's own messages, and gets our one-line usage error.
 */
function parseFlags(argv: string[], names: readonly string[], allowPositionals: boolean, extra: readonly OptionDef[] = []): { flags: RawOptions; positionals: string[] } {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
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

function loadConfig(flags: RawOptions, cwd: string): { path: string; text: string } | undefined {
  if (typeof flags['config'] !== 'string') return undefined;
  const path = flags['config'];
  try {
    return { path, text: readFileSync(resolve(cwd, path), 'utf8') };
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') throw UsageError.invalid('--config', path, 'a readable YAML file');
    if (code === 'EISDIR') throw new UsageError('--config', `--config: got ${show(path)}, a folder; expected a YAML file`);
    throw new UsageError('--config', `--config: got ${show(path)}, which cannot be read (${fsReason(err)}); expected a readable YAML file`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function noise(argv: string[]): Promise<ExitCode> {
  const { flags } = parseFlags(argv, NOISE_OPTIONS.map((o) => o.name), false, NOISE_EXTRA);
  if (flags['help']) {
    console.log(noiseHelp());
    return 0;
  }
  delete flags['help'];
  const { dir, rev, ...rest } = flags;
  if (dir !== undefined && rev !== undefined) throw new UsageError('--dir', '--dir and --rev cannot be used together: measure a directory or a git revision');
  // Checked here, so that messages name --dir and --rev, the flags the user typed.
  if (typeof dir === 'string' && !isDirectory(resolve(process.cwd(), dir))) throw UsageError.invalid('--dir', dir, 'an existing directory');
  if (typeof rev === 'string') checkRevision('--rev', rev);
  const side = rev !== undefined ? { base: rev, head: rev } : { 'base-dir': dir ?? '.', 'head-dir': dir ?? '.' };
  const cwd = process.cwd();
  const config = loadConfig(flags, cwd);
  const spec = buildSpec({ 'max-pairs': '60', ...rest, ...side }, { cwd, naming: cliNaming, ...(config ? { config } : {}) });
  if (rev !== undefined) spec.base = spec.head;
  checkOutputs(spec);
  return runAndReport(spec, 'noise');
}

async function compare(argv: string[]): Promise<ExitCode> {
  const { flags } = parseFlags(argv, [...COMPARE_OPTIONS.map((o) => o.name), 'html'], false, [HTML_OPTION]);
  if (flags['help']) {
    console.log(compareHelp());
    return 0;
  }
  delete flags['help'];
  const html = typeof flags['html'] === 'string' ? flags['html'] : null;
  delete flags['html'];
  const cwd = process.cwd();
  const config = loadConfig(flags, cwd);
  const spec = buildSpec(flags, { cwd, naming: cliNaming, ...(config ? { config } : {}) });
  checkOutputs(spec, html);
  return runAndReport(spec, 'compare', { html, configPath: config?.path ?? null });
}

/** S16: the files written at the end are checked before anything is built or measured. */
function checkOutputs(spec: { out: string | null; markdown: string | null }, html: string | null = null): void {
  if (spec.out !== null) checkOutputPath('--out', spec.out, { replaced: true });
  if (spec.markdown !== null) checkOutputPath('--markdown', spec.markdown, { replaced: false });
  if (html !== null) checkOutputPath('--html', html, { replaced: false });
}

async function runAndReport(spec: Spec, kind: 'compare' | 'noise', extra: { html: string | null; configPath: string | null } = { html: null, configPath: null }): Promise<ExitCode> {
  const controller = new AbortController();
  let signals = 0;
  let signalledAt: number | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
    signalledAt ??= Date.now();
    if (signals === 1) {
      process.stderr.write(`\npairbench: ${sig} received; stopping the running commands and saving the results...\n`);
      controller.abort();
    } else {
      process.stderr.write(`pairbench: ${sig} again; exiting now\n`);
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const buildCache = kind === 'compare' ? localBuildCache(spec, process.env) : undefined;
  const progress = spec.quiet || spec.json ? null : new ProgressPrinter(process.stderr, spec);
  const log = (line: string) => {
    progress?.clear();
    if (!spec.json || line.startsWith('error') || line.startsWith('warning')) process.stderr.write(`${line}\n`);
  };
  try {
    const outcome = await (kind === 'noise' ? runNoise : runCompare)(spec, {
      log,
      signal: controller.signal,
      env: { ...process.env },
      ...(buildCache ? { buildCache } : {}),
      ...(progress ? { progress: (p) => progress.update(p) } : {}),
    });
    progress?.clear();
    if (outcome.results.verdict === undefined) {
      // interrupted while judging: the pairs are saved, unjudged; there is nothing to report yet
      process.stderr.write(`results (not judged): ${outcome.resultsPath}\n`);
      return outcome.exitCode;
    }
    // S11: after a signal, the reports still to write get a moment, not minutes (a huge suite)
    const late = () => signalledAt !== null && Date.now() - signalledAt > REPORT_GRACE_MS;
    await emit(outcome.results, { ...spec, html: extra.html, out: outcome.resultsPath }, { commands: commandsOf(spec, extra.configPath), resultsFiles: [spec.out] }, late);
    if (!spec.json) process.stderr.write(`results: ${outcome.resultsPath}\n`);
    return signalledAt !== null ? 130 : outcome.exitCode;
  } finally {
    progress?.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Writes a report file whole or not at all (atomic.ts). A report that cannot be written (a full
 * disk) is one warning: the comparison finished and its results file is whole, so the exit status
 * stays the comparison's.
 */
function writeReport(what: string, path: string, render: () => string, resultsFile: string | null): void {
  try {
    writeReportFile(path, render());
  } catch (err) {
    process.stderr.write(`warning: could not write the ${what} ${path}: ${fsReason(err)}; the exit status is the comparison's${resultsFile ? `, and its results are in ${resultsFile}` : ''}\n`);
  }
}

/** After a signal, reports are still written for this long; later ones are skipped with a line (S11). */
const REPORT_GRACE_MS = 1500;

/**
 * Writes the reports and prints the table. Between two reports the event loop turns, so that a
 * signal is seen; once `late()` says the time after a signal is up, the reports left are skipped.
 */
async function emit(results: Results, spec: { json: boolean; markdown: string | null; html: string | null; out?: string | null }, replay: ReplaySource, late: () => boolean = () => false): Promise<void> {
  const noise = results.kind === 'noise';
  const resultsFile = spec.out ?? null;
  const turn = async (what: string): Promise<boolean> => {
    await new Promise((resolve) => setImmediate(resolve));
    if (!late()) return true;
    process.stderr.write(`pairbench: interrupted: the ${what} was not written; the results file ${resultsFile ?? ''} holds everything (pairbench report renders it)\n`);
    return false;
  };
  if (spec.markdown && (await turn('Markdown report'))) writeReport('Markdown report', spec.markdown, () => (noise ? renderNoiseMarkdown(results) : renderMarkdown(results, { replay })), resultsFile);
  if (spec.html && (await turn('HTML report'))) writeReport('HTML report', spec.html, () => renderHtml(results, { replay }), resultsFile);
  if (!(await turn('table'))) return;
  if (spec.json) for (const piece of resultsText(results)) process.stdout.write(piece);
  else if (noise) process.stdout.write(`${renderNoiseText(results)}\n`);
  else process.stdout.write(`${renderTerminal(results, { color: process.stdout.isTTY === true && !process.env.NO_COLOR })}\n`);
}

async function report(argv: string[]): Promise<ExitCode> {
  const { flags, positionals } = parseFlags(argv, REPORT_OPTIONS, true, [HTML_OPTION]);
  if (flags['help']) {
    console.log(reportHelp());
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('report', 'report: no results file given; expected pairbench report <results.json>...');
  checkOutputs({ out: typeof flags['out'] === 'string' ? flags['out'] : null, markdown: typeof flags['markdown'] === 'string' ? flags['markdown'] : null }, typeof flags['html'] === 'string' ? flags['html'] : null);
  const given = <T>(name: string): T | undefined => parseOptionValue(name, cliNaming(name), flags[name]) as T | undefined;
  const failOn = parseFailOn(cliNaming('fail-on'), given<string[]>('fail-on') ?? [COMPARE_OPTIONS.find((o) => o.name === 'fail-on')!.default!]);
  const judging = { alpha: given<number>('alpha'), threshold: given<number>('threshold'), outliers: given<OutlierRule>('outliers'), correction: given<Correction>('correction') };
  const files = positionals.map((p) => readResultsFile(p));
  const merged = mergeResults(files, positionals);
  // One's own files: a valid recorded setting fills in a flag not given; the gate is never the file's (results/rejudge.ts).
  const rejudged = rejudge(merged, {
    trustRecorded: true,
    given: Object.fromEntries(Object.entries(judging).filter(([, v]) => v !== undefined)),
    failOn,
    naming: cliNaming,
  });
  for (const w of rejudged.warnings) process.stderr.write(`warning: ${w}\n`);
  for (const n of rejudged.notes) process.stderr.write(`note: ${n}\n`);
  const judged = rejudged.results;
  if (typeof flags['out'] === 'string') writeJudgedFile(flags['out'], judged);
  // The files may come from anywhere (an artifact of a fork's workflow): no command is taken from them.
  await emit(judged, { json: flags['json'] === true, markdown: typeof flags['markdown'] === 'string' ? flags['markdown'] : null, html: typeof flags['html'] === 'string' ? flags['html'] : null }, { resultsFiles: positionals });
  return rejudged.exitCode;
}

export async function main(argv: string[]): Promise<ExitCode> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'compare':
        return await compare(rest);
      case 'report':
        return await report(rest);
      case 'noise':
        return await noise(rest);
      case 'bisect': {
        const { flags } = parseFlags(rest, BISECT_OPTIONS.map((o) => o.name), false, BISECT_OPTIONS);
        return await bisect(flags, loadConfig(flags, process.cwd()));
      }
      case '--version':
      case '-v':
        console.log(VERSION);
        return 0;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(command, `unknown command ${show(command)}; expected compare, report, noise or bisect (see pairbench --help)`);
    }
  } catch (err) {
    if (err instanceof PairbenchError) {
      process.stderr.write(`pairbench: ${err.message}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`pairbench: could not complete: ${message}\n`);
    if (process.env.PAIRBENCH_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 3;
  }
}

// A reader that stops early (`pairbench report r.json | head`) closes the pipe: what is left to
// print has no one to read it, and the run ends with its own status instead of a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (errorCode(err) !== 'EPIPE') throw err;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`pairbench: could not complete: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 3;
  },
);
