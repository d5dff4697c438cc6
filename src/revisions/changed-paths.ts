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
 *
 * Both the globs and the file names come from the pull request, so the selection is bounded: the
 * globs are checked when the spec is built (config/changed-only.ts), each benchmark's are compiled
 * once, a file is tested only against the benchmarks whose globs' literal folder holds it (and those
 * without one), a name too long to match safely counts for every benchmark, and the signal is
 * checked between chunks of files.
 */
import { posix } from 'node:path';
import { execa } from 'execa';
import picomatch from 'picomatch';
import { globsOf, type PathsMode } from '../config/changed-only.ts';
import type { BenchmarkSpec } from '../config/spec.ts';
import { Git, SHA_PATTERN } from './git.ts';

/** The reason shown for a benchmark left out, in every report. */
const NOT_RUN_REASON = 'nothing under its paths changed';

/** Past these lengths a changed file's name is not matched against a glob: it counts for every benchmark. */
const MAX_NAME = 1024;
const MAX_SEGMENT = 255;

/** Files matched between two looks at the signal: a bounded glob takes at most tens of ms on a hostile name. */
const CHUNK = 200;

export interface PathSelection {
  /** the files base..head changes, less those ignored */
  changed: string[];
  run: BenchmarkSpec[];
  notRun: { name: string; why: string }[];
  /** strict mode ran everything: the changed files no benchmark's paths match (the first few) */
  unclaimed: string[];
}

/** The selection was stopped by a signal (SIGINT, SIGTERM): the comparison ends as interrupted. */
export class SelectionInterrupted extends Error {
  constructor() {
    super('interrupted while choosing the benchmarks changed-only runs');
  }
}

function matcher(globs: readonly string[]): (file: string) => boolean {
  return globs.length === 0 ? () => false : picomatch(globsOf(globs), { dot: true });
}

/** Whether a name is too long to give to a glob: it then counts for every benchmark. */
function unmatchable(file: string): boolean {
  return file.length > MAX_NAME || file.split('/').some((s) => s.length > MAX_SEGMENT);
}

/**
 * The files that differ between two commits (added, deleted, modified; both names of a rename),
 * and each again as seen through every tracked symbolic link to a folder or file holding it, at
 * base or at head: a change to `shared/lib/x.c` is also `packages/a/vendor/x.c` when
 * `packages/a/vendor` links to `../../shared/lib`, so the benchmark whose paths hold the link runs.
 */
export async function changedFiles(cwd: string, baseSha: string, headSha: string): Promise<string[]> {
  if (!SHA_PATTERN.test(baseSha) || !SHA_PATTERN.test(headSha)) return [];
  const res = await new Git(cwd).run(['diff', '--name-only', '--no-renames', '-z', baseSha, headSha]);
  const files = res.stdout.split('\0').filter((f) => f !== '');
  // target → the links to it, at base or at head
  const byTarget = new Map<string, Set<string>>();
  for (const sha of [baseSha, headSha]) {
    for (const [link, target] of await symbolicLinks(cwd, sha)) byTarget.set(target, (byTarget.get(target) ?? new Set()).add(link));
  }
  if (byTarget.size === 0) return files;
  const out = new Set(files);
  // each file seen through the links to a folder holding it (or to itself); a chain of links is followed at most 8 deep
  let frontier = files;
  for (let depth = 0; depth < 8 && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const f of frontier) {
      for (let cut = f.length; cut > 0; cut = f.lastIndexOf('/', cut - 1)) {
        for (const link of byTarget.get(f.slice(0, cut)) ?? []) {
          const seen = link + f.slice(cut);
          if (out.has(seen)) continue;
          out.add(seen);
          next.push(seen);
        }
      }
    }
    frontier = next;
  }
  return [...out];
}

