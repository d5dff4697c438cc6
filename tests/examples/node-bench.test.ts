/**
 * The node:bench example end to end through `pairbench compare`, with the Node.js 26 that
 * scripts/setup-ci.sh installs first on PATH: pairbench itself runs on this project's Node, the
 * measured program on 26. What these tests share and why: tests/support/examples.ts.
 *
 * Only what holds however busy the machine is: head's checksum does twice the work, so it is a
 * regression; each benchmark is paired on its own (one process per benchmark and side, selected by
 * `--bench-name-pattern`); the run fails the gate for that regression and for nothing else.
 */
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { copyExample, ownCore, workflowStep } from '../support/examples.ts';
import { NODE26_BIN, TOOLS, requireTool } from '../support/require-tool.ts';

const node26 = requireTool(TOOLS.node26);

const SLOWED = 'kernels.bench.mjs > checksum 64 KiB';
const UNTOUCHED = 'kernels.bench.mjs > sort 1000';

describe('examples, compared end to end', () => {
  node26.it('node-bench-suite: the checksum made twice the work is a regression, each benchmark paired on its own', () => {
    const { step } = workflowStep('node-bench-suite');
    const ex = copyExample('node-bench-suite');
    const file = join(ex.dir, 'results.json');
    const res = pairbench(
      ['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--run', step.run, '--format', step.format, '--threshold', '5%', '--min-pairs', '7', '--max-pairs', '12', '--max-time', '4m', '--out', file],
      { timeoutMs: 330_000, core: ownCore(), env: { PATH: `${NODE26_BIN}:${process.env.PATH ?? ''}` } },
    );
    // exit 1: the gate failed on a regression (2 would be a usage error, anything else a crash)
    expect(res.status, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace
    const results = readResults(file);
    expect(results.benchmarks.map((b) => b.name).sort()).toEqual([SLOWED, UNTOUCHED]);
    const slowed = results.benchmarks.find((b) => b.name === SLOWED)!;
    expect(slowed.verdict, res.stdout).toBe('regression');
    expect(slowed.change!.estimate).toBeGreaterThan(0.3);
    // each benchmark is paired on its own: a round lists benchmarks, not the suite
    expect([...results.rounds![0]!].sort()).toEqual([SLOWED, UNTOUCHED]);
    expect(res.stdout).toContain(SLOWED);
  }, 360_000);
});
