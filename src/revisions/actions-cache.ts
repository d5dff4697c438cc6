/**
 * The action's build cache: GitHub's cache service through @actions/cache, which finds the service
 * from the runner's environment (ACTIONS_CACHE_URL or ACTIONS_RESULTS_URL, and ACTIONS_RUNTIME_TOKEN).
 *
 * @actions/cache roots its archive at GITHUB_WORKSPACE and resolves relative paths against the
 * working directory, and the entry's version is a hash of the paths as given. The revision's
 * folder is a fresh temp folder each run, so both are pointed at it for the call and the paths are
 * given relative to it: the archive then holds `build/...` whatever the folder, and a later run
 * finds it. The engine is between steps while it does this (nothing else runs in the process).
 */
import * as cache from '@actions/cache';
import type { CacheStore } from './build-cache.ts';

async function inFolder<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  const workspace = process.env['GITHUB_WORKSPACE'];
  process.chdir(dir);
  process.env['GITHUB_WORKSPACE'] = dir;
  try {
    return await fn();
  } finally {
    process.chdir(cwd);
    if (workspace === undefined) delete process.env['GITHUB_WORKSPACE'];
    else process.env['GITHUB_WORKSPACE'] = workspace;
  }
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

  async restore(dir: string, paths: readonly string[], key: string): Promise<boolean> {
    if (!this.available()) return false;
    try {
      // the exact key only: another revision's outputs are never a hit
      return (await inFolder(dir, () => cache.restoreCache([...paths], key))) === key;
    } catch (err) {
      this.log(`warning: the build cache could not be read (${err instanceof Error ? err.message : String(err)}): the base is built`);
      return false;
    }
  }

  async save(dir: string, paths: readonly string[], key: string): Promise<string> {
    if (!cache.isFeatureAvailable()) return 'not saved: the GitHub cache service is not available to this run';
    try {
      const id = await inFolder(dir, () => cache.saveCache([...paths], key));
      return id > 0 ? 'saved' : 'not saved (the cache service refused it; see the log above)';
    } catch (err) {
      return `not saved: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}
