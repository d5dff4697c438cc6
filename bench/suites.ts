/**
 * Real suites: does pairbench reach verdicts on a real multi-benchmark suite within a CI budget?
 *
 *   npm run bench:suites                                     # the full run: both suites, quiet and noisy, every arm (hours)
 *   npm run bench:suites -- --quick                          # a smoke run: the Go suite, quiet, 90 s budgets, 4 calibration pairs
 *   npm run bench:suites -- --pairbench-flags="--precision 0.5%" # more flags for every pairbench arm (the = is needed)
 *   npm run bench:suites -- --suites go --conditions noisy --budget 5m
 *   npm run bench:suites -- --suites fresh                   # the suites not tuned on (bench/lib/fresh-suites.ts), in a table of their own
 *   npm run bench:suites -- --render bench/results/suites.json
 *   npm run bench:suites -- --merge a.json --merge b.json   # several runs (say, one per condition) as one report
 *   npm run bench:suites -- --suites go --go-dirs /tmp/go --go-truth-pairs 0   # an earlier run's Go builds (see setupGo)
 *   npm run bench:suites -- --suites go --small-arms benchmark-pinned --truth-arm benchmark-pinned   # the Go truth timed bound to one CPU, as that arm runs
 *
 * The suites are real public projects, pinned, downloaded at run time (nothing of theirs is
 * committed here): the Go module github.com/valyala/fastjson v1.6.4 through the Go module proxy
 * (`go mod download`), and the sdist of cattrs 24.1.2 from PyPI (`pip download`), whose `bench/`
 * is a pytest-benchmark suite. Each gets four copies:
 *
 * - base: as published;
 * - head: one internal function slowed by a small patch of this file (Go: `parseRawNumber`, which
 *   only the benchmarks that parse numbers with fastjson's own parser call; Python: see PY_PATCH);
 *   the patch adds a fixed amount of busy work per call (`spin`), so the slowdown of a benchmark is
 *   proportional to how often it calls the function;
 * - aa: an identical copy of base (A/A: every flag is a false alarm);
 * - calibration: Go: a copy that counts the calls of the slowed function (see goTruth); Python:
 *   head's block of busy work repeated CALIBRATION_FACTOR times (patchPython).
 *
 * How we know which benchmarks are affected, and by how much. Go, by counting: a benchmark that
 * never calls parseRawNumber is unaffected, exactly; for the others the truth is the calls per op
 * times the measured cost of one injected spin, over the benchmark's ns/op (goTruth). Python, by
 * measuring: the calibration copy against base, measured by pairbench per benchmark with a fixed
 * number of pairs, gives each benchmark's change under the big patch; as it adds exactly
 * CALIBRATION_FACTOR times head's work, head's truth is that change divided by CALIBRATION_FACTOR.
 * (The first Python run of 2026-11-23 put ten times the steps in one loop, leaving out the loop's
 * setup; the merged bench/results/suites.json takes its Python truths from a later run.) Go, by
 * timing too: a patch moves code in the binary, so 20 pairs of each benchmark alone tell which of
 * those that never call the function moved anyway (goKind).
 * A benchmark is "affected" when its truth is at least the threshold (2%), "unaffected" when it
 * does not call the function (Go) or its calibration change is below 2% either way (Python), and
 * otherwise "marginal" (counted in neither).
 *
 * Arms, each at the same wall-time budget (default 10 minutes, `--budget`), the order of the arms
 * shuffled per block:
 * - pairbench suite-level: `--interleave suite` (whole runs of the suite paired, as before);
 * - pairbench benchmark-level: `--interleave benchmark` (each benchmark paired on its own; Go with
 *   one iteration count per benchmark, `--iterations fixed`);
 * - (`--arms benchmark-harness`) the same with Go sizing every run itself (`--iterations harness`);
 * - (`--arms benchmark-gomaxprocs1`) benchmark-level with `GOMAXPROCS=1 ` before the run command, as
 *   a user would write it: what one OS thread for Go code does to the noise of a pair on a small
 *   runner (it changes what the code does: b.RunParallel, the collector's concurrency);
 * - (`--arms benchmark-pinned`) benchmark-level with `taskset -c <one CPU> ` before the run command:
 *   every run of both sides on one core (Linux), so that no run moves between cores; Go then sets
 *   GOMAXPROCS=1 itself, so it is measured beside `benchmark-gomaxprocs1`;
 * - (`--arms benchmark-isolated`) benchmark-level with `--cpus auto`, any suite: Go and
 *   pytest-benchmark runs bound to every CPU but the lowest, left to pairbench's own process and its
 *   run helper (on 2 CPUs, the runs on one), the other formats unbound (src/config/isolation.ts);
 *   the default, so `benchmark` runs so too;
 * - (`--arms benchmark-bound`) benchmark-level with `--cpus` naming every CPU but the lowest, any
 *   suite and format: the binding `--cpus auto` gives Go and pytest-benchmark, for the formats it
 *   leaves unbound (pyperf, criterion, the JavaScript runners), to measure whether it helps them;
 * - (`--arms benchmark-unbound`) benchmark-level with `--cpus none`, any suite: the runs free to use
 *   any CPU, as every arm ran before `--cpus auto` was the default;
 * - (`--arms benchmark-batched`) benchmark-level with `--batch 5`: five benchmarks in each process,
 *   for the formats whose process start costs more than a benchmark (the JavaScript runners);
 * - (`--arms benchmark-at-once`) benchmark-level with `--pair-runs at-once`: both runs of every
 *   pair started together, each bound to one of the two highest CPUs, the pair's coin choosing which
 *   (src/config/at-once.ts; duet benchmarking, Bulej et al. 2020);
 * - (`--arms instructions`) benchmark-level with `--metric wall,instructions` under valgrind, the
 *   instruction rows at 0.5% and the wall rows at 2%, for the go, python and snappy suites (the
 *   others are refused): scored on the instruction rows in a table of its own, with its own truth for
 *   counts and its cost (bench/lib/count-arm.ts). On Go it runs against the smaller patch
 *   (`--small-arms instructions --small-spin 1`: one busy step per call, 15 instructions counted,
 *   +0.5% to +1.3% of the instructions of the fastjson parsers that call it, +2.9% on canada's, the
 *   one that calls it most); head's 8 steps (65 instructions) add 2% to 12%;
 * - the ecosystem's own tool: Go: `bench.test -test.count N` on base then on head, judged by
 *   benchstat (significant at 0.05 and beyond the threshold); Python: pytest-benchmark on base with
 *   `--benchmark-save`, then on head with `--benchmark-compare --benchmark-compare-fail=median:2%`.
 *   N (and pytest-benchmark's rounds) are chosen so that both sides together take the budget.
 *
 * Per arm, condition and suite: false alarms among unaffected benchmarks and in the A/A run,
 * detections among affected, each estimate against its injected truth, and the time to the last
 * verdict (bench/lib/verdict-time.ts: when the last benchmark with a verdict had its last pair). "noisy" runs bench/noise-generator.ts (seeded) during the arm.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allowedCpus } from '../src/config/cpus.ts';
import { parseDuration } from '../src/config/values.ts';
import { parseHarness } from '../src/harness/index.ts';
import { filterFor } from '../src/harness/select.ts';
import { rngFor, shuffle } from '../src/schedule/random.ts';
import { designSummary } from '../src/report/designs-note.ts';
import type { Results } from '../src/results/schema.ts';
import { describeMachine, duration, machineMarkdown, ROOT, type Machine } from './lib/machine.ts';
import { must, run, versionOf, writableCopy, type Ran } from './lib/proc.ts';
import { FRESH_CALIBRATION_FACTOR, freshKind, GO_SPIN, isFresh, measuredKind, processesOf, renderFresh, selectSuites, setupFresh, UsageError, type FreshSuiteId } from './lib/fresh-suites.ts';
import { lastVerdictMs, watchPairs } from './lib/verdict-time.ts';
import { COUNT_THRESHOLD, COUNTED_SUITES, countArm, countCalibration, countKind, renderCounts, spinInstructions, type CountBasis, type CountRun } from './lib/count-arm.ts';
import { NOISE_DEFAULTS, startNoise, type NoiseReport } from './noise-generator.ts';
import { shellQuote } from '../src/report/replay.ts';
import { readResultsFile } from '../src/results/read.ts';

const GO_MODULE = 'github.com/valyala/fastjson';
const GO_VERSION = 'v1.6.4';
/** the benchmarks of the Go suite (the module has more: its ObjectGet grid alone has 28) */
const GO_SUITE = '^Benchmark(Parse|Validate)$';
const BENCHSTAT = 'golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da';
const PY_PACKAGE = 'cattrs';
const PY_VERSION = '24.1.2';
/** busy work per call in head; the calibration copy does CALIBRATION_FACTOR times as much */
const CALIBRATION_FACTOR = 10;
const THRESHOLD = 0.02;
const ALPHA = 0.05;

type Condition = 'quiet' | 'noisy';
type ArmName = 'suite' | 'benchmark' | 'benchmark-command' | 'benchmark-harness' | 'benchmark-gomaxprocs1' | 'benchmark-pinned' | 'benchmark-isolated' | 'benchmark-bound' | 'benchmark-unbound' | 'benchmark-batched' | 'benchmark-at-once' | 'benchmark-in-turn' | 'instructions' | 'native';
const ARMS: Record<ArmName, string> = {
  suite: 'pairbench, suite-level (whole runs paired)',
  // at the defaults of the commit that ran it (the results name it): since --pair-runs auto, at once where the machine allows
  benchmark: 'pairbench, benchmark-level (runs designed per benchmark, --design auto)',
  'benchmark-command': 'pairbench, benchmark-level, runs as the command says (--design command)',
  'benchmark-harness': "pairbench, benchmark-level, Go's own b.N ramp (--iterations harness)",
  'benchmark-gomaxprocs1': 'pairbench, benchmark-level, --design auto, the run command prefixed with GOMAXPROCS=1 (as a user would write it)',
  'benchmark-pinned': 'pairbench, benchmark-level, --design auto, the run command prefixed with taskset -c <one CPU> (every run on one core; Go then sets GOMAXPROCS=1 itself)',
  'benchmark-isolated': "pairbench, benchmark-level, --design auto, --cpus auto (Go and pytest-benchmark runs bound to every CPU but the lowest, which is left to pairbench's own process; other formats unbound)",
  'benchmark-bound': "pairbench, benchmark-level, --design auto, --cpus <every CPU but the lowest> (the measured runs bound whatever the format)",
  'benchmark-unbound': 'pairbench, benchmark-level, --design auto, --cpus none (the measured runs not bound to CPUs)',
  'benchmark-batched': 'pairbench, benchmark-level, --design auto, --batch 5 (five benchmarks in each process, still paired back to back)',
  'benchmark-at-once': 'pairbench, benchmark-level, --design auto, --pair-runs at-once (both runs of a pair started together, each bound to a CPU of its own, the coin choosing which)',
  'benchmark-in-turn': 'pairbench, benchmark-level, --design auto, --pair-runs in-turn (the runs of a pair one after the other, the coin choosing which goes first; the default before at once)',
  instructions: `pairbench, benchmark-level, --design auto, --metric wall,instructions under valgrind (instructions at ${COUNT_THRESHOLD * 100}%, wall at 2%)`,
  native: "the ecosystem's own tool (Go: benchstat; Python: pytest-benchmark compare; JavaScript: vitest bench --compare)",
};
type TunedSuite = 'go' | 'python' | 'snappy' | 'js';
const TUNED_SUITES: readonly TunedSuite[] = ['go', 'python', 'snappy', 'js'];
type SuiteId = TunedSuite | 'go-small' | FreshSuiteId;

