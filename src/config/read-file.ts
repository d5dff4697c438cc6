/**
 * Reading a file a user or a pull request names (a config file, a results file) with bounds: only
 * a regular file, and never more than its cap plus one byte. The size `stat` gives is no bound (a
 * device such as `/dev/zero` or a pipe says 0, a file may grow while it is read), so the file is
 * opened first, checked with `fstat` on that very descriptor, and read in a loop that stops past
 * the cap. It is opened without blocking, so a pipe with no writer is refused at once instead of
 * waiting for one.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Why a file was not read: not a regular file (`kind` in words), or over the cap (`bytes`: its size, when known). */
export class FileRefused extends Error {
  readonly why: { kind: string } | { bytes: number | null; cap: number };
  constructor(why: { kind: string } | { bytes: number | null; cap: number }) {
    super('kind' in why ? `${why.kind}, not a regular file` : why.bytes !== null ? `a file of ${why.bytes} bytes, more than ${why.cap}` : `a file of more than ${why.cap} bytes`);
    this.why = why;
  }
}

/** What a file that is not a regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Bytes read at a time once the size `fstat` gave is exceeded (a file that grows, or says 0 as /proc does). */
const CHUNK = 1024 * 1024;

/** Reads at most `cap` + 1 bytes of an open regular file: null when it holds more than `cap`. */
function readAtMost(fd: number, size: number, cap: number): Buffer | null {
  let buf = Buffer.allocUnsafe(Math.min(size, cap) + 1);
  let used = 0;
  for (;;) {
    if (used === buf.length) {
      if (used > cap) return null;
      const bigger = Buffer.allocUnsafe(Math.min(used + Math.max(used, CHUNK), cap + 1));
      buf.copy(bigger, 0, 0, used);
      buf = bigger;
    }
    const n = readSync(fd, buf, used, buf.length - used, null);
    if (n === 0) return buf.subarray(0, used);
    used += n;
  }
}

/**
 * The bytes of the regular file at `path`, at most `cap` of them. Throws the file system's error
 * (with its code; a folder gives EISDIR) or a {@link FileRefused}.
 */
export function readRegularFile(path: string, cap: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    if (!st.isFile()) throw new FileRefused({ kind: kindOf(st) });
    if (st.size > cap) throw new FileRefused({ bytes: st.size, cap });
    const bytes = readAtMost(fd, st.size, cap);
    if (bytes === null) throw new FileRefused({ bytes: null, cap });
    return bytes;
  } finally {
    closeSync(fd);
  }
}
