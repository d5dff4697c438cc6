/**
 * S20: no array of unbounded length is spread into a function call anywhere in src/. A call's
 * arguments live on the stack: `Math.min(...values)` threw "Maximum call stack size exceeded" on a
 * benchmark of 65,000 pairs. The project's ESLint configuration forbids every form (a spread into a
 * call or a constructor, `.apply` with an array); these tests show the rule catching each one in a
 * file under src/, leaving spreads into array and object literals alone, and src/ free of them.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

const eslint = new ESLint({ cwd: ROOT });

/** The messages of the spread rule for `code`, linted as if it were a file of src/. */
async function spreadFindings(code: string): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, 'src/report/example.ts') });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => ({ line: m.line, message: m.message }));
}

describe('S20: the lint rule against spreading arrays into calls', () => {
  it('S20: fails on Math.min(...xs), push(...xs), fn(...xs), new X(...xs) and .apply(null, xs)', async () => {
    const code = [
      'export function f(xs: number[], out: number[], g: (...a: number[]) => number): unknown[] {',
      '  const lo = Math.min(...xs);',
      '  out.push(...xs);',
      '  const r = g(1, ...xs);',
      '  const d = new Float64Array(...xs);',
      '  const hi = Math.max.apply(null, xs);',
      '  return [lo, r, d, hi];',
      '}',
      '',
    ].join('\n');
    const found = await spreadFindings(code);
    expect(found.map((f) => f.line)).toEqual([2, 3, 4, 5, 6]);
    expect(found[0]!.message).toMatch(/^No spread into a function call \(S20\)/);
    expect(found[3]!.message).toMatch(/^No spread into a constructor call \(S20\)/);
    expect(found[4]!.message).toMatch(/^No \.apply\(\) with an array of arguments \(S20\)/);
  });

  it('S20: leaves spreads into array and object literals and rest parameters alone', async () => {
    const code = [
      'export function f(xs: number[], o: { a: number }, ...rest: number[]): unknown[] {',
      '  const copy = [...xs, ...rest];',
      '  const merged = { ...o, b: 1 };',
      '  return [copy, merged];',
      '}',
      '',
    ].join('\n');
    expect(await spreadFindings(code)).toEqual([]);
  });

  it('S20: src/ holds no spread into a call', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}: ${m.message}`));
    expect(found).toEqual([]);
    expect(results.length).toBeGreaterThan(50);
  }, 120_000);
});
