/**
 * Revisions: turns `--base`/`--head` (or two directories) into two ready directories.
 *
 * Each git revision is checked out in its own worktree in a temp folder, so the user's checkout is
 * never touched, and `--build` runs once in each. Worktrees left by a killed run are recognised by
 * the marker in their temp root (temp-root.ts) and removed on the next run.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UsageError, show } from '../config/errors.ts';
import type { RevisionSpec, Spec } from '../config/spec.ts';
import { runCommand } from '../measure/one-run.ts';
import { Git, checkRevision } from './git.ts';
import { buildCacheKey, describeCache, type BuildCache, type BuildCacheOutcome } from './build-cache.ts';
import { alive } from '../measure/process-group.ts';
import { looksLikeOurs, makeTempRoot, ownedRoot, removeTempRoot } from './temp-root.ts';

export type Side = 'base' | 'head';

export interface Revision {
  side: Side;
  /** what the user named (`main`, `HEAD~1`), or null for a directory */
  ref: string | null;
  sha: string | null;
  /** where commands run */
  dir: string;
}

export class BuildFailure extends Error {
  readonly side: Side;
  readonly exitCode: number | null;
  readonly outputTail: string;
  readonly kind: 'build';
  constructor(side: Side, exitCode: number | null, outcome: string, outputTail: string) {
    super(`the build of ${side} failed (${outcome === 'timeout' ? 'timed out' : `exit code ${exitCode ?? outcome}`})`);
    this.name = 'BuildFailure';
    this.side = side;
    this.exitCode = exitCode;
    this.outputTail = outputTail;
    this.kind = 'build';
  }
}

export interface PreparedRevisions {
  base: Revision;
  head: Revision;
  /** what the build cache did, when one was set and the base is a git revision with a build */
  buildCache?: BuildCacheOutcome;
  cleanup(): Promise<void>;
}

export interface PrepareContext {
  log(line: string): void;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** the base build cache, where the user set one (build-cache) */
  buildCache?: BuildCache;
  /**
   * Called once both revisions are located, before anything is built (changed-only): false when
   * nothing is to be measured, so nothing is built either.
   */
  select?(base: Revision, head: Revision): Promise<boolean>;
  /**
   * A base already checked out and built ({@link prepareBase}), shared by several comparisons (a
   * bisect's steps): used as it is, neither built nor removed here; only the head is prepared.
   */
  base?: Revision;
}

/**
 * Removes the worktrees of earlier runs whose process is gone (S14: a killed run leaves them
 * behind), and their temp roots. Only roots that pairbench provably made are removed; a worktree
 * that merely looks like one of ours is the user's and is left alone, with a note.
 */
async function recoverStaleWorktrees(git: Git, log: (line: string) => void): Promise<void> {
  await git.pruneWorktrees();
  const roots = new Set<string>();
  for (const path of await git.listWorktrees()) {
    if (!looksLikeOurs(path)) continue;
    const check = ownedRoot(path);
    if (!check.owned) {
      log(`Leaving the worktree ${path} alone: ${check.reason}. Remove it with \`git worktree remove\` if it is not needed.`);
      continue;
    }
    if (alive(check.pid)) continue; // another pairbench run, still going
    log(`Removing a stale worktree of an earlier, interrupted run: ${path}`);
    await git.removeWorktree(path);
    roots.add(check.root);
  }
  for (const root of roots) removeTempRoot(root);
  await git.pruneWorktrees();
}

async function resolveGitRevision(git: Git, side: Side, rev: string, log: (line: string) => void): Promise<string> {
  const input = `--${side}`;
  checkRevision(input, rev);
  let sha = await git.resolve(rev);
  if (!sha) {
    // Shallow clones (actions/checkout with fetch-depth: 1) lack the base: fetch that one commit.
    log(`${side} revision ${rev} is not in this clone; fetching it from origin`);
    if (await git.fetchCommit(rev)) sha = (await git.resolve(rev)) ?? (await git.resolve('FETCH_HEAD'));
  }
  if (!sha) throw UsageError.invalid(input, rev, 'a revision that exists in this repository (a branch, a tag or a commit SHA)');
  return sha;
}

function checkDirectory(side: Side, dir: string, cwd: string): string {
  const full = resolve(cwd, dir);
  if (!existsSync(full) || !statSync(full).isDirectory()) {
    throw UsageError.invalid(`--${side}-dir`, dir, 'an existing directory');
  }
  return full;
}

