/**
 * The command line's build cache: a local folder (`--build-cache-dir`), one sub-folder per key
 * holding copies of the paths kept. An entry is written in a temp folder beside it and renamed
 * into place, so an interrupted save leaves no half entry that a later run would take for a hit.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { UsageError, fsReason } from '../config/errors.ts';
import type { Spec } from '../config/spec.ts';
import type { BuildCache, CacheStore } from './build-cache.ts';

const MANIFEST = 'pairbench-cache.json';

class LocalCacheStore implements CacheStore {
  readonly root: string;
  readonly where: string;
  constructor(root: string) {
    this.root = resolve(root);
    this.where = `the folder ${this.root}`;
  }

  async restore(dir: string, paths: readonly string[], key: string): Promise<boolean> {
    const entry = join(this.root, key);
    if (!existsSync(join(entry, MANIFEST))) return false;
    for (const p of paths) {
      const from = join(entry, 'files', p);
      if (!existsSync(from)) continue;
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      cpSync(from, join(dir, p), { recursive: true, force: true, preserveTimestamps: true, verbatimSymlinks: true });
    }
    return true;
  }

  async save(dir: string, paths: readonly string[], key: string): Promise<string> {
    const entry = join(this.root, key);
    if (existsSync(join(entry, MANIFEST))) return 'already in the cache';
    const present = paths.filter((p) => existsSync(join(dir, p)));
    if (present.length === 0) return `not saved: the build made none of ${paths.join(', ')}`;
    const tmp = join(this.root, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(this.root, { recursive: true });
      for (const p of present) {
        mkdirSync(dirname(join(tmp, 'files', p)), { recursive: true });
        cpSync(join(dir, p), join(tmp, 'files', p), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
      }
      writeFileSync(join(tmp, MANIFEST), `${JSON.stringify({ key, paths: present, savedAt: new Date().toISOString() })}\n`);
      renameSync(tmp, entry);
      return 'saved';
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      return `not saved: ${fsReason(err)}`;
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