interface Settings {
  /** the suites tuned on, and (`--suites fresh`) the ones not tuned on (bench/lib/fresh-suites.ts) */
  suites: Array<TunedSuite | FreshSuiteId>;
  conditions: Condition[];
  arms: ArmName[];
  /** the arms of the A/A block (all of them unless --aa-arms) */
  aaArms: ArmName[];
  budgetMs: number;
  calibrationPairs: number;
  seed: number;
  outDir: string;
  quick: boolean;
  /** the arm as which the Go truth was timed (`--truth-arm`); absent: as written (`benchmark`) */
  truthArm?: ArmName;
  /** pairs of each fresh benchmark against head itself for its truth (`--fresh-truth-pairs`); absent or 0: the calibration copy's change over ten */
  freshTruthPairs?: number;
}

/** One benchmark's outcome in one arm. */
interface Outcome {
  name: string;
  flagged: 'regression' | 'improvement' | null;
  verdict: string;
  estimate: number | null;
  /** pairbench: why measuring it stopped, and its pairs */
  stoppedBecause?: string;
  pairs?: number;
}

interface ArmRun extends Partial<CountRun> {
  suite: string;
  condition: Condition;
  arm: ArmName;
  /** head: the patched copy; aa: base against itself */
  against: 'head' | 'aa';
  wallMs: number;
  /** wall time until the last benchmark had its verdict (pairbench: the last pair of a decided benchmark; else the whole run) */
  lastVerdictMs: number;
  outcomes: Outcome[];
  command: string;
  noise?: NoiseReport;
  error?: string;
  /** the native tool's own output (benchstat's CSV), to judge again */
  raw?: string;
  /** pairbench: the median over benchmarks of the standard deviation of ln(head / base) per pair */
  spread?: number;
  /** pairbench, --design auto: the designs chosen, as the report says them */
  designs?: string;
  /** pairbench: the runs of the command on both sides, about (pairs x 2 / benchmarks per run) */
  processes?: number;
  /** pairbench: the arm's own results file, every pair in it, relative to the output folder (`pairbench report` reads it) */
  resultsFile?: string;
}

interface Truth {
  name: string;
  calibration: number;
  truth: number;
  kind: 'affected' | 'unaffected' | 'marginal';
  /** Go: the change of head against base measured by many pairs of this benchmark alone (layout effects included) */
  measured?: { estimate: number; ci: [number, number]; pairs: number };
  /** Go: the change the counted calls predict (calls per op x one spin / ns per op) */
  predicted?: number;
}

interface SuiteSetup {
  id: SuiteId;
  title: string;
  format: 'go' | 'pytest-benchmark' | 'google-benchmark' | 'vitest' | 'pyperf' | 'bencher';
  dirs: { base: string; head: string; aa: string; calibration: string; small?: string };
  /** the run command for pairbench, with its {filter}/{benchmark} placeholder */
  run: string;
  /** benchmarks per run when paired per benchmark (pairbench's --batch) */
  batch?: number;
  /** one whole run of the suite on one side, for the native arm's budget */
  native(baseDir: string, headDir: string, budgetMs: number, work: string): Promise<{ outcomes: Outcome[]; command: string; wallMs: number; raw?: string }>;
}

// --- the suites ---------------------------------------------------------------------------------

