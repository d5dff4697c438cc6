/**
 * The seam between the schedule and the processes it measures. The schedule decides what runs
 * when; a Runner runs a list of commands one after the other and returns their results in order
 * (the two runs of a pair go in one call, so nothing comes between them). The engine passes
 * `runCommands`, which forks real processes through the run helper, unless its hooks name another;
 * tests pass a scripted runner that records every request and answers from a script, so the
 * scheduling rules (retries, the budget, the mid-round stop, adjacency, decided benchmarks) are
 * checked exactly and fast, and the command line's debug mode passes scripted-runner.ts's, so
 * that the whole command runs without a process.
 * (The shape follows hyperfine's `Executor` trait and its `MockExecutor`.)
 */
import type { RunRequest, RunResult } from '../measure/one-run.ts';

export type Runner = (requests: readonly RunRequest[]) => Promise<RunResult[]>;

/** What the schedule reads of the clock; tests pass a scripted one so that budgets are exact. */
export type Clock = () => number;
