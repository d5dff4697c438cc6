/**
 * `pairbench bisect`: the command line of the search (bisect/find-commit.ts). It takes compare's options,
 * less those that make no sense for a walk through history (directories, shards), plus --benchmark.
 */
import { UsageError } from '../config/errors.ts';
import { COMPARE_OPTIONS, type OptionDef } from '../config/options.ts';
import { buildSpec, cliNaming } from '../config/spec.ts';
import type { ExitCode } from '../engine.ts';
import { onInterrupt } from '../interrupt.ts';
import { renderBisectJson, renderBisectMarkdown, renderBisectText } from '../report/bisect-report.ts';
import { writeReportFile } from '../results/atomic.ts';
import { checkOutputPath } from '../results/writer.ts';
import { runBisect } from '../bisect/find-commit.ts';
import { localBuildCache } from '../revisions/local-cache.ts';
import { helpLines, loadConfig, parseFlags } from './args.ts';
import type { Io } from './io.ts';

const BENCHMARK_OPTION: OptionDef = { name: 'benchmark', kind: 'string', arg: '<name>', help: 'the benchmark to search for: a config entry, or a result name of a harness suite', cliOnly: true, tier: 'user' };

/** The bisect's summary file when --out is not given (each step's results file sits beside it). */
const BISECT_OUT = 'pairbench-bisect.json';

const BISECT_OPTIONS: readonly OptionDef[] = [
  BENCHMARK_OPTION,
  ...COMPARE_OPTIONS.filter((o) => !['base-dir', 'head-dir', 'shard', 'fail-on', 'changed-only', 'paths-mode', 'paths-ignore'].includes(o.name)).map((o) =>
    o.name === 'out' ? { ...o, default: BISECT_OUT, help: "the bisect's summary (JSON); each step's results file is written beside it" } : o.name === 'max-time' ? { ...o, help: 'budget of the whole search, builds included: each test gets an equal share of what is left' } : o,
  ),
];

function help(all: boolean): string {
  const lines = helpLines(BISECT_OPTIONS, all);
  return `Usage: pairbench bisect --base <rev> [--head <rev>] --benchmark <name> [options]

Finds the first commit of the first-parent history --base..--head that regresses the benchmark.
Each step compares one commit with --base by compare's paired test, on that benchmark alone; the
search first confirms the head regresses, then halves the range. It runs at most 1 + ceil(log2 n)
tests for n commits, each at alpha divided by that number (Bonferroni), so the chance that any
step's verdict is wrong is at most --alpha. A step whose interval lies below the threshold counts
as not regressed; one whose interval still reaches past it stops the search. The base is built
once; a commit that cannot be built is skipped.

Options:
${lines.join('\n')}

Exit status: 0 the search ended (its finding is printed), 2 bad usage, 3 the base or the head could not be built, 130 interrupted.`;
}

export async function bisect(argv: string[], io: Io): Promise<ExitCode> {
  const { flags } = parseFlags(argv, BISECT_OPTIONS.map((o) => o.name), false, BISECT_OPTIONS);
  const config = loadConfig(flags, process.cwd());
  if (flags['help'] || flags['help-all']) {
    io.stdout.write(`${help(flags['help-all'] === true)}\n`);
    return 0;
  }
  const benchmark = flags['benchmark'];
  delete flags['benchmark'];
  if (typeof benchmark !== 'string' || benchmark.trim() === '') throw new UsageError('--benchmark', '--benchmark is required: the name of the benchmark whose regression is searched for');
  if (flags['base'] === undefined) throw new UsageError('--base', "--base is required: the revision the range starts from (a pull request's merge-base)");
  const spec = buildSpec({ out: BISECT_OUT, ...flags }, { cwd: process.cwd(), naming: cliNaming, ...(config ? { config } : {}) });
  checkOutputPath('--out', spec.out, { replaced: true });
  const markdown = spec.markdown;
  if (markdown !== null) checkOutputPath('--markdown', markdown, { replaced: false });
  // a signal stops the search; the steps measured so far are kept
  const interrupt = onInterrupt();
  try {
    const log = (line: string) => {
      if (!spec.quiet || line.startsWith('error') || line.startsWith('warning') || line.startsWith('Step') || line.startsWith('Commit')) io.stderr.write(`${line}\n`);
    };
    const buildCache = localBuildCache(spec, io.env);
    const outcome = await runBisect(spec, benchmark, { log, signal: interrupt.signal, env: { ...io.env }, ...(buildCache ? { buildCache } : {}) });
    if (markdown !== null) writeReportFile(markdown, renderBisectMarkdown(outcome.result));
    if (spec.json) io.stdout.write(`${renderBisectJson(outcome.result)}\n`);
    else io.stdout.write(`${renderBisectText(outcome.result)}\n`);
    io.stderr.write(`results: ${outcome.resultsPath}\n`);
    return outcome.exitCode;
  } finally {
    interrupt.dispose();
  }
}