/** The Go patch: `parseRawNumber` (parser.go) does `spin` extra steps per call (count: counts its calls instead). */
function patchGo(dir: string, spin: number, count = false, smallSpin = spin): void {
  const file = join(dir, 'parser.go');
  const text = readFileSync(file, 'utf8');
  const anchor = 'func parseRawNumber(s string) (string, string, error) {';
  if (!text.includes(anchor)) throw new Error(`${GO_MODULE}@${GO_VERSION}: parser.go has no ${anchor}`);
  const call = count ? '\n\tatomic.AddInt64(&pairbenchCalls, 1)' : `\n\tpairbenchSpin(${spin})`;
  let patched = text.replace(anchor, `${anchor}${call}`) + GO_SPIN;
  if (count) patched = patched.replace(/^import \(/m, 'import (\n\t"sync/atomic"') + '\nvar pairbenchCalls int64\n';
  writeFileSync(file, patched);
  if (count) {
    // prints the calls after the run, and times the injected work itself
    writeFileSync(
      join(dir, 'zz_pairbench_test.go'),
      `package fastjson\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) {\n\tcode := m.Run()\n\tfmt.Fprintf(os.Stderr, "pairbench-calls %d\\n", pairbenchCalls)\n\tos.Exit(code)\n}\n\nfunc BenchmarkPairbenchSpin(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tpairbenchSpin(${spin})\n\t}\n}\n\nfunc BenchmarkPairbenchSpinSmall(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tpairbenchSpin(${smallSpin})\n\t}\n}\n\nfunc BenchmarkPairbenchLoop(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t}\n}\n`,
    );
  }
}

/**
 * The Go suite's injected truth, from counting, not timing: the counting copy counts the calls of
 * parseRawNumber in a run of each benchmark at a fixed b.N (Go runs b.N = 1, then b.N = COUNT_N),
 * so calls per op = calls / (COUNT_N + 1): 0 means the benchmark does not call the function at all
 * (unaffected, exactly). The added time per op is calls per op x the time of one injected spin
 * (BenchmarkPairbenchSpin), and the truth is that over the benchmark's own ns/op (the median of 5
 * runs of base, taken on this machine).
 */
async function goTruth(setup: SuiteSetup, counting: string, timedPairs: number, seed: number, scratch: string, target: { dir: string; spinScale: number } = { dir: setup.dirs.head, spinScale: 1 }, arm: ArmName = 'benchmark'): Promise<Truth[]> {
  const COUNT_N = 200;
  const bin = join(counting, 'build/bench.test');
  // the timed parts run as the arm runs its commands (bound to one CPU, or GOMAXPROCS=1): what a
  // share of the time the injected work is depends on how the rest of the run is done
  const how = armBinding(arm);
  const timedRun = (file: string, args: string[], cwd: string): Promise<Ran> => {
    if (how === null) return must(file, args, cwd);
    return 'cpu' in how ? must('taskset', ['-c', String(how.cpu), file, ...args], cwd) : must(file, args, cwd, { ...process.env, GOMAXPROCS: '1' });
  };
  const spinRun = await timedRun(bin, ['-test.run', '^$', '-test.bench', '^BenchmarkPairbenchSpin$', '-test.benchtime', '200ms', '-test.count', '5'], counting);
  const spinNs = parseHarness('go', spinRun.stdout).find((x) => x.name === 'BenchmarkPairbenchSpin')!.value;
  const baseRun = await timedRun(join(setup.dirs.base, 'build/bench.test'), ['-test.run', '^$', '-test.bench', GO_SUITE, '-test.benchtime', '100ms', '-test.count', '5'], setup.dirs.base);
  const base = parseHarness('go', baseRun.stdout).filter((x) => x.unit === 'ns');
  const out: Truth[] = [];
  for (const b of base) {
    const r = await must(bin, ['-test.run', '^$', '-test.bench', filterFor('go', [b.name]), '-test.benchtime', `${COUNT_N}x`], counting);
    const calls = Number(/pairbench-calls (\d+)/.exec(r.stderr)?.[1] ?? NaN);
    const perOp = calls / (COUNT_N + 1);
    // the counting copy's spin is head's; a smaller patch's spin is a share of it (its steps, linear)
    const predicted = (perOp * spinNs * target.spinScale) / b.value;
    out.push({ name: b.name, calibration: perOp, truth: predicted, predicted, kind: calls === 0 ? 'unaffected' : predicted >= THRESHOLD ? 'affected' : 'marginal' });
  }
  if (timedPairs <= 0) return out;
  // Counting says which benchmarks call the function; timing says which moved. The patch also moves
  // code in the binary, and a benchmark that never calls parseRawNumber can change with its layout:
  // it is unaffected only if it did not move (|measured| < THRESHOLD / 2), else marginal.
  const timed = await pairbenchArm(setup, 'benchmark', target.dir, 24 * 3600_000, seed + 7, scratch, ['--min-pairs', String(timedPairs), '--max-pairs', String(timedPairs), ...TRUTH_IN_TURN], runPrefix(arm));
  const results = timed.results as { benchmarks: Array<{ name: string; change?: { estimate: number; ci: [number, number] } | null; pairs: unknown[] }> };
  for (const t of out) {
    const b = results.benchmarks.find((x) => x.name === t.name);
    if (!b?.change) continue;
    t.measured = { estimate: b.change.estimate, ci: b.change.ci, pairs: b.pairs.length };
    t.truth = b.change.estimate;
    t.kind = goKind(t);
  }
  return out;
}

/**
 * A Go benchmark's kind. Affected: it calls the slowed function, and the counted work adds at least
 * the threshold (counting is exact; the timing of 20 pairs is not). Unaffected: it never calls the
 * function and its timing shows no movement: an estimate within the threshold and an interval that
 * holds 0. Marginal: the rest, counted in neither: a benchmark that calls the function for less
 * than the threshold, or one that never calls it and still moved (the patched binary's code
 * layout), which a tool is right to flag.
 */
export function goKind(t: Truth): Truth['kind'] {
  if (t.calibration > 0) return (t.predicted ?? t.truth) >= THRESHOLD ? 'affected' : 'marginal';
  if (!t.measured) return 'unaffected';
  const still = Math.abs(t.measured.estimate) < THRESHOLD && t.measured.ci[0] <= 0 && t.measured.ci[1] >= 0;
  return still ? 'unaffected' : 'marginal';
}

async function setupGo(work: string, spin: number, prebuilt: string | null, smallSpin: number): Promise<SuiteSetup> {
  // A build's code layout moves benchmarks that never call the slowed function, differently in
  // each build (Go embeds the build directory): runs that share one truth share one build (--go-dirs).
  const root = prebuilt ?? join(work, 'go');
  // small: the same function slowed by a smaller patch (about +3% on the benchmarks it reaches)
  const dirs = { base: join(root, 'base'), head: join(root, 'head'), aa: join(root, 'aa'), calibration: join(root, 'calibration'), small: join(root, 'small') };
  if (prebuilt) {
    for (const d of Object.values(dirs)) if (!existsSync(join(d, 'build/bench.test'))) throw new Error(`--go-dirs ${prebuilt}: no ${join(d, 'build/bench.test')} (a copy of an earlier run's go/ folder is expected)`);
  } else {
    const mod = join(work, 'go-download');
    mkdirSync(mod, { recursive: true });
    const dl = await must('go', ['mod', 'download', '-json', `${GO_MODULE}@${GO_VERSION}`], mod);
    const source = (JSON.parse(dl.stdout) as { Dir: string }).Dir;
    for (const d of Object.values(dirs)) writableCopy(source, d);
    patchGo(dirs.head, spin);
    patchGo(dirs.small, smallSpin);
    patchGo(dirs.calibration, spin, true, smallSpin);
    for (const d of Object.values(dirs)) await must('go', ['test', '-c', '-trimpath', '-o', 'build/bench.test', '.'], d);
  }
  await must('go', ['install', BENCHSTAT], work);
  return {
    id: 'go',
    title: `Go: ${GO_MODULE} ${GO_VERSION}`,
    format: 'go',
    dirs,
    // the suite: BenchmarkParse (six documents x five parsers) and BenchmarkValidate (six x two), 42
    // benchmarks, about 10 s a run; a simple command, so pairbench adds -test.bench= per benchmark
    run: `./build/bench.test -test.run "^$" -test.bench "${GO_SUITE}" -test.benchtime 100ms`,
    async native(baseDir, headDir, budgetMs, scratch) {
      // one run of the suite per side tells how long -test.count 1 takes
      const once = await must(join(baseDir, 'build/bench.test'), ['-test.run', '^$', '-test.bench', GO_SUITE, '-test.benchtime', '100ms'], baseDir);
      const count = Math.max(2, Math.floor(budgetMs / (2 * once.wallMs)));
      const started = Date.now();
      const args = ['-test.run', '^$', '-test.bench', GO_SUITE, '-test.benchtime', '100ms', '-test.count', String(count)];
      const a = await must(join(baseDir, 'build/bench.test'), args, baseDir);
      const b = await must(join(headDir, 'build/bench.test'), args, headDir);
      writeFileSync(join(scratch, 'base.txt'), a.stdout);
      writeFileSync(join(scratch, 'head.txt'), b.stdout);
      const gopath = (await must('go', ['env', 'GOPATH'], scratch)).stdout.trim();
      const stat = await must(join(gopath, 'bin', 'benchstat'), ['-format', 'csv', 'base.txt', 'head.txt'], scratch);
      writeFileSync(join(scratch, 'benchstat.csv'), stat.stdout);
      return { outcomes: parseBenchstatCsv(stat.stdout), raw: stat.stdout, command: `bench.test ${args.join(' ')} (base, then head); benchstat base.txt head.txt`, wallMs: Date.now() - started };
    },
  };
}

/**
 * benchstat's CSV: the first table (sec/op), one row per benchmark:
 * `name,base,CI,head,CI,vs base,P`; `vs base` is `~` when not significant at 0.05.
 */
export function parseBenchstatCsv(text: string): Outcome[] {
  const out: Outcome[] = [];
  const lines = text.split('\n');
  let inTable = false;
  for (const line of lines) {
    if (line.includes('sec/op')) {
      if (inTable) break;
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (line.trim() === '') {
      if (out.length > 0) break;
      continue;
    }
    const cells = line.split(',');
    // benchstat drops the Benchmark prefix and keeps the -GOMAXPROCS suffix: back to Go's names as pairbench has them
    const bare = cells[0]!.replace(/-\d+$/, '');
    if (bare === 'geomean' || bare === '') continue;
    const name = bare.startsWith('Benchmark') ? bare : `Benchmark${bare}`;
    const delta = cells[5] ?? '~';
    const estimate = delta === '~' ? null : Number(delta.replace('%', '')) / 100;
    const flagged = estimate === null ? null : estimate > THRESHOLD ? 'regression' : estimate < -THRESHOLD ? 'improvement' : null;
    out.push({ name, flagged, verdict: delta === '~' ? 'not significant' : `significant ${delta}`, estimate });
  }
  return out;
}

/**
 * pytest-benchmark's verdicts: every benchmark of head's `--benchmark-json` (by its fullname), the
 * ones named in a "Field 'median' has failed" line of `--benchmark-compare-fail` flagged.
 */
export function parsePytestCompare(output: string, headJson: string): Outcome[] {
  const failed = new Set([...output.matchAll(/^\s*(\S+) \(\d+_[^)]*\) - Field 'median' has failed/gm)].map((m) => m[1]!));
  const doc = JSON.parse(headJson) as { benchmarks: Array<{ name: string; fullname: string }> };
  return doc.benchmarks.map((bm) => ({ name: bm.fullname, flagged: failed.has(bm.name) ? ('regression' as const) : null, verdict: failed.has(bm.name) ? 'median failed' : 'passed', estimate: null }));
}

/** The Python patch: see setupPython. */
async function setupPython(work: string, spin: number, batch: number, tests: string, steps?: number): Promise<SuiteSetup> {
  const dl = join(work, 'py-download');
  mkdirSync(dl, { recursive: true });
  await must('python3', ['-m', 'pip', 'download', '--no-deps', '--no-binary', ':all:', `${PY_PACKAGE}==${PY_VERSION}`, '-d', dl], dl);
  const tarball = readdirSync(dl).find((f) => f.endsWith('.tar.gz'));
  if (!tarball) throw new Error(`pip download ${PY_PACKAGE}==${PY_VERSION} left no sdist in ${dl}`);
  await must('tar', ['xzf', tarball], dl);
  const source = join(dl, tarball.replace(/\.tar\.gz$/, ''));
  if (!existsSync(join(source, 'bench'))) throw new Error(`${PY_PACKAGE} ${PY_VERSION}'s sdist has no bench/ directory`);
  const dirs = { base: join(work, 'py', 'base'), head: join(work, 'py', 'head'), aa: join(work, 'py', 'aa'), calibration: join(work, 'py', 'calibration') };
  for (const d of Object.values(dirs)) writableCopy(source, d);
  patchPython(dirs.head, spin, 1, steps);
  patchPython(dirs.calibration, spin, CALIBRATION_FACTOR, steps);
  // the selected tests, or bench/ as a whole (a listing run, or suite-level pairing)
  const runCommand = `set -- {benchmark}; [ $# -gt 0 ] || set -- ${tests}; PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider --benchmark-max-time=0.1 --benchmark-json=.benchmarks/run.json "$@" >&2 && cat .benchmarks/run.json`;
  return {
    id: 'python',
    title: `Python: ${PY_PACKAGE} ${PY_VERSION} (${tests === 'bench' ? 'bench/' : tests}, pytest-benchmark${steps === undefined ? '' : `; head's patch: an assignment and ${steps} increment${steps === 1 ? '' : 's'}, no loop`})`,
    format: 'pytest-benchmark',
    dirs,
    run: runCommand,
    batch,
    async native(baseDir, headDir, budgetMs, scratch) {
      const storage = `file://${scratch}/storage`;
      const once = await run0(baseDir, []);
      const factor = Math.max(1, budgetMs / (2 * once.wallMs));
      const args = [`--benchmark-max-time=${(1 * factor).toFixed(2)}`, `--benchmark-storage=${storage}`];
      const started = Date.now();
      await run0(baseDir, [...args, '--benchmark-save=base']);
      const headJson = join(scratch, 'head.json');
      const b = await run(
        'sh',
        ['-c', `PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider ${tests} ${args.join(' ')} --benchmark-compare=0001 --benchmark-compare-fail=median:${THRESHOLD * 100}% --benchmark-json=${headJson}`],
        { cwd: headDir },
      );
      if (!existsSync(headJson)) throw new Error(`pytest-benchmark wrote no ${headJson} (exit ${b.code}):\n${b.stderr.slice(-2000)}`);
      const output = `${b.stdout}\n${b.stderr}`;
      // pytest-benchmark's JSON holds every round's time (stats.data): at a 10-minute budget it
      // outgrows a Node string (512 MB), so Python reads it and passes on the names only
      const names = await must('python3', ['-c', "import json,sys; d=json.load(open(sys.argv[1])); json.dump({'benchmarks': [{'name': b['name'], 'fullname': b['fullname']} for b in d['benchmarks']]}, sys.stdout)", headJson], scratch);
      return { outcomes: parsePytestCompare(output, names.stdout), raw: output.slice(-20_000), command: `pytest bench ${args.join(' ')} (base --benchmark-save, head --benchmark-compare-fail=median:2%)`, wallMs: Date.now() - started };
    },
  };
  async function run0(cwd: string, extra: string[]): Promise<Ran> {
    return must('sh', ['-c', `PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider ${tests} ${extra.join(' ')}`], cwd);
  }
}

/**
 * The Python patch: busy work at the start of `BaseConverter._unstructure_seq`
 * (src/cattrs/converters.py), which unstructures lists, tuples and sets; the primitive and
 * mapping benchmarks do not call it.
 */
const PY_PATCH_TARGET = { file: 'src/cattrs/converters.py', anchor: '    def _unstructure_seq(self, seq: Sequence[T]) -> Sequence[T]:' };

/**
 * Head's patch is one block of busy work (a loop of `spin` steps); the calibration copy repeats
 * that same block `copies` times, so that it adds exactly `copies` times head's work, the loop's
 * setup included (ten times the steps in one loop would not: the setup of a 2-step loop costs
 * about as much as its steps). With `steps` given, the block has no loop: an assignment and
 * `steps` increments, a far smaller patch (under valgrind, on a `BaseConverter` list benchmark's
 * 30 calls a round: the assignment adds about 0.5% of its instructions, each increment about 0.7%;
 * the 2-step loop, about 15%).
 */
function patchPython(dir: string, spin: number, copies = 1, steps?: number): void {
  const file = join(dir, PY_PATCH_TARGET.file);
  const text = readFileSync(file, 'utf8');
  if (!text.includes(PY_PATCH_TARGET.anchor)) throw new Error(`${PY_PACKAGE} ${PY_VERSION}: ${PY_PATCH_TARGET.file} has no ${PY_PATCH_TARGET.anchor.trim()}`);
  const block = steps === undefined ? `\n        _x = 0\n        for _i in range(${spin}):\n            _x += _i ^ (_x >> 3)` : `\n        _x = 0${'\n        _x += 1'.repeat(steps)}`;
  writeFileSync(file, text.replace(PY_PATCH_TARGET.anchor, `${PY_PATCH_TARGET.anchor}${block.repeat(copies)}`));
}

/**
 * The third suite, of another harness: snappy 1.1.9's own Google Benchmark suite
 * (snappy_benchmark.cc: 57 benchmarks of decompression, validation and compression of its test
 * data), from Debian's pool (the source Debian ships, pinned by version), built with g++ against
 * Debian's libbenchmark-dev. Head's patch adds fixed busy work to the start of
 * `SnappyDecompressor::ReadUncompressedLength`, called once per decompression and validation:
 * the decompressing benchmarks slow down by how short they are; the compressing ones never call it.
 * The truth is measured as for Python: the calibration copy repeats head's block CALIBRATION_FACTOR
 * times.
 */
const SNAPPY = { version: '1.1.9', url: 'http://deb.debian.org/debian/pool/main/s/snappy/snappy_1.1.9.orig.tar.gz' };
const SNAPPY_ANCHOR = '  bool ReadUncompressedLength(uint32_t* result) {';

function patchSnappy(dir: string, spin: number, copies = 1): void {
  const file = join(dir, 'snappy.cc');
  const text = readFileSync(file, 'utf8');
  if (!text.includes(SNAPPY_ANCHOR)) throw new Error(`snappy ${SNAPPY.version}: snappy.cc has no ${SNAPPY_ANCHOR.trim()}`);
  const block = `\n    { volatile uint32_t pairbench_x = 0; for (int pairbench_i = 0; pairbench_i < ${spin}; pairbench_i++) pairbench_x = pairbench_x + (pairbench_i ^ (pairbench_x >> 3)); }`;
  writeFileSync(file, text.replace(SNAPPY_ANCHOR, `${SNAPPY_ANCHOR}${block.repeat(copies)}`));
}

/**
 * Google Benchmark for the instructions arm, where the machine's is older than 1.8 (Debian 12 ships
 * 1.7.1): counted runs need `--benchmark_min_time=<N>x` (src/harness/registry.ts). The source
 * Debian ships, pinned by version, built static with CMake into the work folder, its tests off.
 */
const GBENCH = { version: '1.9.1', url: 'http://deb.debian.org/debian/pool/main/b/benchmark/benchmark_1.9.1.orig.tar.gz' };

/** The machine's Google Benchmark version (`pkg-config benchmark`), as [major, minor], or null. */
function systemGbench(): [number, number] | null {
  const v = /^(\d+)\.(\d+)/.exec(versionOf('pkg-config', ['--modversion', 'benchmark']) ?? '');
  return v ? [Number(v[1]), Number(v[2])] : null;
}

/** Builds GBENCH into `work` when counting needs it and the machine's is older; the compiler flags that use it, and its version. */
async function gbenchFor(work: string, counting: boolean): Promise<{ flags: string[]; version: string }> {
  const system = systemGbench();
  const systemVersion = system ? system.join('.') : 'the machine\'s';
  if (!counting || (system !== null && (system[0] > 1 || (system[0] === 1 && system[1] >= 8)))) return { flags: [], version: systemVersion };
  const dl = join(work, 'gbench-download');
  mkdirSync(dl, { recursive: true });
  await must('curl', ['-fsSL', '-o', 'benchmark.tar.gz', GBENCH.url], dl);
  await must('tar', ['xzf', 'benchmark.tar.gz'], dl);
  const source = join(dl, readdirSync(dl).find((e) => e.startsWith('benchmark-') && statSync(join(dl, e)).isDirectory())!);
  const prefix = join(work, 'gbench');
  await must('cmake', ['-S', source, '-B', join(dl, 'build'), '-DCMAKE_BUILD_TYPE=Release', '-DBENCHMARK_ENABLE_TESTING=OFF', '-DBENCHMARK_ENABLE_GTEST_TESTS=OFF', '-DBENCHMARK_ENABLE_WERROR=OFF', '-DBUILD_SHARED_LIBS=OFF', `-DCMAKE_INSTALL_PREFIX=${prefix}`, '-DCMAKE_INSTALL_LIBDIR=lib'], dl);
  await must('cmake', ['--build', join(dl, 'build'), '--parallel', '2'], dl);
  await must('cmake', ['--install', join(dl, 'build')], dl);
  return { flags: [`-I${join(prefix, 'include')}`, `-L${join(prefix, 'lib')}`], version: GBENCH.version };
}

async function setupSnappy(work: string, spin: number, counting: boolean): Promise<SuiteSetup> {
  const gbench = await gbenchFor(work, counting);
  const dl = join(work, 'snappy-download');
  mkdirSync(dl, { recursive: true });
  await must('curl', ['-fsSL', '-o', 'snappy.tar.gz', SNAPPY.url], dl);
  await must('tar', ['xzf', 'snappy.tar.gz'], dl);
  const source = join(dl, `snappy-${SNAPPY.version}`);
  // the headers CMake would generate: this machine's answers (Linux, x86-64, gcc)
  const config = readFileSync(join(source, 'cmake/config.h.in'), 'utf8')
    .replace(/#cmakedefine (HAVE_ATTRIBUTE_ALWAYS_INLINE|HAVE_BUILTIN_CTZ|HAVE_BUILTIN_EXPECT|HAVE_FUNC_MMAP|HAVE_FUNC_SYSCONF|HAVE_SYS_MMAN_H|HAVE_SYS_RESOURCE_H|HAVE_SYS_TIME_H|HAVE_SYS_UIO_H|HAVE_UNISTD_H) 1/g, '#define $1 1')
    .replace(/#cmakedefine01 (\w+)/g, '#define $1 0')
    .replace(/#cmakedefine (\w+) 1/g, '/* #undef $1 */');
  writeFileSync(join(source, 'config.h'), config);
  const [major, minor, patch] = SNAPPY.version.split('.');
  const stubs = readFileSync(join(source, 'snappy-stubs-public.h.in'), 'utf8').replace(/\$\{HAVE_SYS_UIO_H_01\}/g, '1').replace('${PROJECT_VERSION_MAJOR}', major!).replace('${PROJECT_VERSION_MINOR}', minor!).replace('${PROJECT_VERSION_PATCH}', patch!);
  writeFileSync(join(source, 'snappy-stubs-public.h'), stubs);
  const dirs = { base: join(work, 'snappy', 'base'), head: join(work, 'snappy', 'head'), aa: join(work, 'snappy', 'aa'), calibration: join(work, 'snappy', 'calibration') };
  for (const d of Object.values(dirs)) writableCopy(source, d);
  patchSnappy(dirs.head, spin);
  patchSnappy(dirs.calibration, spin, CALIBRATION_FACTOR);
  const sources = ['snappy.cc', 'snappy-sinksource.cc', 'snappy-stubs-internal.cc', 'snappy-c.cc', 'snappy-test.cc', 'snappy_test_data.cc', 'snappy_benchmark.cc'];
  for (const d of Object.values(dirs)) {
    mkdirSync(join(d, 'build'), { recursive: true });
    await must('g++', ['-O2', '-std=c++11', '-DHAVE_CONFIG_H', '-I.', ...gbench.flags, '-o', 'build/bench', ...sources, '-lbenchmark_main', '-lbenchmark', '-lpthread'], d);
  }
  return {
    id: 'snappy',
    title: `C++: snappy ${SNAPPY.version} (snappy_benchmark.cc, Google Benchmark ${gbench.version})`,
    format: 'google-benchmark',
    dirs,
    // a simple command: pairbench adds --benchmark_filter, and (--design auto) the minimum time and repetitions
    run: './build/bench --benchmark_format=json',
    async native() {
      throw new Error('no native arm for snappy (Google Benchmark has no compare in Debian\'s packages)');
    },
  };
}

/**
 * The JavaScript suite: a pinned npm package, two of its published versions whose changelog names a
 * performance change: @rgrove/parse-xml 4.2.0 ("Parsing performance in Node.js 22 is up to 28%
 * faster than version 4.1.0", its release notes), measured through a vitest benchmark file of this
 * project's own writing (JS_BENCH: five documents of different shapes, each its own benchmark).
 * Base runs 4.2.0 and head 4.1.0, so that the change a PR would bring is the slowdown (a
 * regression, as in the other suites); aa runs 4.2.0 again. vitest 4 (its `--outputJson` and
 * `--compare`), installed from the npm registry into each copy. The truth is measured: pairs of
 * each benchmark alone, base against head (JS_TRUTH_PAIRS), as for the Go layout effects: affected
 * when the old version is slower by the threshold or more, its whole interval at or above it (measuredKind).
 */
const JS = { package: '@rgrove/parse-xml', fast: '4.2.0', slow: '4.1.0', vitest: '4.1.12' };

const JS_BENCH = `// pairbench's bench:suites: @rgrove/parse-xml on five documents (vitest 4's bench API).
import { bench, describe } from 'vitest';
import { parseXml } from '@rgrove/parse-xml';

const item = (i) => \`<item id="\${i}" kind="\${i % 3 ? 'post' : 'page'}"><title>Item \${i} &amp; more</title><link>https://example.com/\${i}</link><description>Text of item \${i}, with &lt;markup&gt; in it.</description><category>c\${i % 7}</category></item>\`;
const feed = (n) => \`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed</title>\${Array.from({ length: n }, (_, i) => item(i)).join('')}</channel></rss>\`;
const attributes = (n) => \`<root>\${Array.from({ length: n }, (_, i) => \`<e a="\${i}" b="x\${i}" c="y" d="\${i * 7}" e="z&quot;\${i}"/>\`).join('')}</root>\`;
const text = (n) => \`<doc>\${Array.from({ length: n }, (_, i) => \`<p>Paragraph \${i}: \${'lorem ipsum dolor sit amet '.repeat(8)}</p>\`).join('')}</doc>\`;
const cdata = (n) => \`<doc>\${Array.from({ length: n }, (_, i) => \`<!-- note \${i} --><code><![CDATA[if (a < b && c > d) { return \${i}; }]]></code>\`).join('')}</doc>\`;

const docs = { 'feed small': feed(5), 'feed large': feed(400), attributes: attributes(800), text: text(300), 'cdata and comments': cdata(600) };
const options = { time: 300, warmupTime: 200 };
let sink = 0;
describe('parse-xml', () => {
  for (const [name, xml] of Object.entries(docs)) {
    bench(name, () => {
      sink += parseXml(xml).children.length;
    }, options);
  }
});
export { sink };
`;

/** Pairs of each JavaScript benchmark alone, base against head: the measured truth. */
const JS_TRUTH_PAIRS = 20;

async function setupJs(work: string): Promise<SuiteSetup> {
  const dirs = { base: join(work, 'js', 'base'), head: join(work, 'js', 'head'), aa: join(work, 'js', 'aa'), calibration: join(work, 'js', 'head') };
  const versions: Record<string, string> = { base: JS.fast, head: JS.slow, aa: JS.fast };
  for (const [side, version] of Object.entries(versions)) {
    const dir = join(work, 'js', side);
    mkdirSync(join(dir, 'build'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, type: 'module', devDependencies: { [JS.package]: version, vitest: JS.vitest } }, null, 2)}\n`);
    writeFileSync(join(dir, 'xml.bench.ts'), JS_BENCH);
    writeFileSync(join(dir, 'vitest.config.mjs'), 'export default { test: {} };\n');
    await must('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
  }
  return {
    id: 'js',
    title: `JavaScript: ${JS.package} ${JS.fast} (base) against ${JS.slow} (head), vitest ${JS.vitest} bench`,
    format: 'vitest',
    dirs,
    run: 'npx vitest bench --run {file} -t {filter} --outputJson build/bench.json >&2 && cat build/bench.json',
    async native(baseDir, headDir, budgetMs, scratch) {
      // vitest's own way: a saved baseline, then --compare on the other side; both sides share the
      // budget, each benchmark's time scaled to fill it. Flagged: the median moved beyond 2% (as
      // pytest-benchmark's --benchmark-compare-fail=median:2%).
      const once = await run('sh', ['-c', 'npx vitest bench --run --outputJson build/once.json >&2'], { cwd: baseDir });
      const scale = Math.max(1, budgetMs / (2 * once.wallMs));
      const configure = (dir: string) => writeFileSync(join(dir, 'xml.bench.ts'), JS_BENCH.replace('time: 300, warmupTime: 200', `time: ${Math.round(300 * scale)}, warmupTime: 200`));
      configure(baseDir);
      configure(headDir);
      const started = Date.now();
      const baseJson = join(scratch, 'base.json');
      const headJson = join(scratch, 'head.json');
      try {
        await must('sh', ['-c', `npx vitest bench --run --outputJson ${JSON.stringify(baseJson)} >&2`], baseDir);
        const b = await run('sh', ['-c', `npx vitest bench --run --compare ${JSON.stringify(baseJson)} --outputJson ${JSON.stringify(headJson)}`], { cwd: headDir });
        const medians = (file: string) => new Map(parseHarness('vitest', readFileSync(file, 'utf8')).map((x) => [x.name, x.value]));
        const before = medians(baseJson);
        const after = medians(headJson);
        const outcomes: Outcome[] = [...after].map(([name, value]) => {
          const was = before.get(name);
          const estimate = was ? value / was - 1 : null;
          const flagged = estimate === null ? null : estimate > THRESHOLD ? ('regression' as const) : estimate < -THRESHOLD ? ('improvement' as const) : null;
          return { name, flagged, verdict: flagged ?? 'within 2%', estimate };
        });
        return { outcomes, raw: b.stdout.slice(-20_000), command: `vitest bench --run --outputJson base.json (base), then --compare base.json (head); each benchmark's time ${Math.round(300 * scale)} ms`, wallMs: Date.now() - started };
      } finally {
        writeFileSync(join(baseDir, 'xml.bench.ts'), JS_BENCH);
        writeFileSync(join(headDir, 'xml.bench.ts'), JS_BENCH);
      }
    },
  };
}

/** The JavaScript suite's truth, measured: JS_TRUTH_PAIRS pairs of each benchmark alone, base against head. */
async function jsTruth(setup: SuiteSetup, seed: number, scratch: string): Promise<Truth[]> {
  const timed = await pairbenchArm(setup, 'benchmark', setup.dirs.head, 24 * 3600_000, seed + 11, scratch, ['--min-pairs', String(JS_TRUTH_PAIRS), '--max-pairs', String(JS_TRUTH_PAIRS), ...TRUTH_IN_TURN]);
  const results = timed.results as { benchmarks: Array<{ name: string; change?: { estimate: number; ci: [number, number] } | null; pairs: unknown[] }> };
  return results.benchmarks
    .filter((b) => !/ \([^()]*\)$/.test(b.name) && b.change)
    .map((b) => {
      const c = b.change!;
      const measured = { estimate: c.estimate, ci: c.ci, pairs: b.pairs.length };
      return { name: b.name, calibration: c.estimate, truth: c.estimate, kind: measuredKind(measured, THRESHOLD), measured };
    });
}

// --- the arms -----------------------------------------------------------------------------------

async function pairbenchArm(setup: SuiteSetup, interleave: 'suite' | 'benchmark', headDir: string, budgetMs: number, seed: number, scratch: string, extra: string[] = [], runPrefix = ''): Promise<{ outcomes: Outcome[]; wallMs: number; lastVerdictMs: number; processes: number; command: string; results: unknown; file: string }> {
  const out = join(scratch, `pairbench-${interleave}.json`);
  const args = [join(ROOT, 'src/cli.ts'), 'compare', '--base-dir', setup.dirs.base, '--head-dir', headDir, '--run', runPrefix + setup.run, '--format', setup.format, '--interleave', interleave, ...(interleave === 'benchmark' && setup.batch ? ['--batch', String(setup.batch)] : []), '--max-time', `${Math.round(budgetMs / 1000)}s`, '--threshold', `${THRESHOLD * 100}%`, '--alpha', String(ALPHA), '--seed', String(seed), '--out', out, '--quiet', '--fail-on', 'none', ...extra];
  const watch = watchPairs(out);
  const r = await run(process.execPath, args, { cwd: ROOT, timeoutMs: budgetMs * 3 + 600_000 });
  const pairTimes = watch.stop();
  if (!existsSync(out)) throw new Error(`pairbench wrote no results (exit ${r.code}):\n${r.stderr.slice(-3000)}`);
  const results = readResultsFile(out) as unknown as { startedAt: string; finishedAt: string; rounds?: string[][]; benchmarks: Array<{ name: string; verdict: string; unit: string; change?: { estimate: number } | null; stoppedBecause?: string; pairs: unknown[] }> };
  const primary = results.benchmarks.filter((b) => !/ \([^()]*\)$/.test(b.name));
  const outcomes = primary.map((b) => ({
    name: b.name,
    flagged: b.verdict === 'regression' ? ('regression' as const) : b.verdict === 'improvement' ? ('improvement' as const) : null,
    verdict: b.verdict,
    estimate: b.change?.estimate ?? null,
    ...(b.stoppedBecause ? { stoppedBecause: b.stoppedBecause } : {}),
    pairs: b.pairs.length,
  }));
  const wallMs = Date.parse(results.finishedAt) - Date.parse(results.startedAt);
  const batch = interleave === 'benchmark' ? (setup.batch ?? 1) : Math.max(1, primary.length);
  const processes = processesOf(results.rounds, primary.reduce((a, b) => a + b.pairs.length, 0), batch);
  return { outcomes, wallMs, lastVerdictMs: lastVerdictMs(primary, pairTimes, wallMs), processes, command: `node src/cli.ts ${args.slice(1).map((a) => (/[\s"'{}^$]/.test(a) ? `'${a}'` : a)).join(' ')}`, results, file: out };
}

/**
 * Keeps an arm's own results file in `<out>/arms/<name>.json`, beside suites.json, and returns its
 * path relative to `out`: the work folder goes when the run ends, and the pairs themselves (each
 * pair's two values and its order) are what a question the table cannot answer needs, such as
 * whether benchmarks run in one process move together.
 */
export function keepResultsFile(outDir: string, name: string, file: string): string {
  const kept = join('arms', `${name.replace(/[^\w.-]+/g, '_')}.json`);
  mkdirSync(join(outDir, 'arms'), { recursive: true });
  copyFileSync(file, join(outDir, kept));
  return kept;
}

/**
 * What an arm puts before the run command: `GOMAXPROCS=1 `, or `taskset -c <cpu> ` with the last
 * CPU this process may use (Linux; util-linux's taskset), so that every run of both sides is on
 * one core, as a user would bind them on a runner of their own.
 */
function runPrefix(arm: ArmName): string {
  const how = armBinding(arm);
  return how === null ? '' : 'cpu' in how ? `taskset -c ${how.cpu} ` : 'GOMAXPROCS=1 ';
}

/** How an arm binds its runs (`runPrefix` writes it before the command): to one CPU, to one Go thread, or not at all. */
function armBinding(arm: ArmName): { cpu: number } | { gomaxprocs: 1 } | null {
  if (arm === 'benchmark-gomaxprocs1') return { gomaxprocs: 1 };
  if (arm !== 'benchmark-pinned') return null;
  const last = allowedCpus()?.at(-1);
  if (last === undefined) throw new Error("--arms benchmark-pinned: cannot read this process's CPUs from /proc/self/status (Linux only)");
  return { cpu: last };
}

/** `--truth-arm`: an arm that runs the benchmarks' own command, prefixed or not. */
function truthArmOf(value: string | undefined): ArmName {
  const arms: ArmName[] = ['benchmark', 'benchmark-gomaxprocs1', 'benchmark-pinned'];
  if (value === undefined) return 'benchmark';
  if (!(arms as string[]).includes(value)) throw new Error(`--truth-arm: got "${value}"; expected one of ${arms.join(', ')}`);
  return value as ArmName;
}

/** A truth's pairs run in turn, as every truth before at-once became the default did, so that truths of different runs compare. */
const TRUTH_IN_TURN = ['--pair-runs', 'in-turn'];

/** pairbench's flags for an arm. */
function armFlags(arm: ArmName): string[] {
  if (arm === 'benchmark-harness') return ['--design', 'command', '--iterations', 'harness'];
  if (arm === 'benchmark-command') return ['--design', 'command'];
  if (arm === 'benchmark-isolated') return ['--cpus', 'auto'];
  if (arm === 'benchmark-unbound') return ['--cpus', 'none'];
  if (arm === 'benchmark-batched') return ['--batch', '5'];
  if (arm === 'benchmark-at-once') return ['--pair-runs', 'at-once'];
  if (arm === 'benchmark-in-turn') return ['--pair-runs', 'in-turn'];
  if (arm === 'benchmark-bound') {
    const cpus = allowedCpus();
    if (cpus === null || cpus.length < 2) throw new Error('--arms benchmark-bound: needs Linux and two CPUs or more this process may use (/proc/self/status), one of them left to pairbench');
    return ['--cpus', cpus.slice(1).join(',')];
  }
  return [];
}

/**
 * What an arm's results file says beyond the verdicts: the median over benchmarks of the standard
 * deviation of ln(head / base) per pair (the noise of a pair, what the design of the runs cuts),
 * and the designs chosen (--design auto).
 */
function armFigures(results: unknown): { spread?: number; designs?: string } {
  const r = results as Results;
  const names = new Set(r.benchmarks.map((b) => b.name));
  const own = r.benchmarks.filter((b) => {
    const m = / \([^()]*\)$/.exec(b.name);
    return !(m && names.has(b.name.slice(0, m.index))) && b.pairs.length >= 3;
  });
  const sds = own
    .map((b) => {
      const d = b.pairs.map((p) => Math.log(p.head / p.base));
      const mean = d.reduce((a, x) => a + x, 0) / d.length;
      return Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1));
    })
    .sort((a, b) => a - b);
  const designs = designSummary(r.benchmarks);
  return { ...(sds.length > 0 ? { spread: sds[Math.floor(sds.length / 2)]! } : {}), ...(designs ? { designs } : {}) };
}

