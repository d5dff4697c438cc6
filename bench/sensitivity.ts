/**
 * Sensitivity: pairbench's paired design against the sequential way, side by side on one machine
 * in one run.
 *
 *   npm run bench:sensitivity                       # the full run: 40 repetitions per cell, quiet and noisy
 *   npm run bench:sensitivity -- --quick            # a smoke run (2 repetitions), about 2 minutes
 *   npm run bench:sensitivity -- --reps 10 --conditions noisy --effects 0,2
 *   npm run bench:sensitivity -- --budget adaptive --conditions noisy     # pairbench's own stopping rules
 *   npm run bench:sensitivity -- --render bench/results/sensitivity.json   # tables and chart again from raw data
 *
 * One real CPU-bound C program (bench/programs/work.c), built with 0% (a second build: A/A), 1%,
 * 2% and 5% more work. Per repetition, condition and effect, at equal budgets (30 measured runs
 * per side, 1 warmup per side), both designs compare the baseline build with the variant:
 *
 * - paired: the real CLI, `node src/cli.ts compare --base-dir … --head-dir … --run ./prog
 *   --min-pairs 30 --max-pairs 30 --warmup 1 --json --quiet --out <tmp> --seed <s>`; its verdict,
 *   estimate, interval and p-value are read from the results file.
 * - sequential, as users run it today: `hyperfine -N --runs 30 --warmup 1 --export-json` on the
 *   baseline, then on the variant, judged (a) by Welch's t-test (hyperfine's
 *   scripts/welch_ttest.py) with the change of the means, and (b) by the Mann–Whitney U test
 *   (benchstat) with the change of the medians.
 *
 * With `--budget adaptive` (written to sensitivity-adaptive.{md,json,svg}), pairbench runs with its
 * defaults as a user runs it (at least 10 pairs, at most `--max-pairs`, default 200, stopping once
 * the interval is within the precision of 1% or the verdict is decided), always first, and the
 * sequential design then gets exactly as many runs per side as pairbench measured pairs: equal
 * budgets, with the budget chosen by pairbench's stopping rules.
 *
 * One rule for every design: "regression" = significant at alpha (0.05) AND the estimated change
 * beyond +threshold (2%, pairbench's default); the raw significance rate is reported as well.
 * The order of the effects is shuffled in each block and a coin decides which design goes first,
 * so both designs see the same machine. Under "noisy", bench/noise-generator.ts runs during the
 * block (seeded per block).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rngFor, shuffle } from '../src/schedule/random.ts';
import { lineChartSvg, type Series } from './lib/chart.ts';
import { describeMachine, duration, machineMarkdown, ROOT, type Machine } from './lib/machine.ts';
import { run, HYPERFINE_INSTALL, versionOf } from './lib/proc.ts';
import { buildPrograms, RUN, timeOnce, type Variant } from './lib/programs.ts';
import { clopperPearson, mannWhitney, mean, median, sd, welchTTest } from './lib/stats.ts';
import { NOISE_DEFAULTS, startNoise, type NoiseGenerator, type NoiseReport } from './noise-generator.ts';
import { readResultsFile } from '../src/results/read.ts';

type Condition = 'quiet' | 'noisy';
type DesignName = 'pairbench' | 'welch' | 'mann-whitney';
const DESIGNS: { name: DesignName; label: string; color: string }[] = [
  { name: 'pairbench', label: 'pairbench (paired, signed-rank)', color: '#1f6feb' },
  { name: 'welch', label: 'sequential + Welch t (hyperfine)', color: '#d9480f' },
  { name: 'mann-whitney', label: 'sequential + Mann–Whitney (benchstat)', color: '#2f9e44' },
];

interface Settings {
  reps: number;
  quick: boolean;
  conditions: Condition[];
  effects: number[];
  runs: number;
  /** fixed: `runs` per side for both designs; adaptive: pairbench's stopping rules decide, the sequential design gets as many runs */
  budget?: Budget;
  /** adaptive: pairbench's --max-pairs */
  maxPairs?: number;
  warmup: number;
  alpha: number;
  threshold: number;
  seed: number;
  iters: number | null;
  outDir: string;
}

type Flag = 'regression' | 'improvement' | 'none';
type Budget = 'fixed' | 'adaptive';

interface Judged {
  pValue: number;
  /** relative change head vs base (pairbench: Hodges–Lehmann of the log-ratios; Welch: means; Mann–Whitney: medians) */
  change: number;
  flag: Flag;
  /** pairbench only: its verdict and 95% interval (relative) */
  verdict?: string;
  ci?: [number, number];
}

interface PairedRecord {
  design: 'paired';
  seed: number;
  wallMs: number;
  exitCode: number | null;
  pairs: { base: number; head: number; order: string }[];
  outliers: number;
  /** why pairbench stopped (adaptive budget: precision, decided or max-pairs) */
  stoppedBecause?: string;
  judged: Judged | null;
  error?: string;
}

