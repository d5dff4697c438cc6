/**
 * `pairbench bisect`: finds the commit of a range that regresses one benchmark. Each step is one
 * whole comparison (engine.ts): the base against a commit of the range, in worktrees of their own,
 * built, measured in randomized pairs and judged by the same paired test as `compare`, on this
 * benchmark only, with alpha / the search's planned tests and an equal share of the budget
 * (search.ts says why). Every step's results file is kept beside the bisect's own.
 */
import { basename, dirname, join } from 'node:path';
import { UsageError, show } from '../config/errors.ts';
import { cliNaming, type BenchmarkSpec, type InputNaming, type Spec } from '../config/spec.ts';
import { runCompare, type EngineHooks, type ExitCode } from '../engine.ts';
import { oneLine } from '../report/escape.ts';
import { writeReportFile } from '../results/atomic.ts';
import { BuildFailure, prepareBase, type Revision } from '../revisions/prepare.ts';
import type { BisectResult } from '../results/bisect-summary.ts';
import type { BenchmarkResult, Results } from '../results/schema.ts';
import { commitRange } from './commits.ts';
import { conclude, nextCommit, outOfTime, recordStep, startSearch, stepOutcomeOf, type SearchState, type StepOutcome } from './search.ts';

export type { BisectResult };

export interface BisectOutcome {
  result: BisectResult;
  exitCode: ExitCode;
  /** the bisect's summary file */
  resultsPath: string;
}

/** The least measuring budget a step gets, however little of the search's is left. */
const MIN_STEP_MS = 1000;

/** A regular expression matching exactly `text`. */
function exactly(text: string): string {
  return `^${text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`;
}

/**
 * The benchmarks a step runs: the config entry of that name, or else every harness entry that can
 * report a result of that name, filtered to it alone (so one row is judged, with no correction
 * diluting it).
 */
function benchmarksFor(benchmarks: readonly BenchmarkSpec[], name: string, naming: InputNaming): BenchmarkSpec[] {
  const entry = benchmarks.find((b) => b.name === name);
  if (entry) return [entry];
  const harness = benchmarks.filter((b) => b.format !== 'time' && (b.filter === null || new RegExp(b.filter).test(name)));
  if (harness.length === 0) {
    throw UsageError.invalid(naming('benchmark'), name, `the name of a benchmark to search: a config entry (${benchmarks.map((b) => show(b.name)).join(', ')}) or a result of a harness format`);
  }
  return harness.map((b) => ({ ...b, filter: exactly(name) }));
}

/** The row of the benchmark in a step's results: by its name, or the one row of its entry. */
function rowOf(results: Results, name: string): BenchmarkResult | undefined {
  return results.benchmarks.find((b) => b.name === name) ?? (results.benchmarks.length === 1 ? results.benchmarks[0] : undefined);
}

function stepFile(out: string, k: number, sha: string): string {
  const stem = basename(out).replace(/\.json$/i, '');
  return join(dirname(out), `${stem}.step-${k}-${sha.slice(0, 12)}.json`);
}

/**
 * The comparison that found the regression (the action's `bisect: true`): its row of the benchmark
 * and its results file. Its head is not measured again: the search starts confirmed, and its
 * planned tests are the halvings alone, each at alpha / their number. The head's regression keeps
 * the comparison's own guarantee; the halvings measure new pairs, so given that regression, the
 * chance that any of them errs is still at most alpha (Bonferroni).
 */
export interface KnownHead {
  row: BenchmarkResult;
  resultsFile: string;
}

