/**
 * A fresh copy of the program a command runs, before each measured run (`--fresh-copy`).
 *
 * Where a program's pages land in physical memory decides how its code maps onto the physically
 * indexed caches and whether it is backed by huge pages; the page cache keeps a file's pages where
 * they first landed for as long as it stays cached. So one file of a compiled benchmark can run a
 * few percent faster or slower than a byte-identical copy of it, for the whole comparison, while a
 * hard link to it (the same pages) does not (docs/measuring.md, "Fresh copies of the program").
 * Pairing cannot cancel an effect that stays with one side.
 * Between a base and a head built separately it is a difference of the files, not of the code, and
 * at a threshold of 2% it can be called a regression. The placement of code changes speed as the
 * size of the environment changes a stack's alignment (Mytkowicz, Diwan, Hauswirth & Sweeney 2009,
 * "Producing wrong data without doing anything obviously wrong!", ASPLOS).
 *
 * Replacing the program with a copy of itself before every run gives every process a new file, so
 * pages land anew each time: the placement becomes noise, the same for both sides, that the pairs
 * average over, as Stabilizer re-randomises code layout during a run (Curtsinger & Berger 2013,
 * "Stabilizer: statistically sound performance evaluation", ASPLOS). The copy has the same bytes,
 * mode and times and takes the original's name, so the command, its path and its arguments do not
 * change, and a process still running the old file keeps it. It is written with plain writes and
 * never renamed over an existing name, so that it stays in memory and never reaches the disk: a
 * rename over a file makes ext4 write the new file out at once (`auto_da_alloc`), and copy_file_range
 * wrote it too, 5 MB of disk writes and a discard per run of a Go test binary, about 100 MB/s while
 * a suite was measured (`replaceWithCopy`).
 *
 * Only an ELF executable inside the revision's own folder is copied: a program found on PATH (`go`,
 * `cargo`, `python3`) is the same file for both sides, and a script's interpreter is too. It is
 * found once per comparison, and a step that later redirects its path (a folder on it swapped for a
 * link) stops the copies rather than have them written where the link leads. What a killed run
 * left is tidied only inside the revision's folder and only among the user's own files. A sparse
 * program is not copied: plain writes would put every hole on disk before every run.
 */
