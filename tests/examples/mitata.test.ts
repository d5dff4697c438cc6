/** The mitata example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const mitataExample = requireTool(TOOLS['mitata-suite']);

describe('examples, compared end to end', () => {
  mitataExample.it('mitata-suite: checksum regresses, sort raises no huge claim, both in each process (--batch 2), each paired', () => {
    // seven pairs, every one kept (--outliers none), both benchmarks in each process (--batch 2):
    // each mitata process spends about 4 s measuring its own baselines before any benchmark, so a
    // pair of one benchmark on its own costs about 12 s
    perBenchmark('mitata-suite', 'checksum 64 KiB', 'sort 1000', { pairs: 7, outliers: 'none', batch: 2, slower: { file: 'kernels.mjs', from: 'const EXTRA_PERCENT = 15;', to: 'const EXTRA_PERCENT = 100;' } });
  }, EXAMPLE_LIMITS.testMs);
});
