/** The pyperf example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const pyperf = requireTool(TOOLS.pyperf);

describe('examples, compared end to end', () => {
  pyperf.it('pyperf-suite: checksum_4k regresses, sort_10000 raises no huge claim, each paired on its own', () => {
    perBenchmark('pyperf-suite', 'checksum_4k', 'sort_10000', { pairs: 14 });
  }, EXAMPLE_LIMITS.testMs);
});
