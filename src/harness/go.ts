/**
 * Go's `go test -bench` output (the plain text format; not `go test -json`):
 *
 *     BenchmarkParse/small-8   	  1000	  1234 ns/op	  56 B/op	  3 allocs/op	  7.50 MB/s	  12.0 widgets/op
 *
 * - A result line is a name starting with `Benchmark` (then an upper-case letter, digit, `_`, `/`
 *   or `-`, as Go requires), the iteration count, then value-unit pairs. Other lines (`goos:`,
 *   `pkg:`, `PASS`, `ok`, `--- BENCH:` logs, and the bare names that `-v` prints) are skipped.
 *   A result line whose pairs do not read as numbers and units is an error.
 * - `ns/op` is the primary metric, named as the benchmark (`BenchmarkParse/small`), in `ns`.
 *   Every other metric is its own sample `<name> (<unit as printed>)`: `B/op` in `B`,
 *   `MB/s` in `B/s` (×10⁶, higher is better), `allocs/op` and custom `b.ReportMetric` units as
 *   printed (higher is better when the unit ends in `/s`, else lower).
 * - The `-GOMAXPROCS` suffix: Go appends `-P` to every name when GOMAXPROCS is P > 1. When every
 *   result line ends in the same `-P`, it is stripped from all of them, so names do not depend on
 *   the machine's core count. When the suffixes differ (`-cpu 1,2,4`, or GOMAXPROCS=1 and names
 *   that happen to end in digits), names are kept exactly as printed, so no two benchmarks merge.
 * - Several lines of one name in one run (`-count N`) are combined by their minimum for `ns/op`,
 *   `B/op` and `allocs/op`, and their maximum for the `MB/s` Go computes from the time (that of
 *   the same repetition); custom metrics by their median (types.ts, `Sample.combine`): another
 *   process or a collector's worker taking a core only adds to a repetition's time, and what the
 *   runtime allocates around the loop (a pool refilled after a collection) to its counts.
 * - When the same benchmark name appears under two packages (`pkg:` lines, `go test ./...`),
 *   those names are qualified with the package path: `example.com/m/a.BenchmarkParse`.
 * - `go test -json` (test2json) output is accepted too: the `Output` of its `output` events,
 *   put back together per package, is read as above.
 */
