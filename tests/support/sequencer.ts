/**
 * The order vitest runs test files in (vitest.config.ts, `sequence.sequencer`).
 *
 * - Unit tests: shuffled by the run's seed ("Running tests with seed ..."; `--sequence.seed`
 *   replays it), so that a test leaning on state another left behind fails at once.
 * - The example tests (`npm run test:examples`, each a whole comparison measured on real timings):
 *   the longest first, two at a time. They are few and long, so their order decides how long the
 *   phase takes: shuffled, the two longest, at budgets of up to 24 pairs (Catch2, about 4 minutes, whose every process spends
 *   about 2 s estimating the clock before it measures; mitata, about 3, whose every process
 *   measures its own baselines first) sometimes ran one after the other on one worker while the
 *   other worker ran out of files, and the phase took 506 s where 8 files of 20-246 s (a CI run of
 *   2026-12-02) fit in about 450 taken longest first (Graham 1969, "Bounds on multiprocessing
 *   timing anomalies", SIAM J. Appl. Math. 17, 416-429: longest-first is within 4/3 of the best
 *   order). They share no state, so their order hides nothing.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { mulberry32 } from '../../src/stats/prng.ts';

/**
 * The example test files, longest first: seconds each took run one at a time beside other work
 * (load average 4-9 on two cores), at their budgets of ten pairs at most: mitata 128, catch2 107,
 * pyperf 91, vitest 88, benchmarkjs 69, python-pytest 58, go 32; rust-cache 20 in an earlier CI run.
 */
const EXAMPLES_LONGEST_FIRST = ['mitata', 'catch2', 'node-bench', 'pyperf', 'vitest', 'benchmarkjs', 'python-pytest', 'go', 'rust-cache'];

/** Where a file of tests/examples/ stands in EXAMPLES_LONGEST_FIRST; one not listed (a new example) runs first, its time unknown. */
function exampleRank(moduleId: string): number | null {
  const m = /[\\/]tests[\\/]examples[\\/]([^\\/]+)\.test\.ts$/.exec(moduleId);
  if (!m) return null;
  return EXAMPLES_LONGEST_FIRST.indexOf(m[1]!);
}

export default class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // a fixed starting order (the glob's may change between runs), so that only the seed decides
    const sorted = [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
    const examples = sorted.filter((f) => exampleRank(f.moduleId) !== null);
    const others = sorted.filter((f) => exampleRank(f.moduleId) === null);
    examples.sort((a, b) => exampleRank(a.moduleId)! - exampleRank(b.moduleId)!);
    // Fisher-Yates by the run's seed
    const random = mulberry32(Number(this.ctx.config.sequence.seed ?? 0));
    for (let i = others.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [others[i], others[j]] = [others[j]!, others[i]!];
    }
    return [...examples, ...others];
  }
}
