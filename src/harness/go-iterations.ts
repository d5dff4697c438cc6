/**
 * Fixed iteration counts for Go benchmarks paired on their own (`--iterations fixed`, the default).
 *
 * Go's testing package sizes every run itself: it runs b.N = 1, then predicts the b.N that fills
 * `-test.benchtime` from the time of the last round and runs again, until a round is long enough
 * (testing/benchmark.go, `launch`). The reported ns/op is the last round's. So the count depends on
 * how fast the first rounds happened to be, and on a benchmark whose first iteration is slow (a
 * cold cache, a large first allocation, a garbage collection) a run may stop after one or two
 * iterations and report the cold cost: fastjson's canada parse reports 55-62 ms/op with b.N = 2,
 * 104-128 ms/op with b.N = 1 and 4 ms/op with 60 iterations, so its pairs mixed figures 70 times
 * apart. With `-test.benchtime=Nx` Go runs b.N = 1 once (its warm-up) and then exactly N
 * iterations, on both sides of every pair: the two runs of a pair do the same work, and no run
 * spends its time calibrating.
 *
 * N is taken once per benchmark from the listing run (one run of the whole suite per side): the
 * command's own `-test.benchtime` (Go's default 1s) over the faster side's ns/op, so that a run
 * takes about as long as the user asked. A command that already fixes the count (`100x`) is left
 * alone.
 */

/** Go's duration units, in nanoseconds (time.ParseDuration). */
const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** At most this many iterations (a benchmark of 1 ns/op asked for an hour). */
export const MAX_ITERATIONS = 1e9;

/** Go's default `-test.benchtime`. */
const DEFAULT_BENCHTIME_NS = 1e9;

/** A Go duration such as `100ms`, `1.5s` or `1m30s`, in nanoseconds; null when it is not one. */
export function parseGoDuration(text: string): number | null {
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return null;
  return parts.reduce((ns, p) => ns + Number(p[1]) * UNITS[p[2]!]!, 0);
}

/**
 * The `-test.benchtime` (or `go test`'s `-benchtime`) of a command: the last one given, as Go's
 * flag package takes the last. A duration in ns, `{ count }` for `Nx`, Go's default 1s when
 * none, or null when it cannot be read (a variable, a quoted expression).
 */
export function commandBenchtime(command: string): { ns: number } | { count: number } | null {
  const found = [...command.matchAll(/(?:^|\s)--?(?:test\.)?benchtime(?:=|\s+)(['"]?)([^\s'"]+)\1(?=\s|$)/g)];
  const last = found.at(-1);
  if (!last) return { ns: DEFAULT_BENCHTIME_NS };
  const value = last[2]!;
  const count = /^(\d+)x$/.exec(value);
  if (count) return { count: Number(count[1]) };
  const ns = parseGoDuration(value);
  return ns !== null && ns > 0 ? { ns } : null;
}

/** The iteration count that makes one run of a benchmark of `nsPerOp` last about `benchtimeNs`. */
export function iterationsFor(benchtimeNs: number, nsPerOp: number): number {
  if (!(nsPerOp > 0) || !Number.isFinite(nsPerOp)) return 1;
  return Math.max(1, Math.min(MAX_ITERATIONS, Math.ceil(benchtimeNs / nsPerOp)));
}