/** The tracked symbolic links of a commit whose target lies inside the repository: link path → target path. */
async function symbolicLinks(cwd: string, sha: string): Promise<Map<string, string>> {
  const tree = await new Git(cwd).run(['ls-tree', '-r', '-z', '--full-tree', sha]);
  const entries: Array<{ blob: string; path: string }> = [];
  for (const entry of tree.stdout.split('\0')) {
    const m = /^120000 blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (m) entries.push({ blob: m[1]!, path: m[2]! });
  }
  const links = new Map<string, string>();
  if (entries.length === 0) return links;
  // every target in one git process: `<sha> blob <size>\n<target>\n` each
  const res = await execa('git', ['cat-file', '--batch'], { cwd, input: entries.map((e) => e.blob).join('\n') + '\n', encoding: 'buffer', env: { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, reject: false });
  const out = Buffer.from(res.stdout as Uint8Array);
  let at = 0;
  for (const e of entries) {
    const eol = out.indexOf(10, at);
    if (eol < 0) break;
    const size = Number(/ blob (\d+)$/.exec(out.subarray(at, eol).toString('latin1'))?.[1] ?? NaN);
    if (!Number.isSafeInteger(size)) break;
    const target = out.subarray(eol + 1, eol + 1 + size).toString('utf8');
    at = eol + 1 + size + 1;
    if (target.startsWith('/')) continue;
    const resolved = posix.normalize(posix.join(posix.dirname(e.path), target)).replace(/\/+$/, '');
    if (resolved === '.' || resolved === '..' || resolved.startsWith('../')) continue;
    links.set(e.path, resolved);
  }
  return links;
}

/** The literal folder a glob's matches lie under (`packages/parser` of `packages/parser/**`), '' when none. */
function literalBase(glob: string): string {
  return picomatch.scan(glob).base.replace(/\/+$/, '');
}

/** Waits a turn of the event loop, so a signal's handler runs, and stops when it has. */
async function checkSignal(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new SelectionInterrupted();
}

export async function selectByPaths(benchmarks: readonly BenchmarkSpec[], changedAll: readonly string[], opts: { mode: PathsMode; ignore: readonly string[]; signal?: AbortSignal }): Promise<PathSelection> {
  const ignored = matcher(opts.ignore);
  const changed: string[] = [];
  for (let i = 0; i < changedAll.length; i += CHUNK) {
    await checkSignal(opts.signal);
    for (const f of changedAll.slice(i, i + CHUNK)) if (unmatchable(f) || !ignored(f)) changed.push(f);
  }
  // Each benchmark's globs compiled once, and filed under their literal folders: a file is tested
  // only against the globs whose folder holds it, and those with no literal folder.
  const withPaths = benchmarks.filter((b) => b.paths !== undefined);
  const byBase = new Map<string, Array<{ index: number; match: (f: string) => boolean }>>();
  withPaths.forEach((b, index) => {
    for (const glob of b.paths!) {
      const base = literalBase(glob);
      const list = byBase.get(base) ?? [];
      list.push({ index, match: matcher([glob]) });
      byBase.set(base, list);
    }
  });
  const touched = new Set<number>();
  const unclaimed: string[] = [];
  for (let i = 0; i < changed.length; i += CHUNK) {
    await checkSignal(opts.signal);
    for (const f of changed.slice(i, i + CHUNK)) {
      if (unmatchable(f)) {
        withPaths.forEach((_, k) => touched.add(k));
        continue;
      }
      let claimed = false;
      const parts = f.split('/');
      // the folders holding the file, from the root (''), and the file itself (a glob naming one file)
      let prefix = '';
      for (let depth = 0; depth <= parts.length; depth++) {
        if (depth > 0) prefix = depth === 1 ? parts[0]! : `${prefix}/${parts[depth - 1]!}`;
        for (const entry of byBase.get(prefix) ?? []) {
          if (touched.has(entry.index) && (claimed || opts.mode === 'matched')) continue;
          if (entry.match(f)) {
            touched.add(entry.index);
            claimed = true;
          }
        }
      }
      if (!claimed && unclaimed.length < 5) unclaimed.push(f);
    }
  }
  // a benchmark without paths depends on everything: any change runs it, and in strict mode it claims no file
  if (opts.mode === 'strict' && unclaimed.length > 0) return { changed, run: [...benchmarks], notRun: [], unclaimed };
  const indexOf = new Map(withPaths.map((b, k) => [b, k]));
  const run = benchmarks.filter((b) => changed.length > 0 && (b.paths === undefined || touched.has(indexOf.get(b)!)));
  const running = new Set(run);
  const notRun = benchmarks.filter((b) => !running.has(b)).map((b) => ({ name: b.name, why: NOT_RUN_REASON }));
  return { changed, run, notRun, unclaimed: [] };
}
