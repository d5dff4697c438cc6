/**
 * The environment a comparison runs in, as the results file records it (results/schema.ts,
 * `environment`): the machine (CPU model, cores, kernel, OS image) and the version of each
 * toolchain each side is built with.
 *
 * The toolchains are asked once per comparison, in each side's folder and with the run's
 * environment, so that what picks a version per folder (a `rust-toolchain.toml`, a `go.mod`
 * toolchain line, a version manager's `.nvmrc` or `.python-version`) is honoured as the build
 * honoured it. Only the toolchains the benchmarks' formats use are asked (all five for a command
 * timed as a whole, whose language pairbench cannot know), only when the tool is found, each
 * with a short timeout, all at once: a missing or hanging tool costs at most that timeout and is
 * left out, never an error.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, platform, release, type } from 'node:os';
import { harnessOf } from '../harness/registry.ts';

/** The machine, as the results file's `environment` records it (results/schema.ts). */
export interface MachineEnvironment {
  os: string;
  cpu: string;
  cores: number;
  node: string;
  kernel: string;
  image?: string;
  runner?: string;
}

/** A toolchain: the command that prints its version on its first line. */
const TOOLS: Readonly<Record<string, readonly [string, ...string[]]>> = {
  go: ['go', 'version'],
  rustc: ['rustc', '-V'],
  node: ['node', '-v'],
  python3: ['python3', '-V'],
  cc: ['cc', '--version'],
};

/** How long one tool may take to say its version. */
const TOOL_TIMEOUT_MS = 5000;

/** The toolchains to ask for the benchmarks of these formats. */
export function toolsFor(formats: readonly string[]): string[] {
  const tools = new Set<string>();
  // a format whose harness names no toolchain (`time`, `hyperfine`, `json`, `jmh`) may be built with any
  for (const f of formats) for (const t of harnessOf(f)?.toolchains ?? Object.keys(TOOLS)) tools.add(t);
  return Object.keys(TOOLS).filter((t) => tools.has(t));
}

/** /etc/os-release's PRETTY_NAME (the OS image), when there is one. */
function osImage(): string | undefined {
  try {
    const m = /^PRETTY_NAME=(?:"([^"\n]*)"|'([^'\n]*)'|([^\n]*))$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    return (m?.[1] ?? m?.[2] ?? m?.[3])?.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The machine this process runs on. */
export function machineEnvironment(env: NodeJS.ProcessEnv = process.env): MachineEnvironment {
  const cpu = cpus();
  const image = osImage();
  return {
    os: `${type()} ${release()} (${platform()})`,
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    node: process.version,
    kernel: release(),
    ...(image ? { image } : {}),
    ...(env.RUNNER_NAME ? { runner: `${env.RUNNER_NAME} (${env.RUNNER_OS ?? ''} ${env.RUNNER_ARCH ?? ''})`.trim() } : {}),
  };
}

/** One tool's version line, or null when it is not found, fails or takes too long. */
function versionOf(command: readonly [string, ...string[]], cwd: string, env: Record<string, string | undefined>): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command[0], command.slice(1), { cwd, env, timeout: TOOL_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 }, (err, stdout, stderr) => {
      // python3 -V printed its version on stderr before Python 3.4
      const line = `${stdout}`.trim().split('\n')[0]?.trim() || `${stderr}`.trim().split('\n')[0]?.trim();
      resolve(err || !line ? null : line.slice(0, 256));
    });
  });
}

/** The version of each of `tools` found in `dir` with `env`: `{ go: 'go version go1.24.1 linux/amd64' }`. */
export async function toolchainVersions(tools: readonly string[], dir: string, env: Record<string, string | undefined>): Promise<Record<string, string>> {
  const found = await Promise.all(tools.map(async (t) => [t, TOOLS[t] ? await versionOf(TOOLS[t], dir, env) : null] as const));
  return Object.fromEntries(found.filter((f): f is readonly [string, string] => f[1] !== null));
}
