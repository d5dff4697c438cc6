/**
 * The command line's build cache: a local folder (`--build-cache-dir`), one sub-folder per key
 * holding copies of the paths kept and their manifest (cache-entry.ts). An entry is written in a
 * temp folder beside it and renamed into place, so an interrupted save leaves no half entry that a
 * later run would take for a hit.
 *
 * The folder may be shared, so it is trusted as the run helper's cache is (measure/owned-path.ts):
 * the folder must be the user's own (or root's with the sticky bit) and not writable by others, and
 * every folder and file of an entry the user's own, not a link, writable by nobody else. An entry
 * that fails this, or its manifest, is a miss with one warning; a folder that fails it is neither
 * read nor written.
 */
import { cpSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError, fsReason } from '../config/errors.ts';
import type { Spec } from '../config/spec.ts';
import { untrusted, untrustedRoot } from '../measure/owned-path.ts';
import type { BuildCache, CacheRestore, CacheStore } from './build-cache.ts';
import { CacheRefusal, placeEntry, stageEntry, verifyEntry } from './cache-entry.ts';

class LocalCacheStore implements CacheStore {
  readonly root: string;
  readonly where: string;
  constructor(root: string) {
    this.root = resolve(root);
    this.where = `the folder ${this.root}`;
  }

  /** Why the cache folder cannot be used, or null; null too when it does not exist yet. */
  private unusable(): string | null {
    try {
      return untrustedRoot(this.root, statSync(this.root));
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : fsReason(err);
    }
  }

  async restore(dir: string, paths: readonly string[], key: string): Promise<CacheRestore> {
    const entry = join(this.root, key);
    try {
      lstatSync(entry);
    } catch {
      return { hit: false, warning: null };
    }
    const unusable = this.unusable();
    if (unusable) return { hit: false, warning: `the build cache cannot be used: ${unusable}` };
    const staged = mkdtempSync(join(dir, '.pairbench-restore-'));
    try {
      // the entry as it stands (whose files are whose), then the copy that is used (its bytes)
      const why = untrusted(entry, lstatSync(entry));
      if (why) throw new CacheRefusal(why);
      verifyEntry(entry, key, paths, untrusted);
      cpSync(entry, staged, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
      placeEntry(staged, verifyEntry(staged, key, paths), dir);
      return { hit: true };
    } catch (err) {
      const why = err instanceof CacheRefusal ? err.message : fsReason(err);
      return { hit: false, warning: `the build cache's entry ${entry} is not used (${why})` };
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
  }

  async save(dir: string, paths: readonly string[], key: string): Promise<string> {
    const entry = join(this.root, key);
    const unusable = this.unusable();
    if (unusable) return `not saved: ${unusable}`;
    let old: string | null = null;
    try {
      const st = lstatSync(entry);
      const why = untrusted(entry, st);
      if (why) return `not saved: ${why}`;
      try {
        verifyEntry(entry, key, paths, untrusted);
        return 'already in the cache';
      } catch (err) {
        if (!(err instanceof CacheRefusal)) throw err;
        old = err.message;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return `not saved: ${fsReason(err)}`;
    }
    let tmp: string | null = null;
    try {
      mkdirSync(this.root, { recursive: true, mode: 0o700 });
      tmp = mkdtempSync(join(this.root, `.tmp-${process.pid}-`));
      const present = stageEntry(dir, paths, key, tmp);
      if (present.length === 0) {
        rmSync(tmp, { recursive: true, force: true });
        return `not saved: the build made none of ${paths.join(', ')}`;
      }
      // an entry of one's own that failed its checks is replaced
      if (old !== null) rmSync(entry, { recursive: true, force: true });
      renameSync(tmp, entry);
      return old === null ? 'saved' : `saved, in place of an entry that failed its checks (${old})`;
    } catch (err) {
      if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
      return `not saved: ${err instanceof CacheRefusal ? err.message : fsReason(err)}`;
    }
  }
}

/**
 * The command line's build cache for a Spec with build-cache set: a local folder (--build-cache-dir),
 * written with the base's outputs on a miss (one's own machine and checkout: the base is a commit
 * one chose). Undefined when no cache is set.
 */
export function localBuildCache(spec: Spec, env: Record<string, string | undefined>): BuildCache | undefined {
  if (!spec.buildCache) return undefined;
  if (spec.buildCache.dir === null) {
    throw new UsageError('--build-cache-dir', "--build-cache needs --build-cache-dir <dir> on the command line: the folder its entries are kept in (the action uses GitHub's cache)");
  }
  return { paths: spec.buildCache.paths, toolchain: spec.buildCache.toolchain, store: new LocalCacheStore(spec.buildCache.dir), saves: 'base', why: 'the command line saves the base build on a miss', env };
}
