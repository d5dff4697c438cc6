/**
 * `--pair-runs at-once` end to end, with real processes: both runs of every pair start together,
 * each bound to one of two CPUs, the pair's coin (its recorded order) choosing which; the results
 * and the report say so; a 2× slowdown is found; and what cannot give each side a CPU is refused.
 * `auto`, the default, runs them so where the machine allows, and in turn where `--cpus` says
 * where every run goes.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedCpus } from '../../src/config/cpus.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { requireTool, works } from '../support/require-tool.ts';

const twoCpus = requireTool({
  name: 'taskset and two CPUs',
  platforms: ['linux'],
  present: () => works('taskset', ['--version']) && (allowedCpus()?.length ?? 0) >= 2,
  install: 'sudo apt-get install -y util-linux, on a machine with two CPUs or more',
});

/** base/ and head/ folders of one parent, each with `work.sh` doing `loops` steps of shell arithmetic. */
function sides(loops: { base: number; head: number }): string {
  const dir = realpathSync(tempDir());
  for (const side of ['base', 'head'] as const) {
    mkdirSync(join(dir, side));
    writeFileSync(join(dir, side, 'work.sh'), `i=0; while [ $i -lt ${loops[side]} ]; do i=$((i+1)); done\n`);
  }
  return dir;
}

