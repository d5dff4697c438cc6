// The checks before the tests (`npm test`): typecheck, lint (eslint, then knip), and dist/ up to
// date. They read the sources and nothing else, so they run at once, each on a core of its own as
// far as there are cores; each one's output is printed whole when it ends, under its name, and
// the script fails when any of them fails, after all have ended.
import { execa } from 'execa';

const CHECKS: ReadonlyArray<{ name: string; steps: string[][] }> = [
  { name: 'typecheck', steps: [['tsc', '--noEmit']] },
  { name: 'lint', steps: [['eslint', '.'], ['knip', '--no-progress']] },
  { name: 'check-dist', steps: [[process.execPath, 'scripts/check-dist.mjs']] },
];

const started = Date.now();
const outcomes = await Promise.all(
  CHECKS.map(async ({ name, steps }) => {
    const t = Date.now();
    for (const [file, ...args] of steps) {
      const run = await execa(file!, args, { preferLocal: true, all: true, reject: false });
      if (run.all) console.log(`> ${name}: ${[file, ...args].join(' ')}\n${run.all}`);
      if (run.exitCode !== 0) {
        console.error(`${name} failed: ${[file, ...args].join(' ')} exited with ${run.exitCode ?? run.signal}`);
        return false;
      }
    }
    console.log(`${name}: passed in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    return true;
  }),
);
console.log(`checks: ${outcomes.filter(Boolean).length} of ${CHECKS.length} passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (outcomes.includes(false)) process.exit(1);
