// mitata benchmarks that print mitata's JSON on stdout: `run({ format: 'json' })`, here without
// the raw samples and the generated code mitata adds by default (megabytes per run).
// The first argument, when given, is a regular expression: only benchmarks whose name it matches
// run (mitata's `filter`), so that pairbench can run one benchmark at a time:
//   node bench.mjs '^checksum 64 KiB$'
import { bench, do_not_optimize, run } from 'mitata';
import { checksum, sortInto } from './kernels.mjs';

const data = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) & 0xff);
const xs = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
const sorted = new Float64Array(xs.length); // sortInto's buffer, made once

bench('checksum 64 KiB', () => do_not_optimize(checksum(data)));
bench('sort 1000', () => do_not_optimize(sortInto(sorted, xs)));

const filter = process.argv[2] ? new RegExp(process.argv[2]) : undefined;
await run({ format: { json: { samples: false, debug: false } }, filter });