async function calibrate(setup: SuiteSetup, pairs: number, seed: number, scratch: string): Promise<Truth[]> {
  const r = await pairbenchArm(setup, 'benchmark', setup.dirs.calibration, 24 * 3600_000, seed, scratch, ['--min-pairs', String(pairs), '--max-pairs', String(pairs), '--outliers', 'none', ...TRUTH_IN_TURN]);
  return r.outcomes.map((o) => {
    const calibration = o.estimate ?? 0;
    // the copy adds CALIBRATION_FACTOR times head's work: time(copy) - time(base) = CALIBRATION_FACTOR x (time(head) - time(base))
    const truth = calibration / CALIBRATION_FACTOR;
    const kind = truth >= THRESHOLD ? 'affected' : Math.abs(calibration) < 0.02 ? 'unaffected' : 'marginal';
    return { name: o.name, calibration, truth, kind };
  });
}

/**
 * A fresh suite's truth: the calibration copy (which benchmarks reach the slowed code), then, when
 * `headPairs` > 0, that many pairs of each benchmark, base against head itself (how much head moves
 * it, the build's layout included). freshKind says why the copy's change over ten is not head's.
 */
async function freshTruth(setup: SuiteSetup, calibrationPairs: number, headPairs: number, seed: number, scratch: string): Promise<Truth[]> {
  const calibrated = await calibrate(setup, calibrationPairs, seed, scratch);
  if (headPairs <= 0) return calibrated;
  const timed = await pairbenchArm(setup, 'benchmark', setup.dirs.head, 24 * 3600_000, seed + 13, mkdtempSync(join(scratch, 'head-')), ['--min-pairs', String(headPairs), '--max-pairs', String(headPairs), '--outliers', 'none', ...TRUTH_IN_TURN]);
  const results = timed.results as { benchmarks: Array<{ name: string; change?: { estimate: number; ci: [number, number] } | null; pairs: unknown[] }> };
  return calibrated.map((t) => {
    const b = results.benchmarks.find((x) => x.name === t.name);
    const measured = b?.change ? { estimate: b.change.estimate, ci: b.change.ci, pairs: b.pairs.length } : undefined;
    // a benchmark head's pairs could not judge keeps the copy's truth, and is counted in neither
    if (!measured) return { ...t, kind: t.kind === 'unaffected' ? 'unaffected' : 'marginal' };
    return { ...t, ...freshKind(t.calibration, measured, THRESHOLD), measured };
  });
}

