// Prints pairbench's `json` format on stdout: [{ "name", "value", "unit", "direction" }].
// One run measures each benchmark in a few short batches and reports the median time per
// operation; pairbench repeats the whole script in pairs, so one run need not be precise.
import { checksum, sortCopy } from './kernels.mjs';

const data = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) & 0xff);
const xs = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);

let sink = 0;
const benchmarks = {
  checksum: () => { sink ^= checksum(data); },
  sort_1000: () => { sink ^= sortCopy(xs)[0]; },
};

function measure(fn, batches = 15, batchMs = 10) {
  // Warm up first, so V8 has optimized the function before any batch is timed: otherwise a run
  // measures which JIT tier the code happened to be in, not the code.
  const until = process.hrtime.bigint() + 150_000_000n;
  while (process.hrtime.bigint() < until) for (let i = 0; i < 100; i++) fn();
  // Calibrate: how many calls fill one batch.
  let n = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns > batchMs * 1e6 / 4) { n = Math.max(1, Math.round(n * (batchMs * 1e6) / ns)); break; }
    n *= 2;
  }
  const perOp = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    perOp.push(Number(process.hrtime.bigint() - t0) / n);
  }
  perOp.sort((a, b) => a - b);
  return perOp[Math.floor(perOp.length / 2)];
}

const results = Object.entries(benchmarks).map(([name, fn]) => ({
  name,
  value: measure(fn),
  unit: 'ns',
  direction: 'lower-is-better',
}));
if (sink === 0.5) console.error(sink); // keep the results alive
process.stdout.write(JSON.stringify(results, null, 2) + '\n');
