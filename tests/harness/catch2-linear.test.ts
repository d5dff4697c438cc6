/**
 * Catch2's parser reads what a benchmark printed, which may be anything: hostile output must parse
 * in time linear in its size (240 KB of it took 71 s, quadratic, and a SIGTERM went unheard
 * meanwhile). Each shape is parsed at 2.4 MB, ten times that: linear, a fraction of a second;
 * quadratic, hours. The bound, 20 s, holds on any machine that runs the suite at all.
 */
import { describe, expect, it } from 'vitest';
import { parseCatch2 } from '../../src/harness/catch2.ts';
import { HarnessParseError } from '../../src/harness/types.ts';

const RULE = '-'.repeat(79);
const TABLE = `${RULE}\nparse\n${RULE}\nbench.cpp:1\n${'.'.repeat(79)}\n\nbenchmark name                       samples       iterations    estimated\n                                     mean          low mean      high mean\n                                     std dev       low std dev   high std dev\n${RULE}\n`;

/** Hostile outputs of about `bytes` bytes. */
const SHAPES: Record<string, (bytes: number) => string> = {
  'tags that never close': (bytes) => `<Catch>${'<a "'.repeat(bytes / 4)}`,
  'comments that never end': (bytes) => `<Catch>${'<!--'.repeat(bytes / 4)}`,
  'an attribute name that never ends': (bytes) => `<Catch><TestCase ${'a'.repeat(bytes)}>`,
  'a table line of spaces': (bytes) => `${TABLE}x${' '.repeat(bytes)}1 1 1 ns x\n`,
  'a table line of numbers': (bytes) => `${TABLE}x${' 1'.repeat(bytes / 2)}\n`,
};

describe('catch2: hostile output parses in linear time', () => {
  it.each(Object.keys(SHAPES))('%s: 2.4 MB parse in under 20 s', (shape) => {
    const text = SHAPES[shape]!(2_400_000);
    const start = performance.now();
    try {
      parseCatch2(text);
    } catch (err) {
      if (!(err instanceof HarnessParseError)) throw err;
    }
    expect(performance.now() - start).toBeLessThan(20_000);
  }, 60_000);

  it('reads references to no entity as text: &constructor; and a code point past Unicode', () => {
    const xml = '<Catch><TestCase name="a&constructor;&#x110000;"><BenchmarkResults name="b"><mean value="5"/></BenchmarkResults></TestCase></Catch>';
    expect(parseCatch2(xml).map((s) => s.name)).toEqual(['a&constructor;&#x110000; > b']);
  });
});
