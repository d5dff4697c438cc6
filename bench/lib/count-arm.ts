/**
 * The `instructions` arm of `npm run bench:suites`: each benchmark paired on its own (--design auto)
 * with `--metric wall,instructions` under valgrind, the instruction rows at a 0.5% threshold and the
 * wall rows at the bench's 2%, set per metric in a config file the arm writes into its scratch folder
 * (a per-metric threshold has no command-line form). Its outcomes are scored on the instruction rows;
 * the wall rows of the same run are scored as the other arms' are, against the suite's wall truth.
 *
 * Which benchmarks are affected, for counts. A benchmark that calls the slowed function gains the
 * injected spin's instructions on every call, whatever the machine does: the truth is deterministic.
 * - Go: goTruth's counted calls per op. None: unaffected, exactly. Otherwise the gain is
 *   calls per op x the instructions of one injected spin (BenchmarkPairbenchSpin of the counting copy,
 *   counted under valgrind at two lengths, see spinInstructions) over the benchmark's own
 *   instructions per op, the median of base's counts in the arm's own run (base's counts do not
 *   depend on head). Affected when that is at least the count threshold, else marginal.
 * - Python (cattrs) and snappy: the calibration copy (CALIBRATION_FACTOR times head's block) against
 *   base, counted by this arm's own command at a fixed number of pairs (countCalibration): head's
 *   gain is that change over the factor. Affected at or above the count threshold; unaffected when
 *   the calibration's change is within the threshold either way (head's within a tenth of it);
 *   marginal the rest.
 * The spread of counts of a row is (max - min) / median of one side's values, the larger side, as
 * src/stats/count-spread.ts computes it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultsFile } from '../../src/results/read.ts';
import type { Results } from '../../src/results/schema.ts';
import { COUNT_SPREAD_TOLERANCE, spreadOf } from '../../src/stats/count-spread.ts';
import { duration, ROOT } from './machine.ts';
import { must, run } from './proc.ts';
import { lastVerdictMs, watchPairs } from './verdict-time.ts';

/** the instruction rows' threshold; the wall rows keep the bench's */
export const COUNT_THRESHOLD = 0.005;
/** the suites whose format pairbench counts per benchmark, and which this arm runs */
export const COUNTED_SUITES = ['go', 'python', 'snappy'] as const;
const SUFFIX = ' (instructions)';

/** One instruction row of an arm run. */
export interface CountRow {
  name: string;
  verdict: string;
  estimate: number | null;
  pairs: number;
  /** (max - min) / median of one side's counts, the larger side */
  spread: number;
  unsteady: boolean;
  /** base's median instructions per iteration */
  base: number | null;
}

export interface CountRun {
  counts: CountRow[];
  /** no instruction row: why, as pairbench recorded the failure (a harness it cannot count) */
  countFailure?: string;
  /** until the last instruction row had its verdict */
  countVerdictMs: number;
}

/** What the count truth of a suite is made of (see the file's comment). */
export interface CountBasis {
  /** Go: instructions of one injected spin of head's size */
  spinInstructions?: number;
  /** Python, snappy: each benchmark's instruction change with the calibration copy, and its factor */
  calibration?: Record<string, number>;
  factor?: number;
}

export type CountKind = 'affected' | 'unaffected' | 'marginal';

interface Suite {
  format: string;
  run: string;
  batch?: number;
  dirs: { base: string };
}

/** The config file of the arm: one benchmark, both metrics, a threshold per metric. JSON strings are YAML scalars. */
function configText(suite: Suite, wallThreshold: number): string {
  const runCommand = suite.format === 'pytest-benchmark' ? suite.run.replace(/\bpython3 -m pytest\b/g, `${interpreter()} -m pytest`) : suite.run;
  return [
    'benchmarks:',
    '  - name: suite',
    `    run: ${JSON.stringify(runCommand)}`,
    `    format: ${suite.format}`,
    '    metric: [wall, instructions]',
    `    threshold: { wall: ${wallThreshold * 100}%, instructions: ${COUNT_THRESHOLD * 100}% }`,
    '    interleave: benchmark',
    '    design: auto',
    ...(suite.batch ? [`    batch: ${suite.batch}`] : []),
    '',
  ].join('\n');
}

