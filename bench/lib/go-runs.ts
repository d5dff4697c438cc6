/** Runs of a built Go test binary, for the benches that time its benchmarks one by one (warmup.ts, go-iterations.ts). */
import { spawnSync } from 'node:child_process';

/** The ns/op of each benchmark line one run printed, in order, by name (without the -GOMAXPROCS suffix). */
export function goRun(binary: string, cwd: string, args: readonly string[]): Map<string, number[]> {
  const r = spawnSync(binary, ['-test.run', '^$', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${r.stderr}`);
  const out = new Map<string, number[]>();
  for (const line of r.stdout.split('\n')) {
    const m = /^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns\/op/.exec(line);
    if (!m) continue;
    const list = out.get(m[1]!) ?? [];
    list.push(Number(m[2]));
    out.set(m[1]!, list);
  }
  return out;
}

/** A `-test.bench` pattern that selects exactly one benchmark: each level of its name anchored. */
export function anchored(name: string): string {
  return name
    .split('/')
    .map((p) => `^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
    .join('/');
}