interface SequentialRecord {
  design: 'sequential';
  wallMs: number;
  /** measured times, milliseconds */
  base: number[];
  head: number[];
  welch: Judged | null;
  mannWhitney: Judged | null;
  error?: string;
}

interface Comparison {
  condition: Condition;
  rep: number;
  effectPct: number;
  /** which design ran first in this cell */
  first: 'paired' | 'sequential';
  /** ms since the bench started */
  at: number;
  paired: PairedRecord;
  sequential: SequentialRecord;
}

interface Block {
  condition: Condition;
  rep: number;
  noiseSeed: number | null;
  noise: Omit<NoiseReport, 'settings'> | null;
  wallMs: number;
}

interface RawResults {
  kind: 'pairbench-bench-sensitivity';
  version: 1;
  partial: boolean;
  command: string;
  settings: Settings;
  machine: Machine;
  programMs: number;
  noiseSettings: Omit<typeof NOISE_DEFAULTS, 'durationMs'>;
  elapsedMs: number;
  loadAverageEnd: number[] | null;
  blocks: Block[];
  comparisons: Comparison[];
}

const HELP = `Usage: npm run bench:sensitivity -- [options]

pairbench's paired design against the sequential design (hyperfine + Welch / Mann–Whitney) on a real
program with 0/1/2/5% more work, quiet and under the noise generator. Writes
bench/results/sensitivity.{md,json,svg}.

Options:
  --reps <n>            repetitions per cell (default 40; --quick: 2)
  --quick               a smoke run: 2 repetitions (about 2 minutes)
  --conditions <list>   quiet,noisy (default both)
  --effects <list>      percent more work; 0 is the A/A (default 0,1,2,5; 10 is built too)
  --runs <n>            measured runs per side (default 30)
  --budget <b>          fixed (default): --runs per side for both designs; adaptive: pairbench with its
                        own stopping rules, and the sequential design with as many runs per side as
                        pairbench measured pairs (writes sensitivity-adaptive.*)
  --max-pairs <n>       adaptive budget: pairbench's --max-pairs (default 200, its default)
  --seed <n>            master seed of orders, coins and noise (default 1)
  --threshold <pct>     the regression threshold of every design (default 2)
  --iters <n>           the program's baseline iterations (default: work.c's BASE_ITERS)
  --out-dir <dir>       where the results go (default bench/results)
  --render <json>       only render the Markdown and the chart again from a raw results file`;

