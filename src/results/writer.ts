/**
 * Writes the results file while pairs complete. Each write goes to a temp file that is then
 * renamed over the results file, so at any instant, even after `kill -9`, the file on disk is a
 * complete, parsable JSON document holding every finished pair.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Results } from './schema.ts';

export class ResultsWriter {
  readonly path: string;
  private readonly tmp: string;
  constructor(path: string) {
    this.path = resolve(path);
    this.tmp = `${this.path}.${process.pid}.tmp`;
    mkdirSync(dirname(this.path), { recursive: true });
  }

  write(results: Results): void {
    writeFileSync(this.tmp, `${JSON.stringify(results, null, 1)}\n`);
    renameSync(this.tmp, this.path);
  }
}
