/**
 * Why a Python process lands in a slow mode: one question, answered on pint's pytest-benchmark suite
 * (py-fresh-1 of the suites not tuned on, bench/lib/fresh-suites.ts), whose pairs fall now and then
 * into a mode where a whole group of tests runs about 1.5 times slower in one process.
 *
 *     node bench/python-modes.ts [--processes 24] [--seed 1] [--out bench/results/python-modes]
 *     node bench/python-modes.ts --from <a results .json of it>   # its tables again, from the values it recorded
 *
 * Two things differ from one Python process to the next without any change of the code: the seed of
 * its string hashes (PYTHONHASHSEED, random unless set) and where the kernel puts its memory
 * (address-space layout randomization; `setarch -R` turns it off for one process). Part 1 runs
 * processes of one copy under the four combinations, interleaved in a random order, and counts the
 * values in a slow mode (15% or more above the test's median under the combination) and the
 * processes with three tests or more there. Part 2 asks whether pairbench could cancel the hash
 * seed's share in its pairs, as common random numbers do (Law & Kelton, *Simulation Modeling and
 * Analysis*, ch. 11): pairs of two copies of the same source, each side with its own random seed as
 * Python does, or both sides with one random seed drawn per pair; the spread of the pairs'
 * differences per test says which is steadier. Each process runs the suite's selection once, as a
 * whole-suite run of pairbench does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, machineMarkdown } from './lib/machine.ts';
import { setupFresh } from './lib/fresh-suites.ts';
import { must } from './lib/proc.ts';
import { mulberry32 } from '../src/stats/prng.ts';
import { shuffle as shuffleWith } from '../src/schedule/random.ts';
import { median } from '../src/stats/describe.ts';
import { logRobustSpread, logSpread } from './lib/stats.ts';

/** A value this far above its test's median (under the same combination) is in a slow mode. */
const SLOW = 1.15;
/** A process with this many tests in a slow mode is in a slow mode as a whole. */
const WHOLE = 3;

type Values = Record<string, number>;

const { values } = parseArgs({ options: { processes: { type: 'string', default: '24' }, seed: { type: 'string', default: '1' }, out: { type: 'string', default: 'bench/results/python-modes' }, from: { type: 'string' } } });
const N = Number(values.processes);
const rand = mulberry32(Number(values.seed));
const seed32 = () => 1 + Math.floor(rand() * 0xfffffffe);
const shuffle = <T>(xs: readonly T[]): T[] => shuffleWith(xs, rand);

interface Recorded {
  command: string;
  machine: ReturnType<typeof describeMachine>;
  /** each test's name, in the order a run measures them */
  order: string[];
  processes: Values[][];
  pairs: Array<Array<{ base: Values; aa: Values }>>;
}

const combos = [
  { name: 'hash seed random, layout random (as Python runs)', seed: () => seed32(), layout: 'random' as const },
  { name: 'hash seed fixed (0), layout random', seed: () => 0, layout: 'random' as const },
  { name: 'hash seed random, layout fixed (setarch -R)', seed: () => seed32(), layout: 'fixed' as const },
  { name: 'hash seed fixed (0), layout fixed (setarch -R)', seed: () => 0, layout: 'fixed' as const },
];
const arms = [
  { name: 'each side its own random hash seed (as Python runs)', shared: false },
  { name: 'one random hash seed per pair, both sides', shared: true },
];

async function measure(): Promise<Recorded> {
  const machine = describeMachine();
  const work = mkdtempSync(join(tmpdir(), 'pairbench-python-modes-'));
  const setup = await setupFresh('py-fresh-1', work, false);
  const command = setup.run.replace('{benchmark}', '');
  /** One process of the copy in `dir`: each test's median (pytest-benchmark's, seconds), in the order it ran them. */
  const once = async (dir: string, hashSeed: number, layout: 'random' | 'fixed'): Promise<Values> => {
    const argv = layout === 'fixed' ? ['setarch', '-R', 'sh', '-c', command] : ['sh', '-c', command];
    const r = await must(argv[0]!, argv.slice(1), dir, { ...process.env, PYTHONHASHSEED: String(hashSeed) });
    const doc = JSON.parse(r.stdout) as { benchmarks: Array<{ name: string; stats: { median: number } }> };
    return Object.fromEntries(doc.benchmarks.map((b) => [b.name, b.stats.median]));
  };
  // Part 1: processes of one copy under each combination of hash seed and layout
  const processes: Values[][] = combos.map(() => []);
  for (let i = 0; i < N; i++) {
    for (const k of shuffle(combos.map((_, j) => j))) processes[k]!.push(await once(setup.dirs.base, combos[k]!.seed(), combos[k]!.layout));
    process.stderr.write(`part 1: ${i + 1}/${N}\n`);
  }
  // Part 2: pairs of two copies of one source, each side its own seed or one seed per pair
  const pairs: Array<Array<{ base: Values; aa: Values }>> = arms.map(() => []);
  for (let i = 0; i < N; i++) {
    for (const k of shuffle(arms.map((_, j) => j))) {
      const s = seed32();
      const seeds = { base: s, aa: arms[k]!.shared ? s : seed32() };
      const got: Partial<Record<'base' | 'aa', Values>> = {};
      for (const side of shuffle(['base', 'aa'] as Array<'base' | 'aa'>)) got[side] = await once(setup.dirs[side], seeds[side], 'random');
      pairs[k]!.push({ base: got.base!, aa: got.aa! });
    }
    process.stderr.write(`part 2: ${i + 1}/${N}\n`);
  }
  rmSync(work, { recursive: true, force: true });
  return { command: `node bench/python-modes.ts --processes ${N} --seed ${values.seed}`, machine, order: Object.keys(processes[0]![0]!), processes, pairs };
}

