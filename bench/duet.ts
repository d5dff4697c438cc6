/**
 * Both sides of a pair at once, each on a CPU of its own: does it cancel more of the machine than
 * one side after the other? Duet benchmarking (Bulej, Horký, Tůma, Farquet and Prokopec 2020,
 * "Duet Benchmarking: Improving Measurement Accuracy in the Cloud", ICPE '20) runs the two versions
 * at the same time on one virtual machine, so that what the host does to the machine in that second
 * falls on both; which CPU each side gets is a coin's, so an asymmetry of the CPUs is noise, not bias.
 *
 *     node bench/duet.ts [--suites go-fresh-1,go-fresh-2,py-fresh-1,js-fresh-2,js-fresh-1] [--pairs 12] [--seed 1] [--out bench/results/duet]
 *     node bench/duet.ts --against head --suites go-fresh-2,go-fresh-1,py-fresh-1   # base against the suite's slowed head
 *     node bench/duet.ts --from <a results .json of it>   # its tables again, from the values it recorded
 *
 * Per suite of the suites not tuned on (bench/lib/fresh-suites.ts), pairs of two copies of one
 * source (the suite's base and its A/A copy), in rounds as pairbench runs them (`--unit batch`, the
 * default): each round runs every benchmark once, a batch of them a process as pairbench batches
 * the format (vitest 5, pytest-benchmark 6, others 1), the batches in a shuffled order; or each
 * side one process running the whole suite (`--unit suite`). Two designs, a coin choosing which
 * runs a batch's pair first:
 * - one after the other: the sides back to back in coin-flip order, as pairbench runs a pair, bound as
 *   `--cpus auto` binds the suite (a Go or pytest-benchmark suite to the second CPU, others unbound);
 * - at once: both sides started together, each bound to one of the first two CPUs by a coin.
 * The spread of the pairs' log ratios per benchmark (sample sd; robust, the MAD scaled to an sd) says
 * which cancels more; the wall time per round, what each costs. `--against head` pairs base with the
 * suite's slowed head instead of its copy, to see whether a change measured at once reads as it does
 * one after the other (the two sides share the machine's caches and memory bandwidth at once). Linux with `taskset` and 2 CPUs or more.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, machineMarkdown } from './lib/machine.ts';
import { setupFresh, type FreshSuiteId } from './lib/fresh-suites.ts';
import { run } from './lib/proc.ts';
import { harnessOf } from '../src/harness/registry.ts';
import { selectBenchmarks } from '../src/harness/select.ts';
import { mulberry32 } from '../src/stats/prng.ts';
import { shuffle as shuffleWith } from '../src/schedule/random.ts';
import { median } from '../src/stats/describe.ts';
import { logRobustSpread, logSpread } from './lib/stats.ts';

type Values = Record<string, number>;
type Side = 'base' | 'aa';
type Design = 'sequential' | 'duet';
const DESIGNS: Design[] = ['sequential', 'duet'];

const { values } = parseArgs({ options: { against: { type: 'string', default: 'aa' }, unit: { type: 'string', default: 'batch' }, suites: { type: 'string', default: 'go-fresh-1,go-fresh-2,py-fresh-1,js-fresh-2,js-fresh-1' }, pairs: { type: 'string', default: '12' }, seed: { type: 'string', default: '1' }, out: { type: 'string', default: 'bench/results/duet' }, from: { type: 'string' } } });
const N = Number(values.pairs);
const rand = mulberry32(Number(values.seed));
const coin = () => rand() < 0.5;
const shuffle = <T>(xs: readonly T[]): T[] => shuffleWith(xs, rand);
const UNIT = values.unit === 'suite' ? 'suite' : 'batch';
/** what the second side of every pair runs: the A/A copy, or the suite's slowed head */
const AGAINST = values.against === 'head' ? 'head' : 'aa';

interface SuiteRecord {
  id: string;
  title: string;
  command: string;
  /** the second side of every pair (recorded as `aa`): the A/A copy, or the slowed head; absent: the copy */
  against?: 'aa' | 'head';
  /** benchmarks a process (`--unit batch`); absent: the whole suite */
  batch?: number;
  pairs: Record<Design, Array<Record<Side, Values>>>;
  /** each round's wall time, ms: both runs of each pair one after the other, or the longer of the two at once */
  wallMs: Record<Design, number[]>;
}
interface Recorded {
  command: string;
  machine: ReturnType<typeof describeMachine>;
  suites: SuiteRecord[];
}

/** The whole suite's command: every placeholder given the selection that runs all of it. */
function wholeSuite(id: FreshSuiteId, command: string): string {
  const file = id === 'js-fresh-1' ? 'semver.bench.mjs' : 'js-yaml.bench.mjs';
  return command.replaceAll('{benchmark}', '').replaceAll('{file}', file).replaceAll('{filter}', "'.'");
}

