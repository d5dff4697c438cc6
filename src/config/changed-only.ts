/**
 * The settings of `changed-only` as they are read: the mode (`paths-mode`) and the globs of a
 * benchmark's `paths:` and of `paths-ignore`, checked when the spec is built, so that a bad glob
 * stops the comparison before anything is built. revisions/changed-paths.ts applies them.
 *
 * A glob comes from the config file, which a pull request may change, and is matched against the
 * names of the files it changes: a glob of many stars against a long name made picomatch backtrack
 * for minutes. So a glob is at most MAX_GLOB_LENGTH characters and MAX_GLOB_STARS stars (a `**`
 * counts as two), and extglobs (`+(…)`, `@(…)`), whose nested repetition backtracks the most, are
 * refused; each is compiled with picomatch's own length bound.
 */
import picomatch from 'picomatch';
import { UsageError } from './errors.ts';

export type PathsMode = 'strict' | 'matched';

export const MAX_GLOB_LENGTH = 256;
export const MAX_GLOB_STARS = 6;

/** Checks a glob of `paths:` / `paths-ignore`: relative to the repository root, inside it, and within the bounds above. */
export function checkGlob(input: string, glob: string): string {
  if (glob.trim() === '' || glob.startsWith('/') || glob.split('/').includes('..')) {
    throw UsageError.invalid(input, glob, 'a glob relative to the repository root, such as packages/parser/** or src/*.go');
  }
  const stars = glob.split('*').length - 1;
  if (glob.length > MAX_GLOB_LENGTH || stars > MAX_GLOB_STARS || /[@!+*?]\(/.test(glob)) {
    throw UsageError.invalid(input, glob, `a glob of at most ${MAX_GLOB_LENGTH} characters and ${MAX_GLOB_STARS} stars, without extglobs, such as packages/parser/** or src/*.go`);
  }
  try {
    picomatch.makeRe(glob, { maxLength: MAX_GLOB_LENGTH });
  } catch {
    throw UsageError.invalid(input, glob, 'a valid glob');
  }
  return glob;
}

/**
 * The globs a list of `paths:` matches with: each as written, and a folder named as a folder
 * (`src`, `src/`, or `src/**` followed by a slash) also for every file under it, as users read them.
 */
export function globsOf(globs: readonly string[]): string[] {
  return globs.flatMap((g) => {
    const bare = g.replace(/\/+$/, '');
    return bare === g ? [g, `${g}/**`] : [bare, `${bare}/**`];
  });
}