import { chmodSync, closeSync, existsSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { alive } from './process-group.ts';

/** The first word of a shell command when it names a file by a path: after `VAR=value` assignments, unquoted, no expansion. */
const PROGRAM = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=[^\s;&|<>()$`'"\\]*\s+)*([^\s;&|<>()$`'"\\=]*\/[^\s;&|<>()$`'"\\]*)(?=$|[\s;&|<>])/;

/**
 * The program `command` runs, when it is an ELF executable inside `dir` (the path resolved, links
 * followed); null otherwise. Read once per side: the command and the folder do not change.
 */
export function programInside(command: string, dir: string): string | null {
  const m = PROGRAM.exec(command);
  if (!m) return null;
  const word = m[1]!;
  let path: string;
  let root: string;
  try {
    root = realpathSync(dir);
    path = realpathSync(isAbsolute(word) ? word : join(dir, word));
  } catch {
    return null;
  }
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
  try {
    const st = statSync(path);
    if (!st.isFile() || (st.mode & 0o111) === 0) return null;
    return isElf(path) ? path : null;
  } catch {
    return null;
  }
}

function isElf(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(4);
    return readSync(fd, magic, 0, 4, 0) === 4 && magic.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } finally {
    closeSync(fd);
  }
}

/** A copy being made is named `<program>.pairbench-copy-<pid>` until it takes the program's name. */
const COPY_SUFFIX = '.pairbench-copy-';
/** The old file is named `<program>.pairbench-aside-<pid>` between the two renames, then removed. */
const ASIDE_SUFFIX = '.pairbench-aside-';

/** Whether `name` is `prefix` followed by the pid of a process that is gone. */
function leftByDeadRun(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const pid = name.slice(prefix.length);
  return /^[1-9][0-9]{0,9}$/.test(pid) && !alive(Number(pid));
}

/** Whether `path` is `root` or inside it (both real paths). */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Tidies what a run killed mid-copy (`kill -9`) left beside the program at `path`: a copy in the
 * making (COPY_SUFFIX) is removed; an old file set aside (ASIDE_SUFFIX) is put back when the
 * program is missing (the run died between the two renames) and removed otherwise. Only regular
 * files of such names, the user's own, whose process is gone, in a folder inside the revision's
 * folder `dir`: a live run's, another user's, anything beside a program outside the revision (which
 * pairbench never copies, so never left there) and anything else is left alone.
 */
function tidyAfterKilledRuns(path: string, dir: string): void {
  let folder: string;
  try {
    folder = realpathSync(dirname(path));
    if (!within(realpathSync(dir), folder)) return;
  } catch {
    return;
  }
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const me = process.getuid?.();
  for (const name of names) {
    const file = join(folder, name);
    const copy = leftByDeadRun(name, `${basename(path)}${COPY_SUFFIX}`);
    const aside = !copy && leftByDeadRun(name, `${basename(path)}${ASIDE_SUFFIX}`);
    if (!copy && !aside) continue;
    const st = lstatSync(file);
    if (!st.isFile() || (me !== undefined && st.uid !== me)) continue;
    if (aside && !existsSync(join(folder, basename(path)))) renameSync(file, join(folder, basename(path)));
    else rmSync(file, { force: true });
  }
}

/**
 * The file a command's first word names in `dir`, as written (a link not followed) and, for a link,
 * what it points to: where a killed run may have left the program set aside.
 */
function namedFiles(command: string, dir: string): string[] {
  const m = PROGRAM.exec(command);
  if (!m) return [];
  const named = isAbsolute(m[1]!) ? m[1]! : join(dir, m[1]!);
  try {
    return lstatSync(named).isSymbolicLink() ? [named, resolve(dirname(named), readlinkSync(named))] : [named];
  } catch {
    return [named];
  }
}

/** writeCopy's buffer: one for the comparison, not a megabyte allocated before every run. */
let copyBuffer: Buffer | null = null;

/** Copies `from` into the new file `to` with plain reads and writes, a megabyte at a time (never copy_file_range: see the module doc). */
function writeCopy(from: string, to: string, mode: number): void {
  const src = openSync(from, 'r');
  try {
    const dst = openSync(to, 'w', mode);
    try {
      const buf = (copyBuffer ??= Buffer.allocUnsafe(1 << 20));
      for (;;) {
        const n = readSync(src, buf, 0, buf.length, null);
        if (n === 0) break;
        for (let done = 0; done < n; ) done += writeSync(dst, buf, done, n - done);
      }
    } finally {
      closeSync(dst);
    }
  } finally {
    closeSync(src);
  }
}

/**
 * Replaces the file at `path` with a copy of itself: the same bytes, mode, and access and
 * modification times (a build tool that compares times sees nothing new). The copy is written
 * beside it; then the old file is renamed aside, the copy takes its name, and the old name is
 * removed: renamed onto free names only, so that ext4 keeps the copy in memory (module doc). For
 * the moment between the two renames the program has no file at its name; a run killed there
 * leaves it aside, and the next run that copies it puts it back (`tidyAfterKilledRuns`). Throws
 * what the file system says when it cannot (a read-only folder, no space), with the program left
 * at its name.
 */
export function replaceWithCopy(path: string): void {
  const st = statSync(path);
  const tmp = `${path}${COPY_SUFFIX}${process.pid}`;
  const aside = `${path}${ASIDE_SUFFIX}${process.pid}`;
  let made = false;
  try {
    writeCopy(path, tmp, st.mode & 0o7777);
    made = true;
    chmodSync(tmp, st.mode & 0o7777);
    utimesSync(tmp, st.atime, st.mtime);
    renameSync(path, aside);
    try {
      renameSync(tmp, path);
    } catch (err) {
      try {
        renameSync(aside, path);
      } catch (back) {
        // both said: the program is at the aside name, where the next run puts it back
        const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        throw Object.assign(new Error(`${code(err)}, and it could not be put back (${code(back)}): it is at ${aside}`), { code: `${code(err)}; put back: ${code(back)}; it is at ${aside}` });
      }
      throw err;
    }
    made = false;
    rmSync(aside, { force: true });
  } catch (err) {
    // only the copy this made is removed: never what stood at its name before
    if (made) rmSync(tmp, { force: true });
    throw err;
  }
}

/** What `--fresh-copy auto` does before a run of `command` in `dir`: replaces its program with a copy, when it has one inside `dir`. */
export type FreshCopier = (command: string, dir: string) => void;

/**
 * The copier of one comparison: finds each command's program in each folder once, says once which
 * file it copies, and stops copying a file it could not copy, with one warning (the runs go on with
 * the file as it is).
 */
export function freshCopier(log: (line: string) => void): FreshCopier {
  const programs = new Map<string, string | null>();
  return (command, dir) => {
    const key = `${dir}\0${command}`;
    let path = programs.get(key);
    if (path === undefined) {
      // a program a killed run left aside is put back before it is looked for (by the name the
      // command gives; then by its real path, where that differs)
      const named = namedFiles(command, dir);
      for (const file of named) tidyAfterKilledRuns(file, dir);
      path = programInside(command, dir);
      if (path !== null && !named.includes(path)) tidyAfterKilledRuns(path, dir);
      if (path !== null) {
        const sparse = sparseness(path);
        if (sparse !== null) {
          log(`warning: ${relative(dir, path) || path}: a sparse file (${sparse}): a copy would be written out in full before every run; its runs go on with the file as it is`);
          path = null;
        }
      }
      programs.set(key, path);
      if (path !== null) log(`${relative(dir, path) || path}: a fresh copy before every run in ${dir}, so that where its pages land varies from run to run (--fresh-copy off runs the file as it is)`);
    }
    if (path === null) return;
    // resolved once: a step that moved it (a folder on its path swapped for a link) is not followed
    let real: string | null = null;
    try {
      real = realpathSync(path);
    } catch {
      // gone: replaceWithCopy says so
    }
    if (real !== null && real !== path) {
      programs.set(key, null);
      log(`warning: ${relative(dir, path) || path}: is no longer the file it was when the comparison started (a link on its path now leads to ${real}); its runs go on without fresh copies`);
      return;
    }
    try {
      replaceWithCopy(path);
    } catch (err) {
      programs.set(key, null);
      log(`warning: ${path}: could not replace it with a copy of itself (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); its runs go on with the file as it is, whose placement in memory stays the same for the whole comparison`);
    }
  };
}

const MiB = 1024 * 1024;
const mib = (bytes: number): string => `${Number((bytes / MiB).toFixed(1))} MiB`;

/**
 * `64 MiB, of which 0.1 MiB on disk` when the file at `path` is sparse (less than an eighth of it on
 * disk, and at least a megabyte missing), else null. Its copy, written with plain writes, would hold
 * every hole as zeros on disk: written out in full before every run. An eighth, not a half, so that
 * a file on a compressing file system (ZFS, btrfs), which also takes fewer blocks than its size, is
 * not taken for sparse.
 */
function sparseness(path: string): string | null {
  const st = statSync(path);
  const onDisk = st.blocks * 512;
  return onDisk * 8 < st.size && st.size - onDisk >= MiB ? `${mib(st.size)}, of which ${mib(onDisk)} on disk` : null;
}
