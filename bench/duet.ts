/**
 * Both sides of a pair at once, each on a CPU of its own: does it cancel more of the machine than
 * one side after the other? Duet benchmarking (Bulej, Horký, Tůma, Farquet and Prokopec 2020,
 * "Duet Benchmarking: Improving Measurement Accuracy in the Cloud", ICPE '20) runs the two versions
 * at the same time on one virtual machine, so that what the host does to the machine in that second
 * falls on both; which CPU each side gets is a coin's, so an asymmetry of the CPUs is noise, not bias.
 *
 *     node bench/duet.ts [--suites go-fresh-1,go-fresh-2,py-fresh-1,js-fresh-2,js-fresh-1] [--pairs 12] [--seed 1] [--out bench/results/duet]
 *     node bench/duet.ts --from <a results .json of it>   # its tables again, from the values it recorded
 *
 * Per suite of the suites not tuned on (bench/lib/fresh-suites.ts), pairs of two copies of one
 * source (the suite's base and its A/A copy), each side one process running the whole suite once, in
 * two designs interleaved in a random order:
 * - one after the other: the sides in coin-flip order, as pairbench runs a pair, bound as
 *   `--cpus auto` binds the suite (a Go or pytest-benchmark suite to the second CPU, others unbound);
 * - at once: both sides started together, each bound to one of the first two CPUs by a coin.
 * The spread of the pairs' log ratios per benchmark (sample sd; robust, the MAD scaled to an sd) says
 * which cancels more; the wall time per pair, what each costs. Linux with `taskset` and 2 CPUs or more.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, machineMarkdown } from './lib/machine.ts';
import { setupFresh, type FreshSuiteId } from './lib/fresh-suites.ts';
import { run } from './lib/proc.ts';
import { harnessOf } from '../src/harness/registry.ts';
import { mulberry32 } from '../src/stats/prng.ts';
import { mad, median, sd } from '../src/stats/describe.ts';

type Values = Record<string, number>;
type Side = 'base' | 'aa';
type Design = 'sequential' | 'duet';
const DESIGNS: Design[] = ['sequential', 'duet'];

const { values } = parseArgs({ options: { suites: { type: 'string', default: 'go-fresh-1,go-fresh-2,py-fresh-1,js-fresh-2,js-fresh-1' }, pairs: { type: 'string', default: '12' }, seed: { type: 'string', default: '1' }, out: { type: 'string', default: 'bench/results/duet' }, from: { type: 'string' } } });
const N = Number(values.pairs);
const rand = mulberry32(Number(values.seed));
const coin = () => rand() < 0.5;

interface SuiteRecord {
  id: string;
  title: string;
  command: string;
  pairs: Record<Design, Array<Record<Side, Values>>>;
  /** each pair's wall time, ms: both runs one after the other, or the longer of the two at once */
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
  const once = async (side: Side, cpu: string | null): Promise<{ values: Values; wallMs: number }> => {
    const argv = cpu === null ? ['sh', '-c', command] : ['taskset', '-c', cpu, 'sh', '-c', command];
    const r = await run(argv[0]!, argv.slice(1), { cwd: setup.dirs[side] });
    if (r.code !== 0) throw new Error(`${id}: ${command} failed in ${side} (exit ${r.code}): ${r.stderr.slice(-2000)}`);
    // a throughput computed from a time beside it (Go's MB/s) is that time again: left out
    return { values: Object.fromEntries(harness.parse(r.stdout).filter((s) => !s.reciprocalOf).map((s) => [s.name, s.value])), wallMs: r.wallMs };
  };
  const pairs: SuiteRecord['pairs'] = { sequential: [], duet: [] };
  const wallMs: SuiteRecord['wallMs'] = { sequential: [], duet: [] };
  for (let i = 0; i < N; i++) {
    for (const design of coin() ? DESIGNS : [...DESIGNS].reverse()) {
      if (design === 'sequential') {
        const order: Side[] = coin() ? ['base', 'aa'] : ['aa', 'base'];
        const first = await once(order[0]!, bound);
        const second = await once(order[1]!, bound);
        pairs.sequential.push({ [order[0]!]: first.values, [order[1]!]: second.values } as Record<Side, Values>);
        wallMs.sequential.push(first.wallMs + second.wallMs);
      } else {
        const cpus = coin() ? ['0', '1'] : ['1', '0'];
        const [b, a] = await Promise.all([once('base', cpus[0]!), once('aa', cpus[1]!)]);
        pairs.duet.push({ base: b.values, aa: a.values });
        wallMs.duet.push(Math.max(b.wallMs, a.wallMs));
      }
    }
    process.stderr.write(`${id}: ${i + 1}/${N}\n`);
  }
  return { id, title: setup.title, command, pairs, wallMs };
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
  return { command: `node bench/duet.ts --suites ${values.suites} --pairs ${N} --seed ${values.seed}`, machine, suites };
}

