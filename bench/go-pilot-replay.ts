/**
 * How well the runs of a Go benchmark are designed from a pilot, replayed offline and cross-validated
 * on the long processes `npm run bench:go-design-review` recorded (each benchmark's fresh processes
 * of `--count` repetitions of about 10 ms, every repetition kept).
 *
 * Each draw splits every benchmark's processes at random into two halves. The pilot is drawn from
 * the first: `--pilot-pairs` pairs of two different processes, as an A/A pair of identical binaries
 * is. The design it leads to is scored on the second half alone, so a rule that picks the design
 * whose pilot happened to spread least is not flattered by the same processes. Rules:
 *
 * - `auto`: the engine's own `chooseDesigns` (schedule/design.ts) on the pilot it runs: a warm-up
 *   repetition and two more per process, of 10 ms in one pair and 20 ms in the next, read here as
 *   the first three repetitions of a recorded process or the means of its first six in twos (what
 *   Go's ns/op over their iterations is, less the collection Go runs before each repetition), the
 *   whole suite at once since each benchmark's components are pooled with its suite's;
 * - `read N`: a pilot whose processes run N repetitions of 10 ms, and the design chosen by what the
 *   pilot's own pairs say of each design formable from them (w warm-ups and the least of k after,
 *   w + k <= N): the least mean of d² (sign-blind: a label swap leaves it) times the design's cost;
 * - fixed designs, for reference.
 *
 * A design's score on the held-out half: the spread of d = ln(one process's value / another's) over
 * every pair of its processes, (median |d| / 0.6745)², times what a pair costs (two processes: their
 * start and w + k repetitions), over the least score of the designs that half can form (1: the best;
 * that best is itself picked on the half, so every rule's ratio is a little high alike). And per
 * drawn suite, how many benchmarks would settle at the default threshold and alpha within the pairs
 * `--max-pairs` allows and the budget the pilots leave, the soonest first as the allocation gives
 * it (schedule/allocate.ts), each at the spread its design shows on the held-out half. Designs the
 * processes cannot form (too long for `--count`) are counted apart, as not settling.
 *
 *   npm run bench:go-pilot-replay                       # the committed bench/results/go-design-review-count32-2026-12-01.json.gz
 *   npm run bench:go-pilot-replay -- --from <a go-design-review JSON, or .json.gz> --draws 40
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { quantileSorted, sorted } from '../src/stats/describe.ts';
import { mulberry32 } from '../src/stats/prng.ts';
import { FIXED_RULES, type RecordedBenchmark, replay } from './lib/pilot-replay.ts';
import { describeMachine, ROOT } from './lib/machine.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: join(ROOT, 'bench/results/go-design-review-count32-2026-12-01.json.gz') },
    draws: { type: 'string', default: '40' },
    'pilot-pairs': { type: 'string', default: '10' },
    read: { type: 'string', default: '6,8,12' },
    'budget-s': { type: 'string', default: '600' },
    'max-pairs': { type: 'string', default: '200' },
    threshold: { type: 'string', default: '0.02' },
    alpha: { type: 'string', default: '0.05' },
    'max-length-ms': { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});

const fail = (msg: string): never => {
  console.error(msg);
  process.exit(2);
};
const draws = Number(values.draws);
const pilotPairs = Number(values['pilot-pairs']);
const budgetMs = Number(values['budget-s']) * 1000;
const maxPairs = Number(values['max-pairs']);
const threshold = Number(values.threshold);
const alpha = Number(values.alpha);
const maxLengthMs = Number(values['max-length-ms']);
const seed = Number(values.seed);
const reads = values.read.split(',').map((s) => Number(s.trim()));
for (const [flag, v, ok, want] of [
  ['--draws', values.draws, Number.isInteger(draws) && draws >= 1, 'a whole number of at least 1'],
  ['--pilot-pairs', values['pilot-pairs'], Number.isInteger(pilotPairs) && pilotPairs >= 8 && pilotPairs <= 20, 'a whole number from 8 to 20'],
  ['--read', values.read, reads.every((n) => Number.isInteger(n) && n >= 3), 'repetitions per pilot process, whole numbers of at least 3, comma-separated'],
  ['--budget-s', values['budget-s'], budgetMs > 0, 'a positive number of seconds'],
  ['--max-pairs', values['max-pairs'], Number.isInteger(maxPairs) && maxPairs > pilotPairs, 'a whole number above the pilot pairs'],
  ['--threshold', values.threshold, threshold > 0 && threshold < 1, 'a fraction between 0 and 1'],
  ['--alpha', values.alpha, alpha > 0 && alpha < 0.5, 'a level between 0 and 0.5'],
  ['--max-length-ms', values['max-length-ms'], maxLengthMs >= 10, 'at least 10'],
  ['--seed', values.seed, Number.isInteger(seed) && seed >= 0, 'a whole number'],
] as const) {
  if (!ok) fail(`${flag} ${String(v)}: expected ${want}`);
}

interface Row { name: string; opNs: number; iterations: number; processMs: number; processes?: Array<{ reps: number[]; wallMs: number }> }
let file: { date: string; command: string; settings: { count: number }; rows: Row[] } | undefined;
try {
  const raw = readFileSync(resolve(values.from));
  file = JSON.parse((values.from.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as NonNullable<typeof file>;
} catch (e) {
  fail(`--from ${values.from}: ${(e as Error).message} (expected the JSON file bench:go-design-review wrote)`);
}
const count = file!.settings.count;
const rows = file!.rows.filter((r) => (r.processes?.length ?? 0) >= 8 && r.processes!.every((p) => p.reps.length === count));
if (rows.length === 0 || count < 6) fail(`--from ${values.from}: no benchmark with 8 or more processes of 6 or more repetitions each (expected a file written by bench:go-design-review at 39e0645 or later)`);
if (reads.some((n) => n > count)) fail(`--read ${values.read}: at most ${count}, the repetitions each recorded process ran`);

const r = replay(rows as RecordedBenchmark[], count, { draws, pilotPairs, reads, budgetMs, maxPairs, threshold, alpha, maxLengthMs, rand: mulberry32(seed) });
const RULES = r.rules;
const outcomes = r.outcomes;
const settled = r.settled;
const settledFair = r.settledFormable;

const q = (a: readonly number[], p: number) => quantileSorted(sorted(a), p);
const f1 = (v: number) => v.toFixed(1);
const pct = (v: number) => `${(100 * v).toFixed(0)}%`;
const summary = RULES.map((rule) => {
  const all = outcomes.get(rule)!.flat();
  const ratios = all.filter((o) => o.ratio !== null).map((o) => o.ratio!);
  const s = settled.get(rule)!;
  const fair = settledFair.get(rule)!;
  return { rule, choices: all.length, unformable: all.length - ratios.length, medianRatio: q(ratios, 0.5), p90Ratio: q(ratios, 0.9), over5: ratios.filter((r) => r > 5).length / all.length, settles: { median: q(s, 0.5), min: Math.min(...s), max: Math.max(...s) }, settlesFormable: { median: q(fair, 0.5), min: Math.min(...fair), max: Math.max(...fair) } };
});
const machine = describeMachine();
const date = machine.date.slice(0, 10);
const command = `npm run bench:go-pilot-replay -- ${process.argv.slice(2).join(' ')}`.trim();
const md = [
  '# Designs chosen from a pilot, replayed and cross-validated',
  '',
  `Replayed ${date} with \`${command}\` from the processes of \`${file!.command}\` (${file!.date.slice(0, 10)}: ${rows.length} benchmarks, ${rows[0]!.processes!.length} processes each of ${count} repetitions of about 10 ms); ${draws} draws, each a random half of every benchmark's processes for its pilot of ${pilotPairs} pairs and the other half to score the design it chose; pairbench commit ${machine.commit ?? 'unknown'}.`,
  '',
  `Per rule: the chosen design's variance of an estimate per second of budget over the best of ${r.shapes} designs on the held-out half (1 is the best; median and 90th percentile over every benchmark and draw, and the share above 5), and per drawn suite the benchmarks that would settle at threshold ${threshold * 100}% and alpha ${alpha} within ${maxPairs} pairs and ${budgetMs / 1000} s less the pilots, the soonest first (median, least and most over the draws).`,
  '',
  '| rule | median | 90th percentile | above 5 | not formable | settle (of ' + rows.length + ') | settle, where every rule\'s design is formable |',
  '|---|---|---|---|---|---|---|',
  ...summary.map((s) => `| ${s.rule} | ${f1(s.medianRatio)} | ${f1(s.p90Ratio)} | ${(100 * s.over5).toFixed(1)}% | ${s.unformable} of ${s.choices} | ${s.settles.median} (${s.settles.min}-${s.settles.max}) | ${pct(s.settlesFormable.median)} (${pct(s.settlesFormable.min)}-${pct(s.settlesFormable.max)}) |`),
  '',
  '<details><summary>Per benchmark: the designs each pilot rule chose most, and the median ratio</summary>',
  '',
  `| benchmark | ${RULES.filter((r) => !FIXED_RULES.has(r)).join(' | ')} |`,
  `|---|${RULES.filter((r) => !FIXED_RULES.has(r)).map(() => '---').join('|')}|`,
  ...rows.map((r, b) => {
    const cells = RULES.filter((x) => !FIXED_RULES.has(x)).map((rule) => {
      const o = outcomes.get(rule)![b]!;
      const counts = new Map<string, number>();
      for (const x of o) counts.set(x.design, (counts.get(x.design) ?? 0) + 1);
      const top = [...counts].sort((a, z) => z[1] - a[1]).slice(0, 2).map(([d, n]) => `${d} (${n})`).join(', ');
      const rs = o.filter((x) => x.ratio !== null).map((x) => x.ratio!);
      return `${top}: ${rs.length > 0 ? f1(q(rs, 0.5)) : '—'}`;
    });
    return `| ${r.name} | ${cells.join(' | ')} |`;
  }),
  '',
  '</details>',
  '',
];
console.log(md.join('\n'));
if (values.out) {
  // named by the recording replayed: go-pilot-replay-<its name>
  const name = `go-pilot-replay-${basename(values.from).replace(/\.json(\.gz)?$/, '').replace(/^go-design-review-/, '')}`;
  writeFileSync(resolve(values.out, `${name}.md`), md.join('\n'));
  writeFileSync(resolve(values.out, `${name}.json`), `${JSON.stringify({ date: machine.date, command, from: file!.command, settings: { draws, pilotPairs, reads, budgetMs, maxPairs, threshold, alpha, seed }, summary, settled: Object.fromEntries(settled) }, null, 1)}\n`);
}
