/**
 * The order of test files (tests/support/sequencer.ts): the example tests longest first, every
 * other file shuffled by the run's seed, the same order for the same seed.
 */
import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import Sequencer from './sequencer.ts';

const spec = (path: string) => ({ moduleId: `/work/project/${path}` }) as unknown as TestSpecification;
const sequencer = (seed: number) => new Sequencer({ config: { sequence: { seed } } } as unknown as Vitest);
const ids = (files: TestSpecification[]) => files.map((f) => f.moduleId.replace('/work/project/', ''));

describe('the order of test files', () => {
  const examples = ['go', 'catch2', 'rust-cache', 'mitata', 'pyperf', 'vitest', 'benchmarkjs', 'python-pytest'].map((n) => `tests/examples/${n}.test.ts`);
  const units = Array.from({ length: 12 }, (_, i) => `tests/unit/file-${String(i).padStart(2, '0')}.test.ts`);

  it('runs the example tests longest first, a new one (its time unknown) before them', async () => {
    const got = ids(await sequencer(1).sort([...examples, 'tests/examples/new.test.ts'].map(spec)));
    expect(got).toEqual(['new', 'mitata', 'catch2', 'pyperf', 'vitest', 'benchmarkjs', 'python-pytest', 'go', 'rust-cache'].map((n) => `tests/examples/${n}.test.ts`));
  });

  it('shuffles every other file by the seed: one seed, one order, whatever order the files came in', async () => {
    const a = ids(await sequencer(7).sort(units.map(spec)));
    const b = ids(await sequencer(7).sort([...units].reverse().map(spec)));
    const c = ids(await sequencer(8).sort(units.map(spec)));
    expect(a).toEqual(b);
    expect([...a].sort()).toEqual(units);
    expect(a).not.toEqual(units);
    expect(c).not.toEqual(a);
  });

  it('puts the examples first when both kinds run together', async () => {
    const got = ids(await sequencer(3).sort([...units, ...examples].map(spec)));
    expect(got.slice(0, examples.length)[0]).toBe('tests/examples/mitata.test.ts');
    expect(got.slice(examples.length).sort()).toEqual(units);
  });
});