const data: Recorded = values.from ? (JSON.parse(readFileSync(values.from, 'utf8')) as Recorded) : await measure();
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
const sdLog = (xs: readonly number[]) => sd(xs.map(Math.log));
const madLog = (xs: readonly number[]) => 1.4826 * mad(xs.map(Math.log));

const rows = data.suites.flatMap((s) => {
  const names = Object.keys(s.pairs.sequential[0]!.base).filter((n) => DESIGNS.every((d) => s.pairs[d].every((p) => p.base[n]! > 0 && p.aa[n]! > 0)));
  return DESIGNS.map((d) => {
    const ratios = (n: string) => s.pairs[d].map((p) => p.aa[n]! / p.base[n]!);
    const spreads = names.map((n) => sdLog(ratios(n)));
    const robust = names.map((n) => madLog(ratios(n)));
    return { suite: s.id, title: s.title, design: d, pairs: s.pairs[d].length, benchmarks: names.length, spread: median(spreads), robust: median(robust), narrower: 0, wallMs: median(s.wallMs[d]), perBenchmark: Object.fromEntries(names.map((n, i) => [n, { spread: spreads[i]!, robust: robust[i]! }])) };
  });
});
// per suite, the benchmarks whose robust spread at once is below one after the other's
for (let i = 0; i < rows.length; i += 2) {
  const seq = rows[i]!;
  const duet = rows[i + 1]!;
  duet.narrower = Object.keys(duet.perBenchmark).filter((n) => duet.perBenchmark[n]!.robust < seq.perBenchmark[n]!.robust).length;
}

const md = [
  '# Both sides of a pair at once (duet) against one after the other',
  '',
  `\`${data.command}\`: per suite, pairs of two copies of one source (the suite's base and its A/A copy), each side one process running the whole suite once. One after the other: the sides in coin-flip order, bound as \`--cpus auto\` binds the suite (Go and pytest-benchmark to the second CPU, the others unbound). At once: both sides started together, each bound to one of the first two CPUs by a coin. The two designs alternate in a random order. The spread of a benchmark's pairs is that of their log ratios (sample sd; robust, the MAD scaled to an sd); each column gives its median over the suite's benchmarks.`,
  '',
  '| suite | design | pairs | spread per pair | the same, robust (MAD) | benchmarks narrower at once (robust) | wall time per pair |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.suite} (${r.title}), ${r.benchmarks} | ${r.design === 'duet' ? 'at once' : 'one after the other'} | ${r.pairs} | ±${pct(r.spread)} | ±${pct(r.robust)} | ${r.design === 'duet' ? `${r.narrower} of ${r.benchmarks}` : ''} | ${(r.wallMs / 1000).toFixed(1)} s |`),
  '',
  machineMarkdown(data.machine),
  '',
].join('\n');
writeFileSync(`${values.out}.md`, md);
if (!values.from) writeFileSync(`${values.out}.json`, `${JSON.stringify({ ...data, rows }, null, 1)}\n`);
process.stdout.write(md);
