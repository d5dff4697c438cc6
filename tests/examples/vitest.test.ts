/** The vitest example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const vitestExample = requireTool(TOOLS['vitest-suite']);

describe('examples, compared end to end', () => {
  vitestExample.it('vitest-suite: checksum regresses, sort raises no huge claim, both in each process (--batch 2), each paired', () => {
    // both benchmarks in each process (--batch 2): a vitest process spends most of its time
    // starting (collecting, transforming, its workers) before any benchmark
    perBenchmark('vitest-suite', 'kernels.bench.mjs > kernels > checksum > checksum 64 KiB', 'kernels.bench.mjs > kernels > sort > sort 1000', { pairs: 10, outliers: 'none', batch: 2, slower: { file: 'kernels.mjs', from: 'const EXTRA_PERCENT = 15;', to: 'const EXTRA_PERCENT = 100;' } });
  }, EXAMPLE_LIMITS.testMs);
});
