/**
 * pyperf's runs designed (`--design auto`: src/harness/pyperf-design.ts, src/schedule/choose-design.ts):
 * a benchmark whose pyperf value is per inner loop (`bench_func(..., inner_loops=N)`) is sized in
 * the loops pyperf's `--loops` counts, each N inner loops long.
 */
import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/index.ts';
import type { RowSample } from '../../src/measure/samples.ts';
import { mulberry32 } from '../../src/schedule/random.ts';
import { chooseDesigns, pilotDesign, recordPilot } from '../../src/schedule/choose-design.ts';

/** One pyperf run's JSON: a worker's values, seconds per inner loop, with `inner_loops` in the benchmark's metadata. */
function pyperfRun(name: string, values: number[], innerLoops: number): RowSample[] {
  const doc = { version: '1.0', metadata: { unit: 'second' }, benchmarks: [{ metadata: { name, inner_loops: innerLoops }, runs: [{ values }] }] };
  return parseHarness('pyperf', JSON.stringify(doc)).map((s) => ({ ...s, key: s.name }));
}

describe("pyperf's inner loops", () => {
  it('the parser says how many values make one of the loops pairbench sizes', () => {
    const [s] = pyperfRun('unpack', [1e-8, 1.1e-8], 400);
    expect(s).toMatchObject({ name: 'unpack', value: 1.05e-8 * 1e9, iterationScale: 400 });
    const doc = { version: '1.0', metadata: { unit: 'second' }, benchmarks: [{ metadata: { name: 'plain' }, runs: [{ values: [1e-6] }] }] };
    expect(parseHarness('pyperf', JSON.stringify(doc))[0]!.iterationScale).toBeUndefined();
  });

  it('a loop of 100 inner loops of 10 µs is sized as 1 ms: the pilot and the chosen design run loops of their length, not 100 times it', () => {
    const inner = 100;
    const innerNs = 10_000;
    // the listing run read one loop as value × inner_loops (schedule/pairing-units.ts, `iterationMs`)
    const d = pilotDesign('pyperf', (innerNs * inner) / 1e6, 100, 8);
    expect(d.iterations).toBe(10); // the pilot's first length, 10 ms
    const rand = mulberry32(7);
    const noisy = () => (innerNs / 1e9) * (1 + 0.02 * (rand() - 0.5));
    const process = (values: number) => pyperfRun('unpack', Array.from({ length: values }, noisy), inner);
    for (let i = 0; i < d.pilotPairs; i++) {
      // the pilot: a warm-up and 2 values a process, as pyperf's worker prints them
      recordPilot(d, 'unpack', { base: process(3), head: process(3), wallMs: { base: 150, head: 150 } });
    }
    const [choice] = chooseDesigns([d]);
    // one loop is still 1 ms as the pilot read it, so the design's loops are its length in ms
    expect(d.opMs).toBeCloseTo(1, 1);
    expect(choice!.sizing.iterations).toBeGreaterThanOrEqual(10);
    expect(choice!.sizing.iterations).toBeLessThanOrEqual(100);
    expect(d.lengthMs).toBeCloseTo(choice!.sizing.iterations! * d.opMs, 6);
  });
});
