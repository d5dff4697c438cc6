/** The benchmarkjs example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const benchmarkjsExample = requireTool(TOOLS['benchmarkjs-suite']);

describe('examples, compared end to end', () => {
  benchmarkjsExample.it('benchmarkjs-suite: checksum loses ops/sec, sort raises no huge claim, each paired on its own', () => {
    perBenchmark('benchmarkjs-suite', 'checksum 64 KiB', 'sort 1000', { pairs: 14 });
  }, EXAMPLE_LIMITS.testMs);
});
