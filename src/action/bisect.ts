/**
 * `bisect: true` in the action: after a comparison that finds regressions on a pull request of
 * several commits, each regressed benchmark (at most MAX_SEARCHED) is searched through the PR's
 * first-parent history (bisect/run.ts) within `bisect-max-time`, shared equally. The head is not
 * measured again: its regression is the comparison's verdict, and the budget goes to the halvings.
 * The finding is a
 * section of the comment and the job summary; it never changes the comparison's verdict, and a
 * search that cannot run (a shallow clone, a benchmark no config entry selects) is a warning.
 */
import { PairbenchError } from '../config/errors.ts';
import type { Spec } from '../config/spec.ts';
import type { EngineHooks } from '../engine.ts';
import { runBisect } from '../bisect/run.ts';
import { renderBisectMarkdown } from '../report/bisect.ts';
import type { Results } from '../results/schema.ts';

/** Regressed benchmarks searched at most: each search is several comparisons. */
const MAX_SEARCHED = 3;

export interface BisectRun {
  /** the sections for the comment and the summary, one per benchmark searched ('' when none ran) */
  markdown: string;
  /** the summary files written, one per benchmark searched */
  files: string[];
}

export async function bisectRegressions(spec: Spec, results: Results, opts: { maxTimeMs: number; resultsPath: string; hooks: EngineHooks; warn(message: string): void }): Promise<BisectRun> {
  const regressed = results.benchmarks.filter((b) => b.verdict === 'regression').map((b) => b.name);
  if (regressed.length === 0 || !results.base.sha || !results.head.sha) return { markdown: '', files: [] };
  const searched = regressed.slice(0, MAX_SEARCHED);
  if (regressed.length > searched.length) opts.hooks.log(`Bisect: ${regressed.length} benchmarks regressed; the first ${searched.length} are searched`);
  const sections: string[] = [];
  const files: string[] = [];
  for (const [i, name] of searched.entries()) {
    const out = `${opts.resultsPath.replace(/\.json$/i, '')}.bisect-${i + 1}.json`;
    try {
      const outcome = await runBisect(
        { ...spec, base: { kind: 'git', rev: results.base.sha }, head: { kind: 'git', rev: results.head.sha }, maxTimeMs: Math.floor(opts.maxTimeMs / searched.length), out, markdown: null },
        name,
        opts.hooks,
        { row: results.benchmarks.find((b) => b.name === name)!, resultsFile: opts.resultsPath },
      );
      sections.push(renderBisectMarkdown(outcome.result));
      files.push(outcome.resultsPath);
      if (outcome.exitCode === 130) break;
    } catch (err) {
      if (!(err instanceof PairbenchError)) throw err;
      opts.warn(`Bisect of ${name} could not run: ${err.message}. The comparison's verdict is not affected.`);
    }
  }
  return { markdown: sections.join('\n'), files };
}
