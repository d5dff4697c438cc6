/** The vitest example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const vitestExample = requireTool(TOOLS['vitest-suite']);

describe('examples, compared end to end', () => {
  vitestExample.it('vitest-suite: checksum regresses, sort is unchanged, each paired on its own', () => {
    perBenchmark('vitest-suite', 'kernels.bench.mjs > kernels > checksum > checksum 64 KiB', 'kernels.bench.mjs > kernels > sort > sort 1000', { pairs: 20, outliers: 'none' });
  }, 360_000);
});
