/** Runs of a built Go test binary, for the benches that time its benchmarks one by one (warmup.ts, go-iterations.ts, go-design-review.ts). */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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

/** The fastjson suite of bench/suites.ts, unpatched: downloaded and its test binary built in a temporary folder (in `work` when given). */
function buildFastjson(prefix: string, into?: string): string {
  const work = into ?? mkdtempSync(join(tmpdir(), prefix));
  const dl = spawnSync('go', ['mod', 'download', '-json', 'github.com/valyala/fastjson@v1.6.4'], { cwd: work, encoding: 'utf8' });
  if (dl.status !== 0) throw new Error(`go mod download failed: ${dl.stderr}`);
  const source = (JSON.parse(dl.stdout) as { Dir: string }).Dir;
  const dir = join(work, into ? 'base' : 'fastjson');
  cpSync(source, dir, { recursive: true });
  spawnSync('chmod', ['-R', 'u+w', dir]);
  const build = spawnSync('go', ['test', '-c', '-trimpath', '-o', 'build/bench.test', '.'], { cwd: dir, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`go test -c failed in ${dir}: ${build.stderr}`);
  return dir;
}

/**
 * The Go test binary a bench measures: `build/bench.test` in `goDir` (a folder a bench:suites
 * --keep-work run left), or in fastjson downloaded and built now. A folder without one is exit 2.
 */
export function goBinary(goDir: string | undefined, prefix: string): { dir: string; binary: string } {
  const dir = goDir ? resolve(goDir) : buildFastjson(prefix);
  const binary = join(dir, 'build/bench.test');
  if (!existsSync(binary)) {
    console.error(`--go-dir ${dir}: no build/bench.test in it (expected a folder a Go test binary was built in, as build/bench.test)`);
    process.exit(2);
  }
  return { dir, binary };
}

/**
 * A folder laid out as `npm run bench:suites -- --suites go --keep-work` leaves its go/ folder:
 * `base/` with fastjson built in it and `aa/` a copy of that build (an A/A comparison of two copies
 * of one build), for the benches that take `--go-dirs` and were not given one.
 */
export function fastjsonAaDirs(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const base = buildFastjson(prefix, root);
  cpSync(base, join(root, 'aa'), { recursive: true });
  return root;
}