// --- the run ------------------------------------------------------------------------------------

/** A whole number of at least 1 from the command line, else a usage error naming the option and the value. */
function positiveInteger(option: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${option}: got "${value}"; expected a whole number of 1 or more`);
  return n;
}

function nonNegativeInteger(option: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${option}: got "${value}"; expected a whole number of 0 or more`);
  return n;
}

function settingsFrom(argv: string[]): Settings & { render: string | null; spin: number; pySpin: number; pySteps: number | undefined; pyBatch: number; pyTests: string; merge: string[]; goTruthPairs: number; freshTruthPairs: number; truthOnly: boolean; keepWork: boolean; goDirs: string | null; pairbenchFlags: string[]; noisyArms: ArmName[] | undefined; noisyAaArms: ArmName[] | undefined; smallSpin: number; smallArms: ArmName[]; snappySpin: number; countWork: string; countCalibrationPairs: number; freshSpin: number | undefined } {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      suites: { type: 'string' },
      conditions: { type: 'string' },
      arms: { type: 'string' },
      'aa-arms': { type: 'string' },
      'noisy-arms': { type: 'string' },
      'noisy-aa-arms': { type: 'string' },
      'py-batch': { type: 'string' },
      'py-tests': { type: 'string' },
      'go-truth-pairs': { type: 'string' },
      'fresh-truth-pairs': { type: 'string' },
      'truth-arm': { type: 'string' },
      'go-dirs': { type: 'string' },
      'truth-only': { type: 'boolean', default: false },
      'keep-work': { type: 'boolean', default: false },
      'pairbench-flags': { type: 'string' },
      merge: { type: 'string', multiple: true },
      budget: { type: 'string' },
      'calibration-pairs': { type: 'string' },
      spin: { type: 'string' },
      'py-spin': { type: 'string' },
      'py-steps': { type: 'string' },
      'small-spin': { type: 'string' },
      'small-arms': { type: 'string' },
      'snappy-spin': { type: 'string' },
      'fresh-spin': { type: 'string' },
      'count-work': { type: 'string' },
      'count-calibration-pairs': { type: 'string' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: join(ROOT, 'bench/results') },
      render: { type: 'string' },
    },
  });
  const quick = values.quick === true;
  return {
    quick,
    suites: selectSuites(values.suites ?? (quick ? 'go' : 'go,python'), TUNED_SUITES),
    conditions: (values.conditions ?? (quick ? 'quiet' : 'quiet,noisy')).split(',') as Condition[],
    arms: (values.arms ?? 'suite,benchmark,native').split(',').filter((a) => a !== '' && a !== 'none') as ArmName[],
    aaArms: (values['aa-arms'] ?? values.arms ?? 'suite,benchmark,native').split(',').filter((a) => a !== '' && a !== 'none') as ArmName[],
    // under the noise generator, other arms if given (default: the same)
    noisyArms: values['noisy-arms']?.split(',').filter((a) => a !== '' && a !== 'none') as ArmName[] | undefined,
    noisyAaArms: values['noisy-aa-arms']?.split(',').filter((a) => a !== '' && a !== 'none') as ArmName[] | undefined,
    budgetMs: parseDuration('--budget', values.budget ?? (quick ? '90s' : '10m')),
    calibrationPairs: Number(values['calibration-pairs'] ?? (quick ? 4 : 20)),
    spin: Number(values.spin ?? 8),
    // 2 loop steps per call: about +10% on BaseConverter's list benchmarks (measured: 500 steps made them +2550%)
    pySpin: Number(values['py-spin'] ?? 2),
    // instead of the loop, an assignment and this many increments: 1 adds about 1.0% of the list
    // benchmarks' instructions, for the instructions arm's small patch
    pySteps: values['py-steps'] === undefined ? undefined : nonNegativeInteger('--py-steps', values['py-steps']),
    // the smaller Go patch: a quarter of head's steps, about +3% on the benchmarks it reaches most
    smallSpin: Number(values['small-spin'] ?? 2),
    smallArms: (values['small-arms'] ?? 'benchmark').split(',').filter((a) => a !== '' && a !== 'none') as ArmName[],
    // busy steps at the start of each snappy decompression (about 1 µs)
    snappySpin: Number(values['snappy-spin'] ?? 1000),
    // the suites not tuned on: head's busy steps a call for every one of them (default: each suite's
    // own, FRESH_SUITES); a smaller patch, say a quarter of the Go suites' 8, for a change of a few percent
    freshSpin: values['fresh-spin'] === undefined ? undefined : positiveInteger('--fresh-spin', values['fresh-spin']),
    // the instructions arm: the benchmark's work in one counted run (pairbench's --count-work; the
    // tests' 8 ms: valgrind's cost is its start plus about 40 times this, per run)
    countWork: values['count-work'] ?? '8ms',
    // the instructions arm, Python and snappy: pairs of the counted calibration copy (counts barely vary)
    countCalibrationPairs: Number(values['count-calibration-pairs'] ?? 3),
    // a pytest process costs about a second before its first benchmark: 6 benchmarks a run (still paired back to back)
    pyBatch: Number(values['py-batch'] ?? 6),
    // what the Python suite's listing run passes pytest: its bench/ folder, or fewer of its tests for a
    // costlier arm (the instructions arm counts a cattrs benchmark at about 50 s a pair), as shell words
    pyTests: values['py-tests'] ?? 'bench',
    merge: values.merge ?? [],
    // pairs of each Go benchmark alone, base against head, to see which moved (0: counting only)
    goTruthPairs: Number(values['go-truth-pairs'] ?? (quick ? 0 : 20)),
    // pairs of each fresh benchmark, base against head itself, for the size of head's change (0: the
    // calibration copy's change over ten; freshKind says why that overstates); fewer leave a
    // benchmark near the threshold on the wrong side of it (bench/README.md, "Suites not tuned on")
    freshTruthPairs: nonNegativeInteger('--fresh-truth-pairs', values['fresh-truth-pairs'] ?? (quick ? '0' : '60')),
    // the Go truth timed as this arm runs (benchmark-pinned: bound to one CPU; default: as written)
    truthArm: truthArmOf(values['truth-arm']),
    truthOnly: values['truth-only'] === true,
    keepWork: values['keep-work'] === true,
    // more flags for every pairbench arm, as one string of words (`--pairbench-flags="--precision 0.5%"`)
    pairbenchFlags: (values['pairbench-flags'] ?? '').split(/\s+/).filter((w) => w !== ''),
    goDirs: values['go-dirs'] ? resolve(values['go-dirs']) : null,
    seed: Number(values.seed),
    outDir: resolve(values.out!),
    render: values.render ?? null,
  };
}

