/**
 * Why npm semver's vitest processes differ: one question, answered on js-fresh-1 of the suites not
 * tuned on (bench/lib/fresh-suites.ts), whose four benchmarks parse, valid, clean and coerce stay
 * `inconclusive` in an A/A because each process's medians move by several percent, base and head of a
 * pair hardly together.
 *
 *     node bench/js-modes.ts [--pairs 24] [--seed 1] [--out bench/results/js-modes]
 *     node bench/js-modes.ts --suite js-fresh-2 --arms suite,seeds   # the same question on js-yaml's suite, every benchmark
 *     node bench/js-modes.ts --from <a results .json of it>   # its tables again, from the values it recorded
 *
 * Pairs of two copies of one source (the suite's base and its A/A copy), each side one process
 * running the four benchmarks once, the arms interleaved in a random order, the sides of each pair in
 * coin-flip order. The arms:
 * - as the suite runs: vitest 4's bench, the suite's own command;
 * - V8's seeds shared: both sides of a pair get one random `--random-seed` and `--hash-seed` (what
 *   V8 randomizes per process: its hash tables' seed and where it asks for memory), as common random
 *   numbers would cancel their share (Law & Kelton, *Simulation Modeling and Analysis*, ch. 11);
 * - without vitest's CommonJS interop: `deps.interopDefault: false`. vitest hands a bench file a
 *   Proxy for a CommonJS package's namespace, so every `semver.parse` inside the timed function is a
 *   Proxy trap; this arm removes it to measure its share of the time and of the noise;
 * - plain Node: the same four functions, timed by the same tinybench with the same options, in a
 *   Node process of their own, no vitest.
 * The spread of the pairs' log ratios per benchmark says which is steadier; the median time per call
 * says what each measures. `--suite js-fresh-2` asks the same of js-yaml's suite (an ES module, so no
 * interop, and its own functions, so no plain arm): each process runs all of its benchmarks.
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

type Values = Record<string, number>;
type Side = 'base' | 'aa';

const { values } = parseArgs({ options: { suite: { type: 'string', default: 'js-fresh-1' }, arms: { type: 'string', default: 'suite,seeds,no-interop,plain' }, pairs: { type: 'string', default: '24' }, seed: { type: 'string', default: '1' }, out: { type: 'string', default: 'bench/results/js-modes' }, from: { type: 'string' } } });
const SUITE = values.suite === 'js-fresh-2' ? 'js-fresh-2' : 'js-fresh-1';
/** npm semver's four that stay `inconclusive` in its A/A; js-yaml's every benchmark */
const SEMVER_FOUR = ['parse', 'valid', 'clean', 'coerce'];
const FILE = SUITE === 'js-fresh-1' ? 'semver.bench.mjs' : 'js-yaml.bench.mjs';
const FILTER = SUITE === 'js-fresh-1' ? ['-t', `semver (${SEMVER_FOUR.join('|')})$`] : [];
const N = Number(values.pairs);
const rand = mulberry32(Number(values.seed));
const seed31 = () => 1 + Math.floor(rand() * 0x7ffffffe);
const shuffle = <T>(xs: readonly T[]): T[] => shuffleWith(xs, rand);

/** The four benchmarks outside vitest: the bench file's functions and options, timed by vitest's own tinybench. */
const PLAIN = `import { Bench } from 'tinybench';
import semver from 'semver';
const versions = Array.from({ length: 64 }, (_, i) => \`\${i % 5}.\${(i * 7) % 13}.\${(i * 11) % 17}\${i % 4 === 0 ? \`-beta.\${i % 3}\` : ''}\`);
let sink = 0;
const fns = {
  parse: () => { for (const v of versions) sink += semver.parse(v).patch; },
  valid: () => { for (const v of versions) sink += semver.valid(v) === null ? 0 : 1; },
  clean: () => { for (const v of versions) sink += semver.clean(\`  =v\${v}  \`).length; },
  coerce: () => { for (const v of versions) sink += semver.coerce(\`release v\${v} final\`).major; },
};
const out = {};
for (const [name, fn] of Object.entries(fns)) {
  const bench = new Bench({ time: 300, warmupTime: 200 });
  bench.add(name, fn);
  await bench.warmup();
  await bench.run();
  // the median as vitest computes it from tinybench's samples
  const s = [...bench.tasks[0].result.samples].sort((a, b) => a - b);
  out[name] = s.length % 2 ? s[Math.floor(s.length / 2)] : (s[s.length / 2] + s[s.length / 2 - 1]) / 2;
}
process.stdout.write(JSON.stringify({ out, sink: sink > 0 }));
`;

interface Arm {
  key: string;
  name: string;
  /** the process's command line in a copy; `seed` is the pair's shared seed */
  argv: (seed: number) => string[];
}
const vitest = (...extra: string[]) => ['npx', 'vitest', 'bench', '--run', FILE, ...FILTER, ...extra, '--outputJson', 'build/modes.json'];
const ALL_ARMS: Arm[] = [
  { key: 'suite', name: 'as the suite runs (vitest 4 bench)', argv: () => vitest() },
  { key: 'seeds', name: "V8's seeds shared by both sides of a pair (--random-seed, --hash-seed)", argv: (s) => vitest('--pool=forks', `--execArgv=--random-seed=${s}`, `--execArgv=--hash-seed=${s}`) },
  { key: 'no-interop', name: "without vitest's CommonJS interop (deps.interopDefault: false)", argv: () => vitest('--config', 'modes-no-interop.config.mjs') },
  { key: 'plain', name: 'plain Node, the same functions and tinybench options', argv: () => ['node', 'modes-plain.mjs'] },
];
const arms = ALL_ARMS.filter((a) => values.arms.split(',').includes(a.key) && (a.key !== 'plain' || SUITE === 'js-fresh-1'));

