/**
 * How a Go process's repetitions should make its time: their median, their least or their mean,
 * read from the long processes `npm run bench:go-design-review` recorded (each benchmark's fresh
 * processes of `--count` repetitions of about 10 ms, every repetition kept). The measurement behind
 * `Sample.combine` (harness/types.ts): a Go time is the least of its process's repetitions.
 *
 * For each recording and each benchmark, every process's value under a design of `--warmup`
 * repetitions left out and `--k` kept, summarised three ways; over every pair of two different
 * processes, d = ln(one value / the other), as an A/A pair of identical binaries gives; the spread
 * of d, robust (1.4826 × its median absolute deviation: what the interval of a pairbench verdict
 * mostly sees) and plain (its standard deviation: what the rare disturbed pair adds). The summary
 * line gives, per way, the median of those spreads over the benchmarks, and in how many benchmarks
 * the least spread pairs more narrowly (robust) than the median.
 *
 *   npm run bench:go-combine -- --from bench/results/go-design-review-count32-2026-12-01.json.gz --from bench/results/go-design-review-noisy-2026-12-02.json.gz --out bench/results
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { median } from '../src/stats/describe.ts';
import { combineSpreads, type CombineSpread } from './lib/combine.ts';
import { describeMachine } from './lib/machine.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string', multiple: true },
    warmup: { type: 'string', default: '1' },
    k: { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const warmup = Number(values.warmup);
const k = Number(values.k);
if (!Number.isInteger(warmup) || warmup < 0) fail(`--warmup ${values.warmup}: expected a whole number of at least 0`);
if (!Number.isInteger(k) || k < 1) fail(`--k ${values.k}: expected a whole number of at least 1`);
if (!values.from || values.from.length === 0) fail('--from: expected one or more JSON files bench:go-design-review wrote (.json or .json.gz)');

interface Recording { date: string; command: string; machine?: { loadAverage?: number[] }; settings: { count: number }; rows: Array<{ name: string; processes?: Array<{ reps: number[] }> }> }
const recordings = values.from.map((path) => {
  try {
    const raw = readFileSync(resolve(path));
    return { path, file: JSON.parse((path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as Recording };
  } catch (e) {
    return fail(`--from ${path}: ${(e as Error).message} (expected the JSON file bench:go-design-review wrote)`);
  }
});
for (const { path, file } of recordings) {
  if (file.settings.count < warmup + k) fail(`--from ${path}: its processes ran ${file.settings.count} repetitions, fewer than --warmup ${warmup} + --k ${k}`);
}

const machine = describeMachine();
const command = `npm run bench:go-combine -- ${recordings.map((r) => `--from ${r.path}`).join(' ')} --warmup ${warmup} --k ${k}${values.out ? ` --out ${values.out}` : ''}`;
const pct = (v: number) => `±${(100 * v).toFixed(1)}%`;
const md: string[] = [
  '# How a Go process\'s repetitions make its time',
  '',
  `Measured ${machine.date.slice(0, 10)} with \`${command}\`; pairbench commit ${machine.commit}.`,
  '',
  `Each process's value: the median, the least or the mean of its ${k} repetitions after ${warmup} left out; d = ln(one value / another's) over every pair of two different processes of a benchmark, as an A/A pair gives. Each cell: the spread of d, robust (1.4826 × MAD) / plain (SD).`,
];
const results: Array<{ from: string; recorded: string; spreads: CombineSpread[] }> = [];
for (const { path, file } of recordings) {
  const spreads = combineSpreads(file.rows.filter((r) => (r.processes?.length ?? 0) >= 6).map((r) => ({ name: r.name, processes: r.processes! })), warmup, k);
  results.push({ from: path, recorded: file.command, spreads });
  const line = (way: 'median' | 'min' | 'mean') => `${pct(median(spreads.map((s) => s[way].robust)))} / ${pct(median(spreads.map((s) => s[way].sd)))}`;
  md.push(
    '',
    `## ${basename(path)}`,
    '',
    `Recorded with \`${file.command}\` (${file.date.slice(0, 10)}; load average at the start ${file.machine?.loadAverage?.join(' / ') ?? 'not recorded'}).`,
    '',
    `Over its ${spreads.length} benchmarks (median of the spreads): median ${line('median')}, least ${line('min')}, mean ${line('mean')}; the least pairs more narrowly than the median (robust) in ${spreads.filter((s) => s.min.robust < s.median.robust).length} of ${spreads.length}.`,
    '',
    '| benchmark | median | least | mean |',
    '|---|---|---|---|',
    ...spreads.map((s) => `| ${s.name} | ${pct(s.median.robust)} / ${pct(s.median.sd)} | ${pct(s.min.robust)} / ${pct(s.min.sd)} | ${pct(s.mean.robust)} / ${pct(s.mean.sd)} |`),
  );
}
const text = md.join('\n') + '\n';
if (values.out) {
  const name = `go-combine-${machine.date.slice(0, 10)}`;
  writeFileSync(resolve(values.out, `${name}.md`), text);
  writeFileSync(resolve(values.out, `${name}.json`), `${JSON.stringify({ date: machine.date, command, warmup, k, results }, null, 1)}\n`);
}
process.stdout.write(text);