interface Report {
  date: string;
  command: string;
  machine: Machine;
  settings: Omit<Settings, 'outDir'> & { spin: number; pySpin: number; pySteps?: number; pyBatch?: number; pyTests?: string; smallSpin?: number; snappySpin?: number; freshSpin?: number; countWork?: string; threshold: number; alpha: number };
  truths: Record<string, Truth[]>;
  /** the instructions arm: what each suite's count truth is made of (bench/lib/count-arm.ts) */
  countBasis?: Record<string, CountBasis>;
  runs: ArmRun[];
  errors: string[];
  /** a report merged from several runs (--merge): each run's date, command, machine and budget */
  parts?: Array<{ date: string; command: string; machine: Machine; budgetMs: number }>;
}

/** Several runs (say, one suite and condition each) as one report: truths of the first run that has them, every arm run. */
export function merge(reports: Report[], command: string): Report {
  const first = reports[0]!;
  const truths: Record<string, Truth[]> = {};
  // per suite, the first run's truths, or the first that also measured them (the Go timing)
  for (const r of reports) for (const [suite, t] of Object.entries(r.truths)) if (!truths[suite] || (!truths[suite].some((x) => x.measured) && t.some((x) => x.measured))) truths[suite] = t;
  // the Go kinds by today's rule (goKind), whatever rule the run that measured them had
  if (truths.go) truths.go = truths.go.map((t) => ({ ...t, kind: goKind(t) }));
  const union = <T>(pick: (r: Report) => T[]) => [...new Set(reports.flatMap(pick))];
  return {
    date: first.date,
    command,
    machine: first.machine,
    settings: { ...first.settings, suites: union((r) => r.settings.suites), conditions: union((r) => r.settings.conditions), arms: union((r) => r.settings.arms), aaArms: union((r) => r.settings.aaArms ?? r.settings.arms) },
    truths,
    // the count truths: per suite, the first run's that has them
    ...(reports.some((r) => r.countBasis) ? { countBasis: Object.assign({}, ...reports.map((r) => r.countBasis ?? {}).reverse()) as Record<string, CountBasis> } : {}),
    runs: reports.flatMap((r) => r.runs),
    errors: reports.flatMap((r) => r.errors),
    parts: reports.flatMap((r) => r.parts ?? [{ date: r.date, command: r.command, machine: r.machine, budgetMs: r.settings.budgetMs }]),
  };
}

/** The command that made a report, as a shell would take it back: an argument with a space or a quote in single quotes. */
export function invocation(argv: readonly string[]): string {
  return `npm run bench:suites -- ${argv.map(shellQuote).join(' ')}`.trim();
}

