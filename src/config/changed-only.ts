/**
 * The settings of `changed-only` as they are read: the mode (`paths-mode`) and the globs of a
 * benchmark's `paths:` and of `paths-ignore`, checked when the spec is built, so that a bad glob
 * stops the comparison before anything is built. revisions/changed-paths.ts applies them.
 */
import picomatch from 'picomatch';
import { UsageError } from './errors.ts';

export type PathsMode = 'strict' | 'matched';

/** Checks a glob of `paths:` / `paths-ignore`: relative to the repository root, inside it. */
export function checkGlob(input: string, glob: string): string {
  if (glob.trim() === '' || glob.startsWith('/') || glob.split('/').includes('..') || glob.length > 1000) {
    throw UsageError.invalid(input, glob, 'a glob relative to the repository root, such as packages/parser/** or src/*.go');
  }
  try {
    picomatch.makeRe(glob);
  } catch {
    throw UsageError.invalid(input, glob, 'a valid glob');
  }
  return glob;
}
