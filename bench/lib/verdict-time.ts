/**
 * The time to the last verdict of a pairbench run, seen from outside: pairbench rewrites its
 * results file as pairs arrive (status `running`), so the bench reads it every few seconds, when
 * it changed, and notes when each benchmark's count of pairs last grew. Once the run is judged, the
 * last verdict came when the last benchmark with a verdict (`regression`, `improvement`,
 * `unchanged`) had its last pair. The figure is as fine as the polling (POLL_MS); the reading is
 * cheap beside a run (one small file, only when its modification time moved).
 */
import { readFileSync, statSync } from 'node:fs';

const POLL_MS = 3000;

/** When each benchmark's pairs last grew, in milliseconds since the watch began. */
export type PairTimes = ReadonlyMap<string, number>;

/** Watches a results file being written; `stop` gives each benchmark's last growth. */
export function watchPairs(path: string, pollMs = POLL_MS): { stop(): PairTimes } {
  const started = Date.now();
  const counts = new Map<string, number>();
  const times = new Map<string, number>();
  let lastMtime = 0;
  const poll = () => {
    try {
      const mtime = statSync(path).mtimeMs;
      if (mtime === lastMtime) return;
      lastMtime = mtime;
      const doc = JSON.parse(readFileSync(path, 'utf8')) as { benchmarks?: Array<{ name: string; pairs?: unknown[] }> };
      notePairs(counts, times, doc.benchmarks ?? [], Date.now() - started);
    } catch {
      // not written yet, or caught mid-rename: the next poll reads it
    }
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return times;
    },
  };
}

/** Notes, for each benchmark whose pairs grew since the last reading, the time `at`. */
export function notePairs(counts: Map<string, number>, times: Map<string, number>, benchmarks: ReadonlyArray<{ name: string; pairs?: unknown[] }>, at: number): void {
  for (const b of benchmarks) {
    const n = b.pairs?.length ?? 0;
    if (n > (counts.get(b.name) ?? 0)) {
      counts.set(b.name, n);
      times.set(b.name, at);
    }
  }
}

const DECIDED = new Set(['regression', 'improvement', 'unchanged']);

/**
 * The time to the last verdict: the latest last-growth among the benchmarks judged `regression`,
 * `improvement` or `unchanged`, at most the wall time; the wall time when none was decided or the
 * watch saw none of them (a run shorter than one poll).
 */
export function lastVerdictMs(benchmarks: ReadonlyArray<{ name: string; verdict: string }>, times: PairTimes, wallMs: number): number {
  const decided = benchmarks.filter((b) => DECIDED.has(b.verdict));
  const seen = decided.map((b) => times.get(b.name)).filter((t): t is number => t !== undefined);
  if (decided.length === 0 || seen.length < decided.length) return wallMs;
  return Math.min(wallMs, Math.max(...seen));
}
