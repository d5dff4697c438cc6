/** The catch2 example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe } from 'vitest';
import { perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const catch2 = requireTool(TOOLS.catch2);

describe('examples, compared end to end', () => {
  catch2.it('catch2-suite: checksum regresses, sort raises no huge claim, each paired on its own', () => {
    perBenchmark('catch2-suite', 'checksum > checksum 64 KiB', 'sort > sort 10000', { pairs: 10 });
  }, 360_000);
});
