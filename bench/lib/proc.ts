/** Running the tools under test (pairbench, hyperfine) as child processes, timed from outside. */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** wall time of the whole process, as the bench sees it, milliseconds */
  wallMs: number;
}

/** Runs `file args` (no shell) and resolves when it exits; never rejects for a non-zero exit. */
export function run(file: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
    child.once('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), wallMs });
    });
  });
}

/** Runs `file args` and resolves with its output; a non-zero exit rejects, with the end of its stderr. */
export async function must(file: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Ran> {
  const r = await run(file, args, { cwd, ...(env ? { env } : {}) });
  if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} failed in ${cwd} (exit ${r.code}):\n${r.stderr.slice(-3000)}`);
  return r;
}

/** Copies a folder (say, from the read-only Go module cache) so that every file in the copy may be patched. */
export function writableCopy(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const walk = (d: string) => {
    chmodSync(d, 0o755);
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else chmodSync(p, 0o644);
    }
  };
  walk(to);
}

/** The first line a tool prints for `--version`, or null when it is not installed. */
export function versionOf(file: string, args: readonly string[] = ['--version']): string | null {
  const r = spawnSync(file, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return (r.stdout || r.stderr).trim().split('\n')[0] ?? null;
}

export const HYPERFINE_INSTALL = 'hyperfine is not installed. On Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y hyperfine (or: cargo install hyperfine; see https://github.com/sharkdp/hyperfine#installation)';
