/**
 * What a build cache entry holds, and the checks that make a hit safe to build on, in both stores
 * (a local folder, GitHub's cache).
 *
 * Saving copies the paths kept into a private folder of pairbench's own, with symbolic links
 * dereferenced (the entry holds the file a link points to, so that no hit restores a bare link
 * that points nowhere in the base's fresh checkout; a link that leads outside the revision's
 * folder, to nothing, or round a loop leaves the entry unsaved), and writes a manifest: every file's path,
 * size, SHA-256 and mode. What is stored is that folder, so what is hashed is what is kept.
 *
 * Restoring puts the entry in a fresh folder inside the revision's folder, where nothing else
 * writes, and checks it against its manifest before anything moves: a file missing, of another
 * size or hash, a file the manifest does not name, a symbolic link or a special file makes the
 * entry a miss, and the base is built. Only then is each path renamed into place, after checking
 * that no folder on its way is a symbolic link: nothing is written through a link.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, normalize, relative } from 'node:path';
import { z } from 'zod';
import { CACHE_MANIFEST } from '../config/build-cache-option.ts';

/** A manifest larger than this is not read (a million files is already far past a build's outputs). */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

const ManifestSchema = z.object({
  format: z.literal(1),
  key: z.string(),
  paths: z.array(z.string()),
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/), mode: z.number().int() })),
});
type Manifest = z.infer<typeof ManifestSchema>;

/** Why an entry cannot be saved or restored, in one line. */
export class CacheRefusal extends Error {}

