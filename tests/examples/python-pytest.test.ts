/** The pytest-benchmark example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { copyExample, expectNoAlarm, ownCore, workflowStep } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const pytestBenchmark = requireTool(TOOLS.pytestBenchmark);

describe('examples, compared end to end', () => {
  pytestBenchmark.it('python-pytest: test_checksum regresses, test_sort does not', () => {
    const ex = copyExample('python-pytest');
    const file = join(ex.dir, 'py.json');
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--run', workflowStep('python-pytest').step.run, '--format', workflowStep('python-pytest').step.format, '--max-pairs', '20', '--threshold', '5%', '--outliers', 'none', '--alpha', '0.01', '--out', file, '--quiet'], { timeoutMs: 880_000, core: ownCore() });
    expect(res.status, res.stdout).toBe(1);
    const results = readResults(file);
    const checksum = results.benchmarks.find((b) => b.name.includes('test_checksum'))!;
    expect(checksum.verdict).toBe('regression');
    const sorts = results.benchmarks.filter((b) => b.name.includes('test_sort'));
    expect(sorts.length).toBeGreaterThanOrEqual(2);
    for (const b of sorts) expectNoAlarm(b);
  }, 900_000);
});
