/**
 * S6: untrusted text (benchmark names, command output, refs) cannot ping anyone, link an issue,
 * inject HTML, break a table cell or a code block, or fake pairbench's own marker.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKER_PREFIX, ZWJ, codeBlock, codeSpan, escapeInline, markerFor, safeUrl, stripControls, tail } from '../../src/report/escape.ts';

/** Strings made of the characters that matter to Markdown and GitHub, plus anything else. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('|', '`', '<', '>', '&', '@', '#', '1', 'a', '\n', '\r', '\\', '*', '_', '[', ']', '(', ')', '!', '~', ' ', '-', '<!-- pairbench', '-->', '\u001b[31m', '\u202e'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
  ),
  maxLength: 60,
});

describe('escapeInline', () => {
  it('neutralises each hostile name of the S6 list', () => {
    expect(escapeInline('@octocat')).toBe(`@${ZWJ}octocat`);
    expect(escapeInline('a|b')).toBe('a&#x7C;b');
    expect(escapeInline('`x`')).toBe('&#x60;x&#x60;');
    expect(escapeInline('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeInline('<!-- pairbench -->')).toBe('&lt;\\!-- pairbench --&gt;');
    expect(escapeInline('#1')).toBe(`#${ZWJ}1`);
    expect(escapeInline('GH-12')).toBe(`GH${ZWJ}-12`);
    expect(escapeInline('a & b')).toBe('a &amp; b');
    expect(escapeInline('[x](http://e)')).toBe('\\[x\\](http://e)');
  });

  it('cuts long text before escaping, so a 10 MB name stays short', () => {
    const out = escapeInline('x'.repeat(10_000_000), 100);
    expect(out.length).toBe(100);
    expect(out).toContain('…');
  });

  it('for any input: no raw HTML, pipe, backtick, line break, live mention, issue link or marker', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = escapeInline(s);
        expect(out).not.toMatch(/[|`<>\n\r]/);
        expect(out).not.toMatch(/@[A-Za-z0-9]/);
        expect(out).not.toMatch(/#\d/);
        expect(out).not.toContain(MARKER_PREFIX);
        // every & starts an entity we wrote
        expect(out.replace(/&(amp|lt|gt|quot|#x7C|#x60);/g, '')).not.toContain('&');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('codeBlock', () => {
  it('uses a fence longer than any backtick run inside, so the text cannot close it', () => {
    const evil = 'ok\n```\n</details>\n@octocat #1\n````\nnot code?';
    const block = codeBlock(evil, 'text');
    const fence = block.split('\n')[0]!.replace(/[a-z]+$/, '');
    expect(fence).toBe('`````');
    expect(block.endsWith(`\n${fence}`)).toBe(true);
  });

  it('for any input: no line inside can close the fence, and the marker is defused', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const block = codeBlock(s);
        const lines = block.split('\n');
        const fence = lines[0]!;
        const inner = lines.slice(1, -1);
        expect(lines.at(-1)).toBe(fence);
        for (const line of inner) {
          // CommonMark: a closing fence is up to 3 spaces, then at least as many backticks, then spaces only
          const m = /^ {0,3}(`+)\s*$/.exec(line);
          if (m) expect(m[1]!.length).toBeLessThan(fence.length);
        }
        expect(block).not.toContain(MARKER_PREFIX);
      }),
      { numRuns: 2000 },
    );
  });

  it('removes ANSI colours and control characters but keeps lines and tabs', () => {
    expect(stripControls('\u001b[31mred\u001b[0m\tx\r\ny\u0007')).toBe('red\tx\ny');
  });
});

describe('codeSpan, tail, safeUrl, markerFor', () => {
  it('codeSpan picks a delimiter longer than any backtick run', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
  });

  it('tail keeps the last lines, where a failure explains itself', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const t = tail(text, 3);
    expect(t).toBe('…\nline 97\nline 98\nline 99');
  });

  it('safeUrl accepts http(s) only and encodes characters that end a link', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
    expect(safeUrl('https://github.com/o/r/actions/runs/1)')).toBe('https://github.com/o/r/actions/runs/1%29');
  });

  it('markerFor cannot be closed early by the id', () => {
    expect(markerFor('perf / bench')).toBe('<!-- pairbench:perf / bench -->');
    expect(markerFor('x --> <script>')).toBe('<!-- pairbench:x --_ _script_ -->');
    expect(markerFor('')).toBe('<!-- pairbench:default -->');
  });
});
