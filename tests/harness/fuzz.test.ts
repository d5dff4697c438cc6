/**
 * Property: whatever the text, a parser either returns valid samples (non-empty names, finite
 * positive values, a unit and a direction, names unique) or throws HarnessParseError, and never
 * anything else. Inputs: the real fixtures mutated (truncated, bytes flipped, lines deleted,
 * duplicated or swapped, JSON nodes replaced), other formats' fixtures, and random text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxErrorOffset } from '../../src/harness/common.ts';
import { HARNESS_FORMATS, HARNESS_PARSERS, HarnessParseError, parseHarness, type HarnessFormat, type Sample } from '../../src/harness/index.ts';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'harness');
const FIXTURES: Array<{ format: HarnessFormat; file: string; text: string }> = HARNESS_FORMATS.flatMap((format) =>
  readdirSync(join(ROOT, format))
    .filter((f) => /\.(txt|json|jsonl|xml)$/.test(f))
    .map((file) => ({ format, file, text: readFileSync(join(ROOT, format, file), 'utf8') })),
);
const JSON_FORMATS = new Set<HarnessFormat>(['pytest-benchmark', 'google-benchmark', 'hyperfine', 'jmh', 'json', 'vitest', 'mitata', 'pyperf']);
/** Formats that print one JSON record a line: a node is replaced in one record. */
const NDJSON_FORMATS = new Set<HarnessFormat>(['criterion', 'node-bench']);

function assertValid(samples: Sample[]): void {
  expect(Array.isArray(samples)).toBe(true);
  expect(samples.length).toBeGreaterThan(0);
  const names = new Set<string>();
  for (const s of samples) {
    expect(typeof s.name).toBe('string');
    expect(s.name.trim().length).toBeGreaterThan(0);
    expect(Number.isFinite(s.value) && (s.value > 0 || (s.value === 0 && s.unit !== 'ns'))).toBe(true);
    expect(typeof s.unit === 'string' && s.unit.length > 0).toBe(true);
    expect(['lower-is-better', 'higher-is-better']).toContain(s.direction);
    names.add(s.name);
  }
  expect(names.size).toBe(samples.length);
}

/** Parses with the bare parser (so a bug is not hidden by parseHarness's safety net) and with parseHarness. */
function check(format: HarnessFormat, text: string): void {
  for (const parse of [HARNESS_PARSERS[format], (t: string) => parseHarness(format, t)]) {
    let samples: Sample[];
    try {
      samples = parse(text);
    } catch (err) {
      if (!(err instanceof HarnessParseError)) {
        throw new Error(`${format} threw ${String(err)} on ${JSON.stringify(text.slice(0, 300))}`, { cause: err });
      }
      expect(err.format).toBe(format);
      expect(err.line === null || (Number.isInteger(err.line) && err.line >= 1)).toBe(true);
      continue;
    }
    assertValid(samples);
  }
}

// --- mutations ---------------------------------------------------------------------------------

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; char: string }
  | { kind: 'delete-line'; at: number }
  | { kind: 'duplicate-line'; at: number }
  | { kind: 'swap-lines'; a: number; b: number }
  | { kind: 'insert'; at: number; text: string };