async function measureSuite(id: FreshSuiteId, work: string): Promise<SuiteRecord> {
  const setup = await setupFresh(id, work, false);
  const command = wholeSuite(id, setup.run);
  const harness = harnessOf(setup.format);
  const bound = setup.format === 'go' || setup.format === 'pytest-benchmark' ? '1' : null;
  const once = async (side: Side, cpu: string | null, select: string[] | null): Promise<{ values: Values; wallMs: number }> => {
    const sel = select === null ? { command, env: {} } : selectBenchmarks(setup.run, setup.format, select);
    const argv = cpu === null ? ['sh', '-c', sel.command] : ['taskset', '-c', cpu, 'sh', '-c', sel.command];
    const r = await run(argv[0]!, argv.slice(1), { cwd: side === 'base' ? setup.dirs.base : setup.dirs[AGAINST], env: { ...process.env, ...sel.env } });
    if (r.code !== 0) throw new Error(`${id}: ${command} failed in ${side} (exit ${r.code}): ${r.stderr.slice(-2000)}`);
    // a throughput computed from a time beside it (Go's MB/s) is that time again: left out
    return { values: Object.fromEntries(harness.parse(r.stdout).filter((s) => !s.reciprocalOf).map((s) => [s.name, s.value])), wallMs: r.wallMs };
  };
  // the units of a round: the whole suite, or its benchmarks (as one whole-suite run lists them) in batches
  const batch = setup.batch ?? (setup.format === 'vitest' ? 5 : setup.format === 'pytest-benchmark' ? 6 : 1);
  const listed = UNIT === 'suite' ? [] : Object.keys((await once('base', bound, null)).values).filter((n) => !/ \([^)]*\)$/.test(n));
  const units: Array<string[] | null> = UNIT === 'suite' ? [null] : Array.from({ length: Math.ceil(listed.length / batch) }, (_, k) => listed.slice(k * batch, (k + 1) * batch));
  const pairs: SuiteRecord['pairs'] = { sequential: [], duet: [] };
  const wallMs: SuiteRecord['wallMs'] = { sequential: [], duet: [] };
  for (let i = 0; i < N; i++) {
    const round: Record<Design, Record<Side, Values>> = { sequential: { base: {}, aa: {} }, duet: { base: {}, aa: {} } };
    const ms: Record<Design, number> = { sequential: 0, duet: 0 };
    for (const select of shuffle(units)) {
      for (const design of coin() ? DESIGNS : [...DESIGNS].reverse()) {
        if (design === 'sequential') {
          const order: Side[] = coin() ? ['base', 'aa'] : ['aa', 'base'];
          const first = await once(order[0]!, bound, select);
          const second = await once(order[1]!, bound, select);
          Object.assign(round.sequential[order[0]!], first.values);
          Object.assign(round.sequential[order[1]!], second.values);
          ms.sequential += first.wallMs + second.wallMs;
        } else {
          const cpus = coin() ? ['0', '1'] : ['1', '0'];
          const [b, a] = await Promise.all([once('base', cpus[0]!, select), once('aa', cpus[1]!, select)]);
          Object.assign(round.duet.base, b.values);
          Object.assign(round.duet.aa, a.values);
          ms.duet += Math.max(b.wallMs, a.wallMs);
        }
      }
    }
    for (const d of DESIGNS) {
      pairs[d].push(round[d]);
      wallMs[d].push(ms[d]);
    }
    process.stderr.write(`${id}: ${i + 1}/${N}\n`);
  }
  return { id, title: setup.title, command, against: AGAINST, ...(UNIT === 'batch' ? { batch } : {}), pairs, wallMs };
}