describe('--pair-runs at-once', () => {
  twoCpus.it('starts both runs of a pair together, each on one of two CPUs as the pair\'s coin says; the results and the report say so', () => {
    const dir = sides({ base: 1, head: 1 });
    const log = join(dir, 'runs.log');
    // each run writes when it starts and ends, which side it is and the CPUs it may use; it lasts 0.8 s,
    // so two runs made one after the other could never both start before either ends
    const run = `c=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status); n=$(basename "$PWD"); echo "start $n $c" >> ${log}; sleep 0.8; echo "end $n $c" >> ${log}`;
    const out = join(dir, 'r.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', run, '--pair-runs', 'at-once', '--warmup', '0', '--min-pairs', '5', '--max-pairs', '5', '--fail-on', 'none', '--out', out]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const cpus = [...allowedCpus()!].sort((a, b) => a - b).slice(-2).map(String);
    expect(res.stderr).toContain(`--pair-runs at-once: both sides of every pair started together, one on CPU ${cpus[0]} and one on CPU ${cpus[1]}, the pair's coin choosing which; every run has one CPU, and the two share the caches and memory bandwidth\n`);
    const results = readResults(out);
    const pairs = results.benchmarks[0]!.pairs;
    expect(pairs).toHaveLength(5);
    expect(results.settings?.['pairRuns']).toBe('at-once');
    expect(results.settings?.['atOnce']).toMatch(/^at once: /);
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string, string]);
    expect(lines).toHaveLength(4 * pairs.length);
    pairs.forEach((pair, k) => {
      const block = lines.slice(4 * k, 4 * k + 4);
      // together: both started before either ended
      expect(block.map(([what]) => what)).toEqual(['start', 'start', 'end', 'end']);
      // each on one CPU of its own: base-first puts base on the first CPU, head-first head
      const cpuOf = Object.fromEntries(block.map(([, side, cpu]) => [side, cpu]));
      const first = pair.order === 'base-first' ? 'base' : 'head';
      const second = first === 'base' ? 'head' : 'base';
      expect(cpuOf).toEqual({ [first]: cpus[0], [second]: cpus[1] });
    });
    const markdown = join(dir, 'comment.md');
    expect(pairbench(['report', out, '--markdown', markdown, '--fail-on', 'none']).status).toBe(0);
    expect(readFileSync(markdown, 'utf8')).toContain(`- **pair runs**: \`at once\`, both sides of every pair started together, one on CPU ${cpus[0]} and one on CPU ${cpus[1]}, the pair's coin choosing which; each run had one CPU, and the two shared the caches and memory bandwidth`);
    // the replay line runs them at once too
    expect(readFileSync(markdown, 'utf8')).toMatch(/pairbench compare [^\n]*--pair-runs at-once/);
  });

  twoCpus.it('finds a 2× slowdown at once', () => {
    const dir = sides({ base: 20_000, head: 40_000 });
    const out = join(dir, 'r.json');
    // CPU time, which a neighbour bound to one of the two CPUs (a job beside the tests) does not
    // stretch as it stretches wall time: whatever else runs, twice the work reads twice the time
    const res = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', 'sh work.sh', '--metric', 'cpu', '--pair-runs', 'at-once', '--max-pairs', '30', '--out', out]);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const row = readResults(out).benchmarks[0]!;
    expect(row.verdict).toBe('regression');
    expect(row.change!.estimate).toBeGreaterThan(0.5);
  });

  twoCpus.it("measures a failed pair at once again, and stops a command that keeps failing (head's runs from its 4th exit 7): exit 3", () => {
    const dir = sides({ base: 1, head: 1 });
    writeFileSync(join(dir, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 100, factor: 1.2, noise: 0.01, fail: { side: 'head', fromRun: 4, exitCode: 7 } } } }));
    const out = join(dir, 'r.json');
    const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', './bench', '--pair-runs', 'at-once', '--seed', '42', '--out', out], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' } });
    expect(res.status, res.stdout + res.stderr).toBe(3);
    expect(res.stderr).toContain("warning: ./bench: head's command failed (exit code 7); retrying (1/2)\nwarning: ./bench: head's command failed (exit code 7); retrying (2/2)\nerror: ./bench: head's command failed (exit code 7), 3 times in a row\n");
    // a warm-up run of each side, two pairs, then head's 4th, 5th and 6th runs failed, each at once beside a run of base
    expect(res.stdout).toContain('  | scripted failure: run 6 of head\n');
    const results = readResults(out);
    expect(results.benchmarks[0]!.pairs).toHaveLength(2);
    expect(results.settings?.['pairRuns']).toBe('at-once');
  });

  twoCpus.it('refuses --cpus none or a list of one CPU with it, in one line, exit 2', () => {
    const dir = sides({ base: 1, head: 1 });
    const common = ['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', 'true', '--pair-runs', 'at-once', '--out', join(dir, 'r.json')];
    const none = pairbench([...common, '--cpus', 'none']);
    expect(none.status).toBe(2);
    expect(none.stderr.trim()).toBe('pairbench: --cpus: got "none", but --pair-runs at-once binds each side of a pair to a CPU of its own; expected auto, or a list of two CPUs or more');
    const one = pairbench([...common, '--cpus', String(allowedCpus()!.at(-1))]);
    expect(one.status).toBe(2);
    expect(one.stderr.trim()).toBe(`pairbench: --cpus: got "${allowedCpus()!.at(-1)}", one CPU, but --pair-runs at-once binds each side of a pair to a CPU of its own; expected auto, or a list of two CPUs or more`);
  });

  twoCpus.it('auto, the default: at once on a machine that gives each side a CPU, said in the log and the report; in turn, as before, with --cpus none or a list', () => {
    const dir = sides({ base: 1, head: 1 });
    const log = join(dir, 'runs.log');
    const run = `c=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status); n=$(basename "$PWD"); echo "start $n $c" >> ${log}; sleep 0.8; echo "end $n $c" >> ${log}`;
    const common = ['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', run, '--warmup', '0', '--min-pairs', '3', '--max-pairs', '3', '--fail-on', 'none'];
    const out = join(dir, 'auto.json');
    const res = pairbench([...common, '--out', out]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const cpus = [...allowedCpus()!].sort((a, b) => a - b).slice(-2).map(String);
    const results = readResults(out);
    expect(results.settings?.['pairRuns']).toBe('auto');
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string, string]);
    expect(lines).toHaveLength(12);
    const markdown = join(dir, 'comment.md');
    expect(pairbench(['report', out, '--markdown', markdown, '--fail-on', 'none']).status).toBe(0);
    const comment = readFileSync(markdown, 'utf8');
    if (/^at once: /.test(String(results.settings?.['atOnce']))) {
      expect(res.stderr).toContain(`--pair-runs auto: both sides of every pair started together, one on CPU ${cpus[0]} and one on CPU ${cpus[1]}, the pair's coin choosing which; every run has one CPU, and the two share the caches and memory bandwidth\n`);
      // every pair's two runs started before either ended, each on a CPU of its own
      for (let k = 0; k < 3; k++) {
        const block = lines.slice(4 * k, 4 * k + 4);
        expect(block.map(([what]) => what)).toEqual(['start', 'start', 'end', 'end']);
        expect(block.map(([, , cpu]) => cpu).sort()).toEqual([cpus[0], cpus[0], cpus[1], cpus[1]].sort());
      }
      expect(comment).toContain('- **pair runs**: `at once`, both sides of every pair started together');
    } else {
      // other work beside this test kept one of the two CPUs busy (a loaded machine): in turn, and said why
      expect(results.settings?.['atOnce']).toMatch(/^in turn: other work kept CPU \d+ busy \d+% of the time just before measuring/);
      expect(res.stderr).toMatch(/--pair-runs auto: the pairs run in turn: other work kept CPU \d+ busy/);
      expect(lines.map(([what]) => what)).toEqual(Array.from({ length: 6 }, () => ['start', 'end']).flat());
      expect(comment).toMatch(/- \*\*pair runs\*\*: `in turn`, other work kept CPU \d+ busy/);
    }
    // the default needs no flag to replay
    expect(comment).not.toMatch(/pairbench compare [^\n]*--pair-runs/);
    // --cpus none: the user's own choice of where every run goes; in turn, unbound, nothing said of pair runs
    writeFileSync(log, '');
    const noneOut = join(dir, 'none.json');
    const none = pairbench([...common, '--cpus', 'none', '--out', noneOut]);
    expect(none.status, none.stdout + none.stderr).toBe(0);
    expect(none.stderr).not.toContain('--pair-runs');
    expect(readResults(noneOut).settings?.['atOnce']).toBeUndefined();
    const turns = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
    expect(turns).toEqual(Array.from({ length: 6 }, () => ['start', 'end']).flat());
  });

  it('auto, on a machine where other work keeps one of the two CPUs busy: the pairs in turn, bound as --cpus auto binds them in turn, and the log, the results and the report say why (scripted)', () => {
    // the scripted runner plays CPUs 0 and 1 (SCRIPTED_HOST) and reads other work's share of each from cpuBusy
    const dir = realpathSync(tempDir());
    mkdirSync(join(dir, 'base'));
    mkdirSync(join(dir, 'head'));
    const run = (cpuBusy: Record<string, number>, out: string) => {
      writeFileSync(join(dir, 'script.json'), JSON.stringify({ seed: 1, cpuBusy, benchmarks: { '*': { baseMs: 50, noise: 0.01, goBenchmarks: { BenchmarkA: { nsPerOp: 20_000 } } } } }));
      const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', 'go test -bench=.', '--format', 'go', '--min-pairs', '12', '--max-pairs', '12', '--fail-on', 'none', '--out', out], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' } });
      expect(res.status, res.stdout + res.stderr).toBe(0);
      return { res, results: readResults(join(dir, out)) };
    };
    const busy = run({ '1': 0.6 }, 'busy.json');
    const why = 'other work kept CPU 1 busy 60% of the time just before measuring, and at once what runs on one CPU slows one side of each pair alone';
    expect(busy.res.stderr).toContain(`--pair-runs auto: the pairs run in turn: ${why}\n`);
    expect(busy.res.stderr).toContain('--cpus auto: the measured runs are bound to CPU 1,');
    expect(busy.results.settings?.['atOnce']).toBe(`in turn: ${why}`);
    expect(busy.results.settings?.['cpus']).toBe('1');
    const markdown = join(dir, 'comment.md');
    expect(pairbench(['report', join(dir, 'busy.json'), '--markdown', markdown, '--fail-on', 'none']).status).toBe(0);
    expect(readFileSync(markdown, 'utf8')).toContain(`- **pair runs**: \`in turn\`, ${why}`);
    // a quarter of its time or less: at once, as on a free machine
    const light = run({ '0': 0.2, '1': 0.25 }, 'light.json');
    expect(light.results.settings?.['atOnce']).toMatch(/^at once: /);
    expect(light.results.settings?.['cpus']).toBeUndefined();
  });
});
