/** The catch2 example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const catch2 = requireTool(TOOLS.catch2);

describe('examples, compared end to end', () => {
  catch2.it('catch2-suite: checksum regresses, sort raises no huge claim, both in each process (--batch 2), each paired', () => {
    // both benchmarks in each process (--batch 2): a Catch2 process spends about 2 s estimating its
    // clock before it measures
    perBenchmark('catch2-suite', 'checksum > checksum 64 KiB', 'sort > sort 10000', { pairs: 10, batch: 2 });
  }, EXAMPLE_LIMITS.testMs);
});