import { extraName, normalise, readNumber, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const NAME = /^Benchmark(?:$|[^a-z])/;
/** The units whose repetitions in one run are combined by their least (the module doc). */
const COMBINE_LEAST: ReadonlySet<string> = new Set(['ns/op', 'B/op', 'allocs/op']);
const PROCS = /-(\d+)$/;

interface GoLine {
  name: string;
  pkg: string;
  line: number;
  pairs: Array<[number, string]>;
}

interface SourceLine {
  text: string;
  /** 1-based line of the output where this line (or, for test2json, its first piece) was printed */
  line: number;
}

/**
 * The plain-text lines of the output. For `go test -json`, the `Output` pieces of each package's
 * `output` events are joined (a result line may come in several pieces) and split into lines.
 */
function sourceLines(text: string): SourceLine[] {
  const raw = text.split(/\r?\n/);
  const first = raw.find((l) => l.trim() !== '')?.trim() ?? '';
  if (!first.startsWith('{') || testEvent(first) === undefined) return raw.map((t, i) => ({ text: t, line: i + 1 }));
  const packages = new Map<string, { lines: SourceLine[]; open: SourceLine | null }>();
  const other: SourceLine[] = [];
  raw.forEach((l, i) => {
    const event = l.trim().startsWith('{') ? testEvent(l.trim()) : undefined;
    if (event === undefined) {
      if (l.trim() !== '') other.push({ text: l, line: i + 1 });
      return;
    }
    if (event.output === undefined) return;
    const pkg = packages.get(event.pkg) ?? { lines: [], open: null };
    packages.set(event.pkg, pkg);
    const pieces = event.output.split('\n');
    pieces.forEach((piece, k) => {
      const last = k === pieces.length - 1;
      if (pkg.open === null) {
        if (last && piece === '') return;
        pkg.open = { text: '', line: i + 1 };
      }
      pkg.open.text += piece.replace(/\r$/, '');
      if (!last) {
        pkg.lines.push(pkg.open);
        pkg.open = null;
      }
    });
  });
  const out: SourceLine[] = [];
  // one push per line: spreading a package's lines into push() overflows the stack past ~100,000
  for (const pkg of packages.values()) {
    for (const line of pkg.lines) out.push(line);
    if (pkg.open) out.push(pkg.open);
  }
  for (const line of other) out.push(line);
  return out;
}

function testEvent(line: string): { pkg: string; output: string | undefined } | undefined {
  let event: unknown;
  try {
    event = JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  const { Action, Package, Output } = event as Record<string, unknown>;
  if (typeof Action !== 'string') return undefined;
  return {
    pkg: typeof Package === 'string' ? Package : '',
    output: Action === 'output' && typeof Output === 'string' ? Output : undefined,
  };
}

export function parseGo(text: string): Sample[] {
  const results: GoLine[] = [];
  let pkg = '';
  for (const { text: raw, line: lineNo } of sourceLines(text)) {
    if (raw.startsWith('pkg:')) {
      pkg = raw.slice(4).trim();
      continue;
    }
    const fields = raw.trim().split(/\s+/);
    const name = fields[0] as string;
    if (!NAME.test(name) || raw !== raw.trimStart() || fields.length < 2) continue;
    // Go's own rule (golang.org/x/perf/benchfmt): the second field is the iteration count;
    // a line whose second field is not a number is not a result (a benchmark printed to stdout).
    if (!/^\d+$/.test(fields[1] as string)) continue;
    const rest = fields.slice(2);
    if (rest.length === 0) {
      throw new HarnessParseError('go', lineNo, `${name}: expected value-unit pairs such as "1234 ns/op" after the iteration count`);
    }
    if (rest.length % 2 !== 0) {
      throw new HarnessParseError('go', lineNo, `${name}: expected value-unit pairs such as "1234 ns/op", got an odd number of fields`);
    }
    const pairs: Array<[number, string]> = [];
    for (let k = 0; k < rest.length; k += 2) {
      const valueText = rest[k] as string;
      const unit = rest[k + 1] as string;
      const value = readNumber(valueText);
      if (Number.isNaN(value) || !Number.isNaN(readNumber(unit))) {
        throw new HarnessParseError('go', lineNo, `${name}: expected a number followed by a unit, got "${valueText} ${unit}"`);
      }
      pairs.push([value, unit]);
    }
    results.push({ name, pkg, line: lineNo, pairs });
  }

  // Strip the -GOMAXPROCS suffix only when every result line carries the same one.
  const suffixes = new Set(results.map((r) => PROCS.exec(r.name)?.[0] ?? ''));
  const [only] = suffixes;
  const strip = suffixes.size === 1 && only !== undefined && only !== '';
  const names = results.map((r) => (strip ? r.name.slice(0, r.name.length - (only as string).length) : r.name));

  // Qualify names that occur under more than one package.
  const pkgsOf = new Map<string, Set<string>>();
  results.forEach((r, i) => {
    const n = names[i] as string;
    const set = pkgsOf.get(n) ?? new Set<string>();
    set.add(r.pkg);
    pkgsOf.set(n, set);
  });

  const out = new SampleCollector('go');
  results.forEach((r, i) => {
    const bare = names[i] as string;
    const name = (pkgsOf.get(bare)?.size ?? 0) > 1 && r.pkg !== '' ? `${r.pkg}.${bare}` : bare;
    // Go computes MB/s from b.SetBytes and the same run's time: the reciprocal of ns/op, scaled
    const timed = r.pairs.some(([, unit]) => unit === 'ns/op');
    for (const [value, unit] of r.pairs) {
      const n = normalise(value, unit);
      const reciprocal = timed && unit === 'MB/s';
      out.add(unit === 'ns/op' ? name : extraName(name, unit), n.value, n.unit, n.direction, r.line, reciprocal ? name : undefined, COMBINE_LEAST.has(unit) ? 'min' : reciprocal ? 'max' : undefined);
    }
  });
  return out.finish();
}
