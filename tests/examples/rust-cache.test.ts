/**
 * The base build cache on the Rust example, as CI runs it: a git repository of the example's base
 * and head, compared twice with the same --build-cache-dir. The first run misses, builds the base
 * with cargo and saves its outputs; the second restores them and skips the base's build (head is
 * always built), and every pair is still measured in that run. No assertion reads a time: the
 * base build time each run spent is printed (from the log's timestamps) for the record, and
 * scripts/build-cache-minutes.sh measures what the cache saves (docs/action.md, "Base build cache").
 * What these tests share and why: tests/support/examples.ts.
 */
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ROOT, cliCommand, readResults } from '../support/cli.ts';
import { EXAMPLE_LIMITS, ownCore } from '../support/examples.ts';
import { tempDir, tempRepo } from '../support/repo.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const cargo = requireTool(TOOLS.cargo);

const BUILD = 'cargo bench --no-run --bench kernels 2>&1 | tee cargo-build.log && mkdir -p build && cp "$(sed -n "s/.*Executable .*(\\(.*\\))$/\\1/p" cargo-build.log | tail -n 1)" build/kernels';

/**
 * A run of the CLI whose stderr lines are stamped with the time they arrived. Criterion would keep
 * its estimates under $CARGO_TARGET_DIR/criterion, which CI shares with the other tests that run
 * this example at the same moment; under --design auto pairbench gives each run a CRITERION_HOME of
 * its own, and reads the medians Criterion saves there (src/harness/criterion-estimates.ts).
 */
function compare(cwd: string, args: string[]): Promise<{ status: number | null; lines: { at: number; text: string }[] }> {
  return new Promise((resolve) => {
    // bound to its own core as the other examples are (tests/support/examples.ts, ownCore), so that
    // cargo's build never takes the core of the example measuring beside it
    const command = cliCommand(args, ownCore());
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env['CRITERION_HOME'];
    const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const lines: { at: number; text: string }[] = [];
    let rest = '';
    child.stderr.on('data', (d: Buffer) => {
      const parts = (rest + d.toString()).split('\n');
      rest = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: Date.now(), text });
    });
    child.on('close', (status) => resolve({ status, lines: rest ? [...lines, { at: Date.now(), text: rest }] : lines }));
  });
}

/** Seconds from the worktrees' line to the head's build: the base's phase (built or restored). */
function basePhase(lines: { at: number; text: string }[]): number {
  const from = lines.find((l) => /worktrees? /.test(l.text)) ?? lines[0]!;
  const to = lines.find((l) => l.text.startsWith('Building head'))!;
  return (to.at - from.at) / 1000;
}

describe('examples: the base build cache', () => {
  cargo.it('rust-criterion compared twice: the first run builds and saves the base, the second restores it and skips its build', async () => {
    const repo = tempRepo();
    const example = join(ROOT, 'examples', 'rust-criterion');
    const skip = (src: string) => !/\/(target|build)$/.test(src);
    cpSync(join(example, 'base'), repo.dir, { recursive: true, filter: skip });
    const base = repo.commit({}, 'base');
    for (const f of readdirSync(repo.dir)) if (f !== '.git') rmSync(join(repo.dir, f), { recursive: true, force: true });
    cpSync(join(example, 'head'), repo.dir, { recursive: true, filter: skip });
    const head = repo.commit({}, 'head');
    const cacheDir = tempDir();
    const out = tempDir();
    // one benchmark, two pairs: this test is about the build, not the verdict
    const args = (n: number) => ['compare', '--base', base, '--head', head, '--build', BUILD, '--build-cache', 'build/', '--build-cache-dir', cacheDir, '--run', './build/kernels --bench --output-format bencher checksum', '--format', 'bencher', '--min-pairs', '2', '--max-pairs', '2', '--warmup', '0', '--fail-on', 'none', '--out', join(out, `r${n}.json`)];

    const cold = await compare(repo.dir, args(1));
    const coldText = cold.lines.map((l) => l.text).join('\n');
    expect(cold.status, coldText).toBe(0);
    expect(coldText).toMatch(/base: not in the build cache \(key pairbench-build-[^)]+\): building it/);
    expect(coldText).toMatch(/base: build outputs saved/);
    expect(coldText).toContain('Building base');

    const warm = await compare(repo.dir, args(2));
    const warmText = warm.lines.map((l) => l.text).join('\n');
    expect(warm.status, warmText).toBe(0);
    expect(warmText).toContain('base: build outputs restored from the build cache');
    expect(warmText).not.toContain('Building base');
    expect(warmText).toContain('Building head');
    const results = readResults(join(out, 'r2.json'));
    expect(results.settings?.['buildCacheHit']).toBe(true);
    expect(results.benchmarks.map((b) => b.pairs.length)).toEqual(results.benchmarks.map(() => 2));
    // the medians Criterion saved, beyond the whole nanoseconds its bencher line prints: a run's median is a whole number only by chance
    expect(warmText).toContain("Each run gets CRITERION_HOME set to a folder of pairbench's");
    const values = results.benchmarks.flatMap((b) => b.pairs.flatMap((p) => [p.base, p.head]));
    expect(values.filter((v) => !Number.isInteger(v)).length, values.join(', ')).toBeGreaterThanOrEqual(values.length - 1);
    console.info(`rust-criterion base phase: ${basePhase(cold.lines).toFixed(1)} s built, ${basePhase(warm.lines).toFixed(1)} s restored`);
  }, EXAMPLE_LIMITS.testMs);
});
