/**
 * `bisect: true` in the action: after a comparison that finds regressions on a pull request of
 * several commits, each regressed benchmark (at most MAX_SEARCHED) is searched through the PR's
 * first-parent history (bisect/find-commit.ts) within `bisect-max-time`, shared equally. The head is not
 * measured again: its regression is the comparison's verdict, and the budget goes to the halvings.
 * The search starts where the pull request branched, the merge-base of the compared base and
 * head: when the base branch has moved on since, its commits are no part of the pull request, and
 * the head is measured again against the merge-base before the halvings (the comparison's verdict
 * was against another base). The finding is a section of the comment and the job summary; it never
 * changes the comparison's verdict, and a search that cannot run (a shallow clone, a benchmark no
 * config entry selects) is a warning, in the action's words.
 */
import { PairbenchError } from '../config/errors.ts';
import type { InputNaming, Spec } from '../config/spec.ts';
import type { EngineHooks } from '../engine.ts';
import { runBisect } from '../bisect/find-commit.ts';
import { renderBisectMarkdown } from '../report/bisect-report.ts';
import type { Results } from '../results/schema.ts';
import { Git } from '../revisions/git.ts';

/** The search's inputs in the action's words: they come from the pull request, not from flags. */
const ACTION_NAMING: InputNaming = (name) =>
  ({ base: "the pull request's merge-base", head: "the pull request's head", benchmark: 'the regressed benchmark', repo: 'the workspace' })[name] ?? `input ${name}`;

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
  const baseSha = results.base.sha;
  const headSha = results.head.sha;
  const forkPoint = await new Git(spec.cwd).mergeBase(baseSha, headSha);
  if (!forkPoint) {
    opts.warn(`Bisect could not run: the base ${baseSha.slice(0, 12)} and the head ${headSha.slice(0, 12)} share no commit in this checkout, and the search walks the pull request's commits from where it branched; check out its history (actions/checkout with fetch-depth: 0). The comparison's verdict is not affected.`);
    return { markdown: '', files: [] };
  }
  if (forkPoint === headSha) {
    opts.hooks.log(`Bisect: the head ${headSha.slice(0, 12)} is in the base's history; the pull request has no commit of its own to search`);
    return { markdown: '', files: [] };
  }
  if (forkPoint !== baseSha) opts.hooks.log(`Bisect: the base branch moved on since the pull request branched; the search starts at the merge-base ${forkPoint.slice(0, 12)} and measures the head against it again`);
  const searched = regressed.slice(0, MAX_SEARCHED);
  if (regressed.length > searched.length) opts.hooks.log(`Bisect: ${regressed.length} benchmarks regressed; the first ${searched.length} are searched`);
  const sections: string[] = [];
  const files: string[] = [];
  for (const [i, name] of searched.entries()) {
    const out = `${opts.resultsPath.replace(/\.json$/i, '')}.bisect-${i + 1}.json`;
    try {
      const outcome = await runBisect(
        { ...spec, base: { kind: 'git', rev: forkPoint }, head: { kind: 'git', rev: headSha }, maxTimeMs: Math.floor(opts.maxTimeMs / searched.length), out, markdown: null },
        name,
        opts.hooks,
        // the comparison's regression is the head's step only when it was against the search's base
        forkPoint === baseSha ? { row: results.benchmarks.find((b) => b.name === name)!, resultsFile: opts.resultsPath } : undefined,
        ACTION_NAMING,
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