/**
 * The interpreter itself, not a version manager's shim: valgrind counts a shim's processes too,
 * at many times the cost of the run (tests/measure/python-instructions.test.ts).
 */
function interpreter(): string {
  return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
}

/** One run of the arm: pairbench on the suite, base against `headDir`, counted under valgrind. */
export async function countArm(suite: Suite, headDir: string, opts: { budgetMs: number; seed: number; scratch: string; countWork: string; alpha: number; wallThreshold: number; extra?: string[] }): Promise<{ results: Results; wallMs: number; lastVerdictMs: number; command: string } & CountRun> {
  const config = join(opts.scratch, 'pairbench.yml');
  writeFileSync(config, configText(suite, opts.wallThreshold));
  const out = join(opts.scratch, 'pairbench-instructions.json');
  const args = [join(ROOT, 'src/cli.ts'), 'compare', '--config', config, '--base-dir', suite.dirs.base, '--head-dir', headDir, '--count-work', opts.countWork, '--max-time', `${Math.round(opts.budgetMs / 1000)}s`, '--alpha', String(opts.alpha), '--seed', String(opts.seed), '--out', out, '--quiet', '--fail-on', 'none', ...(opts.extra ?? [])];
  const watch = watchPairs(out);
  const r = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, PAIRBENCH_INSTRUCTIONS: 'valgrind' }, timeoutMs: opts.budgetMs * 3 + 600_000 });
  const times = watch.stop();
  // its last line first: where pairbench refuses to count (an older Google Benchmark), the table says why
  if (!existsSync(out)) throw new Error(`pairbench wrote no results (exit ${r.code}): ${r.stderr.trim().split('\n').at(-1) ?? ''}\n${r.stderr.slice(-3000)}`);
  const results = readResultsFile(out) as unknown as Results;
  const timed = Date.parse(results.finishedAt ?? '') - Date.parse(results.startedAt ?? '');
  const wallMs = Number.isFinite(timed) ? timed : r.wallMs;
  const counts = countRows(results);
  const failure = results.benchmarks.find((b) => b.failure)?.failure?.message;
  const countRowsNamed = counts.map((c) => ({ name: c.name + SUFFIX, verdict: c.verdict }));
  const wallRows = results.benchmarks.filter((b) => !/ \([^()]*\)$/.test(b.name)).map((b) => ({ name: b.name, verdict: b.verdict ?? 'inconclusive' }));
  return {
    results,
    wallMs,
    lastVerdictMs: lastVerdictMs([...wallRows, ...countRowsNamed], times, wallMs),
    countVerdictMs: lastVerdictMs(countRowsNamed, times, wallMs),
    counts,
    ...(counts.length === 0 && failure ? { countFailure: failure.split('\n')[0]! } : {}),
    command: `PAIRBENCH_INSTRUCTIONS=valgrind node src/cli.ts ${args.slice(1).join(' ')}  # ${config}: ${configText(suite, opts.wallThreshold).replace(/\n\s*/g, ' ').trim()}`,
  };
}

/** The instruction rows of a results file, named as their wall rows. */
export function countRows(results: Results): CountRow[] {
  return results.benchmarks
    .filter((b) => b.name.endsWith(SUFFIX))
    .map((b) => {
      const base = b.pairs.map((p) => p.base).sort((x, y) => x - y);
      return {
        name: b.name.slice(0, -SUFFIX.length),
        verdict: b.verdict ?? 'inconclusive',
        estimate: b.change?.estimate ?? null,
        pairs: b.pairs.length,
        spread: Math.max(spreadOf(b.pairs.map((p) => p.base)), spreadOf(b.pairs.map((p) => p.head))),
        unsteady: (b.diagnostics ?? []).some((d) => d.code === 'unsteady-counts'),
        base: base.length > 0 ? base[(base.length - 1) >> 1]! : null,
      };
    });
}

/** Python and snappy: the calibration copy counted against base by the arm's own command, `pairs` pairs. */
export async function countCalibration(suite: Suite & { dirs: { base: string; calibration: string } }, factor: number, pairs: number, opts: { seed: number; scratch: string; countWork: string; alpha: number; wallThreshold: number }): Promise<CountBasis> {
  const r = await countArm(suite, suite.dirs.calibration, { ...opts, budgetMs: 24 * 3600_000, extra: ['--min-pairs', String(pairs), '--max-pairs', String(pairs)] });
  return { factor, calibration: Object.fromEntries(r.counts.map((c) => [c.name, c.estimate ?? 0])) };
}

