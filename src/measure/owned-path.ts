/**
 * Whether a folder or file that pairbench runs or restores from can be trusted: the run helper's
 * cache (helper.ts) and the local build cache (revisions/local-cache.ts) use the same checks, so that
 * another user on a shared machine can place nothing there that pairbench would run.
 */
import type { Stats } from 'node:fs';

const uid = (): number | undefined => process.getuid?.();

/**
 * Why a folder or file (from lstat) cannot be trusted, or null: a symbolic link, another user's,
 * or writable by group or others.
 */
export function untrusted(path: string, st: Stats): string | null {
  const me = uid();
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (me !== undefined && st.uid !== me) return `${path} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o022) !== 0) return `${path} is writable by other users (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/**
 * Why a cache's top folder (from stat: it may be reached through the user's own link) cannot be
 * trusted, or null. It may belong to root and be shared (a sticky temp folder) only if nobody else
 * can rename entries in it.
 */
export function untrustedRoot(path: string, st: Stats): string | null {
  const me = uid();
  if (!st.isDirectory()) return `${path} is not a folder`;
  if (me !== undefined && st.uid !== me && st.uid !== 0) return `${path} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) return `${path} is writable by other users (mode ${(st.mode & 0o777).toString(8)}) without the sticky bit`;
  return null;
}
