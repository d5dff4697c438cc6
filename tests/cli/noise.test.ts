/** `pairbench noise`: an A/A run that reports the noise floor in plain words. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

describe('pairbench noise', () => {
  it('measures one directory against itself for --max-pairs pairs and prints the detectable change for 30/100/300 pairs', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bench.sh'), `awk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"x\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]", 100*(1+(rand()-0.5)*0.1)}'\n`);
    const file = join(dir, 'noise.json');
    const res = pairbench(['noise', '--run', 'sh bench.sh', '--format', 'json', '--max-pairs', '24', '--out', file, '--quiet'], { cwd: dir });
    expect(res.status, res.stderr).toBe(0);
    const results = readResults(file);
    expect(results.kind).toBe('noise');
    const b = results.benchmarks[0]!;
    expect(b.pairs).toHaveLength(24); // no early stop
    expect(b.noise!.detectable.map((d) => d.pairs)).toEqual([30, 100, 300]);
    // ±5% uniform noise: single-run CV about 2.9%, and more pairs detect smaller changes
    expect(b.noise!.singleRunCv).toBeGreaterThan(0.015);
    expect(b.noise!.singleRunCv).toBeLessThan(0.05);
    const [d30, d100, d300] = b.noise!.detectable.map((d) => d.change);
    expect(d30!).toBeGreaterThan(d100!);
    expect(d100!).toBeGreaterThan(d300!);
    expect(res.stdout).toMatch(/A single run varies by \d+\.\d% \(CV\)/);
    expect(res.stdout).toMatch(/with 30 pairs, .* with 100 pairs, .* with 300 pairs/);
    expect(res.stdout).toMatch(/Suggested settings: threshold: \d+(\.\d+)?%, max-pairs: 24/);
  });

  it('max-pairs: the flag, else the config file, else 60 for noise', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 10, noise: 0.01 } } }));
    writeFileSync(join(dir, 'pairbench.yml'), 'max-pairs: 9\nbenchmarks:\n  - name: x\n    run: ./x\n');
    const env = { PAIRBENCH_DEBUG_RUNNER: join(dir, 'script.json') };
    const pairsOf = (args: string[]) => {
      const file = join(dir, `noise-${args.length}.json`);
      const res = pairbench(['noise', ...args, '--seed', '1', '--out', file, '--quiet'], { cwd: dir, env });
      expect(res.status, res.stderr).toBe(0);
      return readResults(file).benchmarks[0]!.pairs.length;
    };
    expect(pairsOf(['--config', 'pairbench.yml'])).toBe(9);
    expect(pairsOf(['--config', 'pairbench.yml', '--max-pairs', '7'])).toBe(7);
    expect(pairsOf(['--run', './x'])).toBe(60);
    // fewer than compare's min-pairs (10): noise has none, every run takes all its pairs
    expect(pairsOf(['--run', './x', '--max-pairs', '5'])).toBe(5);
    const few = pairbench(['noise', '--run', './x', '--max-pairs', '5', '--seed', '1', '--out', join(dir, 'few.json')], { cwd: dir, env });
    expect(few.stdout).toContain('with max-pairs 5, no threshold is resolvable (too few pairs for any change to reach significance).');
    // the file a run that could not resolve a threshold wrote reads back
    expect(pairbench(['report', join(dir, 'few.json')], { cwd: dir }).stderr).not.toMatch(/expected a pairbench results file/);
  });

  it('--rev builds one commit twice (two worktrees of the same SHA)', () => {
    const repo = tempRepo();
    const sha = repo.commit({ 'bench.sh': `printf '[{"name":"x","value":%s,"unit":"ms"}]' "$(awk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); printf "%.4f", 50*(1+(rand()-0.5)*0.04)}')"\n` }, 'one');
    const file = join(repo.dir, 'noise.json');
    const res = pairbench(['noise', '--rev', 'HEAD', '--build', 'true', '--run', 'sh bench.sh', '--format', 'json', '--max-pairs', '12', '--out', file, '--quiet'], { cwd: repo.dir });
    expect(res.status, res.stderr).toBe(0);
    const results = readResults(file);
    expect(results.base.sha).toBe(sha);
    expect(results.head.sha).toBe(sha);
    repo.remove();
  });

  it('refuses --dir with --rev', () => {
    const res = pairbench(['noise', '--dir', '.', '--rev', 'HEAD', '--run', 'true']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--dir and --rev cannot be used together/);
  });
});