async function main(): Promise<void> {
  const s = settingsFrom(process.argv.slice(2));
  if (s.merge.length > 0) {
    const reports = s.merge.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Report);
    const merged = merge(reports, invocation(process.argv.slice(2)));
    mkdirSync(s.outDir, { recursive: true });
    writeFileSync(join(s.outDir, 'suites.json'), `${JSON.stringify(merged, null, 1)}\n`);
    writeFileSync(join(s.outDir, 'suites.md'), render(merged));
    return;
  }
  if (s.render) {
    const report = JSON.parse(readFileSync(s.render, 'utf8')) as Report;
    // a truth measured on head itself is judged by this version's rule (freshKind, measuredKind)
    for (const [id, truths] of Object.entries(report.truths)) {
      if (isFresh(id)) report.truths[id] = truths.map((t) => (t.measured ? { ...t, ...freshKind(t.calibration, t.measured, THRESHOLD) } : t));
      else if (id === 'js') report.truths[id] = truths.map((t) => (t.measured ? { ...t, kind: measuredKind(t.measured, THRESHOLD) } : t));
    }
    mkdirSync(s.outDir, { recursive: true });
    writeFileSync(join(s.outDir, `suites${report.settings.quick ? '-quick' : ''}.md`), render(report));
    return;
  }
  const counting = [s.arms, s.aaArms, s.noisyArms ?? [], s.noisyAaArms ?? [], s.smallArms].some((a) => a.includes('instructions'));
  const uncounted = s.suites.filter((x) => !(COUNTED_SUITES as readonly string[]).includes(x));
  if (counting && uncounted.length > 0) throw new UsageError(`--arms instructions: counts the ${COUNTED_SUITES.join(', ')} suites only (a format pairbench counts per benchmark); got --suites with ${uncounted.join(', ')}`);
  const work = mkdtempSync(join(tmpdir(), 'pairbench-suites-'));
  const report: Report = {
    date: new Date().toISOString(),
    command: invocation(process.argv.slice(2)),
    machine: describeMachine(),
    settings: { suites: s.suites, conditions: s.conditions, arms: s.arms, aaArms: s.aaArms, budgetMs: s.budgetMs, calibrationPairs: s.calibrationPairs, seed: s.seed, quick: s.quick, spin: s.spin, pySpin: s.pySpin, ...(s.pySteps === undefined ? {} : { pySteps: s.pySteps }), pyBatch: s.pyBatch, ...(s.pyTests === 'bench' ? {} : { pyTests: s.pyTests }), smallSpin: s.smallSpin, snappySpin: s.snappySpin, ...(s.freshSpin === undefined ? {} : { freshSpin: s.freshSpin }), truthArm: s.truthArm, ...(s.freshTruthPairs > 0 ? { freshTruthPairs: s.freshTruthPairs } : {}), countWork: s.countWork, threshold: THRESHOLD, alpha: ALPHA },
    truths: {},
    runs: [],
    errors: [],
  };
  const save = () => {
    mkdirSync(s.outDir, { recursive: true });
    const name = `suites${s.quick ? '-quick' : ''}`;
    writeFileSync(join(s.outDir, `${name}.json`), `${JSON.stringify(report, null, 1)}\n`);
    writeFileSync(join(s.outDir, `${name}.md`), render(report));
  };
  try {
    // a slowed head is measured in some condition: the fresh suites then need their calibration copy and truth
    const measuresHead = s.arms.length > 0 || (s.noisyArms?.length ?? 0) > 0;
    for (const id of s.suites) {
      log(`setting up ${id} (download, patch, build)`);
      let setup: SuiteSetup;
      try {
        setup = isFresh(id) ? await freshSetup(id, work, measuresHead, s.freshSpin) : id === 'go' ? await setupGo(work, s.spin, s.goDirs, s.smallSpin) : id === 'snappy' ? await setupSnappy(work, s.snappySpin, counting) : id === 'js' ? await setupJs(work) : await setupPython(work, s.pySpin, s.pyBatch, s.pyTests, s.pySteps);
      } catch (err) {
        report.errors.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
        log(`error: ${report.errors.at(-1)}`);
        save();
        continue;
      }
      if (isFresh(id) && !measuresHead) {
        // A/A only: no truth to measure
        report.truths[id] = [];
      } else if (isFresh(id)) {
        log(`${id}: the injected truth: ${s.calibrationPairs} pairs per benchmark of the x${FRESH_CALIBRATION_FACTOR} patch${s.freshTruthPairs > 0 ? `, then ${s.freshTruthPairs} of head itself` : ''}`);
        report.truths[id] = await freshTruth(setup, s.calibrationPairs, s.freshTruthPairs, s.seed, mkdtempSync(join(work, 'cal-')));
      } else {
        log(id === 'go' ? 'go: the injected truth: counting calls per benchmark' : id === 'js' ? `js: the truth: ${JS_TRUTH_PAIRS} pairs of each benchmark alone` : `${id}: the injected truth: ${s.calibrationPairs} pairs per benchmark of the x${CALIBRATION_FACTOR} patch`);
        report.truths[id] =
          id === 'go' ? await goTruth(setup, setup.dirs.calibration, s.goTruthPairs, s.seed, mkdtempSync(join(work, 'truth-')), undefined, s.truthArm)
          : id === 'js' ? await jsTruth(setup, s.seed, mkdtempSync(join(work, 'truth-')))
          : await calibrate(setup, s.calibrationPairs, s.seed, mkdtempSync(join(work, 'cal-')));
      }
      if (id === 'go' && setup.dirs.small && s.smallArms.length > 0) {
        log('go-small: the injected truth of the smaller patch');
        report.truths['go-small'] = await goTruth(setup, setup.dirs.calibration, s.goTruthPairs, s.seed + 1, mkdtempSync(join(work, 'truth-')), { dir: setup.dirs.small, spinScale: s.smallSpin / s.spin }, s.truthArm);
      }
      if (counting) {
        try {
          await countTruth(setup, s, report, work);
        } catch (err) {
          report.errors.push(`${id}, the count truth: ${err instanceof Error ? err.message.slice(0, 2000) : String(err)}`);
          log(`error: ${report.errors.at(-1)}`);
        }
      }
      save();
      if (s.truthOnly) continue;
      for (const condition of s.conditions) {
        const headArms = armsFor(setup, condition === 'noisy' ? (s.noisyArms ?? s.arms) : s.arms);
        const aaArms = armsFor(setup, condition === 'noisy' ? (s.noisyAaArms ?? s.aaArms) : s.aaArms);
        // Go: also against the smaller patch (its own truths, as suite go-small), head's arms that pairbench runs
        const targets: Array<'head' | 'aa' | 'small'> = [...(headArms.length > 0 ? (['head'] as const) : []), ...(aaArms.length > 0 ? (['aa'] as const) : []), ...(setup.dirs.small && s.smallArms.length > 0 && condition === 'quiet' ? (['small'] as const) : [])];
        for (const against of targets) {
          const block = `${id}/${condition}/${against}`;
          const runSuite = against === 'small' ? 'go-small' : id;
          for (const arm of shuffle(against === 'aa' ? aaArms : against === 'small' ? s.smallArms : headArms, rngFor(s.seed, 'arms', block))) {
            const scratch = mkdtempSync(join(work, 'arm-'));
            const headDir = against === 'head' ? setup.dirs.head : against === 'small' ? setup.dirs.small! : setup.dirs.aa;
            const noise = condition === 'noisy' ? startNoise({ ...NOISE_DEFAULTS, seed: rngFor(s.seed, 'noise', block, arm)() * 2 ** 31 >>> 0, durationMs: s.budgetMs * 3 + 600_000 }) : null;
            log(`${block}: ${arm}`);
            try {
              if (arm === 'instructions') {
                const r = await countArm(setup, headDir, { budgetMs: s.budgetMs, seed: s.seed, scratch, countWork: s.countWork, alpha: ALPHA, wallThreshold: THRESHOLD, extra: s.pairbenchFlags });
                const wall = r.results.benchmarks.filter((b) => !/ \([^()]*\)$/.test(b.name));
                const outcomes = wall.map((b) => ({ name: b.name, flagged: b.verdict === 'regression' || b.verdict === 'improvement' ? b.verdict : null, verdict: b.verdict ?? 'inconclusive', estimate: b.change?.estimate ?? null, pairs: b.pairs.length }));
                report.runs.push({ suite: runSuite, condition, arm, against: against === 'small' ? 'head' : against, wallMs: r.wallMs, lastVerdictMs: r.lastVerdictMs, countVerdictMs: r.countVerdictMs, counts: r.counts, ...(r.countFailure ? { countFailure: r.countFailure } : {}), outcomes, command: r.command, ...armFigures(r.results) });
              } else if (arm === 'native') {
                const r = await setup.native(setup.dirs.base, headDir, s.budgetMs, scratch);
                report.runs.push({ suite: runSuite, condition, arm, against: against === 'small' ? 'head' : against, wallMs: r.wallMs, lastVerdictMs: r.wallMs, outcomes: r.outcomes, command: r.command, ...(r.raw ? { raw: r.raw } : {}) });
              } else {
                if ((arm === 'benchmark-gomaxprocs1' || arm === 'benchmark-pinned') && setup.format !== 'go') throw new Error(`--arms ${arm} is for Go suites, not ${id}`);
                const r = await pairbenchArm(setup, arm === 'suite' ? 'suite' : 'benchmark', headDir, s.budgetMs, s.seed, scratch, [...armFlags(arm), ...s.pairbenchFlags], runPrefix(arm));
                const resultsFile = keepResultsFile(s.outDir, `${runSuite}-${condition}-${against}-${arm}`, r.file);
                report.runs.push({ suite: runSuite, condition, arm, against: against === 'small' ? 'head' : against, wallMs: r.wallMs, lastVerdictMs: r.lastVerdictMs, processes: r.processes, outcomes: r.outcomes, command: r.command, resultsFile, ...armFigures(r.results) });
              }
            } catch (err) {
              report.runs.push({ suite: runSuite, condition, arm, against: against === 'small' ? 'head' : against, wallMs: 0, lastVerdictMs: 0, outcomes: [], command: '', error: err instanceof Error ? err.message.slice(0, 2000) : String(err) });
            } finally {
              if (noise) report.runs.at(-1)!.noise = await noise.stop();
            }
            save();
          }
        }
      }
    }
  } finally {
    save();
    // --keep-work: the builds stay (a later run takes the Go ones with --go-dirs <work>/go)
    if (s.keepWork) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  log(`wrote ${relative(ROOT, join(s.outDir, `suites${s.quick ? '-quick' : ''}.md`))}`);
}

/**
 * The instructions arm's count truth (bench/lib/count-arm.ts): Go, the instructions of one injected
 * spin of head's (and the smaller patch's) size; Python and snappy, the calibration copy counted.
 */
async function countTruth(setup: SuiteSetup, s: ReturnType<typeof settingsFrom>, report: Report, work: string): Promise<void> {
  const basis = (report.countBasis ??= {});
  if (setup.id === 'go') {
    log('go: the instructions of one injected spin, counted under valgrind');
    basis.go = { spinInstructions: await spinInstructions(setup.dirs.calibration, 'BenchmarkPairbenchSpin') };
    if (setup.dirs.small && s.smallArms.includes('instructions')) basis['go-small'] = { spinInstructions: await spinInstructions(setup.dirs.calibration, 'BenchmarkPairbenchSpinSmall') };
  } else if (s.arms.includes('instructions') || s.noisyArms?.includes('instructions')) {
    log(`${setup.id}: the count truth: ${s.countCalibrationPairs} counted pairs per benchmark of the x${CALIBRATION_FACTOR} patch`);
    basis[setup.id] = await countCalibration(setup, CALIBRATION_FACTOR, s.countCalibrationPairs, { seed: s.seed, scratch: mkdtempSync(join(work, 'count-cal-')), countWork: s.countWork, alpha: ALPHA, wallThreshold: THRESHOLD });
  }
}

