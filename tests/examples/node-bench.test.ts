/**
 * The node:bench example end to end through `pairbench compare`, with the Node.js 26 that
 * scripts/setup-ci.sh installs first on PATH: pairbench itself runs on this project's Node, the
 * measured program on 26. What these tests share and why: tests/support/examples.ts.
 *
 * Only what holds however busy the machine is: head's checksum does twice the work, so it is a
 * regression; the untouched sort raises no huge claim; each benchmark is paired on its own (one
 * process per benchmark and side, selected by `--bench-name-pattern`).
 */
import { describe } from 'vitest';
import { EXAMPLE_LIMITS, perBenchmark } from '../support/examples.ts';
import { NODE26_BIN, TOOLS, requireTool } from '../support/require-tool.ts';

const node26 = requireTool(TOOLS.node26);

describe('examples, compared end to end', () => {
  node26.it('node-bench-suite: the checksum made twice the work is a regression, each benchmark paired on its own', () => {
    perBenchmark('node-bench-suite', 'kernels.bench.mjs > checksum 64 KiB', 'kernels.bench.mjs > sort 1000', { pairs: 14, env: { PATH: `${NODE26_BIN}:${process.env.PATH ?? ''}` } });
  }, EXAMPLE_LIMITS.testMs);
});
