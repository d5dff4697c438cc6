/**
 * Once per test run: the two entry points bundled from the sources, as `npm run bundle` makes
 * dist/ (scripts/bundle.ts), into a temporary folder. Tests spawn the bundle (tests/support/cli.ts
 * `CLI` and `ACTION`) rather than src/cli.ts: the same code, as users run it, and it starts in a
 * quarter of the CPU time (0.2 s against 0.8 s of type stripping and loading some 150 modules),
 * which the suite's hundreds of runs of the CLI add up to minutes of. dist/ itself is never
 * touched (its freshness is `npm run check-dist`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundle } from '../../scripts/bundle.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the folder of the bundled entry points: cli.js and index.js */
    bundle: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'pairbench-bundle-'));
  await bundle(dir);
  project.provide('bundle', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