/**
 * Go: the instructions of one call of the injected spin, counted under valgrind in the counting copy:
 * (count at N + 1 calls - count at 1 call) / N, less the same of an empty benchmark loop, one P (as
 * pairbench runs Go under valgrind).
 * `bench` names the spin's benchmark of head's size.
 */
export async function spinInstructions(counting: string, bench: string): Promise<number> {
  const N = 100_000;
  const refs = async (times: string, name = bench): Promise<number> => {
    const r = await must('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', join(counting, 'build/bench.test'), '-test.run', '^$', '-test.bench', `^${name}$`, '-test.benchtime', times], counting, { ...process.env, GOMAXPROCS: '1' });
    const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
    if (!m || !r.stdout.includes(name)) throw new Error(`valgrind on ${counting}/build/bench.test -test.bench ^${name}$ counted nothing:\n${r.stderr.slice(-1000)}`);
    return Number(m[1]!.replaceAll(',', ''));
  };
  const perCall = ((await refs(`${N}x`)) - (await refs('1x'))) / N;
  // less the benchmark loop's own instructions (an empty loop, when the build has it)
  const loop = (await must(join(counting, 'build/bench.test'), ['-test.list', '^BenchmarkPairbenchLoop$'], counting)).stdout.includes('BenchmarkPairbenchLoop') ? ((await refs(`${N}x`, 'BenchmarkPairbenchLoop')) - (await refs('1x', 'BenchmarkPairbenchLoop'))) / N : 0;
  return Math.max(0, perCall - loop);
}

/** A benchmark's kind for counts, and its injected gain in instructions (null: unknown). */
export function countKind(name: string, basis: CountBasis | undefined, callsPerOp: number | undefined, baseCount: number | null): { kind: CountKind; truth: number | null } {
  if (basis?.calibration && basis.factor) {
    const c = basis.calibration[name];
    if (c === undefined) return { kind: 'marginal', truth: null };
    const truth = c / basis.factor;
    return { kind: truth >= COUNT_THRESHOLD ? 'affected' : Math.abs(c) < COUNT_THRESHOLD ? 'unaffected' : 'marginal', truth };
  }
  if (callsPerOp === undefined) return { kind: 'marginal', truth: null };
  if (callsPerOp === 0) return { kind: 'unaffected', truth: 0 };
  if (!basis?.spinInstructions || !baseCount) return { kind: 'marginal', truth: null };
  const truth = (callsPerOp * basis.spinInstructions) / baseCount;
  return { kind: truth >= COUNT_THRESHOLD ? 'affected' : 'marginal', truth };
}

