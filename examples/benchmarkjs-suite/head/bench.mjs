// benchmark.js benchmarks, printing one line per benchmark as benchmark.js formats it:
//   checksum 64 KiB x 13,912 ops/sec ±0.42% (60 runs sampled)
// The first argument, when given, is a regular expression: only benchmarks whose name it matches
// are added, so that pairbench can run one benchmark at a time:
//   node bench.mjs '^checksum 64 KiB$'
import Benchmark from 'benchmark';
import { checksum, sortInto } from './kernels.mjs';

const data = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) & 0xff);
const xs = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
const sorted = new Float64Array(xs.length); // sortInto's buffer, made once

const only = process.argv[2] ? new RegExp(process.argv[2]) : null;
// benchmark.js samples for `maxTime` seconds (5 by default) after its own warmup cycles
const options = { maxTime: 0.25, minSamples: 10 };
let sink = 0;

const suite = new Benchmark.Suite();
const add = (name, fn) => {
  if (!only || only.test(name)) suite.add(name, fn, options);
};
add('checksum 64 KiB', () => {
  sink ^= checksum(data);
});
add('sort 1000', () => {
  sink ^= sortInto(sorted, xs)[0];
});

suite
  .on('cycle', (event) => console.log(String(event.target)))
  .on('complete', () => {
    if (sink === 0.5) console.error(sink); // keeps the results alive
  })
  .run();