/**
 * The arms a suite runs: a suite not tuned on has no native arm (its ecosystem's compare tools differ
 * per harness, and the table is about pairbench), and the arms that prefix a Go command run on Go
 * suites only.
 */
function armsFor(setup: SuiteSetup, arms: ArmName[]): ArmName[] {
  if (!isFresh(setup.id)) return arms;
  return arms.filter((a) => a !== 'native' && (setup.format === 'go' || (a !== 'benchmark-gomaxprocs1' && a !== 'benchmark-pinned')));
}

/** A suite not tuned on, as the arms take a suite (bench/lib/fresh-suites.ts). */
async function freshSetup(id: FreshSuiteId, work: string, withCalibration: boolean, spin: number | undefined): Promise<SuiteSetup> {
  const f = await setupFresh(id, work, withCalibration, spin);
  return {
    ...f,
    dirs: { ...f.dirs, calibration: f.dirs.calibration ?? f.dirs.head },
    async native() {
      throw new Error(`no native arm for ${id}`);
    },
  };
}

function log(line: string): void {
  process.stderr.write(`[suites] ${line}\n`);
}

// --- the report ---------------------------------------------------------------------------------

const pct = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);

export function render(report: Report): string {
  const lines: string[] = [];
  lines.push('# Real suites: verdicts within a CI budget', '');
  if (report.parts) {
    lines.push(`Threshold ${report.settings.threshold * 100}%, alpha ${report.settings.alpha}. Measured in ${report.parts.length} runs, merged with \`${report.command}\`:`, '');
    for (const p of report.parts) lines.push(`- ${p.date.slice(0, 16).replace('T', ' ')} UTC, \`${p.command}\`: budget ${duration(p.budgetMs)} per arm, load average at start ${p.machine.loadAverage.join(' / ')}`);
    lines.push('', machineMarkdown(report.machine), '');
  } else {
    lines.push(`Measured ${report.date.slice(0, 10)} with \`${report.command}\`; budget ${duration(report.settings.budgetMs)} per arm, threshold ${report.settings.threshold * 100}%, alpha ${report.settings.alpha}.`, '');
    lines.push(machineMarkdown(report.machine), '');
  }
  for (const e of report.errors) lines.push(`- error: ${e}`);
  const tunedRuns = report.runs.filter((r) => !isFresh(r.suite) && !r.error);
  if (tunedRuns.length > 0) {
    const times = tunedRuns.map((r) => r.lastVerdictMs).sort((a, b) => a - b);
    lines.push(`**Time to the last verdict (suites tuned on): median ${duration(times[Math.floor((times.length - 1) / 2)]!)}, longest ${duration(times.at(-1)!)}** over ${times.length} arm runs.`, '');
  }
  for (const [suite, truths] of Object.entries(report.truths)) {
    if (isFresh(suite)) continue;
    const affected = truths.filter((t) => t.kind === 'affected');
    const unaffected = truths.filter((t) => t.kind === 'unaffected');
    const marginal = truths.filter((t) => t.kind === 'marginal');
    lines.push(`## ${suite}`, '');
    lines.push(`${truths.length} benchmarks: ${affected.length} affected (injected truth ≥ ${report.settings.threshold * 100}%), ${unaffected.length} unaffected, ${truths.length - affected.length - unaffected.length} marginal.`, '');
    lines.push('| condition | arm | vs | detected (affected) | false alarms (unaffected) | false alarms (A/A) | unchanged (A/A) | flagged (marginal) | mean abs. error of estimates (affected) | out of budget | spread per pair | time to last verdict | wall time |');
    lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    const budgetOut = (r: ArmRun) => (r.arm === 'native' ? '—' : `${r.outcomes.filter((o) => o.stoppedBecause === 'futile' || o.stoppedBecause === 'max-time' || o.stoppedBecause === 'max-pairs').length}`);
    const spread = (r: ArmRun) => (r.spread === undefined ? '—' : `±${(r.spread * 100).toFixed(1)}%`);
    for (const r of report.runs.filter((x) => x.suite === suite)) {
      if (r.error) {
        lines.push(`| ${r.condition} | ${ARMS[r.arm]} | ${r.against} | error: ${r.error.split('\n')[0]!.slice(0, 120)} | | | | | | | | | |`);
        continue;
      }
      const by = new Map(r.outcomes.map((o) => [o.name, o]));
      if (r.against === 'aa') {
        const alarms = r.outcomes.filter((o) => o.flagged).length;
        const unchanged = r.arm === 'native' ? '—' : `${r.outcomes.filter((o) => o.verdict === 'unchanged').length} of ${r.outcomes.length}`;
        lines.push(`| ${r.condition} | ${ARMS[r.arm]} | A/A | | | ${alarms} of ${r.outcomes.length} | ${unchanged} | | | ${budgetOut(r)} | ${spread(r)} | ${duration(r.lastVerdictMs)} | ${duration(r.wallMs)} |`);
        continue;
      }
      const detected = affected.filter((t) => by.get(t.name)?.flagged === 'regression').length;
      const alarms = unaffected.filter((t) => by.get(t.name)?.flagged).length;
      const moved = marginal.filter((t) => by.get(t.name)?.flagged).length;
      // a truth of unknown size (null) has no error to show
      const errors = affected.map((t) => by.get(t.name)?.estimate).map((e, i) => (e === null || e === undefined || !Number.isFinite(affected[i]!.truth) ? null : Math.abs(e - affected[i]!.truth))).filter((e): e is number => e !== null);
      const mae = errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : null;
      lines.push(`| ${r.condition} | ${ARMS[r.arm]} | head | ${detected} of ${affected.length} | ${alarms} of ${unaffected.length} | | | ${moved} of ${marginal.length} | ${mae === null ? '—' : `${(mae * 100).toFixed(1)} points`} | ${budgetOut(r)} | ${spread(r)} | ${duration(r.lastVerdictMs)} | ${duration(r.wallMs)} |`);
    }
    const designed = report.runs.filter((x) => x.suite === suite && x.designs);
    if (designed.length > 0) {
      lines.push('', '<details><summary>Designs chosen (--design auto)</summary>', '');
      for (const r of designed) lines.push(`- ${r.condition}, ${r.against === 'aa' ? 'A/A' : 'head'}: ${r.designs}`);
      lines.push('', '</details>');
    }
    lines.push('', '<details><summary>Injected truth per benchmark</summary>', '');
    if (suite === 'go' || suite === 'go-small') {
      const pairs = truths.find((t) => t.measured)?.measured?.pairs;
      lines.push(`| benchmark | calls of the slowed function per op (counted) | change they predict | change measured${pairs ? ` (${pairs} pairs of the benchmark alone; interval at pairbench's corrected level)` : ''} | kind |`, '|---|---|---|---|---|');
      for (const t of truths) lines.push(`| ${t.name} | ${t.calibration.toFixed(1)} | ${pct(t.predicted ?? t.truth)} | ${t.measured ? `${pct(t.measured.estimate)} [${pct(t.measured.ci[0])}, ${pct(t.measured.ci[1])}]` : '—'} | ${t.kind} |`);
      if (report.settings.truthArm && report.settings.truthArm !== 'benchmark') lines.push('', `Timed as the arm runs its commands: ${ARMS[report.settings.truthArm]} (the spin, base's ns/op and the measured pairs).`);
      lines.push('', 'Affected: calls the function, and the counted calls add at least the threshold. Unaffected: never calls it, and its measured change is within the threshold with an interval that holds 0. Marginal: the rest, counted in neither (a benchmark that never calls the function but moved was moved by the code layout of the patched binary: a tool is right to flag it).');
    } else if (suite === 'js') {
      lines.push(`| benchmark | change measured (${JS_TRUTH_PAIRS} pairs of the benchmark alone; interval at pairbench's corrected level) | kind |`, '|---|---|---|');
      for (const t of truths) lines.push(`| ${t.name} | ${t.measured ? `${pct(t.measured.estimate)} [${pct(t.measured.ci[0])}, ${pct(t.measured.ci[1])}]` : '—'} | ${t.kind} |`);
      lines.push('', `Head runs ${JS.package} ${JS.slow}, base ${JS.fast}: affected is slower in head by the threshold or more, its whole interval at or above it; unaffected within the threshold with an interval that holds 0; marginal the rest.`);
    } else {
      lines.push(`| benchmark | change with the x${CALIBRATION_FACTOR} patch (measured) | truth | kind |`, '|---|---|---|---|');
      for (const t of truths) lines.push(`| ${t.name} | ${pct(t.calibration)} | ${pct(t.truth)} | ${t.kind} |`);
    }
    lines.push('', '</details>', '');
    const heads = report.runs.filter((x) => x.suite === suite && x.against === 'head' && !x.error);
    if (heads.length > 0) {
      lines.push('<details><summary>Verdicts per benchmark against head</summary>', '');
      lines.push(`| benchmark | kind | ${heads.map((r) => `${r.condition}: ${r.arm}`).join(' | ')} |`, `|---|---|${heads.map(() => '---|').join('')}`);
      const mark = (o: Outcome | undefined) => (!o ? '—' : o.flagged === 'regression' ? `🔴 ${pct(o.estimate)}` : o.flagged === 'improvement' ? `🟢 ${pct(o.estimate)}` : o.verdict === 'inconclusive' ? '🟡' : '·');
      for (const t of truths) lines.push(`| ${t.name} | ${t.kind} | ${heads.map((r) => mark(r.outcomes.find((o) => o.name === t.name))).join(' | ')} |`);
      lines.push('', '🔴 flagged slower, 🟢 flagged faster (with the estimate where the tool gives one), 🟡 inconclusive, · not flagged.', '', '</details>', '');
    }
  }
  const wallKinds = (suite: string) => new Map((report.truths[suite] ?? []).map((t) => [t.name, t.kind]));
  const countTruthOf = (suite: string, name: string, base: number | null) => countKind(name, report.countBasis?.[suite], report.truths[suite]?.find((t) => t.name === name)?.calibration, base);
  const counted = renderCounts(report.runs, wallKinds, (suite, name, base) => (suite === 'go' || suite === 'go-small' ? countTruthOf(suite, name, base) : countKind(name, report.countBasis?.[suite], undefined, base)));
  if (counted) lines.push(counted);
  if (report.runs.some((r) => isFresh(r.suite)) || Object.keys(report.truths).some(isFresh)) lines.push(renderFresh(report.runs, report.truths, (arm) => ARMS[arm as ArmName] ?? arm, report.settings.freshSpin));
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`bench:suites: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
