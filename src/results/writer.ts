/**
 * Writes the results file while pairs complete. Each write goes to a temp file that is then
 * renamed over the results file, so at any instant, even after `kill -9`, the file on disk is a
 * complete, parsable JSON document holding every finished pair (S12). A write that fails (a full
 * disk) removes its temp file and keeps the last complete version (S19).
 *
 * Output paths are checked before anything runs (S16): the folder must exist and take a new file,
 * and the path must not be a folder, nor (for the results file, replaced on every pair) a device
 * or a pipe. Folders are never made with a recursive mkdir, which spins on paths such as
 * /proc/nope.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PairbenchError, UsageError, errorCode, fsReason, show } from '../config/errors.ts';
import type { Results } from './schema.ts';

/** The results file could not be written mid-run: exit 3, naming the file. */
export class ResultsWriteError extends PairbenchError {
  readonly path: string;
  constructor(path: string, err: unknown, kept: boolean) {
    super(`could not write the results file ${path}: ${fsReason(err)}; ${kept ? 'the last complete version is kept (its status is the one it had then)' : 'no results file was written'}`, 3);
    this.name = 'ResultsWriteError';
    this.path = path;
  }
}

/**
 * Checks an output path before anything runs, and returns it absolute. `replaced`: the file is
 * replaced by a rename on every write (the results file), so it must be a regular file or absent;
 * otherwise it is written in place (the Markdown report, which may be `/dev/stdout`).
 */
export function checkOutputPath(input: string, path: string, opts: { replaced: boolean }): string {
  const full = resolve(path);
  const folder = dirname(full);
  const refuse = (why: string) => new UsageError(input, `${input}: got ${show(path)}; ${why}`);
  let target: Stats | null = null;
  try {
    target = statSync(full);
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw refuse(`cannot use ${full}: ${fsReason(err)}`);
  }
  if (target?.isDirectory()) throw refuse(`${full} is a folder; expected a file path`);
  if (target && opts.replaced && !target.isFile()) throw refuse('it is not a regular file; expected a path for the results file, which is replaced on every pair');
  try {
    if (!statSync(folder).isDirectory()) throw refuse(`${folder} is not a folder`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (errorCode(err) === 'ENOENT') throw refuse(`the folder ${folder} does not exist; create it first`);
    throw refuse(`cannot use the folder ${folder}: ${fsReason(err)}`);
  }
  if (target && !opts.replaced) {
    try {
      closeSync(openSync(full, 'r+'));
    } catch (err) {
      throw refuse(`cannot write ${full}: ${fsReason(err)}`);
    }
    return full;
  }
  // A real probe: permissions alone do not tell (root, read-only mounts, /sys, /proc).
  const probe = `${full}.${process.pid}.tmp`;
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    throw refuse(`cannot create a file in ${folder} (${fsReason(err)})`);
  }
  return full;
}

/**
 * Makes the missing folders of an output path one level at a time (a folder that cannot be made
 * is refused at once), then checks the path as `checkOutputPath`. For the action's paths, whose
 * default folder under RUNNER_TEMP does not exist yet.
 */
export function prepareOutputFolder(input: string, path: string, opts: { replaced: boolean } = { replaced: true }): string {
  const full = resolve(path);
  const missing: string[] = [];
  for (let dir = dirname(full); !existsSync(dir); dir = dirname(dir)) {
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw new UsageError(input, `${input}: got ${show(path)}; cannot make the folder ${dir}: ${fsReason(err)}`);
    }
  }
  return checkOutputPath(input, full, opts);
}

/**
 * Writes a whole output file at the end (the Markdown report, a judged results file). `replaced`:
 * through a temp file and a rename, so a failed write keeps what was there; otherwise in place
 * (the report may go to /dev/stdout). A failure names the file, exit 3.
 */
export function writeOutputFile(path: string, text: string, opts: { replaced: boolean }): void {
  const tmp = `${resolve(path)}.${process.pid}.tmp`;
  try {
    if (!opts.replaced) writeFileSync(path, text);
    else {
      writeFileSync(tmp, text);
      renameSync(tmp, path);
    }
  } catch (err) {
    if (opts.replaced) rmSync(tmp, { force: true });
    throw new PairbenchError(`could not write ${path}: ${fsReason(err)}`, 3);
  }
}

export class ResultsWriter {
  readonly path: string;
  private readonly tmp: string;
  private written = false;
  /** `input`: how the path was given, for the message when it cannot be used. */
  constructor(path: string, input = '--out') {
    this.path = checkOutputPath(input, path, { replaced: true });
    this.tmp = `${this.path}.${process.pid}.tmp`;
  }

  write(results: Results): void {
    try {
      writeFileSync(this.tmp, `${JSON.stringify(results, null, 1)}\n`);
      renameSync(this.tmp, this.path);
      this.written = true;
    } catch (err) {
      try {
        rmSync(this.tmp, { force: true });
      } catch {
        // the temp file could not be removed either; the error below names the results file
      }
      throw new ResultsWriteError(this.path, err, this.written || existsSync(this.path));
    }
  }
}
