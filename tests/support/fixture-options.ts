/**
 * How a harness fixture is parsed (tests/fixtures/harness/<format>/<name>.<ext>): as pairbench
 * parses that run. A run of Criterion's `--quick` prints its one result without a name, and
 * pairbench gives it the one benchmark the run selected (src/harness/criterion-quick.ts): here the
 * name the fixture's recorded command (<name>.cmd) selects with its anchored filter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseOptions } from '../../src/harness/index.ts';

const FIXTURE = /\.(txt|json|jsonl|xml)$/;

export function fixtureOptions(folder: string, file: string): ParseOptions {
  const cmd = readFileSync(join(folder, file.replace(FIXTURE, '.cmd')), 'utf8');
  const unnamed = /--quick '\^(.+)\$'/.exec(cmd)?.[1];
  return unnamed !== undefined ? { unnamed } : {};
}
