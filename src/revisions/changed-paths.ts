/**
 * Benchmarks chosen by the paths a comparison changes (`changed-only`). A config benchmark may name
 * `paths:` (globs relative to the repository root); when base..head changes no file under them, it
 * is not run, and the reports list it as not run, never drop it.
 *
 * Two modes, for paths that may be incomplete (a benchmark also depends on a shared file nobody
 * listed):
 * - `strict` (the default): a changed file that matches no benchmark's paths runs every benchmark,
 *   since nobody can tell which benchmarks it affects. Only where every changed file is claimed
 *   by some benchmark's paths are the others left out.
 * - `matched`: only the benchmarks whose paths match a changed file run; files outside every
 *   benchmark's paths run nothing.
 * In both, files matching `paths-ignore` (docs, say) are not counted as changes at all, and a
 * benchmark without `paths` depends on everything and always runs.
 */
import picomatch from 'picomatch';
import type { PathsMode } from '../config/changed-only.ts';
import type { BenchmarkSpec } from '../config/spec.ts';
import { Git, SHA_PATTERN } from './git.ts';

/** The reason shown for a benchmark left out, in every report. */
const NOT_RUN_REASON = 'nothing under its paths changed';

export interface PathSelection {
  /** the files base..head changes, less those ignored */
  changed: string[];
  run: BenchmarkSpec[];
  notRun: { name: string; why: string }[];
  /** strict mode ran everything: the changed files no benchmark's paths match (the first few) */
  unclaimed: string[];
}

function matcher(globs: readonly string[]): (file: string) => boolean {
  return globs.length === 0 ? () => false : picomatch([...globs], { dot: true });
}

/** The files that differ between two commits (added, deleted, modified; both names of a rename). */
export async function changedFiles(cwd: string, baseSha: string, headSha: string): Promise<string[]> {
  if (!SHA_PATTERN.test(baseSha) || !SHA_PATTERN.test(headSha)) return [];
  const res = await new Git(cwd).run(['diff', '--name-only', '--no-renames', '-z', baseSha, headSha]);
  return res.stdout.split('\0').filter((f) => f !== '');
}

export function selectByPaths(benchmarks: readonly BenchmarkSpec[], changedAll: readonly string[], opts: { mode: PathsMode; ignore: readonly string[] }): PathSelection {
  const ignored = matcher(opts.ignore);
  const changed = changedAll.filter((f) => !ignored(f));
  const matchers = new Map(benchmarks.map((b) => [b.name, b.paths ? matcher(b.paths) : null]));
  const touched = (b: BenchmarkSpec) => {
    const m = matchers.get(b.name);
    return m === null || m === undefined || changed.some((f) => m(f));
  };
  const unclaimed = opts.mode === 'strict' ? changed.filter((f) => ![...matchers.values()].some((m) => m !== null && m(f))) : [];
  // a benchmark without paths depends on everything: any change runs it, and in strict mode it claims no file
  if (opts.mode === 'strict' && unclaimed.length > 0) return { changed, run: [...benchmarks], notRun: [], unclaimed: unclaimed.slice(0, 5) };
  const run = benchmarks.filter((b) => changed.length > 0 && touched(b));
  const notRun = benchmarks.filter((b) => !run.includes(b)).map((b) => ({ name: b.name, why: NOT_RUN_REASON }));
  return { changed, run, notRun, unclaimed: [] };
}
