/** Runs the real CLI (src/cli.ts, on the pinned Node 24) as a separate process. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ResultsSchema, type Results } from '../../src/results/schema.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'src/cli.ts');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function pairbench(args: string[], opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): CliRun {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    timeout: opts.timeoutMs ?? 240_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

export function readResults(path: string): Results {
  return ResultsSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
