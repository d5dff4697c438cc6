/**
 * Reading results files, which may be untrusted (artifacts of fork PRs): size-capped, parsed,
 * schema-validated; a bad file is refused with a message naming the file and what is wrong.
 *
 * Only a regular file is read, and never more than the cap plus one byte (config/read-file.ts).
 */
import { UsageError, errorCode, fsReason, show } from '../config/errors.ts';
import { FileRefused, readRegularFile } from '../config/read-file.ts';
import { LIMITS, ResultsSchema, type Results } from './schema.ts';
import { ResultsV2Schema } from './schema-v2.ts';
import { fromV2 } from './v2.ts';

/** The versions of the results file this pairbench reads, as its messages name them. */
const READS = 'schemaVersion 1 or 2';

/**
 * How deeply a results file may nest arrays and objects. pairbench writes at most 7 levels
 * (`judgement.benchmarks[i].noise.detectable[j].pairs`); a deeper file is refused before it is parsed, since
 * every later walk of it (validation, writing it again) would recurse once per level, and parsing
 * a file of 256 MiB nested to the end takes minutes and gigabytes.
 */
const MAX_NESTING = 32;

/** Where the text first nests deeper than `max` (its character offset), or -1; strings are skipped. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** A results file's text (of either version) as the in-memory results; `source` names it in messages. */
export function parseResults(text: string, source: string): Results {
  if (text.length > LIMITS.fileBytes) {
    throw new UsageError(source, `${source}: the file is larger than ${LIMITS.fileBytes} bytes; refusing to read it`);
  }
  const deep = tooDeepAt(text, MAX_NESTING);
  if (deep >= 0) {
    throw new UsageError(source, `${source}: nests arrays and objects more than ${MAX_NESTING} levels deep (at character ${deep}); expected a pairbench results file (${READS}), which nests at most a few`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(source, `${source}: not valid JSON (${err instanceof Error ? err.message : String(err)}); expected a pairbench results file`);
  }
  const version = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (version !== 1 && version !== 2) {
    const got = version === undefined ? 'missing' : `got ${(JSON.stringify(version) ?? String(version)).slice(0, 40)}`;
    throw new UsageError(source, `${source}: schemaVersion: ${got}; expected a pairbench results file (${READS}, the versions this pairbench reads)`);
  }
  const parsed = version === 2 ? ResultsV2Schema.safeParse(doc) : ResultsSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : 'the file';
    throw new UsageError(source, `${source}: ${where}: ${issue.message}; expected a pairbench results file (schemaVersion ${version})`);
  }
  const results = parsed.data.schemaVersion === 2 ? fromV2(parsed.data) : parsed.data;
  const shard = results.shard;
  if (shard && shard.index > shard.count) {
    throw new UsageError(source, `${source}: shard: ${shard.index}/${shard.count} is not a shard (the index is larger than the count); expected i/n with 1 ≤ i ≤ n`);
  }
  // A row is a benchmark and its metric: one file holds each once (shards are told apart in merge.ts).
  const rows = new Map<string, number>();
  results.benchmarks.forEach((b, i) => {
    const key = `${b.name}\u0000${b.metric ?? ''}`;
    const first = rows.get(key);
    if (first !== undefined) {
      const metric = b.metric ? ` (metric ${show(b.metric)})` : '';
      throw new UsageError(source, `${source}: ${version === 2 ? 'measured.' : ''}benchmarks[${i}]: the benchmark ${show(b.name)}${metric} is already benchmarks[${first}] of this file; expected each benchmark once in a results file`);
    }
    rows.set(key, i);
  });
  return results;
}

export function readResultsFile(path: string): Results {
  const unreadable = (err: unknown) => {
    const code = errorCode(err);
    if (code === 'ENOENT') return new UsageError(path, `${path}: no such file; expected a pairbench results file`);
    if (code === 'EISDIR') return new UsageError(path, `${path}: is a folder; expected a pairbench results file (name the files in it, such as ${path.replace(/\/+$/, '')}/*.json)`);
    return new UsageError(path, `${path}: cannot be read (${fsReason(err)}); expected a pairbench results file`);
  };
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, LIMITS.fileBytes);
  } catch (err) {
    if (!(err instanceof FileRefused)) throw unreadable(err);
    const { why } = err;
    if ('kind' in why) throw new UsageError(path, `${path}: is ${why.kind}, not a regular file; expected a pairbench results file`);
    if (why.bytes !== null) throw new UsageError(path, `${path}: the file is ${why.bytes} bytes, more than ${LIMITS.fileBytes}; refusing to read it`);
    throw new UsageError(path, `${path}: holds more than ${LIMITS.fileBytes} bytes; refusing to read it`);
  }
  return parseResults(bytes.toString('utf8'), path);
}
