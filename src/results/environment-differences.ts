/**
 * Whether the runs of a comparison share one environment. pairbench pairs base and head on one
 * machine, so the machine cancels out of every pair; but shards merged by `report` may come from
 * different runners, and base and head may have been built by different toolchains (a
 * `rust-toolchain.toml`, a `go.mod` toolchain line or a version manager's file that one side
 * changes, or two folders compared with `--base-dir` and `--head-dir`). Neither is an error, and
 * both change what a verdict means: every report says so in one line. Pure.
 */
import type { Environment, Results } from './schema.ts';

/** The facts of an environment that make two runs of one benchmark comparable, with how the reports name them. */
const MACHINE: ReadonlyArray<[keyof Environment, string]> = [
  ['cpu', 'CPU model'],
  ['cores', 'cores'],
  ['kernel', 'kernel'],
  ['image', 'OS image'],
  ['os', 'OS'],
];

/** Text of a value, cut so that a line stays a line. */
const shown = (v: unknown): string => String(v).slice(0, 80);

/**
 * What differs between environments, one entry a fact: `CPU model (AMD EPYC 7763 / Intel Xeon
 * Platinum 8370C)`, `go on the base side (go1.23.1 / go1.24.0)`. A fact an environment does not
 * record is not compared. Empty when they agree.
 */
export function environmentDifferences(envs: readonly Environment[]): string[] {
  const out: string[] = [];
  // `os` holds the kernel's release too: named on its own only for files that record no kernel
  const kernels = envs.some((e) => e.kernel !== undefined);
  for (const [key, name] of MACHINE) {
    if (key === 'os' && kernels) continue;
    const values = [...new Set(envs.flatMap((e) => (e[key] === undefined ? [] : [shown(e[key])])))];
    if (values.length > 1) out.push(`${name} (${values.join(' / ')})`);
  }
  for (const side of ['base', 'head'] as const) {
    const tools = [...new Set(envs.flatMap((e) => Object.keys(e.toolchains?.[side] ?? {})))].sort();
    for (const tool of tools) {
      const values = [...new Set(envs.flatMap((e) => (e.toolchains?.[side]?.[tool] === undefined ? [] : [shown(e.toolchains[side][tool])])))];
      if (values.length > 1) out.push(`${tool} on the ${side} side (${values.join(' / ')})`);
    }
  }
  return out;
}

/** The toolchains base and head were built with, where they differ: `go (go1.23.1 / go1.24.0)`, base first. */
export function toolchainDifferences(env: Environment | undefined): string[] {
  const base = env?.toolchains?.base ?? {};
  const head = env?.toolchains?.head ?? {};
  return Object.keys(base)
    .filter((tool) => head[tool] !== undefined && head[tool] !== base[tool])
    .sort()
    .map((tool) => `${tool} (${shown(base[tool])} / ${shown(head[tool])})`);
}

/** The environments of merged files, when they differ: each distinct one once, in the files' order; undefined when they agree. */
export function mergedEnvironments(files: ReadonlyArray<Pick<Results, 'environment' | 'environments'>>): Environment[] | undefined {
  const all = files.flatMap((f) => f.environments ?? (f.environment ? [f.environment] : []));
  if (environmentDifferences(all).length === 0) return undefined;
  const seen = new Set<string>();
  return all.filter((e) => {
    const key = JSON.stringify(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
