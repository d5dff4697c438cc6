/** Running the tools under test (pairbench, hyperfine) as child processes, timed from outside. */
import { spawn, spawnSync } from 'node:child_process';

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

/** The first line a tool prints for `--version`, or null when it is not installed. */
export function versionOf(file: string, args: readonly string[] = ['--version']): string | null {
  const r = spawnSync(file, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return (r.stdout || r.stderr).trim().split('\n')[0] ?? null;
}

export const HYPERFINE_INSTALL = 'hyperfine is not installed. On Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y hyperfine (or: cargo install hyperfine; see https://github.com/sharkdp/hyperfine#installation)';
