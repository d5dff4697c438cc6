/** The pytest-benchmark example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { EXAMPLE_LIMITS, copyExample, expectFound, expectNoHugeClaim, expectOutputs, ownCore, workflowStep } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const pytestBenchmark = requireTool(TOOLS.pytestBenchmark);

describe('examples, compared end to end', () => {
  pytestBenchmark.it('python-pytest: test_checksum regresses, test_sort raises no huge claim', () => {
    const ex = copyExample('python-pytest');
    const file = join(ex.dir, 'py.json');
    const markdown = join(ex.dir, 'report.md');
    const { step } = workflowStep('python-pytest');
    // judged as its README says, every pair kept (--outliers none); ten pairs, the fewest at which the
    // checksum can be decided among its three benchmarks with room for a disturbed pair
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--run', step.run, '--format', step.format, '--max-pairs', '10', '--max-time', EXAMPLE_LIMITS.maxTime, '--threshold', '5%', '--outliers', 'none', '--out', file, '--markdown', markdown, '--quiet'], { timeoutMs: EXAMPLE_LIMITS.processMs, core: ownCore() });
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const results = readResults(file);
    expectFound(results.benchmarks.find((b) => b.name.includes('test_checksum')), res.stdout);
    const sorts = results.benchmarks.filter((b) => b.name.includes('test_sort'));
    expect(sorts.length).toBeGreaterThanOrEqual(2);
    for (const b of sorts) expectNoHugeClaim(b, res.stdout);
    expectOutputs(file, markdown);
  }, EXAMPLE_LIMITS.testMs);
});
