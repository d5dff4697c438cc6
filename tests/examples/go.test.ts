/** The Go example (go test -bench) end to end through `pairbench compare`: at the default threshold, with --design command, and in a config of three formats. What these tests share and why: tests/support/examples.ts. */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ROOT, pairbench, readResults } from '../support/cli.ts';
import { EXAMPLE_LIMITS, copyExample, expectFound, expectNoHugeClaim, expectOutputs, ownCore, slowFurther, workflowStep } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const go = requireTool(TOOLS.go);

describe('examples, compared end to end', () => {
  go.it('go-suite, at the default threshold (2%): BenchmarkChecksum regresses, its MB/s read from its time, the sorts raise no huge claim', () => {
    const ex = copyExample('go-suite');
    slowFurther(ex.head, 'work.go', 'data[:len(data)*15/100]', 'data[:len(data)*100/100]');
    const file = join(ex.dir, 'go.json');
    const markdown = join(ex.dir, 'report.md');
    // the README's workflow step, as a user copies it, at the defaults a user gets (threshold 2%,
    // alpha 0.05, --design auto), within a CI-sized budget: twenty pairs at most, the shortest pilot
    // (--min-pairs 8) and up to twelve of the chosen design. The doubled checksum is decided as soon
    // as its pairs allow; the sorts stop at --max-pairs. Twelve pairs were not always enough on a
    // busy machine: with a third of them set aside as outliers (the screen is applied afresh to every
    // sign pattern, which keeps the test's level and costs power), Holm's p over three benchmarks
    // stayed at 0.057
    const { step } = workflowStep('go-suite');
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--build', step.build!, '--run', step.run, '--format', step.format, '--min-pairs', '8', '--max-pairs', '20', '--max-time', EXAMPLE_LIMITS.maxTime, '--out', file, '--markdown', markdown, '--quiet'], { timeoutMs: EXAMPLE_LIMITS.processMs, core: ownCore() });
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const byName = new Map(readResults(file).benchmarks.map((b) => [b.name, b]));
    expectFound(byName.get('BenchmarkChecksum'), res.stdout);
    expect(byName.get('BenchmarkChecksum (MB/s)')!.direction).toBe('higher-is-better');
    expect(byName.get('BenchmarkChecksum (MB/s)')!.verdict).toBe('regression');
    // Go's MB/s is its time's reciprocal (b.SetBytes): judged from it, one test for the two rows
    expect(byName.get('BenchmarkChecksum (MB/s)')!.reciprocalOf).toBe('BenchmarkChecksum');
    expect(byName.get('BenchmarkChecksum (MB/s)')!.change!.readFrom).toBe('BenchmarkChecksum');
    expect(byName.get('BenchmarkChecksum (MB/s)')!.change!.pAdjusted).toBe(byName.get('BenchmarkChecksum')!.change!.pAdjusted);
    // the untouched sorts: whether they are `unchanged` at 2% depends on the machine's noise
    // (bench/ measures it); what holds whatever it is, is that no huge change is claimed
    for (const name of ['BenchmarkSort/n=100', 'BenchmarkSort/n=1000']) expectNoHugeClaim(byName.get(name), res.stdout);
    expectOutputs(file, markdown);
    // each benchmark's runs designed from its pilot (--design auto), recorded with each of its rows
    const design = byName.get('BenchmarkChecksum')!.design!;
    expect(design.chosen).toBe(true);
    expect(design.pilotPairs).toBeGreaterThanOrEqual(8);
    expect(design.lengthMs).toBeLessThanOrEqual(100);
    expect(byName.get('BenchmarkChecksum (MB/s)')!.design).toEqual(design);
    // each benchmark is paired on its own: every round lists benchmarks, not the suite
    const rounds = readResults(file).rounds!;
    expect([...rounds[0]!].sort()).toEqual(['BenchmarkChecksum', 'BenchmarkSort/n=100', 'BenchmarkSort/n=1000']);
  }, EXAMPLE_LIMITS.testMs);

  go.it('go-suite with --design command: one iteration count per benchmark (--iterations fixed), recorded with each of its rows', () => {
    const ex = copyExample('go-suite');
    const file = join(ex.dir, 'go.json');
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--build', 'go test -c -trimpath -o build/bench.test .', '--run', './build/bench.test -test.run "^$" -test.bench {filter} -test.benchtime 20ms', '--format', 'go', '--design', 'command', '--min-pairs', '6', '--max-pairs', '6', '--threshold', '5%', '--max-time', EXAMPLE_LIMITS.maxTime, '--out', file, '--quiet'], { timeoutMs: EXAMPLE_LIMITS.processMs, core: ownCore() });
    expect([0, 1]).toContain(res.status);
    const byName = new Map(readResults(file).benchmarks.map((b) => [b.name, b]));
    const checksumN = byName.get('BenchmarkChecksum')!.iterations;
    expect(checksumN).toBeGreaterThan(0);
    expect(byName.get('BenchmarkChecksum (MB/s)')!.iterations).toBe(checksumN);
    expect(byName.get('BenchmarkChecksum')!.design).toBeUndefined();
  }, EXAMPLE_LIMITS.testMs);

  go.it('a config file with three benchmarks of three formats gives one report and records each round\'s shuffled order', () => {
    const ex = copyExample('go-suite');
    cpSync(join(ROOT, 'examples', 'node-suite', 'base'), join(ex.base, 'node'), { recursive: true });
    cpSync(join(ROOT, 'examples', 'node-suite', 'head'), join(ex.head, 'node'), { recursive: true });
    const config = join(ex.dir, 'pairbench.yml');
    // ten pairs each, --min-pairs' default and the most: every round lists the three, and the test
    // reads no verdict
    writeFileSync(
      config,
      [
        'build: go test -c -trimpath -o build/bench.test .',
        'max-pairs: 10',
        'threshold: 5%',
        'benchmarks:',
        '  - name: go',
        '    run: ./build/bench.test -test.run "^$" -test.bench Checksum -test.benchtime 50ms',
        '    format: go',
        '    filter: "^BenchmarkChecksum"',
        '  - name: node',
        '    run: node node/bench.mjs',
        '    format: json',
        '  - name: startup',
        '    run: ./build/bench.test -test.run "^$" -test.list x',
        '    metric: [wall, cpu]',
      ].join('\n'),
    );
    const file = join(ex.dir, 'config.json');
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--config', config, '--seed', '3', '--max-time', EXAMPLE_LIMITS.maxTime, '--out', file, '--quiet'], { timeoutMs: EXAMPLE_LIMITS.processMs, core: ownCore() });
    expect([0, 1], res.stderr).toContain(res.status);
    const results = readResults(file);
    const names = results.benchmarks.map((b) => b.name);
    expect(names).toContain('go/BenchmarkChecksum');
    // a throughput names its time by that row's name, prefixed like it
    expect(results.benchmarks.find((b) => b.name === 'go/BenchmarkChecksum (MB/s)')?.reciprocalOf).toBe('go/BenchmarkChecksum');
    expect(names.filter((n) => n.startsWith('node/')).length).toBeGreaterThanOrEqual(2);
    expect(names).toEqual(expect.arrayContaining(['startup [wall]', 'startup [cpu]']));
    for (const b of results.benchmarks) expect(b.pairs.length, b.name).toBeGreaterThanOrEqual(10);
    // every round lists what is paired, in a shuffled order that is not always the same: the Go
    // suite per benchmark (its simple command takes -test.bench= from pairbench), the others whole
    const rounds = results.rounds!;
    expect(rounds.length).toBeGreaterThanOrEqual(10);
    for (const r of rounds.slice(0, 10)) expect([...r].sort()).toEqual(['go/BenchmarkChecksum', 'node', 'startup']);
    expect(new Set(rounds.map((r) => r.join(','))).size).toBeGreaterThan(1);
    expect(res.stdout).toContain('go/BenchmarkChecksum');
    expect(res.stdout).toContain('startup [cpu]');
  }, EXAMPLE_LIMITS.testMs);
});
