/**
 * Instruction counts per benchmark of a harness suite (`--metric instructions`, or `wall,instructions`,
 * with a harness format whose harness has a `counting` rule: harness/harness.ts, `CountingRule`).
 *
 * A benchmark's count is not its process's count: the process's start, the runtime's and the
 * harness's set-up do not scale with the benchmark's work. Each side of a pair therefore runs the
 * benchmark twice under the counter, once for N iterations and once for the rule's set-up count
 * M, and its sample is `(count(N) - count(M)) / (N - M)`: the instructions of one iteration, with
 * everything that does not scale with the iterations cancelled. N is the same on both sides of
 * every pair of the benchmark, from its time per iteration in the listing run: enough iterations
 * for about COUNT_WORK_MS of the benchmark's own work, which makes the variable part of a set-up
 * (a collector that ran or not) small beside the work, while a counted run stays short under
 * valgrind, which runs code tens of times slower (docs/statistics.md, "Instruction counts per benchmark").
 */
import type { CountingRule, Selection } from '../harness/harness.ts';
import { appendToSelected } from '../harness/select.ts';
import type { InstructionCounter } from '../measure/instructions.ts';

/** The benchmark's own work in one counted run, ms: short under valgrind (about 50× slower), longer under perf, which costs nothing. */
export const COUNT_WORK_MS: Readonly<Record<InstructionCounter, number>> = { valgrind: 20, perf: 50 };
/** The fewest and the most iterations a counted run adds to the set-up's. */
const COUNT_ITERATIONS = { min: 10, max: 1e8 } as const;

/** The unit of a count row, and the metric its name carries: `<name> (instructions)`, a metric printed beside the benchmark's time as Go's `B/op` is. */
export const COUNT_UNIT = 'instructions';

/** The row name of a benchmark's count. */
export const countRowName = (name: string): string => `${name} (${COUNT_UNIT})`;

/**
 * N for a benchmark of `nsPerOp` per iteration (null: not known, the fewest): M plus enough
 * iterations for `workMs` of work (`--count-work`, else COUNT_WORK_MS), within COUNT_ITERATIONS.
 */
export function countIterations(counter: InstructionCounter, setupIterations: number, nsPerOp: number | null, workMs: number | null = null): number {
  const work = nsPerOp !== null && Number.isFinite(nsPerOp) && nsPerOp > 0 ? Math.ceil(((workMs ?? COUNT_WORK_MS[counter]) * 1e6) / nsPerOp) : COUNT_ITERATIONS.min;
  return setupIterations + Math.min(COUNT_ITERATIONS.max, Math.max(COUNT_ITERATIONS.min, work));
}

/** One instruction count of one iteration, from the counts of a run of N and one of M iterations; null when they cannot give one. */
export function perIteration(countN: number, countM: number, n: number, m: number): number | null {
  if (!(n > m) || !Number.isFinite(countN) || !Number.isFinite(countM)) return null;
  const per = (countN - countM) / (n - m);
  return per > 0 ? per : null;
}

/**
 * The two counted runs of one benchmark: the run of `command` narrowed to the benchmark (`select`,
 * select.ts), with the rule's flags for N and for M iterations after the whole command or at the
 * end of the simple command that holds its selection placeholder (`CountingRule.flagsAt`), and
 * the environment each needs; null when the command cannot take the flags (not one simple
 * command; no placeholder).
 */
export function countedRuns(rule: CountingRule, counter: InstructionCounter, command: string, select: (command: string) => Selection, env: Record<string, string | undefined>, n: number): Array<{ iterations: number; command: string; env: Record<string, string | undefined> }> | null {
  const out = [];
  for (const iterations of [n, rule.setupIterations]) {
    const flags = rule.runFor(command, iterations);
    if (flags === null) return null;
    let run: Selection;
    if (rule.flagsAt === 'end') {
      const selected = select(command);
      run = { command: `${selected.command}${flags.command}`, env: selected.env };
    } else {
      const sized = appendToSelected(command, flags.command);
      if (sized === null) return null;
      run = select(sized);
    }
    const runEnv = { ...env, ...run.env, ...flags.env };
    out.push({ iterations, command: run.command, env: { ...runEnv, ...(counter === 'valgrind' ? rule.valgrindEnv(runEnv) : {}) } });
  }
  return out;
}
