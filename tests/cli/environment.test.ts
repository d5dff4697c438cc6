/**
 * The environment of a comparison, recorded and compared (measure/environment.ts,
 * results/environment-differences.ts): a results file records the machine and each side's toolchains;
 * `report` over shards from different CPU models says so in one line; base and head built by
 * different toolchains get a warning. The real command line; measuring with the scripted runner of
 * its debug mode, so nothing timed decides an outcome.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** `compare` of two folders with the scripted runner; `env` for the command line. */
function compareDirs(env: Record<string, string> = {}) {
  const dir = realpathSync(tempDir('pairbench-env-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'head'));
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 10, factor: 1, noise: 0.01 } } }));
  const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', './bench', '--seed', '1', '--max-pairs', '10', '--out', 'results.json'], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json', ...env } });
  return { ...res, results: readResults(join(dir, 'results.json')), dir };
}

/** A shard's results file of one quiet benchmark, measured on `cpu`. */
function shard(dir: string, index: number, cpu: string): string {
  const file = join(dir, `shard-${index}.json`);
  const pairs = Array.from({ length: 12 }, (_, i) => ({ base: 10 + (i % 3) * 0.01, head: 10 + ((i + 1) % 3) * 0.01, order: i % 2 ? 'head-first' : 'base-first' }));
  writeFileSync(
    file,
    JSON.stringify({
      schemaVersion: 1,
      base: { sha: 'a'.repeat(40) },
      head: { sha: 'b'.repeat(40) },
      environment: { os: 'Linux 6.8.0 (linux)', cpu, cores: 4, kernel: '6.8.0', image: 'Ubuntu 24.04.1 LTS' },
      status: 'complete',
      shard: { index, count: 2 },
      settings: { seed: 1 },
      benchmarks: [{ name: `bench-${index}`, unit: 'ms', direction: 'lower-is-better', pairs }],
    }),
  );
  return file;
}

describe('the environment', () => {
  it('a results file records the CPU model, cores, kernel, OS image and the toolchains of each side', () => {
    const { results, status, stderr } = compareDirs();
    expect(status, stderr).toBe(0);
    const env = results.environment!;
    expect(env.cpu).toBe(cpus()[0]!.model.trim());
    expect(env.cores).toBe(cpus().length);
    expect(env.kernel).toBe(release());
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    expect(env.image).toBe(pretty);
    // a command timed as a whole may be any language: every toolchain found is asked, in each side's folder
    expect(env.toolchains?.base?.['node']).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(env.toolchains?.head?.['node']).toBe(env.toolchains?.base?.['node']);
    expect(env.toolchains?.base?.['python3']).toMatch(/^Python 3\./);
    expect(stderr).not.toContain('different toolchains');
  });

  it('base and head built by different toolchains: a warning, and a note in the report', () => {
    // a version manager's shim that answers per folder, as rust-toolchain.toml or .nvmrc make rustup or nvm do
    const dir = realpathSync(tempDir('pairbench-env-'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'rustc'), '#!/bin/sh\ncase "$PWD" in */head) echo "rustc 1.86.0 (05f9846f8 2025-03-31)";; *) echo "rustc 1.85.1 (4eb161250 2025-03-15)";; esac\n');
    chmodSync(join(dir, 'bin', 'rustc'), 0o755);
    const shimmed = compareDirs({ PATH: `${join(dir, 'bin')}:${process.env['PATH']}` });
    expect(shimmed.results.environment?.toolchains?.base?.['rustc']).toBe('rustc 1.85.1 (4eb161250 2025-03-15)');
    expect(shimmed.results.environment?.toolchains?.head?.['rustc']).toBe('rustc 1.86.0 (05f9846f8 2025-03-31)');
    const line = 'warning: base and head were built by different toolchains: rustc (rustc 1.85.1 (4eb161250 2025-03-15) / rustc 1.86.0 (05f9846f8 2025-03-31))';
    expect(shimmed.stderr).toContain(line);
    expect(shimmed.stdout).toContain('Different toolchains: base and head were built by different toolchains, rustc (rustc 1.85.1 (4eb161250 2025-03-15) / rustc 1.86.0 (05f9846f8 2025-03-31)) (base / head)');
  });

  it('report over two shards from different CPU models prints the one-line warning, and the merged file keeps both', () => {
    const dir = tempDir('pairbench-env-shards-');
    const out = join(dir, 'merged.json');
    const res = pairbench(['report', shard(dir, 1, 'AMD EPYC 7763 64-Core Processor'), shard(dir, 2, 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz'), '--out', out]);
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter((l) => l.includes('Different environments'));
    expect(lines).toEqual(['warning: Different environments: the 2 environments of the merged results differ in CPU model (AMD EPYC 7763 64-Core Processor / Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz); each benchmark\'s pairs share one machine, but benchmarks from different shards are not measured alike.']);
    expect(readResults(out).environments?.map((e) => e.cpu)).toEqual(['AMD EPYC 7763 64-Core Processor', 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz']);
    // the same machine on both: no line
    const same = pairbench(['report', shard(dir, 1, 'AMD EPYC 7763 64-Core Processor'), shard(dir, 2, 'AMD EPYC 7763 64-Core Processor')]);
    expect(same.stdout).not.toContain('Different environments');
  });
});
