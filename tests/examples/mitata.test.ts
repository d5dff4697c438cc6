/** The mitata example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const mitataExample = requireTool(TOOLS['mitata-suite']);

describe('examples, compared end to end', () => {
  mitataExample.it('mitata-suite: checksum regresses, sort raises no alarm, each paired on its own', () => {
    perBenchmark('mitata-suite', 'checksum 64 KiB', 'sort 1000', { pairs: 7, outliers: 'none', untouchedMay: 'be inconclusive' });
  }, 360_000);
});
