/**
 * A comparison or an A/A run from its Spec, start to end (compare, noise): the engine runs with
 * progress on stderr, a signal stops it with the results kept (S11), and the reports and the
 * table follow (emit.ts). The exit status is the engine's, or 130 after a signal.
 */
import type { Spec } from '../config/spec.ts';
import { runCompare, type ExitCode } from '../engine.ts';
import { onInterrupt } from '../interrupt.ts';
import { runNoise } from '../noise-run.ts';
import { commandsOf } from '../report/markdown.ts';
import { ProgressPrinter } from '../report/progress.ts';
import { localBuildCache } from '../revisions/local-cache.ts';
import { debugHooks } from './debug.ts';
import { REPORT_GRACE_MS, emit } from './emit.ts';
import type { Io } from './io.ts';

export async function runAndReport(io: Io, spec: Spec, kind: 'compare' | 'noise', extra: { html: string | null; configPath: string | null } = { html: null, configPath: null }): Promise<ExitCode> {
  // the hidden debug mode (debug.ts): a scripted runner and clock, or null for real runs
  const debug = debugHooks(io, spec, kind);
  const now = debug?.clock ?? Date.now;
  let interruptedAt: number | null = null;
  // the first signal stops the run and keeps what it measured; a second one exits at once
  const interrupt = onInterrupt((sig, count) => {
    if (count === 1) {
      interruptedAt = now();
      io.stderr.write(`\npairbench: ${sig} received; stopping the running commands and saving the results...\n`);
    } else {
      io.stderr.write(`pairbench: ${sig} again; exiting now\n`);
      process.exit(130);
    }
  });
  const buildCache = kind === 'compare' ? localBuildCache(spec, io.env) : undefined;
  const progress = spec.quiet || spec.json ? null : new ProgressPrinter(io.stderr, spec, now);
  const log = (line: string) => {
    progress?.clear();
    if (!spec.json || line.startsWith('error') || line.startsWith('warning')) io.stderr.write(`${line}\n`);
  };
  try {
    const outcome = await (kind === 'noise' ? runNoise : runCompare)(spec, {
      log,
      signal: interrupt.signal,
      env: { ...io.env },
      ...(buildCache ? { buildCache } : {}),
      ...(progress ? { progress: (p) => progress.update(p) } : {}),
      ...debug,
    });
    progress?.clear();
    if (outcome.results.verdict === undefined) {
      // interrupted while judging: the pairs are saved, unjudged; there is nothing to report yet
      io.stderr.write(`results (not judged): ${outcome.resultsPath}\n`);
      return outcome.exitCode;
    }
    // S11: after a signal, the reports still to write get a moment, not minutes (a huge suite)
    const late = () => interruptedAt !== null && now() - interruptedAt > REPORT_GRACE_MS;
    await emit(io, outcome.results, { ...spec, html: extra.html, out: outcome.resultsPath }, { commands: commandsOf(spec, extra.configPath), resultsFiles: [spec.out] }, late);
    if (!spec.json) io.stderr.write(`results: ${outcome.resultsPath}\n`);
    return interrupt.at !== null ? 130 : outcome.exitCode;
  } finally {
    progress?.clear();
    interrupt.dispose();
  }
}