function sha256(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** A path as the manifest names it: relative, normalized, inside the entry. */
function insidePath(p: string): boolean {
  const clean = normalize(p);
  return p !== '' && clean === p && !isAbsolute(p) && p !== '..' && !p.startsWith('../') && !p.includes('/../') && p !== '.';
}

/**
 * Copies the paths of `dir` that exist into the empty folder `into`, links dereferenced, and writes
 * the manifest there; returns the paths kept. Throws a CacheRefusal for a link to nothing, round a
 * loop or out of the revision's folder, or a special file (the entry is then not saved).
 */
export function stageEntry(dir: string, paths: readonly string[], key: string, into: string): string[] {
  const files: Manifest['files'] = [];
  const present: string[] = [];
  const root = realpathSync(dir);
  const copy = (from: string, to: string, rel: string, folders: Set<string>): void => {
    let st;
    try {
      st = statSync(from);
    } catch (err) {
      if (lstatSync(from).isSymbolicLink()) throw new CacheRefusal(`${rel} is a symbolic link to nothing`);
      throw err;
    }
    // through a link on its way or at it, it must stay inside the revision's folder
    const target = realpathSync(from);
    const back = relative(root, target);
    if (back === '..' || back.startsWith('../') || isAbsolute(back)) throw new CacheRefusal(`${rel} leads through a symbolic link to ${target}, outside the revision's folder`);
    if (st.isDirectory()) {
      if (folders.has(target)) throw new CacheRefusal(`${rel} is a symbolic link to a folder that holds it (a loop)`);
      mkdirSync(to, { mode: 0o700 });
      const inner = new Set([...folders, target]);
      for (const name of readdirSync(from).sort()) copy(join(from, name), join(to, name), `${rel}/${name}`, inner);
      chmodSync(to, st.mode & 0o755);
      return;
    }
    if (!st.isFile()) throw new CacheRefusal(`${rel} is not a regular file or a folder`);
    copyFileSync(from, to);
    const mode = st.mode & 0o755;
    chmodSync(to, mode);
    utimesSync(to, st.atime, st.mtime);
    files.push({ path: rel, size: statSync(to).size, sha256: sha256(to), mode });
  };
  for (const p of paths) {
    const from = join(dir, p);
    try {
      lstatSync(from);
    } catch {
      continue;
    }
    mkdirSync(join(into, p, '..'), { recursive: true, mode: 0o700 });
    copy(from, join(into, p), p, new Set());
    present.push(p);
  }
  const manifest: Manifest = { format: 1, key, paths: present, files };
  writeFileSync(join(into, CACHE_MANIFEST), `${JSON.stringify(manifest)}\n`, { flag: 'wx', mode: 0o644 });
  return present;
}

/**
 * Checks the entry restored into the folder `staged` against its manifest and the paths asked for
 * (`paths`: an entry names no other); the paths it holds, or a CacheRefusal saying the first thing
 * wrong. `check` is called on every file and folder first (from
 * lstat: the local store refuses another user's).
 */
export function verifyEntry(staged: string, key: string, paths: readonly string[], check: (path: string, st: Stats) => string | null = () => null): string[] {
  const manifestPath = join(staged, CACHE_MANIFEST);
  let mst: Stats;
  try {
    mst = lstatSync(manifestPath);
  } catch {
    throw new CacheRefusal('it has no manifest');
  }
  const why = check(manifestPath, mst);
  if (why) throw new CacheRefusal(why);
  if (!mst.isFile() || mst.size > MANIFEST_MAX_BYTES) throw new CacheRefusal(`its manifest is not a regular file of at most ${MANIFEST_MAX_BYTES} bytes`);
  let manifest: Manifest;
  try {
    manifest = ManifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  } catch {
    throw new CacheRefusal('its manifest cannot be read');
  }
  if (manifest.key !== key) throw new CacheRefusal(`its manifest names another key (${manifest.key.slice(0, 120)})`);
  const expected = new Map(manifest.files.map((f) => [f.path, f]));
  for (const p of [...manifest.paths, ...expected.keys()]) if (!insidePath(p)) throw new CacheRefusal(`its manifest names a path outside the revision's folder (${JSON.stringify(p.slice(0, 120))})`);
  for (const p of manifest.paths) if (!paths.includes(p)) throw new CacheRefusal(`its manifest names ${JSON.stringify(p.slice(0, 120))}, not a path kept`);
  for (const f of expected.keys()) if (!manifest.paths.some((p) => f === p || f.startsWith(`${p}/`))) throw new CacheRefusal(`its manifest names ${JSON.stringify(f.slice(0, 120))}, outside the paths kept`);
  const seen = new Set<string>();
  const walk = (at: string, rel: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      if (r === CACHE_MANIFEST) continue;
      const st = lstatSync(path);
      const whyNot = check(path, st);
      if (whyNot) throw new CacheRefusal(whyNot);
      if (st.isSymbolicLink()) throw new CacheRefusal(`${r} is a symbolic link`);
      if (st.isDirectory()) {
        walk(path, r);
        continue;
      }
      if (!st.isFile()) throw new CacheRefusal(`${r} is not a regular file or a folder`);
      const want = expected.get(r);
      if (!want) throw new CacheRefusal(`${r} is not in its manifest`);
      if (st.size !== want.size) throw new CacheRefusal(`${r}: ${st.size} bytes, expected ${want.size}`);
      if (sha256(path) !== want.sha256) throw new CacheRefusal(`${r}: its SHA-256 is not the one saved`);
      seen.add(r);
    }
  };
  walk(staged, '');
  for (const p of expected.keys()) if (!seen.has(p)) throw new CacheRefusal(`${p} is missing`);
  for (const p of manifest.paths) {
    try {
      lstatSync(join(staged, p));
    } catch {
      throw new CacheRefusal(`${p} is missing`);
    }
  }
  return manifest.paths;
}

/**
 * Moves the checked paths of `staged` into `dir`, merged with what the checkout holds there (a
 * tracked file in a kept folder stays). Every folder above a kept path must be a real folder (or
 * absent): a symbolic link there is refused before anything moves. At and below a kept path, what
 * stands in the way (a link included) is removed, never written through, and the restored file or
 * folder takes its place.
 */
export function placeEntry(staged: string, paths: readonly string[], dir: string): void {
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const on = parts.slice(0, i).join('/');
      let st: Stats;
      try {
        st = lstatSync(join(dir, on));
      } catch {
        break;
      }
      if (!st.isDirectory()) throw new CacheRefusal(`${on} in the revision's folder is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: nothing is restored through it`);
    }
  }
  const place = (from: string, to: string): void => {
    let there: Stats | null = null;
    try {
      there = lstatSync(to);
    } catch {
      there = null;
    }
    if (lstatSync(from).isDirectory()) {
      if (there !== null && !there.isDirectory()) rmSync(to, { force: true });
      if (there === null || !there.isDirectory()) {
        renameSync(from, to);
        return;
      }
      for (const name of readdirSync(from)) place(join(from, name), join(to, name));
      return;
    }
    if (there !== null) rmSync(to, { recursive: true, force: true });
    renameSync(from, to);
  };
  for (const p of paths) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    place(join(staged, p), join(dir, p));
  }
}
