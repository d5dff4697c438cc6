#!/usr/bin/env node
/**
 * The command line: `pairbench compare | report`. A thin edge: it turns flags into a Spec, runs the
 * engine, prints the report and exits with the contract's status (0, 1, 2, 3, 130).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, show } from './config/errors.ts';
import { COMPARE_OPTIONS } from './config/options.ts';
import { buildSpec, cliNaming, parseOptionValue, type RawOptions, type Spec } from './config/spec.ts';
import { judgeOptions, runCompare, type ExitCode } from './engine.ts';
import { GitError } from './revisions/git.ts';
import { readResultsFile } from './results/read.ts';
import { judgeResults } from './results/judge.ts';
import { mergeResults } from './results/merge.ts';
import type { Results } from './results/schema.ts';
import { renderMarkdown } from './report/markdown.ts';
import { ProgressPrinter } from './report/progress.ts';
import { renderTerminal } from './report/terminal.ts';
import type { Correction, OutlierRule } from './stats/types.ts';
import { VERSION } from './version.ts';

const USAGE = `pairbench ${VERSION}: catch performance regressions with randomized pairs

Usage:
  pairbench compare [options]          compare two git revisions (or two directories)
  pairbench report <results.json>...   judge saved results again from their raw pairs
  pairbench --help | --version

Run \`pairbench compare --help\` for the options.`;

function compareHelp(): string {
  const lines = COMPARE_OPTIONS.map((o) => {
    const flag = `--${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg ?? '<value>'}`}`;
    const def = o.default !== undefined ? ` (default: ${o.default})` : '';
    const choices = o.choices && o.kind !== 'list' ? ` [${o.choices.join(', ')}]` : '';
    return `  ${flag.padEnd(24)} ${o.help}${choices}${def}`;
  });
  return `Usage: pairbench compare [options]\n\nOptions:\n${lines.join('\n')}\n\nExit status: 0 no gate failed, 1 a regression (with --fail-on regression), 2 bad usage, 3 could not complete, 130 interrupted.`;
}

const REPORT_OPTIONS = ['alpha', 'threshold', 'outliers', 'correction', 'fail-on', 'markdown', 'out', 'json'] as const;

function reportHelp(): string {
  const lines = REPORT_OPTIONS.map((name) => COMPARE_OPTIONS.find((o) => o.name === name)!).map((o) => `  --${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg}`}`.padEnd(26) + o.help);
  return `Usage: pairbench report <results.json>... [options]\n\nRecomputes every statistic from the raw pairs in the files (several files: shards of one comparison).\n\nOptions:\n${lines.join('\n')}`;
}

/** Parses flags with node:util, turning its errors into our one-line usage errors. */
function parseFlags(argv: string[], names: readonly string[], allowPositionals: boolean): { flags: RawOptions; positionals: string[] } {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const name of names) {
    const def = COMPARE_OPTIONS.find((o) => o.name === name)!;
    options[name] = { type: def.kind === 'boolean' ? 'boolean' : 'string' };
  }
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true });
    const flags: RawOptions = {};
    for (const [k, v] of Object.entries(values)) flags[k] = v as string | boolean;
    return { flags, positionals };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /Unknown option '([^']+)'/.exec(message);
    if (unknown) throw new UsageError(unknown[1]!, `${unknown[1]}: unknown option; run with --help for the list`);
    const missing = /Option '(--[^ ']+)[^']*' argument missing/.exec(message);
    if (missing) throw new UsageError(missing[1]!, `${missing[1]}: a value is missing`);
    const ambiguous = /Option '(--[^ ']+)[^']*' argument is ambiguous/.exec(message);
    if (ambiguous) throw new UsageError(ambiguous[1]!, `${ambiguous[1]}: its value is missing or starts with a dash; write ${ambiguous[1]}=<value> if you mean it`);
    const positional = /Unexpected argument '([^']+)'/.exec(message);
    if (positional) throw new UsageError(positional[1]!, `unexpected argument ${show(positional[1])}; options start with --`);
    throw new UsageError('arguments', message.split('\n')[0]!);
  }
}

async function compare(argv: string[]): Promise<ExitCode> {
  const { flags } = parseFlags(argv, COMPARE_OPTIONS.map((o) => o.name), false);
  if (flags['help']) {
    console.log(compareHelp());
    return 0;
  }
  delete flags['help'];
  const cwd = process.cwd();
  let config;
  if (typeof flags['config'] === 'string') {
    const path = resolve(cwd, flags['config']);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw UsageError.invalid('--config', flags['config'], 'a readable YAML file');
    }
    config = { path: flags['config'], text };
  }
  const spec = buildSpec(flags, { cwd, naming: cliNaming, ...(config ? { config } : {}) });
  return runAndReport(spec);
}

