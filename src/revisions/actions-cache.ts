/**
 * The action's build cache: GitHub's cache service through @actions/cache, which finds the service
 * from the runner's environment (ACTIONS_CACHE_URL or ACTIONS_RESULTS_URL, and ACTIONS_RUNTIME_TOKEN).
 *
 * @actions/cache roots its archive at GITHUB_WORKSPACE and resolves relative paths against the
 * working directory, and the entry's version is a hash of the paths as given. So both are pointed
 * at a folder of pairbench's own for the call and the paths are given relative to it: the archive
 * then holds `build/...` and the manifest (cache-entry.ts) whatever the folder, and a later run
 * finds it. The engine is between steps while it does this (nothing else runs in the process).
 *
 * Saving archives a staged copy of the outputs (links dereferenced) with its manifest. Restoring
 * must not trust the archive: @actions/cache extracts with `tar -P`, which writes members with
 * absolute names or `..` wherever they point. So `tar` is found, for the call, first in a private
 * folder holding a `tar` that runs the system's without `-P` (GNU and BSD tar then strip a leading
 * `/`, skip members with `..`, and extract no member through a link); the archive is extracted
 * into a fresh folder inside the revision's folder, checked against its manifest, and only then
 * moved into place (placeEntry: nothing is written through a link).
 */
import * as cache from '@actions/cache';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { CacheRestore, CacheStore } from './build-cache.ts';
import { CACHE_MANIFEST } from '../config/build-cache-option.ts';
import { CacheRefusal, placeEntry, stageEntry, verifyEntry } from './cache-entry.ts';

async function inFolder<T>(dir: string, env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  const saved = Object.fromEntries(Object.keys({ ...env, GITHUB_WORKSPACE: '' }).map((k) => [k, process.env[k]]));
  process.chdir(dir);
  Object.assign(process.env, env, { GITHUB_WORKSPACE: dir });
  try {
    return await fn();
  } finally {
    process.chdir(cwd);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The executable `name` on PATH, or null. */
function onPath(name: string): string | null {
  for (const d of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!isAbsolute(d)) continue;
    try {
      accessSync(join(d, name), constants.X_OK);
      return join(d, name);
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * A private folder holding `tar` (and `gtar`, which @actions/cache prefers on macOS) that run the
 * system's without `-P`; null when there is no tar (restoring then fails, and is a miss).
 */
function tarWithoutAbsoluteNames(): string | null {
  const bin = mkdtempSync(join(tmpdir(), 'pairbench-tar-'));
  let any = false;
  for (const name of ['tar', 'gtar']) {
    const real = onPath(name);
    if (real === null) continue;
    // each argument kept but -P, in order (POSIX sh: the loop rebuilds "$@")
    writeFileSync(join(bin, name), `#!/bin/sh\nfor a do shift; [ "$a" = -P ] || set -- "$@" "$a"; done\nexec '${real.replace(/'/g, `'\\''`)}' "$@"\n`, { mode: 0o700 });
    any = true;
  }
  if (!any) {
    rmSync(bin, { recursive: true, force: true });
    return null;
  }
  return bin;
}

export class ActionsCacheStore implements CacheStore {
  readonly where = "GitHub's cache";
  private readonly log: (line: string) => void;
  constructor(log: (line: string) => void) {
    this.log = log;
  }

  private available(): boolean {
    if (cache.isFeatureAvailable()) return true;
    this.log('The GitHub cache service is not available to this run (no ACTIONS_CACHE_URL or ACTIONS_RESULTS_URL): the base is built.');
    return false;
  }

  async restore(dir: string, paths: readonly string[], key: string): Promise<CacheRestore> {
    if (!this.available()) return { hit: false, warning: null };
    const bin = tarWithoutAbsoluteNames();
    if (bin === null) return { hit: false, warning: 'the build cache cannot be read: no tar on PATH' };
    const staged = mkdtempSync(join(dir, '.pairbench-restore-'));
    try {
      // the exact key only: another revision's outputs are never a hit
      const got = await inFolder(staged, { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` }, () => cache.restoreCache([...paths, CACHE_MANIFEST], key));
      if (got !== key) return { hit: false, warning: null };
      placeEntry(staged, verifyEntry(staged, key, paths), dir);
      return { hit: true };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { hit: false, warning: err instanceof CacheRefusal ? `the build cache's entry ${key} is not used (${why})` : `the build cache could not be read (${why})` };
    } finally {
      rmSync(staged, { recursive: true, force: true });
      rmSync(bin, { recursive: true, force: true });
    }
  }

  async save(dir: string, paths: readonly string[], key: string): Promise<string> {
    if (!cache.isFeatureAvailable()) return 'not saved: the GitHub cache service is not available to this run';
    const staged = mkdtempSync(join(tmpdir(), 'pairbench-cache-'));
    try {
      if (stageEntry(dir, paths, key, staged).length === 0) return `not saved: the build made none of ${paths.join(', ')}`;
      const id = await inFolder(staged, {}, () => cache.saveCache([...paths, CACHE_MANIFEST], key));
      return id > 0 ? 'saved' : 'not saved (the cache service refused it; see the log above)';
    } catch (err) {
      return `not saved: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
  }
}
