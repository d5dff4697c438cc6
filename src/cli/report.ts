/** `pairbench report`: saved results files (shards of one comparison) judged again from their raw pairs. */
import { UsageError } from '../config/errors.ts';
import { parseFailOn } from '../config/fail-on.ts';
import { COMPARE_OPTIONS, type GateMetric } from '../config/options.ts';
import { cliNaming, defaultFailOn, parseOptionValue } from '../config/spec.ts';
import type { ExitCode } from '../engine.ts';
import { parseMinChange } from '../config/values.ts';
import { checkResultsFileCount, mergeResults } from '../results/merge.ts';
import { readResultsFile } from '../results/read.ts';
import { rejudge } from '../results/rejudge.ts';
import { writeJudgedFile } from '../results/writer.ts';
import type { Correction, OutlierRule } from '../stats/types.ts';
import { HTML_OPTION, parseFlags } from './args.ts';
import { checkOutputs, emit } from './emit.ts';
import type { Io } from './io.ts';

const REPORT_OPTIONS = ['alpha', 'threshold', 'min-change', 'outliers', 'correction', 'fail-on', 'allow-nothing-compared', 'gate-metric', 'markdown', 'out', 'json', 'html'] as const;

function help(): string {
  const lines = REPORT_OPTIONS.map((name) => [...COMPARE_OPTIONS, HTML_OPTION].find((o) => o.name === name)!).map((o) => `  --${o.name}${o.kind === 'boolean' ? '' : ` ${o.arg}`}`.padEnd(26) + o.help);
  return `Usage: pairbench report <results.json>... [options]\n\nRecomputes every statistic from the raw pairs in the files (several files: shards of one comparison).\n\nOptions:\n${lines.join('\n')}`;
}

export async function report(argv: string[], io: Io): Promise<ExitCode> {
  const { flags, positionals } = parseFlags(argv, REPORT_OPTIONS, true, [HTML_OPTION]);
  if (flags['help'] || flags['help-all']) {
    io.stdout.write(`${help()}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('report', 'report: no results file given; expected pairbench report <results.json>...');
  checkOutputs({ out: typeof flags['out'] === 'string' ? flags['out'] : null, markdown: typeof flags['markdown'] === 'string' ? flags['markdown'] : null }, typeof flags['html'] === 'string' ? flags['html'] : null);
  const given = <T>(name: string): T | undefined => parseOptionValue(name, cliNaming(name), flags[name]) as T | undefined;
  const gate = given<string[]>('fail-on');
  const failOn = gate === undefined ? defaultFailOn() : parseFailOn(cliNaming('fail-on'), gate);
  const floor = given<string>('min-change');
  const judging = { alpha: given<number>('alpha'), threshold: given<number>('threshold'), minChange: floor === undefined ? undefined : parseMinChange(cliNaming('min-change'), floor), outliers: given<OutlierRule>('outliers'), correction: given<Correction>('correction') };
  checkResultsFileCount('report', positionals.length);
  const files = positionals.map((p) => readResultsFile(p));
  const merged = mergeResults(files, positionals);
  // One's own files: a valid recorded setting fills in a flag not given; the gate is never the file's (results/rejudge.ts).
  const rejudged = rejudge(merged, {
    trustRecorded: true,
    given: Object.fromEntries(Object.entries(judging).filter(([, v]) => v !== undefined)),
    failOn,
    allowNothingCompared: flags['allow-nothing-compared'] === true,
    ...(flags['gate-metric'] !== undefined ? { gateMetric: parseOptionValue('gate-metric', cliNaming('gate-metric'), flags['gate-metric']) as GateMetric } : {}),
    naming: cliNaming,
  });
  for (const w of rejudged.warnings) io.stderr.write(`warning: ${w}\n`);
  for (const n of rejudged.notes) io.stderr.write(`note: ${n}\n`);
  const judged = rejudged.results;
  if (typeof flags['out'] === 'string') writeJudgedFile(flags['out'], judged);
  // The files may come from anywhere (an artifact of a fork's workflow): no command is taken from them.
  await emit(io, judged, { json: flags['json'] === true, markdown: typeof flags['markdown'] === 'string' ? flags['markdown'] : null, html: typeof flags['html'] === 'string' ? flags['html'] : null, failOn }, { resultsFiles: positionals });
  return rejudged.exitCode;
}