const data: Recorded = values.from ? (JSON.parse(readFileSync(values.from, 'utf8')) as Recorded) : await measure();
const { processes, pairs, machine } = data;
const { order } = data;
const names = Object.keys(processes[0]![0]!).sort();
const pct = (v: number, digits = 1) => `${(100 * v).toFixed(digits)}%`;

const part1 = combos.map((c, k) => {
  const runs = processes[k]!;
  const medians = Object.fromEntries(names.map((n) => [n, median(runs.map((r) => r[n]!))]));
  const slowIn = (r: Values) => names.filter((n) => r[n]! > SLOW * medians[n]!).length;
  return {
    combination: c.name,
    slowValues: runs.reduce((a, r) => a + slowIn(r), 0),
    values: runs.length * names.length,
    slowProcesses: runs.filter((r) => slowIn(r) >= WHOLE).length,
    processes: runs.length,
    spread: median(names.map((n) => logSpread(runs.map((r) => r[n]!)))),
  };
});
const part2 = arms.map((a, k) => {
  const ps = pairs[k]!;
  const ratios = (n: string) => ps.map((p) => p.aa[n]! / p.base[n]!);
  return {
    arm: a.name,
    pairs: ps.length,
    spread: median(names.map((n) => logSpread(ratios(n)))),
    robustSpread: median(names.map((n) => logRobustSpread(ratios(n)))),
    pairsInMode: ps.filter((p) => apart(p).length >= WHOLE).length,
  };
});

/** The tests of a pair whose sides lie SLOW apart, by their place in the order the run measured them. */
function apart(p: { base: Values; aa: Values }): number[] {
  return order.map((n, i) => (Math.abs(Math.log(p.aa[n]! / p.base[n]!)) > Math.log(SLOW) ? i : -1)).filter((i) => i >= 0);
}
// a group apart within one stretch of the run (at most one test between its first and last that is not apart):
// a stretch of time the machine slowed, which every test measured then shares, rather than a process in a mode
const groups = pairs.flat().map(apart).filter((g) => g.length >= WHOLE);
const stretches = groups.filter((g) => g[g.length - 1]! - g[0]! + 1 <= g.length + 1).length;

const invocation = data.command;
const md = [
  '# Why a Python process lands in a slow mode (pint, pytest-benchmark)',
  '',
  `\`${invocation}\`: ${names.length} tests of pint's pytest-benchmark suite (py-fresh-1), each process running all of them once. A value is in a slow mode ${Math.round(100 * (SLOW - 1))}% or more above its test's median under the same combination; a process with ${WHOLE} tests or more there is in a slow mode as a whole.`,
  '',
  '## Processes of one copy',
  '',
  '| hash seed, layout | values in a slow mode | processes in a slow mode | spread across processes (median over tests) |',
  '|---|---|---|---|',
  ...part1.map((r) => `| ${r.combination} | ${r.slowValues} of ${r.values} | ${r.slowProcesses} of ${r.processes} | ±${pct(r.spread)} |`),
  '',
  '## Pairs of two copies of one source',
  '',
  '| hash seeds | pairs | spread per pair (median over tests) | the same, robust (MAD) | pairs with a group of tests apart |',
  '|---|---|---|---|---|',
  ...part2.map((r) => `| ${r.arm} | ${r.pairs} | ±${pct(r.spread)} | ±${pct(r.robustSpread)} | ${r.pairsInMode} of ${r.pairs} |`),
  '',
  `Of the ${groups.length} pairs with a group of tests apart, ${stretches} had it in one stretch of the run: tests measured one after another (at most one test between the first and the last that is not apart), as a slowed moment of the machine gives, not a process in a slow mode, which would slow tests wherever they ran.`,
  '',
  machineMarkdown(machine),
  '',
].join('\n');
writeFileSync(`${values.out}.md`, md);
if (!values.from) writeFileSync(`${values.out}.json`, `${JSON.stringify({ ...data, combinations: combos.map((c) => c.name), arms: arms.map((a) => a.name), part1, part2 }, null, 1)}\n`);
process.stdout.write(md);
