/**
 * Every table of the project's Markdown has as many cells in each row as in its header. GitHub
 * (GFM) drops a row's cells beyond the header's and pads a short row with empty ones, so a row off
 * by one silently loses its last columns or shifts nothing into view. Cells are split as GFM splits
 * them: on every `|` not escaped, inside code spans too. The tables are found by marked's GFM
 * lexer, so text that only looks like a table (inside a fenced block) is left alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/** The cells of one table line, as GFM counts them: split on unescaped pipes, the outer ones dropped. */
function cellCount(line: string): number {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  let n = 1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '|') n++;
  }
  return n;
}

/** Every table token, also inside lists and block quotes. */
function tables(tokens: readonly Token[]): Tokens.Table[] {
  return tokens.flatMap((t) => [...(t.type === 'table' ? [t as Tokens.Table] : []), ...tables(((t as { tokens?: Token[] }).tokens ?? []).concat(...((t as { items?: Array<{ tokens: Token[] }> }).items ?? []).map((i) => i.tokens)))]);
}

/** Rows whose cell count differs from their table's header: `line: header cells vs row cells`. */
function misshapenRows(markdown: string): string[] {
  const out: string[] = [];
  for (const table of tables(new Lexer({ gfm: true }).lex(markdown))) {
    const [header, , ...rows] = table.raw.trimEnd().split('\n');
    const want = cellCount(header!);
    for (const row of rows) {
      const got = cellCount(row);
      if (got !== want) out.push(`${want} cells in the header, ${got} in: ${row.slice(0, 120)}`);
    }
  }
  return out;
}

const DOCS = ['README.md', 'CHANGELOG.md', 'SECURITY.md', 'RELEASING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'bench/README.md', 'bench/results/HISTORY.md', ...readdirSync(join(ROOT, 'examples')).map((d) => `examples/${d}/README.md`).filter((f) => existsSync(join(ROOT, f)))];

describe('Markdown tables', () => {
  it('finds a row with a cell too many or too few', () => {
    expect(misshapenRows('| a | b |\n|---|---|\n| 1 | 2 |\n| 1 | 2 | 3 |\n| `x|y` | z |\n| 1 \\| 2 | 3 |\n')).toEqual([
      '2 cells in the header, 3 in: | 1 | 2 | 3 |',
      '2 cells in the header, 3 in: | `x|y` | z |',
    ]);
    expect(misshapenRows('```\n| a | b |\n|---|---|\n| 1 |\n```\n')).toEqual([]);
  });

  for (const file of DOCS) {
    it(`${file}: every row has the header's cells`, () => {
      expect(misshapenRows(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
    });
  }
});
