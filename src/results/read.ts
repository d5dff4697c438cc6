/**
 * Reading results files, which may be untrusted (artifacts of fork PRs): size-capped, parsed,
 * schema-validated; a bad file is refused with a message naming the file and what is wrong.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError, errorCode, fsReason } from '../config/errors.ts';
import { LIMITS, ResultsSchema, type Results } from './schema.ts';

export function parseResults(text: string, source: string): Results {
  if (text.length > LIMITS.fileBytes) {
    throw new UsageError(source, `${source}: the file is larger than ${LIMITS.fileBytes} bytes; refusing to read it`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(source, `${source}: not valid JSON (${err instanceof Error ? err.message : String(err)}); expected a pairbench results file`);
  }
  const parsed = ResultsSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : 'the file';
    throw new UsageError(source, `${source}: ${where}: ${issue.message}; expected a pairbench results file (schemaVersion 1)`);
  }
  const shard = parsed.data.shard;
  if (shard && shard.index > shard.count) {
    throw new UsageError(source, `${source}: shard: ${shard.index}/${shard.count} is not a shard (the index is larger than the count); expected i/n with 1 ≤ i ≤ n`);
  }
  return parsed.data;
}

export function readResultsFile(path: string): Results {
  const unreadable = (err: unknown) => {
    const code = errorCode(err);
    if (code === 'ENOENT') return new UsageError(path, `${path}: no such file; expected a pairbench results file`);
    if (code === 'EISDIR') return new UsageError(path, `${path}: is a folder; expected a pairbench results file (name the files in it, such as ${path.replace(/\/+$/, '')}/*.json)`);
    return new UsageError(path, `${path}: cannot be read (${fsReason(err)}); expected a pairbench results file`);
  };
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    size = st.size;
  } catch (err) {
    throw unreadable(err);
  }
  if (size > LIMITS.fileBytes) {
    throw new UsageError(path, `${path}: the file is ${size} bytes, more than ${LIMITS.fileBytes}; refusing to read it`);
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadable(err);
  }
  return parseResults(text, path);
}