interface RunLike extends Partial<CountRun> {
  suite: string;
  condition: string;
  against: 'head' | 'aa';
  arm: string;
  wallMs: number;
  lastVerdictMs: number;
  error?: string;
  outcomes: Array<{ name: string; flagged: string | null; verdict: string; pairs?: number }>;
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1]!;
};
const pctOf = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(2)}%`);

/**
 * The arm's own table: per suite, condition and side, the instruction rows scored (A/A: unchanged
 * and flagged; head: detected among affected, flagged among unaffected), the wall rows of the same
 * run against the wall truth, pairs, minutes, and the counts' spread.
 */
export function renderCounts(runs: RunLike[], wallKinds: (suite: string) => Map<string, string>, countTruth: (suite: string, name: string, baseCount: number | null) => { kind: CountKind; truth: number | null }): string {
  const mine = runs.filter((r) => r.arm === 'instructions');
  if (mine.length === 0) return '';
  const lines = ['## Instruction counts (--metric wall,instructions)', ''];
  lines.push(`Each benchmark paired on its own (--design auto), timed and counted under valgrind in the same pairs; instruction rows at a ${COUNT_THRESHOLD * 100}% threshold, wall rows at 2% (a per-metric threshold in the config file). Affected for counts: the benchmark calls the slowed function and gains at least ${COUNT_THRESHOLD * 100}% of instructions (bench/lib/count-arm.ts). Spread of counts: (max − min) / median of one side's counts, the larger side, median over rows; unsteady: rows past the ${COUNT_SPREAD_TOLERANCE * 100}% tolerance (\`unsteady-counts\`).`, '');
  lines.push('| suite | condition | vs | instructions: unchanged (A/A) | instructions: flagged (A/A) | instructions: detected (affected) | instructions: flagged (unaffected) | wall: detected (affected) / flagged (unaffected or A/A) | pairs per benchmark (median, max) | spread of counts | unsteady | time to last count verdict | time to last verdict | wall time | the wall-time arm (benchmark): time to last verdict, wall time |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of mine) {
    if (r.error || !r.counts || r.countFailure) {
      lines.push(`| ${r.suite} | ${r.condition} | ${r.against} | ${r.countFailure ? 'not counted' : 'error'}: ${(r.countFailure ?? r.error ?? 'no counts').split('\n')[0]!.slice(0, 240)} | | | | | | | | | | | |`);
      continue;
    }
    const flagged = (v: string) => v === 'regression' || v === 'improvement';
    const pairs = r.counts.map((c) => c.pairs);
    const spread = median(r.counts.map((c) => c.spread));
    const unsteady = `${r.counts.filter((c) => c.unsteady).length} of ${r.counts.length}`;
    // the cost beside the wall-time arm's, where the same report ran it on the same suite, condition and side
    const wallArm = runs.find((x) => x.arm === 'benchmark' && !x.error && x.suite === r.suite && x.condition === r.condition && x.against === r.against);
    const common = `| ${pairs.length ? `${median(pairs)}, ${Math.max(...pairs)}` : '—'} | ${pctOf(spread)} | ${unsteady} | ${duration(r.countVerdictMs ?? r.wallMs)} | ${duration(r.lastVerdictMs)} | ${duration(r.wallMs)} | ${wallArm ? `${duration(wallArm.lastVerdictMs)}, ${duration(wallArm.wallMs)}` : '—'} |`;
    if (r.against === 'aa') {
      const wallFlagged = r.outcomes.filter((o) => o.flagged).length;
      lines.push(`| ${r.suite} | ${r.condition} | A/A | ${r.counts.filter((c) => c.verdict === 'unchanged').length} of ${r.counts.length} | ${r.counts.filter((c) => flagged(c.verdict)).length} of ${r.counts.length} | | | — / ${wallFlagged} of ${r.outcomes.length} ${common}`);
      continue;
    }
    const kinds = r.counts.map((c) => ({ c, ...countTruth(r.suite, c.name, c.base) }));
    const affected = kinds.filter((k) => k.kind === 'affected');
    const unaffected = kinds.filter((k) => k.kind === 'unaffected');
    const wk = wallKinds(r.suite);
    const wallAffected = r.outcomes.filter((o) => wk.get(o.name) === 'affected');
    const wallUnaffected = r.outcomes.filter((o) => wk.get(o.name) === 'unaffected');
    lines.push(`| ${r.suite} | ${r.condition} | head | | | ${affected.filter((k) => k.c.verdict === 'regression').length} of ${affected.length} | ${unaffected.filter((k) => flagged(k.c.verdict)).length} of ${unaffected.length} | ${wallAffected.filter((o) => o.flagged === 'regression').length} of ${wallAffected.length} / ${wallUnaffected.filter((o) => o.flagged).length} of ${wallUnaffected.length} ${common}`);
  }
  const heads = mine.filter((r) => r.against === 'head' && r.counts);
  if (heads.length > 0) {
    lines.push('', '<details><summary>Instruction rows against head: injected gain, estimate, verdict</summary>', '');
    lines.push('| suite | benchmark | kind (counts) | injected gain | estimate | verdict | pairs | spread |', '|---|---|---|---|---|---|---|---|');
    for (const r of heads) {
      for (const c of r.counts!) {
        const t = countTruth(r.suite, c.name, c.base);
        lines.push(`| ${r.suite} | ${c.name} | ${t.kind} | ${pctOf(t.truth)} | ${pctOf(c.estimate)} | ${c.verdict}${c.unsteady ? ' (unsteady)' : ''} | ${c.pairs} | ${pctOf(c.spread)} |`);
      }
    }
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}
