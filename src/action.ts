/**
 * The GitHub Action's entry point (bundled to dist/index.js, `runs.using: node24`). Thin: the work
 * is in action/run.ts, which builds the same Spec as the CLI and calls the same engine.
 */
import { runAction } from './action/run.ts';

await runAction();
