// The checks of `npm test`: typecheck, lint (eslint, then knip), and dist/ up to date. They read
// the sources and nothing else, so they run at once, each on a core of its own as far as there are
// cores; each one's output is printed whole when it ends, under its name, and the script fails when
// any of them fails, after all have ended. With --with-tests (`npm test`) every test runs beside
// them (`vitest run`, its progress as it goes): the checks leave a core idle for half their time,
// which the tests' first files take, and the tests write nothing the checks read (their folders are
// temporary ones outside the project).
import { execa } from 'execa';

const CHECKS: ReadonlyArray<{ name: string; steps: string[][] }> = [
  { name: 'typecheck', steps: [['tsc', '--noEmit']] },
  { name: 'lint', steps: [['eslint', '.'], ['knip', '--no-progress']] },
  { name: 'check-dist', steps: [[process.execPath, 'scripts/check-dist.mjs']] },
];

const started = Date.now();
const tests = process.argv.includes('--with-tests') ? execa('vitest', ['run'], { preferLocal: true, stdio: 'inherit', reject: false }) : null;
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
const testsFailed = tests !== null && (await tests).exitCode !== 0;
if (outcomes.includes(false) && tests !== null) console.error('checks failed: see the lines above (the tests ran beside them)');
if (outcomes.includes(false) || testsFailed) process.exit(1);