async function runAndReport(spec: Spec): Promise<ExitCode> {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
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
  const progress = spec.quiet || spec.json ? null : new ProgressPrinter(process.stderr, spec);
  const log = (line: string) => {
    progress?.clear();
    if (!spec.json || line.startsWith('error') || line.startsWith('warning')) process.stderr.write(`${line}\n`);
  };
  try {
    const outcome = await runCompare(spec, {
      log,
      signal: controller.signal,
      env: { ...process.env },
      ...(progress ? { progress: (p) => progress.update(p) } : {}),
    });
    progress?.clear();
    emit(outcome.results, spec);
    if (!spec.json) process.stderr.write(`results: ${outcome.resultsPath}\n`);
    return outcome.exitCode;
  } finally {
    progress?.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function replayCommand(results: Results): string {
  const s = results.settings ?? {};
  const parts = ['npx pairbench compare'];
  const q = (v: unknown) => `'${String(v).replace(/'/g, `'\\''`)}'`;
  if (results.base.sha) parts.push(`--base ${results.base.sha}`);
  if (results.head.sha) parts.push(`--head ${results.head.sha}`);
  const benches = (s['benchmarks'] as { run: string; format: string; metrics: string[] }[] | undefined) ?? [];
  if (benches.length === 1 && benches[0]) {
    parts.push(`--run ${q(benches[0].run)}`);
    if (benches[0].format !== 'time') parts.push(`--format ${benches[0].format}`);
    if (benches[0].metrics.join(',') !== 'wall') parts.push(`--metric ${benches[0].metrics.join(',')}`);
  } else if (benches.length > 1) parts.push('--config <your config file>');
  if (s['build']) parts.push(`--build ${q(s['build'])}`);
  if (s['seed'] !== undefined) parts.push(`--seed ${s['seed']}`);
  return parts.join(' ');
}

function emit(results: Results, spec: { json: boolean; markdown: string | null }): void {
  if (spec.markdown) {
    writeFileSync(spec.markdown, renderMarkdown(results, { replayCommand: replayCommand(results) }));
  }
  if (spec.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else process.stdout.write(`${renderTerminal(results, { color: process.stdout.isTTY === true && !process.env.NO_COLOR })}\n`);
}

async function report(argv: string[]): Promise<ExitCode> {
  const { flags, positionals } = parseFlags(argv, REPORT_OPTIONS, true);
  if (flags['help']) {
    console.log(reportHelp());
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('report', 'report: no results file given; expected pairbench report <results.json>...');
  const files = positionals.map((p) => readResultsFile(p));
  const merged = files.length === 1 ? files[0]! : mergeResults(files, positionals);
  const get = <T>(name: string, fallback: T): T => {
    const given = flags[name];
    if (given !== undefined) return parseOptionValue(name, cliNaming(name), given) as T;
    const recorded = merged.settings?.[name === 'fail-on' ? 'failOn' : name];
    return (recorded as T | undefined) ?? fallback;
  };
  const opts = judgeOptions({
    alpha: get<number>('alpha', 0.05),
    threshold: get<number>('threshold', 0.02),
    outliers: get<OutlierRule>('outliers', 'tukey'),
    correction: get<Correction>('correction', 'holm'),
  });
  const failOn = get<'regression' | 'none'>('fail-on', 'regression');
  const judged = judgeResults(merged, opts);
  if (typeof flags['out'] === 'string') writeFileSync(flags['out'], `${JSON.stringify(judged, null, 1)}\n`);
  emit(judged, { json: flags['json'] === true, markdown: typeof flags['markdown'] === 'string' ? flags['markdown'] : null });
  if (judged.status === 'failed') return 3;
  return failOn === 'regression' && judged.verdict === 'regression' ? 1 : 0;
}

export async function main(argv: string[]): Promise<ExitCode> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'compare':
        return await compare(rest);
      case 'report':
        return await report(rest);
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
        throw new UsageError(command, `unknown command ${show(command)}; expected compare or report (see pairbench --help)`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof GitError) {
      process.stderr.write(`pairbench: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`pairbench: could not complete: ${message}\n`);
    if (process.env.PAIRBENCH_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 3;
  }
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
