/**
 * Runs through a serving run helper: the requests go to a helper process that forks the shell,
 * measures with wait4(2), forwards the output and reports, while Node only writes a request and
 * reads frames. Node's own spawn costs about 3 ms per run (it forks a large process) and keeps Node
 * busy around the start of the measured run; a served run costs the helper's fork of the shell.
 *
 * Cancelling (an abort signal) kills the helper first, so that it cannot start the next run of the
 * request, then the run in flight's process group.
 */
import { acquireHelper, releaseHelper } from './helper-process.ts';
import type { WireReport } from './helper-protocol.ts';
import { Output } from './output.ts';
import { killGroup } from './process-group.ts';
import { outcomeOf, skippedResult, type RunFigures, type RunResult } from './result.ts';
import type { RunRequest } from './request.ts';
import { signalName } from './signals.ts';

export interface ServedRun {
  req: RunRequest;
  argv: readonly string[];
}

/** How long past a run's own timeout pairbench waits for a helper that stopped answering. */
const BACKSTOP_MS = 15_000;

export async function runServed(helper: string, runs: readonly ServedRun[]): Promise<RunResult[]> {
  const served = acquireHelper(helper);
  // One state per run; `current` is the run in flight (the helper runs them in order).
  const states = runs.map((r) => ({ run: r, output: new Output(r.req.captureStdout), pid: undefined as number | undefined, report: undefined as WireReport | undefined, error: undefined as string | undefined }));
  // Runs from this index on were cancelled (the one in flight and those not started).
  let cancelledFrom = Infinity;
  let current = 0;
  const signals = [...new Set(runs.map((r) => r.req.signal).filter((x): x is AbortSignal => x !== undefined))];
  const onAbort = (): void => {
    if (cancelledFrom !== Infinity) return;
    cancelledFrom = current;
    served.kill();
    const pid = states[current]?.pid;
    if (pid !== undefined) killGroup(pid, true);
  };
  let backstop: NodeJS.Timeout | null = null;
  await new Promise<void>((resolve) => {
    for (const sig of signals) sig.addEventListener('abort', onAbort, { once: true });
    let left = states.length;
    const finish = (i: number): void => {
      current = i + 1;
      if (--left === 0) resolve();
    };
    served.run(
      runs.map((r) => ({ cwd: r.req.cwd, timeoutMs: r.req.timeoutMs, stopOnFailure: r.req.stopOnFailure ?? false, argv: r.argv, env: r.req.env })),
      states.map((st, i) => ({
        pid(p) {
          st.pid = p;
          if (cancelledFrom <= i) killGroup(p, true);
          // The helper enforces each run's timeout itself; this only guards against a helper that stopped answering.
          if (backstop) clearTimeout(backstop);
          const t = st.run.req.timeoutMs;
          if (Number.isFinite(t) && t > 0) {
            backstop = setTimeout(() => {
              served.kill();
              killGroup(p, true);
              for (let j = i; j < states.length; j++) {
                if (!states[j]!.report && states[j]!.error === undefined) {
                  states[j]!.error = "pairbench's run helper did not answer after the run's timeout";
                  finish(j);
                }
              }
            }, t + BACKSTOP_MS);
            backstop.unref();
          }
        },
        out: (c) => st.output.out(c),
        err: (c) => st.output.err(c),
        done(report) {
          if (st.report || st.error !== undefined) return;
          st.report = report;
          finish(i);
        },
        failed(error) {
          if (st.report || st.error !== undefined) return;
          st.error = error;
          finish(i);
        },
      })),
    );
    if (signals.some((x) => x.aborted)) onAbort();
  });
  if (backstop) clearTimeout(backstop);
  for (const sig of signals) sig.removeEventListener('abort', onAbort);
  releaseHelper(served);
  return states.map((st, i) => {
    const cancelled = i >= cancelledFrom;
    const r = st.report;
    // A helper that died mid-run leaves the run's group behind: it goes too.
    if (!r && st.pid !== undefined) killGroup(st.pid, true);
    if (r?.skipped) return skippedResult();
    const none = { wallMs: NaN, cpuMs: null, maxRssBytes: null };
    if (cancelled && !r) return outcomeOf({ ...none, ...st.output.result() }, { exitCode: null, signal: null, cancelled, timedOut: false });
    if (!r || r.error !== undefined) {
      return outcomeOf({ ...none, ...st.output.result() }, { exitCode: null, signal: null, cancelled, timedOut: false, error: r?.error ?? st.error ?? 'the run could not be started' });
    }
    const figures: RunFigures = { wallMs: r.wallMs, cpuMs: r.userMs + r.sysMs, maxRssBytes: r.maxRssBytes };
    return outcomeOf(
      { ...figures, ...st.output.result() },
      { exitCode: r.exitCode >= 0 ? r.exitCode : null, signal: r.signal ? signalName(r.signal) : null, cancelled, timedOut: r.timedOut === 1 },
    );
  });
}
