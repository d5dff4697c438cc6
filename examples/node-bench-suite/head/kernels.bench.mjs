// node:bench benchmarks (Node 26.9 or later, behind --experimental-bench). Each sample times
// OPERATIONS calls between b.start() and b.end(OPERATIONS); the runner's json reporter prints
// every sample's duration_ns and operations, from which pairbench takes the median time per call.
// Run the file with the runner, never with run() here:
//   node --experimental-bench --bench --bench-reporter=json kernels.bench.mjs
// --bench-name-pattern='^checksum 64 KiB$' runs that benchmark alone.
import { bench } from 'node:bench';
import { checksum, sortInto } from './kernels.mjs';

const data = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) & 0xff);
const xs = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
const sorted = new Float64Array(xs.length); // sortInto's buffer, made once
const OPERATIONS = 50;
let sink = 0; // what the calls return is kept, so that V8 cannot drop them

bench('checksum 64 KiB', { samples: 30, warmup: 5 }, (b) => {
  b.start();
  for (let i = 0; i < OPERATIONS; i++) sink ^= checksum(data);
  b.end(OPERATIONS);
});

bench('sort 1000', { samples: 30, warmup: 5 }, (b) => {
  b.start();
  for (let i = 0; i < OPERATIONS; i++) sink ^= sortInto(sorted, xs)[i];
  b.end(OPERATIONS);
});

export { sink };
