import { defineConfig } from 'vitest/config';
import Sequencer from './tests/support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // the CLI and the action bundled once from the sources, for every test to spawn
    globalSetup: ['tests/support/global-setup.ts'],
    // each test file's temp folders removed after it (tests/support/repo.ts)
    setupFiles: ['tests/support/cleanup.ts'],
    // A limit no load of the machine reaches: on a machine running fifteen processes for its two
    // cores, a test that runs the action's bundle took 87 s (tests/action/dist.test.ts, `mode: noise`)
    // against a limit of 120 s then, and a limit the load can reach fails a test on the machine's
    // noise. A hung test still fails, later.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Tests spawn real processes and git repositories, and many of them wait (on a run, a signal's
    // exit, a deadline of the fake GitHub API): a third worker keeps CI's two cores busy while
    // another waits, and the suite ends about a sixth sooner than with two.
    maxWorkers: 3,
    // Every run, local or CI, takes the files and the tests within each file in a random order, so
    // that a test leaning on state another test left behind fails at once instead of hiding. The
    // seed is printed ("Running tests with seed ..."); `npx vitest run --sequence.seed=<seed>`
    // replays that order. The example tests, whole comparisons of minutes each, run longest first
    // instead (tests/support/sequencer.ts).
    sequence: { shuffle: { files: false, tests: true }, sequencer: Sequencer },
  },
});