const interesting = fc.constantFrom(
  '0', '-1', '1e999', 'NaN', ' ', '\n', '\t', '"', '{', '}', '[', ']', ',', ':', '/', '-', '.', 'e', ',', '(', ')', '\u0000', '\u00b5', 'x',
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), char: fc.oneof(interesting, fc.string({ minLength: 1, maxLength: 1 })) }),
  fc.record({ kind: fc.constant('delete-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap-lines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(interesting, fc.string({ maxLength: 12 })) }),
);

function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'flip': {
      const at = m.at % Math.max(1, text.length);
      return text.slice(0, at) + m.char + text.slice(at + 1);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'delete-line':
      lines.splice(m.at % lines.length, 1);
      return lines.join('\n');
    case 'duplicate-line': {
      const at = m.at % lines.length;
      lines.splice(at, 0, lines[at] as string);
      return lines.join('\n');
    }
    case 'swap-lines': {
      const a = m.a % lines.length;
      const b = m.b % lines.length;
      [lines[a], lines[b]] = [lines[b] as string, lines[a] as string];
      return lines.join('\n');
    }
  }
}

/** Every path to a node of a JSON value (capped), for replacing one node. */
function paths(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (out.length > 2000) return out;
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

function replaceAt(root: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (replacement === undefined) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = replacement;
  return copy;
}

// PAIRBENCH_FUZZ_SCALE=20 runs twenty times as many cases (for a long local run).
const SCALE = Math.max(1, Number(process.env.PAIRBENCH_FUZZ_SCALE) || 1);
const RUNS = { numRuns: 150 * SCALE };

describe.each(HARNESS_FORMATS)('%s never throws anything but HarnessParseError', (format) => {
  const own = FIXTURES.filter((f) => f.format === format);

  it('on its real fixtures, mutated', () => {
    fc.assert(
      fc.property(fc.constantFrom(...own), fc.array(mutation, { minLength: 1, maxLength: 4 }), (fixture, mutations) => {
        check(format, mutations.reduce(mutate, fixture.text));
      }),
      RUNS,
    );
  });

  if (JSON_FORMATS.has(format) || NDJSON_FORMATS.has(format)) {
    it('on its real fixtures with one JSON node replaced or removed', () => {
      const docs = own.map((f) =>
        NDJSON_FORMATS.has(format) ? f.text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as unknown) : (JSON.parse(f.text) as unknown),
      );
      const nodes = docs.map((d) => paths(d));
      fc.assert(
        fc.property(
          fc.nat(),
          fc.nat(),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constantFrom(0, -1, 1e308, '', ' ', [], {}, null, '1')),
          (d, p, replacement) => {
            const doc = docs[d % docs.length];
            const candidates = nodes[d % docs.length] as Array<Array<string | number>>;
            const mutated = replaceAt(doc, candidates[p % candidates.length] as Array<string | number>, replacement);
            const text =
              NDJSON_FORMATS.has(format) ? (Array.isArray(mutated) ? mutated : [mutated]).map((m) => JSON.stringify(m)).join('\n') : (JSON.stringify(mutated, null, 2) ?? '');
            check(format, text);
          },
        ),
        RUNS,
      );
    });
  }

  it("on every other format's fixtures", () => {
    for (const f of FIXTURES) check(format, f.text);
  });

  it('on random text, JSON values and harness-like lines', () => {
    const goLike = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'Benchmark',
            'BenchmarkA',
            'BenchmarkX/sub-2',
            'test a ... bench: ',
            'Benchmark_x-8',
            'pkg: ',
            '{"reason":"benchmark-complete"',
            '',
            'a x',
            '<Catch2TestRun>',
            '<TestCase name="t">',
            '<BenchmarkResults name="b">',
            '<mean value=',
            '</BenchmarkResults>',
            '-'.repeat(79),
            'benchmark name samples iterations estimated',
          ),
          fc.array(fc.oneof(fc.constantFrom('1', '0', '-3', '1,234', '1e400', '.5', 'ns/op', 'B/op', 'MB/s', 'ns/iter', '(+/-', '5)', '=', 'x/s', 'ops/sec', '\u00b11.2%', '(3 runs sampled)', '"1"/>', 'us', 'ms'), fc.string({ maxLength: 4 })), {
            maxLength: 8,
          }),
        ),
        { maxLength: 8 },
      )
      .map((lines) => lines.map(([head, fields]) => `${head}${fields.length ? ' ' : ''}${fields.join('\t ')}`).join('\n'));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
          fc.json({ maxDepth: 4 }),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ benchmarks: v, results: v })),
          fc.array(fc.jsonValue({ maxDepth: 3 })).map((v) => JSON.stringify(v)),
          goLike,
        ),
        (text) => check(format, text),
      ),
      { numRuns: 300 * SCALE },
    );
  });
});

describe('jsonSyntaxErrorOffset', () => {
  it('agrees with JSON.parse on which texts are JSON', () => {
    const almostJson = fc.tuple(fc.json({ maxDepth: 3 }), fc.array(mutation, { maxLength: 2 })).map(([t, ms]) => ms.reduce(mutate, t));
    fc.assert(
      fc.property(fc.oneof(almostJson, fc.string({ maxLength: 40 })), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const offset = jsonSyntaxErrorOffset(text);
        expect(offset < 0).toBe(valid);
        if (!valid) expect(offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 1000 * SCALE },
    );
  });

  it('copes with deep nesting', () => {
    expect(jsonSyntaxErrorOffset('['.repeat(200_000))).toBe(200_000);
    expect(() => parseHarness('json', '['.repeat(200_000))).toThrow(HarnessParseError);
  });
});
