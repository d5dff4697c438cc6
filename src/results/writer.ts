/**
 * Writes the results file while pairs complete. Each write goes to a temp file that is then
 * renamed over the results file, so at any instant, even after `kill -9`, the file on disk is a
 * complete, parsable JSON document holding the pairs finished when it was written.
 *
 * A suite of 100,000 benchmarks makes a file of a hundred megabytes, which takes a second or more
 * to write: rewriting it after every pair would cost more than measuring. So {@link ResultsWriter.writeSoon}
 * (after a pair) skips a write while the time spent writing would exceed a tenth of the time since
 * the last write; small files are still written after every pair, and {@link ResultsWriter.write}
 * (the final file, an interrupt) always writes.
 */
import { closeSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Results } from './schema.ts';

/** Upper bounds of a judged results file's size, from files of real suites (about 55-75 bytes a pair, 1 KB a benchmark). */
export const FILE_BYTES = {
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
 * The results file as text, in pieces: the top-level fields indented, then one benchmark per line.
 * One line per benchmark keeps a huge file compact (and diffable), and writing it in pieces never
 * builds one string of hundreds of megabytes (V8 caps strings at 2^29 characters).
 */
export function* resultsText(results: Results): Generator<string> {
  const { benchmarks, ...top } = results;
  const head = JSON.stringify({ ...top, benchmarks: 0 }, null, 1);
  // `"benchmarks": 0\n}` ends the head: the benchmarks go where the 0 is
  yield head.slice(0, head.lastIndexOf('0'));
  if (benchmarks.length === 0) {
    yield '[]\n}\n';
    return;
  }
  yield '[\n';
  for (let i = 0; i < benchmarks.length; i++) yield `${JSON.stringify(benchmarks[i])}${i < benchmarks.length - 1 ? ',\n' : '\n'}`;
  yield ']\n}\n';
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

export class ResultsWriter {
  readonly path: string;
  private readonly tmp: string;
  /** size of the last file written, bytes */
  bytes = 0;
  private lastEnd = 0;
  private lastMs = 0;
  constructor(path: string) {
    this.path = resolve(path);
    this.tmp = `${this.path}.${process.pid}.tmp`;
    mkdirSync(dirname(this.path), { recursive: true });
  }

  /** Writes the results now (atomically: temp file, then rename). */
  write(results: Results): void {
    const t0 = performance.now();
    this.bytes = writeResultsFile(this.tmp, results);
    renameSync(this.tmp, this.path);
    this.lastEnd = performance.now();
    this.lastMs = this.lastEnd - t0;
  }

  /**
   * Writes the results unless the last write was recent for its cost (it took more than a tenth of
   * the time since it ended); `results` is built only when written. True when written.
   */
  writeSoon(results: () => Results): boolean {
    if (this.lastEnd > 0 && this.lastMs > WRITE_SHARE * (performance.now() - this.lastEnd)) return false;
    this.write(results());
    return true;
  }
}
