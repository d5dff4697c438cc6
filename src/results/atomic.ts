/**
 * Atomic file writes: the text goes to a temp file in the same folder, which is then renamed over
 * the target. A rename within one file system replaces the file in one step, so a reader (or a
 * `kill -9`, or a full disk) never sees half a file: the target holds either its old content or the
 * new one. A write that fails removes its temp file, so nothing is left beside the target.
 *
 * Used for the results file on every pair (S12, S19), a judged results file, and the reports
 * (`--markdown`, `--html`, the action's report and HTML files).
 */
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorCode } from '../config/errors.ts';

/** The temp file beside `path` that {@link writeAtomically} writes first: one per process. */
function tempPathOf(path: string): string {
  return `${resolve(path)}.${process.pid}.tmp`;
}

/**
 * Calls `write` with a temp path beside `path`, then renames the temp file over `path`. If `write`
 * or the rename throws, the temp file is removed and the error is thrown as it was: `path` keeps
 * what it held before.
 */
export function writeAtomically<T>(path: string, write: (tmp: string) => T): T {
  const tmp = tempPathOf(path);
  try {
    const out = write(tmp);
    renameSync(tmp, path);
    return out;
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the temp file cannot be removed either: the caller's error says what went wrong first
    }
    throw err;
  }
}

/**
 * Writes a report (Markdown, HTML) whole or not at all. A path that is a device or a pipe
 * (`/dev/stdout`) cannot be replaced by a rename, and is written in place, as is a symbolic link;
 * so is an existing file in a folder that takes no new file (the file itself may be writable, and
 * was checked to be).
 * Anything else goes through {@link writeAtomically}. Throws the file system's error.
 */
export function writeReportFile(path: string, text: string): void {
  const kind = fileKind(path);
  if (kind === 'other') {
    writeFileSync(path, text);
    return;
  }
  try {
    writeAtomically(path, (tmp) => writeFileSync(tmp, text));
  } catch (err) {
    const code = errorCode(err);
    // the folder refuses a new file, but the report itself exists and may be written in place
    if (kind === 'file' && (code === 'EACCES' || code === 'EPERM')) writeFileSync(path, text);
    else throw err;
  }
}

/**
 * What is at `path`: nothing, a regular file, or something else (a device, a pipe, a socket, or a
 * symbolic link, which is written through rather than replaced by a file of its own).
 */
function fileKind(path: string): 'none' | 'file' | 'other' {
  try {
    return lstatSync(path).isFile() ? 'file' : 'other';
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return 'none';
    throw err;
  }
}
