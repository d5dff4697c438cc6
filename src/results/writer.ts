/**
 * Writes the results file while pairs complete. Each write goes to a temp file that is then
 * renamed over the results file (atomic.ts), so at any instant, even after `kill -9`, the file on disk is a
 * complete, parsable JSON document holding the pairs finished when it was written (S12). A write
 * that fails (a full disk) removes its temp file and keeps the last complete version (S19).
 *
 * A suite of 100,000 benchmarks makes a file of a hundred megabytes, which takes a second or more
 * to write: rewriting it after every pair would cost more than measuring. So {@link ResultsWriter.writeSoon}
 * (after a pair) skips a write while the time spent writing would exceed a tenth of the time since
 * the last write; small files are still written after every pair, and {@link ResultsWriter.write}
 * (the final file, an interrupt) always writes.
 *
 * Output paths are checked before anything runs (S16): the folder must exist and take a new file,
 * and the path must not be a folder, nor (for the results file, replaced on every pair) a device
 * or a pipe. Folders are never made with a recursive mkdir, which spins on paths such as
 * /proc/nope.
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PairbenchError, UsageError, errorCode, fsReason, show } from '../config/errors.ts';
import { writeAtomically } from './atomic.ts';
import type { Results } from './schema.ts';
import { toV2 } from './v2.ts';

/** The results file could not be written mid-run: exit 3, naming the file. */
class ResultsWriteError extends PairbenchError {
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
 * otherwise it is a report, which may also be a device or a pipe (`/dev/stdout`) written in place
 * (atomic.ts, `writeReportFile`).
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

/** Upper bounds of a judged results file's size, from files of real suites (about 55-75 bytes a pair, 1 KB a benchmark). */
const FILE_BYTES = {
  /** the fields of the file besides the benchmarks (settings, environment, rounds of a few jobs) */
  fixed: 256 * 1024,
  /** one benchmark once judged, besides its name and pairs: summaries, interval, diagnostics */
  perBenchmark: 1_500,
  /** one pair: `{"base":51.234567891234,"head":52.01234567891,"order":"head-first"},` */
  perPair: 80,
} as const;

/** A generous estimate of the size of the judged results file of `benchmarks` benchmarks with `pairs` pairs in all. */
export function estimateFileBytes(benchmarks: number, pairs: number, nameChars: number): number {
  return FILE_BYTES.fixed + benchmarks * FILE_BYTES.perBenchmark + 3 * nameChars + pairs * FILE_BYTES.perPair;
}

/** At most this share of the time goes to rewriting the file while measuring. */
const WRITE_SHARE = 0.1;

/**
 * The results file as text (version 2: results/v2.ts), in pieces: the top-level fields indented,
 * then one benchmark per line, of `measured.benchmarks` and then of `judgement.benchmarks`. One
 * line per benchmark keeps a huge file compact (and diffable), and writing it in pieces never
 * builds one string of hundreds of megabytes (V8 caps strings at 2^29 characters).
 */
export function* resultsText(results: Results): Generator<string> {
  const { schemaVersion, kind, status, measured, judging, judgement } = toV2(results);
  const { benchmarks: measuredRows, ...measuredTop } = measured;
  // an object nested one level down: JSON.stringify escapes every newline inside a string, so each one here starts a line
  const nested = (value: unknown) => JSON.stringify(value, null, 1).replaceAll('\n', '\n ');
  // `"benchmarks": 0` ends each object written here: its rows go where the 0 is
  const opening = JSON.stringify({ schemaVersion, kind, status, measured: { ...measuredTop, benchmarks: 0 } }, null, 1);
  yield opening.slice(0, opening.lastIndexOf('0'));
  yield* rows(measuredRows);
  yield `,\n "judging": ${nested(judging)}`;
  if (judgement === null) {
    yield ',\n "judgement": null\n}\n';
    return;
  }
  const { benchmarks: judgedRows, ...judgementTop } = judgement;
  const judged = nested({ ...judgementTop, benchmarks: 0 });
  yield `,\n "judgement": ${judged.slice(0, judged.lastIndexOf('0'))}`;
  yield* rows(judgedRows);
  yield '\n}\n';
}

/** The rows of a `benchmarks` list, one a line, and the end of the object the list ends. */
function* rows(list: readonly unknown[]): Generator<string> {
  if (list.length === 0) {
    yield '[]\n }';
    return;
  }
  yield '[\n';
  for (let i = 0; i < list.length; i++) yield `   ${JSON.stringify(list[i])}${i < list.length - 1 ? ',\n' : '\n'}`;
  yield '  ]\n }';
}

/** Writes the results to `path` in pieces (see {@link resultsText}); returns the bytes written. */
export function writeResultsFile(path: string, results: Results): number {
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = () => {
      const buf = Buffer.from(pending.join(''), 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      bytes += buf.length;
      pending = [];
      size = 0;
    };
    for (const piece of resultsText(results)) {
      pending.push(piece);
      size += piece.length;
      if (size >= 1 << 20) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/**
 * Writes a judged results file at the end (`pairbench report --out`), in pieces through a temp file
 * and a rename, so a failed write keeps what was there; a failure names the file, exit 3.
 */
export function writeJudgedFile(path: string, results: Results): void {
  try {
    writeAtomically(path, (tmp) => writeResultsFile(tmp, results));
  } catch (err) {
    throw new PairbenchError(`could not write ${path}: ${fsReason(err)}`, 3);
  }
}

export class ResultsWriter {
  readonly path: string;
  /** size of the last file written, bytes */
  bytes = 0;
  private lastEnd = 0;
  private lastMs = 0;
  private written = false;
  private readonly now: () => number;
  /**
   * `input`: how the path was given, for the message when it cannot be used; `now`: the clock of
   * the write share, in milliseconds (`performance.now`).
   */
  constructor(path: string, input = '--out', now: () => number = () => performance.now()) {
    this.path = checkOutputPath(input, path, { replaced: true });
    this.now = now;
  }

  /** Writes the results now (atomically: temp file, then rename). */
  write(results: Results): void {
    this.writeTimed(results, this.now());
  }

  /**
   * Writes the results unless the last write was recent for its cost (it took more than a tenth of
   * the time since it ended); `results` is built only when written, and building it counts in the
   * cost: for a huge suite it takes as long as the writing. True when written.
   */
  writeSoon(results: () => Results): boolean {
    if (this.lastEnd > 0 && this.lastMs > WRITE_SHARE * (this.now() - this.lastEnd)) return false;
    const t0 = this.now();
    this.writeTimed(results(), t0);
    return true;
  }

  private writeTimed(results: Results, t0: number): void {
    try {
      this.bytes = writeAtomically(this.path, (tmp) => writeResultsFile(tmp, results));
      this.written = true;
    } catch (err) {
      throw new ResultsWriteError(this.path, err, this.written || existsSync(this.path));
    }
    this.lastEnd = this.now();
    this.lastMs = this.lastEnd - t0;
  }
}
