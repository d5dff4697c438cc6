/** The pyperf example end to end through `pairbench compare`. What these tests share and why: tests/support/examples.ts. */
import { describe, expect } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const pyperf = requireTool(TOOLS.pyperf);

describe('examples, compared end to end', () => {
  pyperf.it("pyperf-suite: checksum_4k regresses, sort_10000 raises no huge claim, each paired on its own, its runs designed from its pilot", () => {
    perBenchmark('pyperf-suite', 'checksum_4k', 'sort_10000', {
      pairs: 14,
      check: (results) => {
        // --design auto: one worker process a run, a loop count fixed from the listing run, the same on both sides
        for (const b of results.benchmarks) {
          expect(b.design?.chosen, b.name).toBe(true);
          expect(b.design!.pilotPairs, b.name).toBeGreaterThanOrEqual(8);
          expect(b.design!.iterations, b.name).toBeGreaterThanOrEqual(1);
          // no longer than the command's --min-time 0.02
          expect(b.design!.lengthMs, b.name).toBeLessThanOrEqual(40);
        }
      },
    });
  }, EXAMPLE_LIMITS.testMs);
});
