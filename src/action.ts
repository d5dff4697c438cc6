/**
 * The GitHub Action's entry point (bundled to dist/index.js, `runs.using: node24`). Thin: the work
 * is in action/steps.ts, which builds the same Spec as the CLI and calls the same engine. The
 * Node.js version and the runner's system are checked before anything else is imported: an old
 * Node.js gets one line and exit status 2 (as the CLI), a Windows runner a failed step.
 */
import { WINDOWS_REFUSAL, refuseUnsupported } from './platform.ts';

const refusal = refuseUnsupported(process.platform, process.versions.node);
if (refusal === WINDOWS_REFUSAL) {
  const core = await import('@actions/core');
  core.setFailed(refusal);
} else if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exitCode = 2;
} else {
  const { runAction } = await import('./action/steps.ts');
  await runAction();
}
