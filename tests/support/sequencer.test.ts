/**
 * The order of test files (tests/support/sequencer.ts): the files known to be long first, longest
 * first, after any example test whose time is unknown; every other file shuffled by the run's
 * seed, the same order for the same seed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import Sequencer, { SECONDS } from './sequencer.ts';
import { ROOT } from './cli.ts';

const spec = (path: string) => ({ moduleId: `/work/project/${path}` }) as unknown as TestSpecification;
const sequencer = (seed: number) => new Sequencer({ config: { sequence: { seed } } } as unknown as Vitest);
const ids = (files: TestSpecification[]) => files.map((f) => f.moduleId.replace('/work/project/', ''));

describe('the order of test files', () => {
  const long = Object.keys(SECONDS);
  const byTime = [...long].sort((a, b) => SECONDS[b]! - SECONDS[a]! || (a < b ? -1 : 1));
  const units = Array.from({ length: 12 }, (_, i) => `tests/unit/file-${String(i).padStart(2, '0')}.test.ts`);

  it('names only files that exist', () => {
    for (const file of long) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it('runs the long files longest first, a new example test (its time unknown) before them', async () => {
    const got = ids(await sequencer(1).sort([...[...long].reverse(), 'tests/examples/new.test.ts'].map(spec)));
    expect(got).toEqual(['tests/examples/new.test.ts', ...byTime]);
    expect(got[1]).toBe('tests/measure/go-example-instructions.test.ts');
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

  it('puts the long files first when all run together, the rest after them in the seed\'s order', async () => {
    const got = ids(await sequencer(3).sort([...units, ...long].map(spec)));
    expect(got.slice(0, long.length)).toEqual(byTime);
    expect(got.slice(long.length).sort()).toEqual(units);
    expect(got.slice(long.length)).toEqual(ids(await sequencer(3).sort(units.map(spec))));
  });

  it('reads paths as vitest gives them on Windows too', async () => {
    const windows = { moduleId: 'C:\\work\\project\\tests\\examples\\catch2.test.ts' } as unknown as TestSpecification;
    const got = await sequencer(1).sort([spec('tests/unit/a.test.ts'), windows]);
    expect(got[0]).toBe(windows);
  });
});
