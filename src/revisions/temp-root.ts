/**
 * pairbench's own temp root: the folder in the system temp folder that holds the two worktrees of
 * one comparison. It is marked when it is made, so that a later run can tell, for certain, a root
 * that a killed run left behind from anything else that merely looks like one (S14).
 *
 * Only a root that passes every check of `ownedStaleRoot` is ever removed: a direct child of the
 * temp folder, a real folder (not a link) of this user, named `pairbench-wt-<pid>-XXXXXX`, holding
 * a marker that names that same pid and that same folder, and whose process is gone. A user's
 * worktree named like ours, or the folder around it, is never touched.
 */
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const ROOT_PREFIX = 'pairbench-wt-';
const MARKER = '.pairbench-root';
const ROOT_NAME = /^pairbench-wt-(\d+)-[A-Za-z0-9]{6}$/;
/** The names of the two worktrees inside a root. */
const SIDES = ['base', 'head'] as const;

interface Marker {
  tool: 'pairbench';
  pid: number;
  root: string;
}

/** Makes this run's temp root and marks it as pairbench's own. */
export function makeTempRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `${ROOT_PREFIX}${process.pid}-`)));
  const marker: Marker = { tool: 'pairbench', pid: process.pid, root };
  writeFileSync(join(root, MARKER), `${JSON.stringify(marker)}\n`, { flag: 'wx' });
  return root;
}

/** Removes a temp root this run made (`makeTempRoot`). */
export function removeTempRoot(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Whether a worktree path looks like one of pairbench's: what deserves a check, and a note when it fails. */
export function looksLikeOurs(worktree: string): boolean {
  return worktree.includes(ROOT_PREFIX);
}

export type RootCheck = { owned: true; root: string; pid: number } | { owned: false; reason: string };

/**
 * Whether `worktree` sits in a temp root that pairbench made, and if so that root and the pid of
 * the run that made it. Each failed check gives the reason the worktree is left alone.
 */
export function ownedRoot(worktree: string): RootCheck {
  const no = (reason: string): RootCheck => ({ owned: false, reason });
  if (!(SIDES as readonly string[]).includes(basename(worktree))) return no('it is not the base or head folder of a pairbench temp folder');
  const root = dirname(worktree);
  const m = ROOT_NAME.exec(basename(root));
  if (!m) return no('its folder is not named as pairbench names its temp folders');
  let real: string;
  let temp: string;
  try {
    const st = lstatSync(root);
    if (!st.isDirectory()) return no('its folder is a link, not a folder');
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return no('its folder belongs to another user');
    real = realpathSync(root);
    temp = realpathSync(tmpdir());
  } catch {
    return no('its folder cannot be read');
  }
  if (dirname(real) !== temp) return no(`its folder is not in the temp folder ${temp}`);
  let marker: Partial<Marker>;
  try {
    const file = join(real, MARKER);
    if (!lstatSync(file).isFile()) return no('it has no pairbench marker');
    marker = JSON.parse(readFileSync(file, 'utf8')) as Partial<Marker>;
  } catch {
    return no('its folder has no pairbench marker, so it was not made by pairbench');
  }
  const pid = Number(m[1]);
  if (marker.tool !== 'pairbench' || marker.pid !== pid || marker.root !== real) return no('its pairbench marker does not match its folder, so it was not made by pairbench');
  return { owned: true, root: real, pid };
}
