/** The catch2 example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const catch2 = requireTool(TOOLS.catch2);

describe('examples, compared end to end', () => {
  catch2.it('catch2-suite: checksum regresses, sort raises no huge claim, both in each process (--batch 2), each paired', () => {
    // both benchmarks in each process (--batch 2): a Catch2 process spends about 2 s estimating its
    // clock before it measures. Four passes over the input in head, not the example's two: Catch2
    // reports the mean of its samples, which follows a stretch of a process that the machine
    // slowed, and beside the noise generator (bench/noise-generator.ts) on a busy 2-core machine
    // a base run slowed twice as much as its head turned enough pairs of twice the work around to
    // leave the checksum `inconclusive`
    perBenchmark('catch2-suite', 'checksum > checksum 64 KiB', 'sort > sort 10000', { pairs: 14, batch: 2, slower: { file: 'kernels.cc', from: 'static volatile int checksum_passes = 2;', to: 'static volatile int checksum_passes = 4;' } });
  }, EXAMPLE_LIMITS.testMs);
});