export async function prepareRevisions(spec: Spec, ctx: PrepareContext): Promise<PreparedRevisions> {
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
    cleanups.length = 0;
  };
  try {
    const revisions = await locate(spec, ctx, cleanups);
    if (ctx.select && !(await ctx.select(revisions.base, revisions.head))) return { ...revisions, cleanup };
    if (ctx.base) {
      // the base is the caller's, built once: only the head is built
      if (spec.build) await build(revisions.head, spec, ctx);
      return { ...revisions, cleanup };
    }
    let outcome: BuildCacheOutcome | undefined;
    if (spec.build) {
      const cache = ctx.buildCache && revisions.base.sha ? ctx.buildCache : undefined;
      for (const rev of [revisions.base, revisions.head]) {
        const key = cache && rev.sha ? buildCacheKey(rev.sha, spec.build, cache) : null;
        if (cache && key && rev.side === 'base') {
          const restored = await cache.store.restore(rev.dir, cache.paths, key);
          outcome = { key, hit: restored.hit, saved: [] };
          if (!restored.hit && restored.warning !== null) ctx.log(`warning: base: ${restored.warning}: building the base`);
          if (outcome.hit) {
            ctx.log(`base: build outputs restored from the build cache (${describeCache(cache)}, key ${key}): the base's build is skipped`);
            continue;
          }
          ctx.log(`base: not in the build cache (key ${key}): building it`);
        }
        await build(rev, spec, ctx);
        if (cache && key && outcome && (cache.saves === 'base-and-head' || (cache.saves === 'base' && rev.side === 'base'))) {
          const saved = await cache.store.save(rev.dir, cache.paths, key);
          outcome.saved.push(`${rev.side}: ${saved}`);
          ctx.log(`${rev.side}: build outputs ${saved} (key ${key})`);
        }
      }
      if (cache && outcome && cache.saves === 'none') ctx.log(`The build cache is not written: ${cache.why}`);
    }
    return { ...revisions, ...(outcome ? { buildCache: outcome } : {}), cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

async function locate(spec: Spec, ctx: PrepareContext, cleanups: (() => Promise<void>)[]): Promise<{ base: Revision; head: Revision }> {
  const dirRevision = (side: Side, r: Extract<RevisionSpec, { kind: 'dir' }>): Revision => ({
    side,
    ref: null,
    sha: null,
    dir: checkDirectory(side, r.dir, spec.cwd),
  });
  if (spec.base.kind === 'dir' && spec.head.kind === 'dir') {
    return { base: dirRevision('base', spec.base), head: dirRevision('head', spec.head) };
  }
  const git = new Git(spec.cwd);
  if (!(await git.isRepository())) {
    throw UsageError.invalid('--repo', spec.cwd, 'a git repository (or compare two directories with --base-dir and --head-dir)');
  }
  await recoverStaleWorktrees(git, ctx.log);
  const headRev = spec.head.kind === 'git' ? (spec.head.rev ?? 'HEAD') : 'HEAD';
  const headSha = await resolveGitRevision(git, 'head', headRev, ctx.log);
  let baseRev = spec.base.kind === 'git' ? spec.base.rev : null;
  let baseSha: string;
  if (ctx.base?.sha) {
    baseRev = ctx.base.ref ?? ctx.base.sha;
    baseSha = ctx.base.sha;
  } else if (baseRev === null) {
    const branch = await git.defaultBranch();
    const mb = branch ? await git.mergeBase(branch, headSha) : null;
    if (!branch || !mb) {
      throw new UsageError('--base', `--base is missing and no default branch was found to take the merge-base with ${show(headRev)}; pass --base <rev>`);
    }
    baseRev = `merge-base(${branch}, ${headRev})`;
    baseSha = mb;
  } else {
    baseSha = await resolveGitRevision(git, 'base', baseRev, ctx.log);
  }
  const root = makeTempRoot();
  cleanups.push(async () => removeTempRoot(root));
  const checkout = async (side: Side, ref: string, sha: string): Promise<Revision> => {
    const dir = join(root, side);
    await git.addWorktree(dir, sha);
    cleanups.push(() => git.removeWorktree(dir));
    return { side, ref, sha, dir };
  };
  ctx.log(`base: ${baseRev} (${baseSha.slice(0, 12)}), head: ${headRev} (${headSha.slice(0, 12)}), worktrees in ${basename(root)}`);
  return { base: ctx.base ?? (await checkout('base', baseRev, baseSha)), head: await checkout('head', headRev, headSha) };
}

/**
 * The base alone, checked out in a worktree of its own and built, for several comparisons against
 * it (a bisect's steps pass it as {@link PrepareContext.base}): one build for the whole search.
 * `cleanup` removes it once they are done.
 */
export async function prepareBase(spec: Spec, rev: string, ctx: PrepareContext): Promise<{ base: Revision; cleanup(): Promise<void> }> {
  const git = new Git(spec.cwd);
  const sha = await resolveGitRevision(git, 'base', rev, ctx.log);
  const root = makeTempRoot();
  const dir = join(root, 'base');
  let added = false;
  const cleanup = async () => {
    if (added) await git.removeWorktree(dir);
    added = false;
    removeTempRoot(root);
  };
  try {
    await git.addWorktree(dir, sha);
    added = true;
    const base: Revision = { side: 'base', ref: rev, sha, dir };
    ctx.log(`base: ${rev} (${sha.slice(0, 12)}), built once for every comparison against it, worktree in ${basename(root)}`);
    if (spec.build) await build(base, spec, ctx);
    return { base, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

async function build(rev: Revision, spec: Spec, ctx: PrepareContext): Promise<void> {
  ctx.log(`Building ${rev.side}: ${spec.build}`);
  const res = await runCommand({
    command: spec.build!,
    cwd: rev.dir,
    env: ctx.env,
    timeoutMs: spec.timeoutMs,
    captureStdout: false,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (res.outcome !== 'ok') throw new BuildFailure(rev.side, res.exitCode, res.outcome, res.outputTail);
}
