/**
 * The base build cache: the base revision's build outputs (the paths the user names, relative to
 * the revision's folder) kept between runs, so that a pull request does not rebuild a base that an
 * earlier run built. Only build outputs are kept, never a measured value: every pair is measured
 * on this machine, in this run.
 *
 * The key names what makes an output safe to reuse: the revision's SHA, the build command, the
 * paths kept, the machine's OS and architecture, the runner image (`ImageOS`/`ImageVersion`, set on
 * GitHub's hosted runners) and the toolchain version the user names (`build-cache-key`). A cache
 * written on another image can still hold code compiled for other hardware (`-march=native`): the
 * image in the key keeps hosted runners apart, and a self-hosted fleet of mixed machines should name
 * the CPU in `build-cache-key` or leave the cache off (the default).
 *
 * Where entries live is a {@link CacheStore}: GitHub's cache service in the action
 * (actions-cache.ts), a local folder on the command line (local-cache.ts). Who may write is the
 * caller's decision (`saves`): the action writes only on the base branch's own runs (save-policy.ts).
 */
import { createHash } from 'node:crypto';
import { arch, platform } from 'node:os';
import { show } from '../config/errors.ts';

/** Where cache entries are kept: GitHub's cache service, or a local folder. */
export interface CacheStore {
  /** in words, for the log: `GitHub's cache`, `the folder ~/.cache/pb` */
  readonly where: string;
  /**
   * Restores entry `key` into `dir` (the paths relative to it), checked against its manifest
   * (cache-entry.ts). A miss says why in `warning` when an entry was there but could not be used.
   */
  restore(dir: string, paths: readonly string[], key: string): Promise<CacheRestore>;
  /** Saves `paths` of `dir` as entry `key`; the outcome in words (`saved`, or why not). Never throws. */
  save(dir: string, paths: readonly string[], key: string): Promise<string>;
}

/** What restoring did: a hit, or a miss (with a warning when an entry was found but not used). */
export type CacheRestore = { hit: true } | { hit: false; warning: string | null };

export interface BuildCache {
  /** the outputs kept, relative to the revision's folder */
  paths: string[];
  /** the toolchain version the user named, or null */
  toolchain: string | null;
  store: CacheStore;
  /**
   * Which builds this run writes: none (a pull request's run), the base's on a miss (the command
   * line), or the base's on a miss and the head's (a run of the base branch's own commits, whose
   * head is the base of the pull requests to come); `why` says why, for the log.
   */
  saves: 'none' | 'base' | 'base-and-head';
  why: string;
  /** the environment the key reads the runner's identity from */
  env: Record<string, string | undefined>;
}

/** What the cache did for a comparison, as recorded in the results and said in the reports. */
export interface BuildCacheOutcome {
  key: string;
  /** the base's outputs were restored and its build skipped */
  hit: boolean;
  /** what saving did (`saved`, `not saved: ...`), per side saved */
  saved: string[];
}

/** The runner's identity in the key: OS, architecture and, on hosted runners, the image. */
function runnerIdentity(env: Record<string, string | undefined>): string {
  const os = env['RUNNER_OS'] || platform();
  const cpu = env['RUNNER_ARCH'] || arch();
  const image = env['ImageOS'] || env['IMAGEOS'] ? `${env['ImageOS'] ?? env['IMAGEOS']}-${env['ImageVersion'] ?? env['IMAGEVERSION'] ?? ''}` : 'no-image';
  return `${os}-${cpu}-${image}`.toLowerCase().replace(/[^a-z0-9._-]/g, '_');
}

/**
 * The key of one revision's build outputs. Its readable head says what it is for; the rest is a
 * hash of fixed length, so that no key is the prefix of another (a cache service may match keys
 * by prefix).
 */
export function buildCacheKey(sha: string, build: string, cache: Pick<BuildCache, 'paths' | 'toolchain' | 'env'>): string {
  const who = runnerIdentity(cache.env);
  const hash = createHash('sha256').update(JSON.stringify({ build, paths: cache.paths, toolchain: cache.toolchain, who })).digest('hex').slice(0, 24);
  return `pairbench-build-${who.slice(0, 80)}-${sha}-${hash}`;
}

/** For the log: `build/, target/release/bench` and the store. */
export function describeCache(cache: BuildCache): string {
  return `${cache.paths.map((p) => show(p)).join(', ')} in ${cache.store.where}`;
}

/**
 * Who writes the action's cache. GitHub scopes caches by branch: a pull request's run reads the
 * caches of its base branch and writes only its own (refs/pull/N/merge), which no other pull
 * request reads. pairbench goes further and writes only on the base branch's own runs: a `push`,
 * or a `workflow_dispatch` on the branch, whose revisions are commits of the branch (and only when
 * no base-ref, head-ref or pr-number names other revisions). So no code of a pull request reaches
 * an entry that another run restores, and the head of a pull request is never restored at all.
 */
export function actionSavePolicy(event: string, explicit: { baseRef: boolean; headRef: boolean; prNumber: boolean }): Pick<BuildCache, 'saves' | 'why'> {
  if (event !== 'push' && event !== 'workflow_dispatch') {
    return { saves: 'none', why: `a ${event || 'local'} run reads the build cache and never writes it: only the base branch's own runs (push, workflow_dispatch) do` };
  }
  if (explicit.baseRef || explicit.headRef || explicit.prNumber) {
    return { saves: 'none', why: 'base-ref, head-ref or pr-number name revisions that may not be the branch\'s own: the build cache is read, never written' };
  }
  return { saves: 'base-and-head', why: `a ${event} run builds the branch's own commits: it saves them for the pull requests to come` };
}
