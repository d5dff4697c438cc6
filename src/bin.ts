#!/usr/bin/env node
/**
 * The `pairbench` command (bundled to dist/cli.js). It checks the Node.js version and the system
 * before anything else is imported, so that an unsupported one gets one clear line and exit
 * status 2 instead of a crash at import; then it loads the command line itself (cli.ts).
 */
import { refuseUnsupported } from './platform.ts';

const refusal = refuseUnsupported(process.platform, process.versions.node);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exitCode = 2;
} else {
  (await import('./cli.ts')).run();
}
