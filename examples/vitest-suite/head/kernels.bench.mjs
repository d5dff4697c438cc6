// vitest 5 benchmarks: `bench` is a fixture of the test context, and a test's benchmarks run
// when it calls `.run()` (or `bench.compare()`). pairbench names each result
// `<file> > <describe> > <test> > <bench>` and runs one test at a time (`-t`).
import { afterAll, describe, test } from 'vitest';
import { checksum, sortInto } from './kernels.mjs';

// Local bindings: every access to an imported binding goes through vitest's module runner getter
// (https://vitest.dev/guide/benchmarking#module-runner-overhead).
const checksum_ = checksum;
const sortInto_ = sortInto;

const data = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) & 0xff);
const xs = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
const sorted = new Float64Array(xs.length); // sortInto's buffer, made once

// tinybench's options: 300 ms of samples after 200 ms of warmup, per benchmark and run.
const options = { time: 300, warmupTime: 200 };

let sink = 0;
describe('kernels', () => {
  test('checksum', async ({ bench }) => {
    await bench('checksum 64 KiB', () => {
      sink ^= checksum_(data);
    }).run(options);
  });

  test('sort', async ({ bench }) => {
    await bench('sort 1000', () => {
      sink ^= sortInto_(sorted, xs)[0];
    }).run(options);
  });
});

afterAll(() => {
  if (sink === 0.5) console.error(sink); // keeps the results alive
});
