/**
 * S20: the terminal table's name column is at most NAME_COLUMN characters wide. A long benchmark
 * name (up to 512 characters in a results file) is folded onto indented lines below its row, never
 * cut: every row stays as wide as its figures need, and two names that differ only in the middle
 * stay apart.
 */
import { describe, expect, it } from 'vitest';
import { foldName, NAME_COLUMN, renderTerminal } from '../../src/report/terminal.ts';
import { bench, results } from './markdown-fixtures.ts';

/** The table's lines: from the header to the blank line after it. */
function tableLines(out: string): string[] {
  const lines = out.split('\n');
  return lines.slice(0, lines.indexOf(''));
}

describe('S20: the name column of the terminal table', () => {
  it('S20: a 500-character name does not pad every row to 500 columns; it is folded whole below its row', () => {
    const long = `suite/${'parameterised_case_'.repeat(26)}end`;
    expect(long.length).toBeGreaterThan(490);
    const out = renderTerminal(results([bench('short', 'unchanged', 0.001), bench(long, 'regression', 0.05)]), { color: false });
    const lines = tableLines(out);
    const widest = Math.max(...lines.map((l) => [...l].length));
    // the name column and the figures: nowhere near 500
    expect(widest).toBeLessThan(NAME_COLUMN + 110);
    const header = lines[0]!;
    const short = lines.find((l) => l.startsWith('short'))!;
    // the other columns start right after the name column, in every row
    expect(header.indexOf('base')).toBeLessThanOrEqual(NAME_COLUMN + 2);
    expect(short.indexOf('51')).toBe(header.indexOf('base'));
    // the long name: its first part on its row (with its figures), the rest on indented lines, nothing lost
    const first = lines.findIndex((l) => l.startsWith('suite/'));
    expect(lines[first]).toMatch(/regression$/);
    const continued = lines.slice(first + 1).filter((l) => l.startsWith('  '));
    expect(continued.length).toBeGreaterThan(5);
    const rejoined = lines[first]!.slice(0, header.indexOf('base')).trimEnd() + continued.map((l) => l.trim()).join('');
    expect(rejoined).toBe(long);
    for (const l of continued) expect(l.trimEnd().length).toBeLessThanOrEqual(NAME_COLUMN);
  });

  it('S20: two long names that differ only in the middle stay apart', () => {
    const a = `${'x'.repeat(70)}-A-${'y'.repeat(70)}`;
    const b = `${'x'.repeat(70)}-B-${'y'.repeat(70)}`;
    const out = renderTerminal(results([bench(a, 'regression', 0.05), bench(b, 'unchanged', 0.001)]), { color: false });
    expect(out).toMatch(/-A-/);
    expect(out).toMatch(/-B-/);
  });

  it('names of the column\'s width or less are left as they are', () => {
    const name = 'n'.repeat(NAME_COLUMN);
    const out = renderTerminal(results([bench(name, 'unchanged', 0.001)]), { color: false });
    expect(tableLines(out)).toHaveLength(2);
    expect(tableLines(out)[1]!.startsWith(`${name}  `)).toBe(true);
  });

  it('folds after a separator near the end of a line, on code points, and never inside an escape', () => {
    const name = `${'a'.repeat(50)}/${'b'.repeat(30)}`;
    expect(foldName(name, 60)).toEqual([`${'a'.repeat(50)}/`, 'b'.repeat(30)]);
    const emoji = '😀'.repeat(70);
    const folded = foldName(emoji, 60);
    expect(folded.map((l) => [...l].length)).toEqual([60, 10]);
    expect(folded.join('')).toBe(emoji);
    const escaped = `${'c'.repeat(58)}\\u202e${'d'.repeat(10)}`;
    expect(foldName(escaped, 60)).toEqual(['c'.repeat(58), `\\u202e${'d'.repeat(10)}`]);
  });
});