function parseSettings(argv: string[]): { settings: Settings; render: string | null } {
  const { values } = parseArgs({
    args: argv,
    options: {
      reps: { type: 'string' },
      quick: { type: 'boolean' },
      conditions: { type: 'string' },
      effects: { type: 'string' },
      runs: { type: 'string' },
      budget: { type: 'string' },
      'max-pairs': { type: 'string' },
      seed: { type: 'string' },
      threshold: { type: 'string' },
      iters: { type: 'string' },
      'out-dir': { type: 'string' },
      render: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const int = (name: string, v: string | undefined, dflt: number, min: number) => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: got ${JSON.stringify(v)}; expected a whole number >= ${min}`);
    return n;
  };
  const quick = values.quick === true;
  const conditions = (values.conditions ?? 'quiet,noisy').split(',').map((c) => c.trim());
  for (const c of conditions) if (c !== 'quiet' && c !== 'noisy') throw new Error(`--conditions: got ${JSON.stringify(c)}; expected quiet, noisy or both`);
  const effects = (values.effects ?? '0,1,2,5').split(',').map((e) => Number(e.trim().replace(/%$/, '')));
  for (const e of effects) if (!(e >= 0 && e <= 100)) throw new Error(`--effects: ${e} is not a percentage from 0 to 100`);
  const budget = values.budget ?? 'fixed';
  if (budget !== 'fixed' && budget !== 'adaptive') throw new Error(`--budget: got ${JSON.stringify(budget)}; expected fixed or adaptive`);
  const threshold = values.threshold === undefined ? 0.02 : Number(values.threshold.replace(/%$/, '')) / 100;
  if (!(threshold > 0 && threshold < 1)) throw new Error('--threshold: expected a percentage such as 2');
  return {
    settings: {
      reps: int('reps', values.reps, quick ? 2 : 40, 1),
      quick,
      conditions: [...new Set(conditions)] as Condition[],
      effects: [...new Set(effects)],
      runs: int('runs', values.runs, 30, 6),
      budget,
      maxPairs: int('max-pairs', values['max-pairs'], 200, 10),
      warmup: 1,
      alpha: 0.05,
      threshold,
      seed: int('seed', values.seed, 1, 0),
      iters: values.iters === undefined ? null : int('iters', values.iters, 0, 1000),
      outDir: resolve(values['out-dir'] ?? join(ROOT, 'bench/results')),
    },
    render: values.render ?? null,
  };
}

const seedOf = (seed: number, ...key: (string | number)[]) => Math.floor(rngFor(seed, ...key)() * 2 ** 31);

function flagOf(significant: boolean, change: number, threshold: number): Flag {
  if (!significant) return 'none';
  if (change > threshold) return 'regression';
  if (change < -threshold) return 'improvement';
  return 'none';
}

// ---- the two designs ------------------------------------------------------------------------------

async function runPaired(s: Settings, base: Variant, head: Variant, seed: number, tmp: string): Promise<PairedRecord> {
  const out = join(tmp, `paired-${seed}.json`);
  const budget = budgetOf(s) === 'adaptive' ? ['--max-pairs', String(s.maxPairs ?? 200)] : ['--min-pairs', String(s.runs), '--max-pairs', String(s.runs)];
  const args = [
    join(ROOT, 'src/cli.ts'), 'compare',
    '--base-dir', base.dir, '--head-dir', head.dir, '--run', RUN,
    ...budget, '--warmup', String(s.warmup),
    '--threshold', `${s.threshold * 100}%`, '--alpha', String(s.alpha),
    '--json', '--quiet', '--out', out, '--seed', String(seed),
  ];
  const r = await run(process.execPath, args, { cwd: ROOT, timeoutMs: 30 * 60_000 });
  const rec: PairedRecord = { design: 'paired', seed, wallMs: r.wallMs, exitCode: r.code, pairs: [], outliers: 0, judged: null };
  try {
    const results = readResultsFile(out) as unknown as {
      benchmarks: { verdict?: string; stoppedBecause?: string; pairs: { base: number; head: number; order: string }[]; outliers?: number[]; change?: { estimate: number; ci: [number, number]; pValue: number } | null }[];
    };
    rmSync(out, { force: true });
    const b = results.benchmarks[0];
    if (!b) throw new Error('no benchmark in the results');
    rec.pairs = b.pairs.map((p) => ({ base: round3(p.base), head: round3(p.head), order: p.order }));
    rec.outliers = b.outliers?.length ?? 0;
    if (b.stoppedBecause) rec.stoppedBecause = b.stoppedBecause;
    if (b.change) {
      rec.judged = {
        pValue: b.change.pValue,
        change: b.change.estimate,
        ci: b.change.ci,
        verdict: b.verdict ?? 'unknown',
        flag: b.verdict === 'regression' ? 'regression' : b.verdict === 'improvement' ? 'improvement' : 'none',
      };
    }
    if (r.code !== 0 && r.code !== 1) rec.error = `exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  } catch (err) {
    rec.error = `exit ${r.code}: ${err instanceof Error ? err.message : String(err)}; ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  }
  return rec;
}

async function hyperfine(s: Settings, runs: number, v: Variant, tmp: string, tag: string): Promise<{ times: number[]; wallMs: number; error?: string }> {
  const out = join(tmp, `hyperfine-${tag}.json`);
  const r = await run('hyperfine', ['-N', '--runs', String(runs), '--warmup', String(s.warmup), '--style', 'none', '--export-json', out, RUN], { cwd: v.dir, timeoutMs: 30 * 60_000 });
  try {
    const j = JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[] }[] };
    rmSync(out, { force: true });
    return { times: (j.results[0]?.times ?? []).map((t) => round3(t * 1000)), wallMs: r.wallMs };
  } catch (err) {
    return { times: [], wallMs: r.wallMs, error: `hyperfine exit ${r.code}: ${err instanceof Error ? err.message : String(err)}; ${r.stderr.trim().slice(-300)}` };
  }
}

async function runSequential(s: Settings, runs: number, base: Variant, head: Variant, tmp: string, tag: string): Promise<SequentialRecord> {
  const b = await hyperfine(s, runs, base, tmp, `${tag}-base`);
  const h = await hyperfine(s, runs, head, tmp, `${tag}-head`);
  const rec: SequentialRecord = { design: 'sequential', wallMs: b.wallMs + h.wallMs, base: b.times, head: h.times, welch: null, mannWhitney: null };
  const error = b.error ?? h.error;
  if (error) rec.error = error;
  if (b.times.length >= 2 && h.times.length >= 2) {
    const w = welchTTest(h.times, b.times);
    const wChange = mean(h.times) / mean(b.times) - 1;
    rec.welch = { pValue: w.pValue, change: wChange, flag: flagOf(w.pValue < s.alpha, wChange, s.threshold) };
    const m = mannWhitney(h.times, b.times);
    const mChange = median(h.times) / median(b.times) - 1;
    rec.mannWhitney = { pValue: m.pValue, change: mChange, flag: flagOf(m.pValue < s.alpha, mChange, s.threshold) };
  }
  return rec;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
/** results files written before the adaptive budget existed have no budget: fixed */
const budgetOf = (s: Settings): Budget => s.budget ?? 'fixed';
const stemOf = (s: Settings) => (budgetOf(s) === 'adaptive' ? 'sensitivity-adaptive' : 'sensitivity');

// ---- summaries ----------------------------------------------------------------------------------

interface Cell {
  condition: Condition;
  design: DesignName;
  effectPct: number;
  n: number;
  regression: number;
  flagged: number;
  significant: number;
  significantSlower: number;
  estimateMean: number;
  estimateSd: number;
  /** pairbench: median half-width of its 95% interval */
  ciHalfWidth: number | null;
  wallMs: number;
  /** pairs pairbench measured per comparison (= runs per side of the sequential design) */
  pairsUsed: number[];
  /** why pairbench stopped, counted */
  stops: Record<string, number>;
  errors: number;
}

function judgedOf(c: Comparison, d: DesignName): Judged | null {
  return d === 'pairbench' ? c.paired.judged : d === 'welch' ? c.sequential.welch : c.sequential.mannWhitney;
}

function summarizeCells(raw: RawResults): Cell[] {
  const cells: Cell[] = [];
  for (const condition of raw.settings.conditions) {
    for (const d of DESIGNS) {
      for (const effectPct of raw.settings.effects) {
        const cs = raw.comparisons.filter((c) => c.condition === condition && c.effectPct === effectPct);
        const js = cs.map((c) => judgedOf(c, d.name)).filter((j): j is Judged => j !== null && Number.isFinite(j.pValue));
        const sig = js.filter((j) => j.pValue < raw.settings.alpha);
        const halfWidths = js.flatMap((j) => (j.ci ? [(j.ci[1] - j.ci[0]) / 2] : []));
        cells.push({
          condition,
          design: d.name,
          effectPct,
          n: js.length,
          regression: js.filter((j) => j.flag === 'regression').length,
          flagged: js.filter((j) => j.flag !== 'none').length,
          significant: sig.length,
          significantSlower: sig.filter((j) => j.change > 0).length,
          estimateMean: mean(js.map((j) => j.change)),
          estimateSd: sd(js.map((j) => j.change)),
          ciHalfWidth: halfWidths.length ? median(halfWidths) : null,
          wallMs: mean(cs.map((c) => (d.name === 'pairbench' ? c.paired.wallMs : c.sequential.wallMs))),
          pairsUsed: cs.map((c) => c.paired.pairs.length),
          stops: cs.reduce<Record<string, number>>((acc, c) => {
            const why = c.paired.stoppedBecause ?? 'n/a';
            acc[why] = (acc[why] ?? 0) + 1;
            return acc;
          }, {}),
          errors: cs.length - js.length,
        });
      }
    }
  }
  return cells;
}

const pct = (x: number, digits = 1) => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : 'n/a');
const signedPct = (x: number, digits = 2) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}%` : 'n/a');
function rate(k: number, n: number): string {
  if (n === 0) return 'n/a';
  const [lo, hi] = clopperPearson(k, n);
  return `${k}/${n} = ${pct(k / n, 0)} [${pct(lo, 0)}, ${pct(hi, 0)}]`;
}

function renderMarkdown(raw: RawResults, cells: Cell[]): string {
  const s = raw.settings;
  const L: string[] = [];
  const label = (d: DesignName) => DESIGNS.find((x) => x.name === d)!.label;
  const cell = (condition: Condition, d: DesignName, e: number) => cells.find((c) => c.condition === condition && c.design === d && c.effectPct === e)!;
  const nonZero = s.effects.filter((e) => e > 0);
  const adaptive = budgetOf(s) === 'adaptive';
  L.push(adaptive ? "# Sensitivity at pairbench's own budget: pairbench against the sequential way, side by side" : '# Sensitivity: pairbench against the sequential way, side by side');
  L.push('');
  if (raw.partial) L.push('> **PARTIAL RUN** (interrupted): the figures below cover the comparisons that completed.\n');
  if (s.quick || s.reps < 40) {
    L.push(`> **${s.quick ? 'Quick smoke run' : 'Short run'}: ${s.reps} repetition${s.reps === 1 ? '' : 's'} per cell.** The rates below are far too uncertain to conclude anything (see the intervals); the full run is \`npm run bench:sensitivity\` (40 repetitions per cell).`);
    L.push('');
  }
  const program = `One real CPU-bound program (\`bench/programs/work.c\`, about ${raw.programMs.toFixed(0)} ms per run here), built with 0% (a second build: A/A), ${nonZero.map((e) => `${e}%`).join(', ')} more work. `;
  if (adaptive) {
    L.push(
      program +
        `For each repetition, condition and effect, pairbench compares the baseline build with the variant **as a user runs it, with its own stopping rules** (at least 10 pairs, at most ${s.maxPairs ?? 200}; it stops once its interval is within ±1% or the verdict is decided), ${s.warmup} warmup per side. ` +
        `Then the sequential design gets **the same budget: as many runs per side as pairbench measured pairs**. pairbench goes first (the budget comes from it); the effects are shuffled within each block.`,
    );
  } else {
    L.push(
      program +
        `For each repetition, condition and effect, both designs compare the baseline build with the variant at the same budget: **${s.runs} measured runs per side, ${s.warmup} warmup per side**. ` +
        `The effects are shuffled within each block and a coin decides which design goes first, so both see the same machine.`,
    );
  }
  L.push('');
  const runsText = adaptive ? 'N' : String(s.runs);
  L.push(`- **pairbench**: the real CLI, ${adaptive ? `its default stopping rules (\`--max-pairs ${s.maxPairs ?? 200}\`, precision 1%)` : `${s.runs} pairs`} in coin-flip order; Wilcoxon signed-rank test and Hodges–Lehmann estimate on ln(head/base) (Tukey outlier screen on the pairs, its default).`);
  L.push(`- **sequential + Welch t**: \`hyperfine -N --runs ${runsText} --warmup ${s.warmup}\` on the baseline, then on the variant${adaptive ? ' (N = the pairs pairbench measured in that comparison)' : ''}; Welch's t-test as hyperfine's \`scripts/welch_ttest.py\` (\`scipy.stats.ttest_ind(equal_var=False)\`); change = ratio of the means.`);
  L.push(`- **sequential + Mann–Whitney**: the same hyperfine runs judged as benchstat does: two-sided Mann–Whitney U test; change = ratio of the medians.`);
  L.push(`- One rule for all: **regression = p < ${s.alpha} and estimated change > +${pct(s.threshold, 0)}** (pairbench's default gate). A/A false positive = a regression *or* improvement flagged. The raw significance rate (p < ${s.alpha}, any threshold) is shown as well. Rates carry 95% Clopper–Pearson intervals.`);
  L.push('');
  L.push(`![Detection rate against effect size, per design${s.conditions.length > 1 ? ', quiet and noisy' : ''}](${stemOf(s)}.svg)`);
  L.push('');
  for (const condition of s.conditions) {
    const title = condition === 'quiet' ? 'Quiet machine (no generated noise; other users’ load, if any, as it was)' : 'Noisy machine (bench/noise-generator.ts on every core)';
    L.push(`## ${title}`);
    L.push('');
    if (s.effects.includes(0)) {
      L.push(`### A/A (0%): false positives`);
      L.push('');
      L.push('| Design | Flagged (regression or improvement) | Significant (p < 0.05) | Estimate: mean ± SD | Wall time per comparison |');
      L.push('|---|---|---|---|---|');
      for (const d of DESIGNS) {
        const c = cell(condition, d.name, 0);
        L.push(`| ${label(d.name)} | ${rate(c.flagged, c.n)} | ${rate(c.significant, c.n)} | ${signedPct(c.estimateMean)} ± ${pct(c.estimateSd, 2)} | ${(c.wallMs / 1000).toFixed(2)} s |`);
      }
      L.push('');
    }
    if (nonZero.length) {
      L.push(`### Detection: regression verdicts (p < ${s.alpha} and change > +${pct(s.threshold, 0)})`);
      L.push('');
      L.push(`| Design | ${nonZero.map((e) => `+${e}% work`).join(' | ')} |`);
      L.push(`|---|${nonZero.map(() => '---|').join('')}`);
      for (const d of DESIGNS) L.push(`| ${label(d.name)} | ${nonZero.map((e) => rate(cell(condition, d.name, e).regression, cell(condition, d.name, e).n)).join(' | ')} |`);
      L.push('');
      L.push(`### Raw significance: p < ${s.alpha} and slower (no threshold)`);
      L.push('');
      L.push(`| Design | ${nonZero.map((e) => `+${e}% work`).join(' | ')} |`);
      L.push(`|---|${nonZero.map(() => '---|').join('')}`);
      for (const d of DESIGNS) L.push(`| ${label(d.name)} | ${nonZero.map((e) => rate(cell(condition, d.name, e).significantSlower, cell(condition, d.name, e).n)).join(' | ')} |`);
      L.push('');
    }
    L.push('### Estimate of the change: mean ± SD over repetitions');
    L.push('');
    L.push(`| Design | ${s.effects.map((e) => `${e === 0 ? 'A/A' : `+${e}% work`}`).join(' | ')} |`);
    L.push(`|---|${s.effects.map(() => '---|').join('')}`);
    for (const d of DESIGNS) L.push(`| ${label(d.name)} | ${s.effects.map((e) => `${signedPct(cell(condition, d.name, e).estimateMean)} ± ${pct(cell(condition, d.name, e).estimateSd, 2)}`).join(' | ')} |`);
    const hw = s.effects.map((e) => cell(condition, 'pairbench', e).ciHalfWidth);
    L.push(`| pairbench: median half-width of its interval${adaptive ? ' (95%; 97.5% after an early stop)' : ' (95%)'} | ${hw.map((h) => (h === null ? 'n/a' : `±${pct(h, 2)}`)).join(' | ')} |`);
    L.push('');
    if (adaptive) {
      L.push("### The budget pairbench chose: pairs per comparison (= the sequential design's runs per side)");
      L.push('');
      L.push('| | ' + s.effects.map((e) => (e === 0 ? 'A/A' : `+${e}% work`)).join(' | ') + ' |');
      L.push(`|---|${s.effects.map(() => '---|').join('')}`);
      const pairsOf = (e: number) => cell(condition, 'pairbench', e).pairsUsed;
      L.push(`| median [min, max] | ${s.effects.map((e) => { const p = pairsOf(e); return p.length ? `${median(p)} [${Math.min(...p)}, ${Math.max(...p)}]` : 'n/a'; }).join(' | ')} |`);
      L.push(`| mean | ${s.effects.map((e) => { const p = pairsOf(e); return p.length ? mean(p).toFixed(0) : 'n/a'; }).join(' | ')} |`);
      L.push(`| stopped because | ${s.effects.map((e) => Object.entries(cell(condition, 'pairbench', e).stops).sort((a, b) => b[1] - a[1]).map(([why, k]) => `${why} ${k}`).join(', ')).join(' | ')} |`);
      L.push('');
    }
    L.push('### Wall time per comparison (mean)');
    L.push('');
    L.push(`| Design | ${s.effects.map((e) => `${e === 0 ? 'A/A' : `+${e}%`}`).join(' | ')} |`);
    L.push(`|---|${s.effects.map(() => '---|').join('')}`);
    L.push(`| pairbench (node start, warmup, ${adaptive ? 'N' : s.runs} pairs, judging) | ${s.effects.map((e) => `${(cell(condition, 'pairbench', e).wallMs / 1000).toFixed(2)} s`).join(' | ')} |`);
    L.push(`| sequential (two hyperfine calls${adaptive ? ', N runs each' : ''}) | ${s.effects.map((e) => `${(cell(condition, 'welch', e).wallMs / 1000).toFixed(2)} s`).join(' | ')} |`);
    L.push('');
    const cs = raw.comparisons.filter((c) => c.condition === condition);
    const pbRuns = cs.flatMap((c) => c.paired.pairs.flatMap((p) => [p.base, p.head]));
    const hfRuns = cs.flatMap((c) => [...c.sequential.base, ...c.sequential.head]);
    const spread = (xs: number[]) => {
      const q = [...xs].sort((a, b) => a - b);
      const at = (f: number) => q[Math.min(q.length - 1, Math.floor(f * (q.length - 1)))] ?? NaN;
      return { median: at(0.5), p90: at(0.9), iqrRel: (at(0.75) - at(0.25)) / at(0.5) };
    };
    if (pbRuns.length && hfRuns.length) {
      const a = spread(pbRuns);
      const b = spread(hfRuns);
      L.push('### Single runs as each tool measured them (all effects pooled)');
      L.push('');
      L.push('| Runs measured by | Runs | Median | 90th percentile | IQR / median |');
      L.push('|---|---|---|---|---|');
      L.push(`| pairbench (its run helper: fork, \`/bin/sh -c ./prog\`, wait4) | ${pbRuns.length} | ${a.median.toFixed(1)} ms | ${a.p90.toFixed(1)} ms | ${pct(a.iqrRel)} |`);
      L.push(`| hyperfine -N | ${hfRuns.length} | ${b.median.toFixed(1)} ms | ${b.p90.toFixed(1)} ms | ${pct(b.iqrRel)} |`);
      L.push('');
    }
    const errs = cells.filter((c) => c.condition === condition && c.errors > 0);
    if (errs.length) {
      L.push(`Comparisons without a result: ${errs.map((c) => `${label(c.design)} ${c.effectPct}%: ${c.errors}`).join('; ')} (see the JSON for the errors).`);
      L.push('');
    }
  }
  L.push('## Setup');
  L.push('');
  const noiseBlocks = raw.blocks.filter((b) => b.noise);
  const noiseShare = noiseBlocks.length ? mean(noiseBlocks.map((b) => b.noise!.busyShare)) : NaN;
  L.push(
    machineMarkdown(raw.machine, {
      'Load average at end': raw.loadAverageEnd ? raw.loadAverageEnd.join(' / ') : 'n/a',
      Command: `\`${raw.command}\``,
      'Master seed': `${s.seed} (pairbench --seed and noise seeds per block are derived from it and recorded in the JSON)`,
      Repetitions: `${s.reps} per cell (condition x effect), ${raw.comparisons.length} cells run in all`,
      Program: `bench/programs/work.c, cc -O2, ${s.iters ?? 'default'} iterations x (1000 + 10 x effect%)/1000; ~${raw.programMs.toFixed(1)} ms per run (best of 5 at start)`,
      Noise: s.conditions.includes('noisy')
        ? `${raw.noiseSettings.threads} threads, phases ~${raw.noiseSettings.phaseMeanMs} ms, busy share drifting in [${raw.noiseSettings.minShare}, ${raw.noiseSettings.maxShare}] with knots every ${raw.noiseSettings.driftStepMs / 1000} s; measured busy share ${pct(noiseShare)} on average`
        : 'not used',
      'Total wall time': duration(raw.elapsedMs),
    }),
  );
  L.push('');
  L.push(`Raw data: \`${stemOf(s)}.json\` (every measured time, every pair, every p-value). Rendered again from it with \`npm run bench:sensitivity -- --render bench/results/${stemOf(s)}.json\`.`);
  L.push('');
  return `${L.join('\n')}\n`;
}

function renderChart(raw: RawResults, cells: Cell[]): string {
  const s = raw.settings;
  const cell = (condition: Condition, d: DesignName, e: number) => cells.find((c) => c.condition === condition && c.design === d && c.effectPct === e)!;
  const nudges = [-5, 0, 5];
  const panels = s.conditions.map((condition) => {
    const series: Series[] = DESIGNS.flatMap((d, i) => [
      {
        name: `${d.label}: p < ${s.alpha}, slower`,
        color: d.color,
        nudge: nudges[i] ?? 0,
        values: s.effects.map((e) => {
          const c = cell(condition, d.name, e);
          return c.n ? (e === 0 ? c.significant : c.significantSlower) / c.n : null;
        }),
      },
      {
        name: `${d.label}: regression verdict`,
        color: d.color,
        dash: '6 4',
        nudge: nudges[i] ?? 0,
        values: s.effects.map((e) => {
          const c = cell(condition, d.name, e);
          return c.n ? (e === 0 ? c.flagged : c.regression) / c.n : null;
        }),
      },
    ]);
    return { title: condition === 'quiet' ? 'Quiet machine' : 'Noisy machine (noise generator)', series };
  });
  return lineChartSvg({
    title: 'Detection rate against added work: paired (pairbench) vs sequential',
    subtitle: `${budgetOf(s) === 'adaptive' ? "pairbench's own budget, as many runs for the sequential design" : `${s.runs} runs per side`}, ${s.reps} repetition${s.reps === 1 ? '' : 's'} per point${s.quick ? ' (QUICK SMOKE RUN: not conclusive)' : ''}`,
    categories: s.effects.map((e) => (e === 0 ? 'A/A (0%)' : `+${e}%`)),
    xLabel: 'work added to the program',
    yLabel: 'comparisons flagged',
    panels,
    reference: { value: s.alpha, label: `alpha ${s.alpha}` },
    legend: [
      ...DESIGNS.map((d) => ({ label: d.label, color: d.color })),
      { label: `solid: p < ${s.alpha} and slower (at A/A: p < ${s.alpha} either way)`, color: '#555' },
      { label: `dashed: regression verdict, p < ${s.alpha} and change > +${pct(s.threshold, 0)} (at A/A: regression or improvement)`, color: '#555', dash: '6 4' },
    ],
    note: 'At A/A the rate is the false-positive rate; lower is better there, higher is better elsewhere.',
  });
}

function writeOutputs(raw: RawResults): void {
  const cells = summarizeCells(raw);
  const stem = stemOf(raw.settings);
  writeFileSync(join(raw.settings.outDir, `${stem}.md`), renderMarkdown(raw, cells));
  writeFileSync(join(raw.settings.outDir, `${stem}.svg`), renderChart(raw, cells));
}

function writeRaw(raw: RawResults): void {
  writeFileSync(join(raw.settings.outDir, `${stemOf(raw.settings)}.json`), `${JSON.stringify(raw)}\n`);
}

// ---- the run ------------------------------------------------------------------------------------

async function main(argv: string[]): Promise<number> {
  const { settings: s, render } = parseSettings(argv);
  if (render) {
    const raw = JSON.parse(readFileSync(render, 'utf8')) as RawResults;
    raw.settings.outDir = s.outDir;
    writeOutputs(raw);
    console.error(`rendered ${relative(process.cwd(), join(s.outDir, `${stemOf(raw.settings)}.md`))} and .svg from ${render}`);
    return 0;
  }
  if (!versionOf('hyperfine')) {
    console.error(`bench:sensitivity: ${HYPERFINE_INSTALL}`);
    return 2;
  }
  if (!versionOf('cc')) {
    console.error('bench:sensitivity: no C compiler (cc) found; install gcc or clang (Debian: sudo apt-get install -y build-essential)');
    return 2;
  }
  const machine = describeMachine();
  const { base, heads } = buildPrograms([...new Set([...s.effects, 10])], s.iters ? { iters: s.iters } : {});
  timeOnce(base.dir);
  const programMs = Math.min(...Array.from({ length: 5 }, () => timeOnce(base.dir)));
  mkdirSync(s.outDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'pairbench-sensitivity-'));
  const command = `npm run bench:sensitivity${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  const { threads, phaseMeanMs, minShare, maxShare, driftStepMs } = NOISE_DEFAULTS;
  const raw: RawResults = {
    kind: 'pairbench-bench-sensitivity',
    version: 1,
    partial: true,
    command,
    settings: s,
    machine,
    programMs,
    noiseSettings: { threads, phaseMeanMs, minShare, maxShare, driftStepMs },
    elapsedMs: 0,
    loadAverageEnd: null,
    blocks: [],
    comparisons: [],
  };
  const cellsTotal = s.reps * s.conditions.length * s.effects.length;
  const t0 = performance.now();
  console.error(
    `bench:sensitivity: ${s.reps} reps x ${s.conditions.join('+')} x effects ${s.effects.join(',')}% = ${cellsTotal} cells, ${budgetOf(s) === 'adaptive' ? `pairbench's stopping rules (at most ${s.maxPairs} pairs), as many runs for hyperfine` : `${s.runs} runs per side per design`}; program ~${programMs.toFixed(1)} ms; seed ${s.seed}`,
  );
  let noise: NoiseGenerator | null = null;
  const onSignal = () => {
    raw.elapsedMs = performance.now() - t0;
    writeRaw(raw);
    writeOutputs(raw);
    console.error('\nbench:sensitivity: interrupted; partial results written');
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    for (let rep = 0; rep < s.reps; rep++) {
      const conditions = rngFor(s.seed, 'conditions', rep)() < 0.5 ? s.conditions : [...s.conditions].reverse();
      for (const condition of conditions) {
        const blockStart = performance.now();
        let noiseSeed: number | null = null;
        if (condition === 'noisy') {
          noiseSeed = seedOf(s.seed, 'noise', rep);
          // bounded far above a block's length: it stops by itself if this process hangs
          noise = startNoise({ seed: noiseSeed, durationMs: 30 * 60_000 });
          await new Promise((r) => setTimeout(r, 300));
        }
        const effects = shuffle(s.effects, rngFor(s.seed, 'effects', condition, rep));
        for (const effectPct of effects) {
          const head = heads.get(effectPct)!;
          // adaptive: the sequential design's budget is the number of pairs pairbench chose, so pairbench goes first
          const pairedFirst = budgetOf(s) === 'adaptive' || rngFor(s.seed, 'first', condition, rep, effectPct)() < 0.5;
          const at = performance.now() - t0;
          const seed = seedOf(s.seed, 'pairbench', condition, rep, effectPct);
          let paired: PairedRecord;
          let sequential: SequentialRecord;
          if (pairedFirst) {
            paired = await runPaired(s, base, head, seed, tmp);
            const runs = budgetOf(s) === 'adaptive' ? Math.max(2, paired.pairs.length || s.runs) : s.runs;
            sequential = await runSequential(s, runs, base, head, tmp, `${condition}-${rep}-${effectPct}`);
          } else {
            sequential = await runSequential(s, s.runs, base, head, tmp, `${condition}-${rep}-${effectPct}`);
            paired = await runPaired(s, base, head, seed, tmp);
          }
          raw.comparisons.push({ condition, rep, effectPct, first: pairedFirst ? 'paired' : 'sequential', at: Math.round(at), paired, sequential });
          const done = raw.comparisons.length;
          const elapsed = performance.now() - t0;
          const eta = (elapsed / done) * (cellsTotal - done);
          const j = (x: Judged | null) => (x ? `${signedPct(x.change)} p=${x.pValue.toPrecision(2)}${x.flag !== 'none' ? ` ${x.flag.toUpperCase()}` : ''}` : 'error');
          console.error(
            `[${done}/${cellsTotal} ${condition} rep ${rep + 1} +${effectPct}%] pairbench ${j(paired.judged)} (${paired.pairs.length} pairs${paired.stoppedBecause ? `, ${paired.stoppedBecause}` : ''}, ${(paired.wallMs / 1000).toFixed(1)}s) | welch ${j(sequential.welch)} | mw ${j(sequential.mannWhitney)} (${(sequential.wallMs / 1000).toFixed(1)}s) | ${duration(elapsed)} elapsed, ~${duration(eta)} left`,
          );
          if (paired.error) console.error(`  pairbench: ${paired.error}`);
          if (sequential.error) console.error(`  hyperfine: ${sequential.error}`);
        }
        let report: NoiseReport | null = null;
        if (noise) {
          report = await noise.stop();
          noise = null;
        }
        raw.blocks.push({
          condition,
          rep,
          noiseSeed,
          noise: report ? { elapsedMs: Math.round(report.elapsedMs), busyShare: report.busyShare, threads: report.threads } : null,
          wallMs: Math.round(performance.now() - blockStart),
        });
        raw.elapsedMs = performance.now() - t0;
        writeRaw(raw);
      }
    }
  } finally {
    if (noise) await noise.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  raw.partial = false;
  raw.elapsedMs = performance.now() - t0;
  raw.loadAverageEnd = describeMachine().loadAverage;
  writeRaw(raw);
  writeOutputs(raw);
  const perCell = raw.elapsedMs / raw.comparisons.length;
  const fullCells = 40 * 2 * 4;
  console.error(
    `bench:sensitivity: done in ${duration(raw.elapsedMs)} (${(perCell / 1000).toFixed(1)} s per cell); wrote ${relative(process.cwd(), join(s.outDir, `${stemOf(s)}.md`))}, .json, .svg` +
      (s.reps < 40 ? `\n  at this pace the full run (40 reps x quiet+noisy x 4 effects = ${fullCells} cells) would take about ${duration(perCell * fullCells)}` : ''),
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(`bench:sensitivity: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 2;
  },
);
