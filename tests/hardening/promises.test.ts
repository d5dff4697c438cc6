/**
 * SECURITY.md lists every promise with the tests that prove it. This keeps the list honest: each
 * promise `S<n>` made in "What pairbench promises" has a row in "Where each promise is proved",
 * every file of a row holds a test named after that promise (`S<n>: ...`), and no test names a
 * promise that SECURITY.md does not make.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const security = readFileSync(join(root, 'SECURITY.md'), 'utf8');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : testFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The promises a file's tests are named after: `S4` of `it('S4: ...')`, `describe("S10: ...")`. */
function promisesNamedIn(text: string): Set<string> {
  return new Set([...text.matchAll(/['"`(]S(\d+):/g)].map((m) => `S${m[1]}`));
}

const made = [...security.matchAll(/^- \*\*(S\d+)\*\* /gm)].map((m) => m[1]!);
const rows = new Map(
  [...security.matchAll(/^\| (S\d+) \| [^|]+ \| (.*) \|$/gm)].map((m) => [m[1]!, [...m[2]!.matchAll(/`([^`]+)`/g)].map((f) => f[1]!)]),
);

describe('S1-S28: SECURITY.md names the tests that prove each promise', () => {
  it('every promise made has a row, and every row is a promise made', () => {
    expect(made.length).toBeGreaterThanOrEqual(22);
    expect([...rows.keys()].sort()).toEqual([...made].sort());
  });

  it('every file of a row exists and holds a test named after its promise', () => {
    for (const [promise, files] of rows) {
      expect(files.length, `${promise} lists no test file`).toBeGreaterThan(0);
      for (const file of files) {
        const text = readFileSync(join(root, file), 'utf8');
        expect(promisesNamedIn(text).has(promise), `${file} has no test named "${promise}: ..."`).toBe(true);
      }
    }
  });

  it('no test names a promise that SECURITY.md does not make', () => {
    for (const file of testFiles(join(root, 'tests'))) {
      for (const promise of promisesNamedIn(readFileSync(file, 'utf8'))) {
        expect(made, `${relative(root, file)} names ${promise}`).toContain(promise);
      }
    }
  });
});
