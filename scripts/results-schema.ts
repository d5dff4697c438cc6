/**
 * docs/results.schema.json: the JSON Schema of the results file (version 2), generated from the zod
 * schema pairbench reads it with (src/results/schema-v2.ts), so the published schema cannot drift
 * from the reader.
 *
 *   node scripts/results-schema.ts           write docs/results.schema.json
 *   node scripts/results-schema.ts --check   exit 1, naming the file, when it is stale
 *   --root DIR                               the file under DIR instead of this checkout
 *
 * tests/results/schema-file.test.ts runs the check, as check-dist does for dist/. The schema
 * targets draft-07, which every common validator reads. Two rules of the reader are not in it,
 * as JSON Schema cannot state them: a pair's sides are both above 0 or both 0 (one side at 0: in
 * `oneSidedPairs`, exactly one), and `judgement.benchmarks` names the benchmarks of
 * `measured.benchmarks` in the same order.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ResultsV2Schema } from '../src/results/schema-v2.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Where the schema is published, from the repository's root. */
export const SCHEMA_PATH = 'docs/results.schema.json';

/** The JSON Schema of the results file, as docs/results.schema.json holds it. */
export function resultsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ResultsV2Schema, { target: 'draft-07' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return { $schema, title: 'pairbench results file (schemaVersion 2)', ...rest };
}

/** The text of docs/results.schema.json. */
export function renderResultsSchema(): string {
  return `${JSON.stringify(resultsJsonSchema(), null, 2)}\n`;
}

function main(argv: string[]): number {
  const at = argv.indexOf('--root');
  const root = at >= 0 && argv[at + 1] ? argv[at + 1]! : ROOT;
  const full = join(root, SCHEMA_PATH);
  const text = renderResultsSchema();
  let now = '';
  try {
    now = readFileSync(full, 'utf8');
  } catch {
    // a missing file is stale
  }
  if (now === text) return 0;
  if (argv.includes('--check')) {
    process.stderr.write(`${SCHEMA_PATH} is stale: run node scripts/results-schema.ts\n`);
    return 1;
  }
  writeFileSync(full, text);
  process.stdout.write(`wrote ${SCHEMA_PATH}\n`);
  return 0;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
