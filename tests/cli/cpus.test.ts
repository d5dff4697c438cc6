/** `--cpus` end to end: every measured run of both sides is bound to the CPUs given, and the results file says so. */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCpuList } from '../../src/config/cpu-list.ts';
import { allowedCpus } from '../../src/config/cpus.ts';
import { SCRIPTED_HOST } from '../../src/schedule/scripted-runner.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { requireTool, works } from '../support/require-tool.ts';

const taskset = requireTool({ name: 'taskset', platforms: ['linux'], present: () => works('taskset', ['--version']), install: 'sudo apt-get install -y util-linux' });

/** The CPUs this test process may use (Linux). */
const allowed = (): number[] => allowedCpus() ?? [];

describe('--cpus', () => {
  taskset.it('binds every measured run to the CPUs given: a run that checks its own CPUs passes bound and fails unbound', () => {
    const cpu = allowed().at(-1)!;
    const dir = tempDir();
    // the run succeeds only when the process may use exactly that one CPU. Both sides are the same
    // command, so any verdict is chance (six pairs of one sign: p = 2/64); --fail-on none keeps exit 0 about the runs
    const run = `grep -Eq '^Cpus_allowed_list:[[:space:]]+${cpu}$' /proc/self/status`;
    const common = ['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--min-pairs', '6', '--max-pairs', '6', '--fail-on', 'none', '--quiet'];
    const out = join(dir, 'bound.json');
    const bound = pairbench([...common, '--cpus', String(cpu), '--out', out]);
    expect(bound.status, bound.stdout + bound.stderr).toBe(0);
    const results = readResults(out);
    expect(results.benchmarks[0]!.pairs).toHaveLength(6);
    expect(results.settings?.['cpus']).toBe(String(cpu));
    if (allowed().length > 1) {
      // --cpus none: the same run sees every CPU and fails, so the binding above was pairbench's doing;
      // the results record none, so that a replay leaves the runs unbound too, and the report says so
      const unboundOut = join(dir, 'unbound.json');
      const unbound = pairbench([...common, '--cpus', 'none', '--out', unboundOut]);
      expect(unbound.status).not.toBe(0);
      expect(unbound.stderr).toContain('--cpus none: the measured runs are not bound: --cpus none leaves every measured run free to use any CPU\n');
      expect(readResults(unboundOut).settings?.['cpus']).toBe('none');
      // a run that succeeds unbound, reported: the comment says the runs were not bound, as asked
      const noneOut = join(dir, 'none.json');
      expect(pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--min-pairs', '6', '--max-pairs', '6', '--fail-on', 'none', '--quiet', '--cpus', 'none', '--out', noneOut]).status).toBe(0);
      const markdown = join(dir, 'unbound.md');
      const report = pairbench(['report', noneOut, '--markdown', markdown, '--fail-on', 'none']);
      expect(report.status, report.stderr).toBe(0);
      const comment = readFileSync(markdown, 'utf8');
      expect(comment).toContain('- **bound to CPUs**: `no (--cpus none)`, --cpus none leaves every measured run free to use any CPU');
      // the replay line leaves them unbound too
      expect(comment).toMatch(/pairbench compare [^\n]*--cpus none/);
    }
  });

  it('auto, the default, with the pairs in turn: a Go or pytest-benchmark suite bound to every CPU but the lowest; the log and the report say so', () => {
    const dir = realpathSync(tempDir());
    // a Go suite on the scripted runner (schedule/scripted-runner.ts), which plays a machine of CPUs
    // 0 and 1 whatever this one is: the choice is the spec's, whatever runs (a machine that cannot
    // bind: tests/config/isolation.test.ts)
    expect(SCRIPTED_HOST.allowed).toEqual([0, 1]);
    mkdirSync(join(dir, 'base'));
    mkdirSync(join(dir, 'head'));
    writeFileSync(join(dir, 'script.json'), JSON.stringify({ seed: 1, benchmarks: { '*': { baseMs: 50, noise: 0.01, goBenchmarks: { BenchmarkA: { nsPerOp: 20_000 } } } } }));
    const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', 'go test -bench=.', '--format', 'go', '--min-pairs', '12', '--max-pairs', '12', '--fail-on', 'none', '--pair-runs', 'in-turn', '--out', 'auto.json'], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' } });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stderr).toContain("--cpus auto: the measured runs are bound to CPU 1, every CPU this process may use but CPU 0, which is left to pairbench's own process and its run helper\n");
    expect(res.stderr).not.toContain('--pair-runs');
    const out = join(dir, 'auto.json');
    const results = readResults(out);
    expect(results.settings?.['cpus']).toBe('1');
    expect(results.settings?.['isolation']).toMatch(/^bound to CPU/);
    // the report says so
    const markdown = join(dir, 'comment.md');
    const report = pairbench(['report', out, '--markdown', markdown, '--fail-on', 'none']);
    expect(report.status, report.stderr).toBe(0);
    const comment = readFileSync(markdown, 'utf8');
    expect(comment).toContain('- **bound to CPUs**: `1`');
    expect(comment).not.toContain('pair runs');
  });

  taskset.it('auto, with the pairs in turn, leaves the runs of a format it was not measured to help unbound: a timed command really runs on every CPU, and nothing is said', () => {
    const dir = tempDir();
    const every = formatCpuList([...allowed()].sort((a, b) => a - b), Infinity);
    // the run passes only when it may use every CPU this process may use
    const run = `grep -Eq '^Cpus_allowed_list:[[:space:]]+${every}$' /proc/self/status`;
    const out = join(dir, 'time.json');
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--min-pairs', '6', '--max-pairs', '6', '--fail-on', 'none', '--pair-runs', 'in-turn', '--out', out]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stderr).not.toContain('--cpus');
    expect(res.stderr).not.toContain('--pair-runs');
    const results = readResults(out);
    expect(results.benchmarks[0]!.pairs).toHaveLength(6);
    expect(results.settings?.['cpus']).toBeUndefined();
    expect(results.settings?.['isolation']).toBeUndefined();
    const markdown = join(dir, 'comment.md');
    expect(pairbench(['report', out, '--markdown', markdown, '--fail-on', 'none']).status).toBe(0);
    expect(readFileSync(markdown, 'utf8')).not.toContain('bound to CPUs');
  });

  taskset.it('refuses a CPU this process may not use, in one line, exit 2', () => {
    const dir = tempDir();
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--cpus', '4095', '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toMatch(/^pairbench: --cpus: got "4095", but this process may use only CPUs [\d,-]+ \(CPU 4095 is not among them\); expected CPUs among those$/);
  });
});
