/**
 * Instruction counts (`--metric instructions`): nearly deterministic, so a 1% change shows in a
 * handful of pairs even on a noisy machine (the idea CodSpeed builds on).
 *
 * Two counters, chosen automatically and recorded in the results:
 *  - `perf`: `perf stat -e instructions:u` reads the CPU's hardware counter; almost free, but many
 *    virtual machines (and CI runners) do not expose it.
 *  - `valgrind`: `valgrind --tool=cachegrind --cache-sim=no` counts every instruction it executes
 *    (its `I refs`), in every process of the tree (`--trace-children=yes`); exact and available
 *    everywhere valgrind is, but runs are tens of times slower, so pick short benchmarks for it.
 *    A child forked without an exec keeps its parent's tool state, counts included, so its total
 *    would repeat everything its parent ran before the fork (pytest-benchmark's probes for
 *    commands a machine lacks fork such children after the benchmark, and doubled each count);
 *    `--child-silent-after-fork=yes` leaves those children out, while a child that execs is
 *    counted from its own start (valgrind's manual, "--child-silent-after-fork"). What such a
 *    child runs itself is not counted; `perf stat` counts it.
 *    Cachegrind without its cache simulation counts the same instructions as callgrind in about
 *    60% of callgrind's time (it tracks no call graph).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type InstructionCounter = 'perf' | 'valgrind';

export const INSTALL_HINT =
  'install valgrind (Ubuntu runners: `sudo apt-get install -y valgrind`) or make hardware counters available to `perf stat -e instructions:u` (linux-tools; kernel.perf_event_paranoid ≤ 2)';

function probe(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 20_000, env }, (err, stdout, stderr) => resolve({ ok: !err, output: `${stdout}${stderr}` }));
  });
}

let detected: Promise<InstructionCounter | null> | null = null;

/** The best counter for runs in `env` (its PATH), asked afresh; `PAIRBENCH_INSTRUCTIONS=perf|valgrind` forces one. */
export async function probeCounter(env: NodeJS.ProcessEnv): Promise<InstructionCounter | null> {
  const forced = env.PAIRBENCH_INSTRUCTIONS;
  if (forced === 'perf' || forced === 'valgrind') return forced;
  const perf = await probe('perf', ['stat', '-x', ',', '-e', 'instructions:u', 'true'], env);
  if (perf.ok && /^\d+,/m.test(perf.output)) return 'perf';
  const vg = await probe('valgrind', ['--version'], env);
  return vg.ok ? 'valgrind' : null;
}

/** The best counter on this machine, or null, asked once. */
export function detectCounter(): Promise<InstructionCounter | null> {
  detected ??= probeCounter(process.env);
  return detected;
}

const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** Whether a counter may run inside the shell, before `command`: its first word is its program (not `VAR=value`, not a shell keyword). */
export function countsInside(command: string): boolean {
  return /^\s*[./\w][^\s=]*(\s|$)/.test(command) && !/^\s*(exec|cd|if|for|while|case|\{|\(|!)(\s|$)/.test(command);
}

export interface CountingWrap {
  /** argv that runs the shell command under the counter */
  argv: string[];
  /** reads the count once the run is over, and removes the counter's files */
  read(): number | null;
}

/**
 * Wraps `/bin/sh -c <command>` so that its instructions are counted. With `inside` (a simple
 * command that starts with its program, as a harness benchmark's counted run is), the counter runs
 * inside the shell (`sh -c 'exec valgrind ... <command>'`), so that valgrind does not count (and
 * start twice for) the shell itself: half the time of a short counted run.
 */
export function wrapForCounting(counter: InstructionCounter, shellArgv: string[], inside?: { command: string; argvOf(command: string): string[] }): CountingWrap {
  const dir = mkdtempSync(join(tmpdir(), 'pairbench-count-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const wrap = (prefix: string[]): string[] => (inside ? inside.argvOf(`exec ${prefix.map(shellQuote).join(' ')} ${inside.command}`) : [...prefix, ...shellArgv]);
  if (counter === 'perf') {
    const file = join(dir, 'perf.csv');
    return {
      argv: wrap(['perf', 'stat', '-x', ',', '-o', file, '-e', 'instructions:u', '--']),
      read() {
        try {
          const m = /^(\d+),[^,]*,instructions/m.exec(readFileSync(file, 'utf8'));
          return m ? Number(m[1]) : null;
        } catch {
          return null;
        } finally {
          cleanup();
        }
      },
    };
  }
  return {
    argv: wrap(['valgrind', '--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', '--trace-children=yes', '--child-silent-after-fork=yes', `--log-file=${join(dir, 'vg.%p')}`]),
    read() {
      try {
        let total = 0;
        let found = false;
        for (const name of readdirSync(dir)) {
          for (const m of readFileSync(join(dir, name), 'utf8').matchAll(/I\s+refs:\s+([\d,]+)/g)) {
            total += Number(m[1]!.replace(/,/g, ''));
            found = true;
          }
        }
        return found ? total : null;
      } catch {
        return null;
      } finally {
        cleanup();
      }
    },
  };
}
