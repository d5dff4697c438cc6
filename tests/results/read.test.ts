/**
 * Reading a results file that may be hostile (S2, S15): only a regular file, never more than the
 * cap plus one byte, never nested deeper than a results file nests, each benchmark once. Every
 * refusal is exit 2 and one line naming the file. The real CLI, on files made here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/results/schema.ts';
import { CLI, pairbench } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { regression50, writeResults } from '../support/results-files.ts';

/** A refusal: exit 2, and stderr one line (a stack trace or a second message would add lines). */
function expectRefusal(res: { status: number | null; stderr: string }, message: RegExp): void {
  expect(res.status, res.stderr).toBe(2);
  expect(res.stderr.trim().split('\n'), res.stderr).toHaveLength(1);
  expect(res.stderr.trim()).toMatch(message);
}

describe('S15: special files are refused before anything is read', () => {
  it('S15: /dev/zero is refused as a character device', () => {
    expectRefusal(pairbench(['report', '/dev/zero'], { timeoutMs: 60_000 }), /^pairbench: \/dev\/zero: is a character device, not a regular file; expected a pairbench results file$/);
  });

  it('S15: a FIFO with no writer is refused as a pipe, without waiting for one', () => {
    const fifo = join(tempDir('pairbench-read-'), 'results.json');
    execFileSync('mkfifo', [fifo]);
    expectRefusal(pairbench(['report', fifo], { timeoutMs: 60_000 }), /: is a pipe \(FIFO\), not a regular file; expected a pairbench results file$/);
  });

  it('S15: /dev/stdin is read as what it is: a pipe carrying 300 MB is refused as a pipe, a 300 MB file by its size', () => {
    // a pipe that would carry 300 MB (zeros, produced only as they are read)
    const piped = spawnSync('sh', ['-c', 'head -c 300000000 /dev/zero | "$0" "$1" report /dev/stdin', process.execPath, CLI], { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
    expectRefusal(piped, /^pairbench: \/dev\/stdin: is a pipe \(FIFO\), not a regular file; expected a pairbench results file$/);
    // a sparse file of 300 MB: its size is known before a byte is read
    const big = join(tempDir('pairbench-read-'), 'big.json');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 300_000_000);
    closeSync(fd);
    const stdin = openSync(big, 'r');
    try {
      const redirected = spawnSync(process.execPath, [CLI, 'report', '/dev/stdin'], { stdio: [stdin, 'pipe', 'pipe'], encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
      expectRefusal(redirected, /^pairbench: \/dev\/stdin: the file is 300000000 bytes, more than 268435456; refusing to read it$/);
    } finally {
      closeSync(stdin);
    }
  });
});

describe('S15: a results file nested 200,000 levels deep is refused in one line', () => {
  const deep = 200_000;
  const nested = `${'['.repeat(deep)}${']'.repeat(deep)}`;
  const file = (where: 'settings' | 'figures') => {
    const text = JSON.stringify(regression50());
    const forged =
      where === 'settings'
        ? text.replace('"settings":{', `"settings":{"x":${nested},`)
        : text.replace('"pairs":', `"failure":{"side":"head","kind":"exit","message":"m"},"diagnostics":[{"code":"x","severity":"info","message":"m","figures":{"f":${nested}}}],"pairs":`);
    return writeResults(tempDir('pairbench-read-'), `${where}.json`, forged);
  };

  it.each([['settings'], ['figures']] as const)('S15: nested under %s: the table, --json and --out all exit 2, naming the file', (where) => {
    const path = file(where);
    const out = join(tempDir('pairbench-read-'), 'judged.json');
    for (const flags of [[], ['--json'], ['--out', out]]) {
      expectRefusal(pairbench(['report', path, ...flags]), /: nests arrays and objects more than 32 levels deep \(at character \d+\); expected a pairbench results file/);
    }
  });
});

describe('S15: a benchmark named twice in one file', () => {
  it('S15: is refused as a duplicate within that file, not as a benchmark of another shard', () => {
    const twice = regression50();
    twice.benchmarks.push({ ...twice.benchmarks[0]! });
    const path = writeResults(tempDir('pairbench-read-'), 'twice.json', twice);
    expectRefusal(pairbench(['report', path]), /twice\.json: benchmarks\[1\]: the benchmark "parse" is already benchmarks\[0\] of this file; expected each benchmark once in a results file$/);
    // the same name with another metric is another row
    twice.benchmarks[1]!['metric'] = 'cpu';
    expect(pairbench(['report', writeResults(tempDir('pairbench-read-'), 'metrics.json', twice)]).status).toBe(1);
  });
});

describe('recorded settings are read leniently', () => {
  it('a setting that is not one flat value reads as absent; the rest of the file is read', () => {
    const doc = regression50();
    doc.settings = { ...doc.settings, threshold: { value: 0.6 }, alpha: [0.01], build: 'x'.repeat(70_000), benchmarks: [{ name: 'parse', run: 'sh bench.sh', metrics: ['wall'] }], failOn: 'none' };
    const settings = ResultsSchema.parse(doc).settings!;
    expect(settings['threshold']).toBeUndefined();
    expect(settings['alpha']).toBeUndefined();
    expect(settings['build']).toBeUndefined();
    expect(settings['benchmarks']).toEqual([{ name: 'parse', run: 'sh bench.sh', metrics: ['wall'] }]);
    expect(settings['seed']).toBe(1);
    expect(ResultsSchema.parse({ ...doc, settings: 'forged' }).settings).toBeUndefined();
  });
});

describe('the versions of the results file', () => {
  /** A file of version 2, as `pairbench report --out` writes it from the hand-made regression. */
  function v2File(): { dir: string; doc: Record<string, unknown> & { measured: { benchmarks: Record<string, unknown>[] }; judgement: { benchmarks: Record<string, unknown>[] } } } {
    const dir = tempDir('pairbench-read-');
    const res = pairbench(['report', writeResults(dir, 'v1.json', regression50()), '--out', join(dir, 'v2.json')]);
    expect(res.status, res.stderr).toBe(1);
    return { dir, doc: JSON.parse(readFileSync(join(dir, 'v2.json'), 'utf8')) };
  }

  it.each([
    ['a newer version', { ...regression50(), schemaVersion: 3 }, /: schemaVersion: got 3; expected a pairbench results file \(schemaVersion 1 or 2, the versions this pairbench reads\)$/],
    ['no version', { ...regression50(), schemaVersion: undefined }, /: schemaVersion: missing; expected a pairbench results file \(schemaVersion 1 or 2, the versions this pairbench reads\)$/],
    ['a version as text', { ...regression50(), schemaVersion: '2' }, /: schemaVersion: got "2"; expected a pairbench results file \(schemaVersion 1 or 2/],
  ])('%s is refused in one line naming the versions read', (_what, doc, message) => {
    expectRefusal(pairbench(['report', writeResults(tempDir('pairbench-read-'), 'r.json', doc)]), message);
  });

  it('a file of version 2 is read and judged; one with a field the schema does not declare is refused, naming it', () => {
    const { dir, doc } = v2File();
    expect(pairbench(['report', join(dir, 'v2.json')]).status).toBe(1);
    doc.measured.benchmarks[0]!['geomean'] = 0.5;
    expectRefusal(pairbench(['report', writeResults(dir, 'extra.json', doc)]), /extra\.json: measured\.benchmarks\[0\]: Unrecognized key: "geomean"; expected a pairbench results file \(schemaVersion 2\)$/);
  });

  it('a file of version 2 whose judged rows are not the measured ones, in order, is refused', () => {
    const { dir, doc } = v2File();
    doc.judgement.benchmarks[0]!['name'] = 'other';
    expectRefusal(pairbench(['report', writeResults(dir, 'moved.json', doc)]), /moved\.json: judgement\.benchmarks\[0\]: names "other" but measured\.benchmarks\[0\] is "parse"; expected the judged rows in the measured rows' order; expected a pairbench results file \(schemaVersion 2\)$/);
  });
});
