/**
 * The settings of `changed-only` as they are read: the mode (`paths-mode`) and the globs of a
 * benchmark's `paths:` and of `paths-ignore`, checked when the spec is built, so that a bad glob
 * stops the comparison before anything is built. revisions/changed-paths.ts applies them.
 *
 * A glob comes from the config file, which a pull request may change, and is matched against the
 * names of the files it changes, through picomatch's regular expressions, which backtrack: each
 * star of one folder level multiplies the steps by the length of a name (measured on a name of 255
 * characters: 0.5 ms for two stars, 56 ms for three, 2 s for four, 69 s for five), and levels
 * multiply each other (two stars in each of three levels: 14 s). So a glob holds at most
 * MAX_STARS single stars, at most two in one level, and MAX_GLOBSTARS `**`; it is at most
 * MAX_GLOB_LENGTH characters, without extglobs (`+(…)`, `@(…)`), whose nested repetition backtracks
 * most. A name too long to match safely is never given to a glob (revisions/changed-paths.ts).
 */
import picomatch from 'picomatch';
import { UsageError } from './errors.ts';

export type PathsMode = 'strict' | 'matched';

const MAX_GLOB_LENGTH = 256;
const MAX_STARS = 3;
const MAX_GLOBSTARS = 3;

/** The single stars of each folder level of a glob, and its `**`s. */
function starsOf(glob: string): { perLevel: number[]; globstars: number } {
  let globstars = 0;
  const perLevel = glob.split('/').map((level) => {
    let single = 0;
    for (const run of level.match(/\*+/g) ?? []) {
      if (run.length > 1) globstars++;
      else single++;
    }
    return single;
  });
  return { perLevel, globstars };
}

/** Checks a glob of `paths:` / `paths-ignore`: relative to the repository root, inside it, and within the bounds above. */
export function checkGlob(input: string, glob: string): string {
  if (glob.trim() === '' || glob.startsWith('/') || glob.split('/').includes('..')) {
    throw UsageError.invalid(input, glob, 'a glob relative to the repository root, such as packages/parser/** or src/*.go');
  }
  const { perLevel, globstars } = starsOf(glob);
  const single = perLevel.reduce((a, b) => a + b, 0);
  if (glob.length > MAX_GLOB_LENGTH || single > MAX_STARS || perLevel.some((n) => n > 2) || globstars > MAX_GLOBSTARS || /[@!+*?]\(/.test(glob)) {
    throw UsageError.invalid(input, glob, `a glob of at most ${MAX_GLOB_LENGTH} characters, ${MAX_STARS} single stars (two in one folder level) and ${MAX_GLOBSTARS} **, without extglobs, such as packages/parser/** or src/*.go`);
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
