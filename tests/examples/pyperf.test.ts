/** The pyperf example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const pyperf = requireTool(TOOLS.pyperf);

describe('examples, compared end to end', () => {
  pyperf.it('pyperf-suite: checksum_4k regresses, sort_10000 is unchanged, each paired on its own', () => {
    // twenty-four pairs at most: in CI runs (2026-11-27) the sort's first two pairs landed at −15.8%
    // and −8.8% and the ten after them within ±2% (at twelve the interval still reached −7.4%), and
    // two of fifteen at +33% and +45% (tests/support/examples.ts)
    perBenchmark('pyperf-suite', 'checksum_4k', 'sort_10000', { pairs: 24 });
  }, 360_000);
});
