/**
 * The order vitest runs test files in (vitest.config.ts, `sequence.sequencer`).
 *
 * `npm test` runs every file in one pool of three workers on two cores: the unit tests and the example tests
 * (each a whole comparison measured on real timings, bound to the core of its worker:
 * tests/support/examples.ts). How long the run takes is decided by the long files: started late,
 * one of them runs alone on one worker while the other has run out of files. So:
 *
 * - the files known to be long (`SECONDS`) run first, longest first (Graham 1969, "Bounds on
 *   multiprocessing timing anomalies", SIAM J. Appl. Math. 17, 416-429: longest-first is within
 *   4/3 - 1/(3m) of the best order on m workers), preceded by any example test not listed (a new one,
 *   its time unknown and likely long);
 * - every other file follows, shuffled by the run's seed ("Running tests with seed ...";
 *   `--sequence.seed` replays it), so that a test leaning on state another left behind fails at
 *   once. The long files share no state with the rest either: each makes its own folders.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { mulberry32 } from '../../src/stats/prng.ts';

/**
 * Seconds each long file took in a fresh clone's `.ci/run` on two cores with nothing else running
 * (the example tests at their budgets of seven to twelve pairs). Only their order matters: a file
 * that grows or shrinks a little changes nothing; one that grows past the others belongs higher.
 */
export const SECONDS: Readonly<Record<string, number>> = {
  // niced (tests/support/cli.ts, `nice`): it takes a core only when the two files beside it leave one
  // idle, so it runs longest in the pool (54 s alone) while costing less than a minute of a core, and
  // started first it fills those idle moments from the start instead of running on alone at the end
  'tests/measure/go-example-instructions.test.ts': 299,
  'tests/examples/mitata.test.ts': 107,
  'tests/examples/catch2.test.ts': 94,
  'tests/examples/benchmarkjs.test.ts': 65,
  'tests/hardening/scale-compare.test.ts': 47,
  'tests/examples/vitest.test.ts': 42,
  'tests/hardening/interrupt-phases.test.ts': 41,
  'tests/measure/harness-instructions.test.ts': 38,
  'tests/hardening/scale.test.ts': 37,
  'tests/action/dist.test.ts': 28,
  'tests/examples/node-bench.test.ts': 28,
  'tests/examples/go.test.ts': 27,
  'tests/examples/python-pytest.test.ts': 25,
  'tests/measure/python-instructions.test.ts': 23,
  'tests/action/api-deadlines.test.ts': 22,
  'tests/measure/metrics.test.ts': 22,
  'tests/action/gate-agrees.test.ts': 21,
  'tests/bisect/bisect.test.ts': 21,
  'tests/build-cache/build-cache.test.ts': 21,
  'tests/harness/examples.test.ts': 21,
  'tests/examples/rust-cache.test.ts': 20,
  'tests/action/build-cache.test.ts': 18,
  'tests/examples/pyperf.test.ts': 17,
  'tests/action/report-mode.test.ts': 16,
  'tests/stats/judge.test.ts': 16,
  'tests/action/trusted-events.test.ts': 15,
  'tests/package/pack.test.ts': 15,
  'tests/browser/scale.test.ts': 12,
  'tests/results/v1-files.test.ts': 12,
  'tests/cli/usage.test.ts': 9,
};

/** The file's path from the project's root (tests/...), as `SECONDS` names it. */
function relative(moduleId: string): string {
  const m = /(?:^|[\\/])(tests[\\/].*)$/.exec(moduleId);
  return (m ? m[1]! : moduleId).replace(/\\/g, '/');
}

const isExample = (path: string) => /^tests\/examples\/[^/]+\.test\.ts$/.test(path);

export default class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // a fixed starting order (the glob's may change between runs), so that only the seed decides
    const sorted = [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
    const seconds = (f: TestSpecification) => SECONDS[relative(f.moduleId)];
    const unknownExamples = sorted.filter((f) => seconds(f) === undefined && isExample(relative(f.moduleId)));
    const long = sorted.filter((f) => seconds(f) !== undefined).sort((a, b) => seconds(b)! - seconds(a)!); // stable: equal times stay in path order
    const others = sorted.filter((f) => seconds(f) === undefined && !isExample(relative(f.moduleId)));
    // Fisher-Yates by the run's seed
    const random = mulberry32(Number(this.ctx.config.sequence.seed ?? 0));
    for (let i = others.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [others[i], others[j]] = [others[j]!, others[i]!];
    }
    return [...unknownExamples, ...long, ...others];
  }
}