/** `naming` words the inputs in messages: the command line's flags by default, the action's own words in the action. */
export async function runBisect(spec: Spec, benchmark: string, hooks: EngineHooks, known?: KnownHead, naming: InputNaming = cliNaming): Promise<BisectOutcome> {
  if (spec.base.kind !== 'git' || spec.base.rev === null) throw new UsageError(naming('base'), `${naming('base')} is required: the revision the range starts from (a pull request's merge-base)`);
  if (spec.head.kind !== 'git') throw new UsageError(naming('head'), `${naming('head')} must be a git revision: bisect walks its history`);
  const benchmarks = benchmarksFor(spec.benchmarks, benchmark, naming);
  const range = await commitRange(spec.cwd, spec.base.rev, spec.head.rev ?? 'HEAD', naming);
  const n = range.commits.length;
  const headKnown = known?.row.verdict === 'regression' ? known : undefined;
  let state: SearchState = startSearch(n);
  if (headKnown) state = { ...state, confirmed: true, maxTests: state.maxTests - 1 };
  const alphaPerTest = spec.alpha / Math.max(1, state.maxTests);
  const stepBudgetMs = Math.max(MIN_STEP_MS, Math.floor(spec.maxTimeMs / Math.max(1, state.maxTests)));
  const result: BisectResult = {
    kind: 'bisect',
    benchmark,
    base: { ref: spec.base.rev, sha: range.baseSha },
    head: { ref: spec.head.rev ?? 'HEAD', sha: range.headSha },
    commits: range.commits,
    alpha: spec.alpha,
    alphaPerTest,
    maxTests: state.maxTests,
    threshold: benchmarks[0]?.threshold ?? spec.threshold,
    stepBudgetMs,
    steps: [],
    conclusion: { kind: 'head-undecided' },
    ...(headKnown ? { headFromComparison: true as const } : {}),
  };
  if (headKnown) {
    const head = range.commits[n - 1]!;
    const c = headKnown.row.change;
    result.steps.push({
      index: n,
      sha: head.sha,
      subject: head.subject,
      outcome: 'regressed',
      verdict: 'regression',
      ...(c ? { change: { estimate: c.estimate, ci: c.ci, ...(c.ciLevel !== undefined ? { level: c.ciLevel } : {}) } } : {}),
      pairs: headKnown.row.pairs.length,
      resultsFile: headKnown.resultsFile,
      fromComparison: true,
    });
  }
  const save = () => {
    result.conclusion = conclude(state);
    writeReportFile(spec.out, `${JSON.stringify(result, null, 2)}\n`);
  };
  hooks.log(`Bisecting ${oneLine(show(benchmark))} over ${n} commit${n === 1 ? '' : 's'} of ${range.baseSha.slice(0, 12)}..${range.headSha.slice(0, 12)}: ${headKnown ? "the head's regression is the comparison's; " : ''}at most ${state.maxTests} tests, each at alpha ${formatAlpha(alphaPerTest)} (${formatAlpha(spec.alpha)} / ${state.maxTests}) with ${Math.round(stepBudgetMs / 1000)} s of the budget`);
  let exitCode: ExitCode = 0;
  // --max-time bounds the whole search, builds included: each step gets an equal share of what is left for the tests left
  const now = hooks.clock ?? Date.now;
  const deadline = now() + spec.maxTimeMs;
  // the base is built once, before the first step that needs it, and shared by every step
  let base: { base: Revision; cleanup(): Promise<void> } | null = null;
  try {
    for (let k = nextCommit(state); k !== null; k = nextCommit(state)) {
      const commit = range.commits[k - 1]!;
      const file = stepFile(spec.out, k, commit.sha);
      if (!base) {
        try {
          base = await prepareBase(spec, range.baseSha, { log: hooks.log, env: hooks.env ?? { ...process.env }, ...(hooks.signal ? { signal: hooks.signal } : {}) });
        } catch (err) {
          if (!(err instanceof BuildFailure)) throw err;
          if (hooks.signal?.aborted) {
            result.stoppedBecause = 'interrupted';
            exitCode = 130;
            break;
          }
          hooks.log(`error: ${err.message}\n${err.outputTail.trimEnd().split('\n').slice(-20).map((l) => `  | ${l}`).join('\n')}`);
          // no commit was compared: no step, and the log above holds the build's output
          result.stoppedBecause = 'base-build-failed';
          exitCode = 3;
          break;
        }
      }
      const left = deadline - now();
      if (left <= 0) {
        hooks.log(`The search's budget of ${Math.round(spec.maxTimeMs / 1000)} s (builds included) is used up after ${result.steps.length} step${result.steps.length === 1 ? '' : 's'}: it stops here`);
        state = outOfTime(state);
        break;
      }
      const budgetMs = Math.max(MIN_STEP_MS, Math.floor(left / Math.max(1, state.maxTests - state.tests)));
      hooks.log(`Step ${result.steps.length + 1}: commit ${k}/${n} ${commit.sha.slice(0, 12)} ${oneLine(show(commit.subject))} against the base`);
      const stepSpec: Spec = {
        ...spec,
        base: { kind: 'git', rev: range.baseSha },
        head: { kind: 'git', rev: commit.sha },
        benchmarks,
        alpha: alphaPerTest,
        maxTimeMs: budgetMs,
        shard: { index: 1, count: 1 },
        out: file,
        markdown: null,
        // every step measures the benchmark, whatever the commit changed: a step that ran nothing would decide nothing
        changedOnly: null,
      };
      const outcome = await runCompare(stepSpec, { ...hooks, base: base.base });
      const failure = outcome.results.failures?.find((f) => f.kind === 'build');
      if (failure?.side === 'head') {
        hooks.log(`Commit ${k} ${commit.sha.slice(0, 12)} could not be built: skipped`);
        result.steps.push({ index: k, sha: commit.sha, subject: commit.subject, outcome: 'build-failed', pairs: 0, resultsFile: file, note: failure.message });
        state = recordStep(state, k, 'build-failed');
        save();
        continue;
      }
      const row = rowOf(outcome.results, benchmark);
      const stepOutcome: StepOutcome = stepOutcomeOf(row, result.threshold);
      result.steps.push({
        index: k,
        sha: commit.sha,
        subject: commit.subject,
        outcome: stepOutcome,
        ...(row?.verdict ? { verdict: row.verdict } : {}),
        ...(row?.change ? { change: { estimate: row.change.estimate, ci: row.change.ci, ...(row.change.ciLevel !== undefined ? { level: row.change.ciLevel } : {}) } } : {}),
        pairs: row?.pairs.length ?? 0,
        resultsFile: outcome.resultsPath,
      });
      if (outcome.exitCode === 130) {
        result.stoppedBecause = 'interrupted';
        exitCode = 130;
        break;
      }
      if (k === n && !row) {
        save();
        throw UsageError.invalid(naming('benchmark'), benchmark, `a benchmark the comparison reports; it reported ${outcome.results.benchmarks.map((b) => show(b.name)).slice(0, 10).join(', ') || 'none'}`);
      }
      hooks.log(`Commit ${k} ${commit.sha.slice(0, 12)}: ${row?.verdict ?? 'no verdict'}${row?.change ? ` (${signedPercent(row.change.estimate)})` : ''}`);
      state = recordStep(state, k, stepOutcome);
      save();
    }
  } finally {
    await base?.cleanup();
  }
  save();
  if (!result.stoppedBecause && state.skipped.includes(n)) exitCode = 3;
  return { result, exitCode, resultsPath: spec.out };
}

function formatAlpha(a: number): string {
  return String(Number(a.toPrecision(3)));
}

function signedPercent(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}
