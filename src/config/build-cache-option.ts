/**
 * The settings of the base build cache as they are read: the paths it keeps (`build-cache`) and the
 * toolchain version in its key (`build-cache-key`), checked when the spec is built.
 * revisions/build-cache.ts keeps and restores the outputs.
 */
import { isAbsolute, normalize } from 'node:path';
import { UsageError } from './errors.ts';

/** The manifest at the top of a cache entry (revisions/cache-entry.ts): no path kept may take its name. */
export const CACHE_MANIFEST = 'pairbench-cache.json';

/**
 * Reads `build-cache`: paths separated by spaces or commas, each relative to the revision's folder
 * and inside it. Empty: no cache.
 */
export function parseCachePaths(input: string, value: string): string[] {
  const paths = value.split(/[\s,]+/).filter((p) => p !== '');
  for (const p of paths) {
    const clean = normalize(p);
    if (isAbsolute(p) || clean === '..' || clean.startsWith('../') || clean === '.' || clean === './') {
      throw UsageError.invalid(input, p, "a path inside the revision's folder, relative to it (build/, target/release/bench)");
    }
    if (/[*?[\]{}!]/.test(p)) throw UsageError.invalid(input, p, 'a path without glob characters (a file or a folder)');
    if (clean.replace(/\/+$/, '') === CACHE_MANIFEST) throw UsageError.invalid(input, p, `a path other than ${CACHE_MANIFEST}, the name of the cache entry's manifest`);
  }
  if (paths.length > 20) throw new UsageError(input, `${input}: got ${paths.length} paths; expected at most 20 (name folders rather than files)`);
  return paths.map((p) => normalize(p).replace(/\/+$/, ''));
}

/** The toolchain version in the key (`go1.24`, `rustc 1.82`): one line, at most 200 characters. */
export function parseCacheKey(input: string, value: string): string {
  if (value.length > 200 || /[\r\n]/.test(value)) throw UsageError.invalid(input, value, 'one line of at most 200 characters, such as go1.24');
  return value;
}