interface Recorded {
  command: string;
  machine: ReturnType<typeof describeMachine>;
  arms: string[];
  pairs: Array<Array<Record<Side, Values>>>;
}

async function measure(): Promise<Recorded> {
  const machine = describeMachine();
  const work = mkdtempSync(join(tmpdir(), 'pairbench-js-modes-'));
  const setup = await setupFresh(SUITE, work, false);
  for (const side of ['base', 'aa'] as const) {
    writeFileSync(join(setup.dirs[side], 'modes-plain.mjs'), PLAIN);
    writeFileSync(join(setup.dirs[side], 'modes-no-interop.config.mjs'), 'export default { test: { deps: { interopDefault: false } } };\n');
  }
  const once = async (side: Side, argv: string[]): Promise<Values> => {
    const dir = setup.dirs[side];
    const r = await must(argv[0]!, argv.slice(1), dir);
    if (argv[0] === 'node') return (JSON.parse(r.stdout) as { out: Values }).out;
    const doc = JSON.parse(readFileSync(join(dir, 'build/modes.json'), 'utf8')) as { files: Array<{ groups: Array<{ benchmarks: Array<{ name: string; median: number }> }> }> };
    return Object.fromEntries(doc.files.flatMap((f) => f.groups.flatMap((g) => g.benchmarks.map((b) => [b.name, b.median]))));
  };
  const pairs: Array<Array<Record<Side, Values>>> = arms.map(() => []);
  for (let i = 0; i < N; i++) {
    for (const k of shuffle(arms.map((_, j) => j))) {
      const argv = arms[k]!.argv(seed31());
      const got: Partial<Record<Side, Values>> = {};
      for (const side of shuffle(['base', 'aa'] as Side[])) got[side] = await once(side, argv);
      pairs[k]!.push({ base: got.base!, aa: got.aa! });
    }
    process.stderr.write(`pairs: ${i + 1}/${N}\n`);
  }
  rmSync(work, { recursive: true, force: true });
  return { command: `node bench/js-modes.ts --suite ${SUITE} --arms ${arms.map((a) => a.key).join(',')} --pairs ${N} --seed ${values.seed}`, machine, arms: arms.map((a) => a.name), pairs };
}

const data: Recorded = values.from ? (JSON.parse(readFileSync(values.from, 'utf8')) as Recorded) : await measure();
const BENCHMARKS = Object.keys(data.pairs[0]![0]!.base);
const pct = (v: number, digits = 1) => `${(100 * v).toFixed(digits)}%`;

const rows = data.arms.map((name, k) => {
  const ps = data.pairs[k]!;
  const ratios = (n: string) => ps.map((p) => p.aa[n]! / p.base[n]!);
  const levels = (n: string) => ps.flatMap((p) => [p.base[n]!, p.aa[n]!]);
  return {
    arm: name,
    pairs: ps.length,
    perBenchmark: BENCHMARKS.map((n) => ({ name: n, micros: 1e3 * median(levels(n)), spread: logSpread(ratios(n)), robust: logRobustSpread(ratios(n)) })),
  };
});
/** each time is set against the first arm's (as the suite runs) */
const againstMicros = rows[0]!.perBenchmark;

const md = [
  `# Why a vitest process differs from the next (${SUITE === 'js-fresh-1' ? 'npm semver' : 'js-yaml'}, ${SUITE})`,
  '',
  `\`${data.command}\`: pairs of two copies of one source (the suite's base and its A/A copy), each side one process running ${BENCHMARKS.join(', ')} once (the warm-up and measurement the bench file sets), the arms interleaved in a random order and the sides of each pair in coin-flip order. Per benchmark: the median time per call over both sides of every pair, and the spread of the pairs' log ratios (sample sd; robust, the MAD scaled to an sd).`,
  '',
  '| arm | pairs | time per call (µs): ' + BENCHMARKS.join(', ') + ' | spread per pair | the same, robust (MAD) |',
  '|---|---|---|---|---|',
  ...rows.map((r, k) => `| ${r.arm} | ${r.pairs} | ${r.perBenchmark.map((b, i) => `${b.micros.toFixed(1)}${k === 0 ? '' : ` (${b.micros >= againstMicros[i]!.micros ? '+' : ''}${pct(b.micros / againstMicros[i]!.micros - 1, 0)})`}`).join(', ')} | ${r.perBenchmark.map((b) => `±${pct(b.spread)}`).join(', ')} | ${r.perBenchmark.map((b) => `±${pct(b.robust)}`).join(', ')} |`),
  '',
  'In parentheses, each time against the suite\'s as it runs.',
  '',
  machineMarkdown(data.machine),
  '',
].join('\n');
writeFileSync(`${values.out}.md`, md);
if (!values.from) writeFileSync(`${values.out}.json`, `${JSON.stringify({ ...data, rows }, null, 1)}\n`);
process.stdout.write(md);