async function measure(): Promise<Recorded> {
  const machine = describeMachine();
  const suites: SuiteRecord[] = [];
  for (const id of values.suites.split(',') as FreshSuiteId[]) {
    const work = mkdtempSync(join(tmpdir(), 'pairbench-duet-'));
    try {
      suites.push(await measureSuite(id, work));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { command: `node bench/duet.ts --against ${AGAINST} --unit ${UNIT} --suites ${values.suites} --pairs ${N} --seed ${values.seed}`, machine, suites };
}

const data: Recorded = values.from ? (JSON.parse(readFileSync(values.from, 'utf8')) as Recorded) : await measure();
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

const rows = data.suites.flatMap((s) => {
  // the times only: a Go benchmark's allocation rows (`<name> (B/op)`, `<name> (allocs/op)`) hardly vary in either design
  const names = Object.keys(s.pairs.sequential[0]!.base).filter((n) => !/ \([^)]*\/op\)$/.test(n) && DESIGNS.every((d) => s.pairs[d].every((p) => p.base[n]! > 0 && p.aa[n]! > 0)));
  return DESIGNS.map((d) => {
    const ratios = (n: string) => s.pairs[d].map((p) => p.aa[n]! / p.base[n]!);
    const spreads = names.map((n) => logSpread(ratios(n)));
    const robust = names.map((n) => logRobustSpread(ratios(n)));
    return { suite: s.id, title: s.title, design: d, pairs: s.pairs[d].length, benchmarks: names.length, spread: median(spreads), robust: median(robust), narrower: 0, wallMs: median(s.wallMs[d]), perBenchmark: Object.fromEntries(names.map((n, i) => [n, { spread: spreads[i]!, robust: robust[i]!, change: median(ratios(n)) - 1 }])) };
  });
});
// per suite, the benchmarks whose robust spread at once is below one after the other's
for (let i = 0; i < rows.length; i += 2) {
  const seq = rows[i]!;
  const duet = rows[i + 1]!;
  duet.narrower = Object.keys(duet.perBenchmark).filter((n) => duet.perBenchmark[n]!.robust < seq.perBenchmark[n]!.robust).length;
}

/**
 * Against a slowed head: each benchmark head slows by 2% or more one after the other (the median of
 * its pairs), with its change at once beside it, so that a change that reads smaller or larger when
 * both sides share the machine shows.
 */
function changes(): string[] {
  if (!data.suites.some((x) => x.against === 'head')) return [];
  const out = ['## A change, at once and one after the other', '', 'Each benchmark that head slows by 2% or more one after the other (the median of its pairs): its change one after the other and at once, and their ratio.', '', '| suite | benchmarks | change one after the other | change at once | at once ÷ one after the other (median, range) |', '|---|---|---|---|---|'];
  for (let i = 0; i < rows.length; i += 2) {
    const seq = rows[i]!.perBenchmark;
    const duet = rows[i + 1]!.perBenchmark;
    const slowed = Object.keys(seq).filter((n) => seq[n]!.change >= 0.02);
    if (slowed.length === 0) continue;
    const ratio = slowed.map((n) => duet[n]!.change / seq[n]!.change);
    const range = (xs: number[]) => `${pct(Math.min(...xs))} to ${pct(Math.max(...xs))}`;
    out.push(`| ${rows[i]!.suite} | ${slowed.length} | ${range(slowed.map((n) => seq[n]!.change))} | ${range(slowed.map((n) => duet[n]!.change))} | ${median(ratio).toFixed(2)} (${Math.min(...ratio).toFixed(2)} to ${Math.max(...ratio).toFixed(2)}) |`);
  }
  return [...out, ''];
}

const md = [
  '# Both sides of a pair at once (duet) against one after the other',
  '',
  `\`${data.command}\`: per suite, pairs ${data.suites.some((x) => x.against === 'head') ? "of the suite's base and its slowed head (bench/README.md, \"Suites not tuned on\")" : "of two copies of one source (the suite's base and its A/A copy)"}, ${data.suites.some((x) => x.batch) ? `in rounds as pairbench runs them: each round runs every benchmark once, in batches of the benchmarks a process pairbench gives the format (${data.suites.map((x) => `${x.id} ${x.batch ?? 'the whole suite'}`).join(', ')}), the batches in a shuffled order, a coin choosing which design runs a batch's pair first` : 'each side one process running the whole suite once'}. One after the other: the sides back to back in coin-flip order, bound as \`--cpus auto\` binds the suite (Go and pytest-benchmark to the second CPU, the others unbound). At once: both sides started together, each bound to one of the first two CPUs by a coin. The two designs alternate in a random order. The spread of a benchmark's pairs is that of their log ratios (sample sd; robust, the MAD scaled to an sd); each column gives its median over the suite's benchmarks (their times: a Go benchmark's allocation rows are left out).`,
  '',
  `| suite | design | pairs | spread per pair | the same, robust (MAD) | benchmarks narrower at once (robust) | ${data.suites.some((x) => x.batch) ? 'wall time per round' : 'wall time per pair'} |`,
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.suite} (${r.title}), ${r.benchmarks} | ${r.design === 'duet' ? 'at once' : 'one after the other'} | ${r.pairs} | ±${pct(r.spread)} | ±${pct(r.robust)} | ${r.design === 'duet' ? `${r.narrower} of ${r.benchmarks}` : ''} | ${(r.wallMs / 1000).toFixed(1)} s |`),
  '',
  ...changes(),
  machineMarkdown(data.machine),
  '',
].join('\n');
writeFileSync(`${values.out}.md`, md);
if (!values.from) writeFileSync(`${values.out}.json`, `${JSON.stringify({ ...data, rows }, null, 1)}\n`);
process.stdout.write(md);
