/**
 * Metrics beyond wall time, end to end through the CLI on real compiled programs:
 * instruction counts (valgrind or perf) and peak memory. No assertion depends on timing:
 * instruction counts and allocated memory are properties of the programs.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ROOT, pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const cc = requireTool(TOOLS.cc);
const counter = requireTool(TOOLS.instructionCounter);

function build(dir: string, source: string, defines: string[]): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(source, join(dir, 'prog.c'));
  execFileSync('cc', ['-O2', ...defines.map((d) => `-D${d}`), '-o', join(dir, 'prog'), join(dir, 'prog.c')]);
}

cc.describe('metrics', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    const work = join(ROOT, 'examples/demo/work.c');
    build(join(dir, 'work-100'), work, ['WORK=100', 'SCALE=2000L']);
    build(join(dir, 'work-101'), work, ['WORK=101', 'SCALE=2000L']);
    const alloc = join(ROOT, 'tests/fixtures/programs/alloc.c');
    build(join(dir, 'alloc-40'), alloc, ['MEGABYTES=40']);
    build(join(dir, 'alloc-48'), alloc, ['MEGABYTES=48']);
  });

  counter.it('instructions: 1% more work is a regression of about +1% with a tight interval in 10 pairs', () => {
    const file = join(dir, 'instr.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'work-100'), '--head-dir', join(dir, 'work-101'), '--run', './prog', '--metric', 'instructions', '--threshold', '0.5%', '--min-pairs', '10', '--max-pairs', '10', '--warmup', '0', '--out', file, '--quiet']);
    expect(res.status, res.stderr).toBe(1);
    const results = readResults(file);
    expect(['perf', 'valgrind']).toContain(results.settings?.['instructionCounter']);
    const b = results.benchmarks[0]!;
    expect(b.metric).toBe('instructions');
    expect(b.unit).toBe('instructions');
    expect(b.verdict).toBe('regression');
    expect(b.change!.estimate).toBeGreaterThan(0.008);
    expect(b.change!.estimate).toBeLessThan(0.012);
    expect(b.change!.ci[1] - b.change!.ci[0]).toBeLessThan(0.002);
  });

  it('rss: 20% more memory is a regression of peak memory', () => {
    const file = join(dir, 'rss.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'alloc-40'), '--head-dir', join(dir, 'alloc-48'), '--run', './prog', '--metric', 'rss,wall', '--max-pairs', '12', '--out', file, '--quiet']);
    expect([0, 1]).toContain(res.status);
    const results = readResults(file);
    const rss = results.benchmarks.find((b) => b.metric === 'rss')!;
    expect(rss.name).toBe('./prog [rss]');
    expect(rss.unit).toBe('B');
    expect(rss.verdict).toBe('regression');
    expect(rss.change!.estimate).toBeGreaterThan(0.15);
    expect(rss.change!.estimate).toBeLessThan(0.22);
    expect(rss.base!.median).toBeGreaterThan(40 * 1024 * 1024);
    // wall time is judged on its own row, whatever it says
    expect(results.benchmarks.find((b) => b.metric === 'wall')).toBeDefined();
    expect(res.stdout).toMatch(/\.\/prog \[rss\]/);
  });

  it('the gate is set per metric: each metric row carries its own threshold', () => {
    const config = join(dir, 'per-metric.yml');
    writeFileSync(config, ['benchmarks:', '  - name: alloc', '    run: ./prog', '    metric: [wall, rss]', '    threshold: { wall: 50%, rss: 5% }'].join('\n'));
    const file = join(dir, 'per-metric.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'alloc-40'), '--head-dir', join(dir, 'alloc-48'), '--config', config, '--max-pairs', '12', '--out', file, '--quiet']);
    expect([0, 1]).toContain(res.status);
    const rows = new Map(readResults(file).benchmarks.map((b) => [b.metric, b]));
    expect(rows.get('wall')!.threshold).toBe(0.5);
    expect(rows.get('rss')!.threshold).toBe(0.05);
    expect(rows.get('rss')!.verdict).toBe('regression');
  });

  it('cpu: CPU time of the process tree is measured in the same pairs', () => {
    const file = join(dir, 'cpu.json');
    const res = pairbench(['compare', '--base-dir', join(dir, 'work-100'), '--head-dir', join(dir, 'work-100'), '--run', './prog', '--metric', 'cpu', '--max-pairs', '10', '--out', file, '--quiet']);
    expect([0, 1]).toContain(res.status);
    const b = readResults(file).benchmarks[0]!;
    expect(b.metric).toBe('cpu');
    expect(b.pairs.length).toBeGreaterThanOrEqual(10);
    for (const p of b.pairs) expect(p.base).toBeGreaterThan(0);
  });
});
