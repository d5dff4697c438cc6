/**
 * The action counts instructions (`metric: instructions`, or `wall,instructions` for a harness
 * suite) with valgrind where the runner exposes no hardware counter, as GitHub's hosted runners do
 * not. valgrind is not on their Ubuntu images: when no counter is found and some benchmark
 * measures instructions, it is installed with passwordless `sudo apt-get` (the hosted runners
 * allow it), first from the package lists the image has, then after `apt-get update` when those
 * are stale; the time it took is said in the log. When it cannot be installed, the engine's own
 * message (measure/instructions.ts, INSTALL_HINT) says what to do.
 */
import { execFile } from 'node:child_process';
import type { Spec } from '../config/spec.ts';
import { probeCounter, type InstructionCounter } from '../measure/instructions.ts';

interface Ran {
  ok: boolean;
  tail: string;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 600_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const lines = `${stdout}${stderr}`.trim().split('\n');
      resolve({ ok: !err, tail: lines[lines.length - 1] ?? '' });
    });
  });
}

/**
 * The counter the comparison will use: the one the runner has, else valgrind once installed; null
 * when no benchmark measures instructions (nothing is asked) or none could be had.
 */
export async function counterForAction(spec: Pick<Spec, 'benchmarks'>, env: NodeJS.ProcessEnv, log: (line: string) => void, now: () => number = Date.now): Promise<InstructionCounter | null> {
  if (!spec.benchmarks.some((b) => b.metrics.includes('instructions'))) return null;
  const found = await probeCounter(env);
  if (found) return found;
  const started = now();
  log('Instruction counts: no hardware counter and no valgrind on this runner; installing valgrind (sudo apt-get install -y valgrind)');
  const install = ['-n', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', 'valgrind'];
  let got = await run('sudo', install, env);
  if (!got.ok) {
    // the image's package lists may be older than the archive
    const update = await run('sudo', ['-n', 'apt-get', 'update', '-q'], env);
    got = update.ok ? await run('sudo', install, env) : update;
  }
  const seconds = ((now() - started) / 1000).toFixed(1);
  const counter = got.ok ? await probeCounter(env) : null;
  if (counter) log(`Installed valgrind in ${seconds} s`);
  else log(`warning: valgrind could not be installed with sudo apt-get (${seconds} s): ${got.tail || 'no output'}`);
  return counter;
}
