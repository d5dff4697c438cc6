/**
 * compare and noise: the revisions the event names, measured on this runner by the engine the
 * command line runs, with the progress in the step log; a signal stops the run and keeps what it
 * measured (S11). Then, with `bisect: true`, a regression on a pull request is searched for the
 * commit that made it (bisect-step.ts): its sections go after the report.
 */
import * as core from '@actions/core';
import { basename } from 'node:path';
import type { Target } from '../github/events.ts';
import { runCompare } from '../engine.ts';
import { onInterrupt } from '../interrupt.ts';
import { runNoise } from '../noise-run.ts';
import { commandsOf } from '../report/markdown.ts';
import { bisectRegressions } from './bisect-step.ts';
import { actionBuildCache } from './build-cache-service.ts';
import { commandEnv, envInputReader, type ActionSettings } from './inputs.ts';
import { counterForAction } from './install-valgrind.ts';
import { infoUntrusted, stepProgress } from './log.ts';
import type { Outcome } from './outcome.ts';

export async function measure(settings: ActionSettings, target: Target, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const spec = settings.spec!;
  const replay = { commands: commandsOf(spec, envInputReader(env)('config') || null), resultsFiles: [basename(settings.resultsPath)] };
  const head = target.head;
  const base = settings.mode === 'noise' ? head : target.base;
  core.info(settings.mode === 'noise' ? `A/A run of ${head}: the noise floor of this machine.` : (target.compares ?? `Comparing head ${head} against base ${base ?? 'the merge-base with the default branch'}.`));
  const interrupt = onInterrupt((signal) => core.warning(`${signal}: stopping; the results measured so far are kept.`), { once: true });
  const buildCache = settings.mode === 'compare' ? actionBuildCache(spec, settings, env, (l) => core.info(l)) : undefined;
  // instruction counts: valgrind installed when the runner has no counter (install-valgrind.ts)
  const counter = await counterForAction(spec, env, (l) => core.info(l));
  try {
    const { results, exitCode } = await (settings.mode === 'noise' ? runNoise : runCompare)(
      { ...spec, base: { kind: 'git', rev: base }, head: { kind: 'git', rev: head }, out: settings.resultsPath, cwd: settings.workspace },
      { log: (l) => infoUntrusted(l), signal: interrupt.signal, env: commandEnv(env, settings.token), progress: stepProgress(spec.maxPairs), ...(buildCache ? { buildCache } : {}), ...(counter ? { counter: () => Promise.resolve(counter) } : {}) },
    );
    let appendix = '';
    if (settings.bisect && settings.mode === 'compare' && target.pull && results.verdict === 'regression' && exitCode !== 130) {
      const hooks = { log: (l: string) => infoUntrusted(l), signal: interrupt.signal, env: commandEnv(env, settings.token), ...(buildCache ? { buildCache } : {}) };
      appendix = (await bisectRegressions(spec, results, { maxTimeMs: settings.bisect.maxTimeMs, resultsPath: settings.resultsPath, hooks, warn: (m) => core.warning(m) })).markdown;
    }
    return { results, exitCode, replay, appendix };
  } finally {
    interrupt.dispose();
  }
}
