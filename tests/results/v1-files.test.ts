/**
 * Every results file of version 1 is still read, and judged alike: `pairbench report` of a v1 file
 * and of the same content written as version 2 print the same table, write the same Markdown and
 * the same judged file, and exit alike. The files: every v1 file among the fixtures, a file written
 * by hand as another tool would (only the raw pairs), and v1 files holding what the conversion
 * must carry over (a benchmark's own threshold and floor, pairs with one side at 0, a failure, a
 * benchmark on one side only, benchmarks left out by changed-only, Go's metrics).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultsFile } from '../../src/results/read.ts';
import type { Results } from '../../src/results/schema.ts';
import { judgeResults } from '../../src/results/judge-file.ts';
import { fromV2, toV2 } from '../../src/results/v2.ts';
import { ResultsV2Schema } from '../../src/results/schema-v2.ts';
import { writeResultsFile } from '../../src/results/writer.ts';
import { pairbench, ROOT } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { regression50 } from '../support/results-files.ts';
import { bench, goSuite, results } from '../report/markdown-fixtures.ts';

/** The JSON files under `dir`, recursively. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith('.json') ? [path] : [];
  });
}

/** The fixtures that are results files of version 1. */
const fixtures = jsonFiles(join(ROOT, 'tests/fixtures')).filter((path) => /"schemaVersion"\s*:\s*1\b/.test(readFileSync(path, 'utf8').slice(0, 200)));

/** A v1 file of a suite holding what version 2 moves elsewhere. */
function carried(): Results {
  const go = goSuite();
  const [first, second, ...rest] = go.benchmarks;
  return {
    ...go,
    settings: { ...go.settings, minChange: '1ns', failOn: 'regression,inconclusive', benchmarks: [{ name: 'go', run: 'go test -bench .', format: 'go', metrics: ['wall'], threshold: 0.04 }] },
    notRun: [{ name: 'docs', why: 'no file under docs/** changed' }],
    benchmarks: [
      { ...first!, threshold: 0.04, minChange: '2ns' },
      { ...second!, reciprocalOf: first!.name },
      ...rest,
      { ...bench('go/BenchmarkAlloc (B/op)', 'inconclusive', 0, { unit: 'B', n: 12 }), oneSidedPairs: [{ base: 0, head: 16, order: 'base-first', after: 3 }] },
      { ...bench('go/BenchmarkNew', 'inconclusive', 0.1, { n: 0 }), presence: 'added', pairs: [] },
      { name: 'go/BenchmarkBroken', unit: 'ms', direction: 'lower-is-better', stoppedBecause: 'error', pairs: [], failure: { side: 'head', kind: 'exit', exitCode: 2, message: 'exit status 2' } },
    ],
  };
}

const cases: [string, () => unknown][] = [
  ...fixtures.map((path): [string, () => unknown] => [relative(ROOT, path), () => JSON.parse(readFileSync(path, 'utf8'))]),
  ['a file with only the raw pairs (another tool)', () => regression50()],
  ['a Go suite as the engine writes it', () => goSuite()],
  ['a suite with own thresholds, floors, one-sided pairs, a failure, an added benchmark and benchmarks not run', () => carried()],
  ['a file with forged settings (an alpha below the floor, a negative threshold of a benchmark): dropped alike, with the same warnings', () => {
    const forged = regression50();
    return { ...forged, settings: { ...forged.settings, alpha: 1e-300 }, benchmarks: forged.benchmarks.map((b) => ({ ...b, threshold: -1 })) };
  }],
  ['a file written while measuring (nothing judged)', () => ({ ...results([bench('parse', 'regression', 0.1)]), status: 'running', verdict: undefined, benchmarks: [{ name: 'parse', unit: 'ms', direction: 'lower-is-better', pairs: bench('parse', 'regression', 0.1).pairs }] })],
];

/** `pairbench report` of `file` (as results.json in a folder of its own): the table, the Markdown, the judged file. */
function reportOf(file: string): { status: number | null; stdout: string; stderr: string; markdown: string; json: string } {
  const cwd = join(tempDir('pairbench-v1-'), 'run');
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'results.json'), file);
  const table = pairbench(['report', 'results.json', '--markdown', 'report.md'], { cwd });
  const json = pairbench(['report', 'results.json', '--json'], { cwd });
  expect(json.status).toBe(table.status);
  return { status: table.status, stdout: table.stdout, stderr: table.stderr, markdown: readFileSync(join(cwd, 'report.md'), 'utf8'), json: json.stdout };
}

describe('results files of version 1', () => {
  it('the fixtures hold v1 files to check', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases)('%s: read, and judged by pairbench report exactly as the same content written as version 2', (_name, make) => {
    const dir = tempDir('pairbench-v1-');
    const v1Path = join(dir, 'v1.json');
    writeFileSync(v1Path, JSON.stringify(make()));
    const v2Path = join(dir, 'v2.json');
    writeResultsFile(v2Path, readResultsFile(v1Path));
    const v2Text = readFileSync(v2Path, 'utf8');
    expect(JSON.parse(v2Text)).toMatchObject({ schemaVersion: 2 });

    const v1 = reportOf(readFileSync(v1Path, 'utf8'));
    const v2 = reportOf(v2Text);
    expect(v1.stdout.length).toBeGreaterThan(0);
    expect(v2.status).toBe(v1.status);
    expect(v2.stderr).toBe(v1.stderr);
    expect(v2.stdout).toBe(v1.stdout);
    expect(v2.markdown).toBe(v1.markdown);
    expect(v2.json).toBe(v1.json);
  });

  it.each(cases)('%s: the model judged from it comes back from version 2 as it was, but for what version 2 leaves out', (_name, make) => {
    const path = join(tempDir('pairbench-v1-'), 'v1.json');
    writeFileSync(path, JSON.stringify(make()));
    const judged = judgeResults(readResultsFile(path), { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });
    const back = fromV2(ResultsV2Schema.parse(JSON.parse(JSON.stringify(toV2(judged)))));
    // left out: the config's thresholds beside the rows' own (kept in judging.benchmarks), a failure's job name (the row's)
    const settings = judged.settings?.['benchmarks'] as Record<string, unknown>[] | undefined;
    const expected = {
      ...judged,
      ...(settings ? { settings: { ...judged.settings, benchmarks: settings.map(({ threshold: _t, minChange: _m, ...rest }) => rest) } } : {}),
      benchmarks: judged.benchmarks.map((b) => (b.failure ? { ...b, failure: { ...b.failure, benchmark: undefined } } : b)),
    };
    expect(back).toEqual(expected);
  });
});
