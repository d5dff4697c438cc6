/**
 * Escaping of untrusted text for GitHub-flavoured Markdown (S6).
 *
 * Everything that comes from the code under test or from the user's repository — benchmark names,
 * command output, refs, error messages — passes through one of these before it reaches a comment,
 * a check-run summary or a job summary. Numbers and words that pairbench itself formats do not.
 *
 * - {@link escapeInline}: text in a table cell, a heading, a list item or a `<summary>`: HTML special
 *   characters become entities, Markdown punctuation is backslash-escaped, `|` cannot end a cell,
 *   `@mention`, `#123`, `GH-123` are broken with a zero-width joiner so nobody is pinged and no
 *   issue is linked, and line breaks become spaces.
 * - {@link codeBlock}: multi-line output in a fenced block whose fence is longer than any run of
 *   backticks inside, so the text cannot close it; control characters and ANSI colours are removed.
 *
 * In both, pairbench's own hidden marker (`<!-- pairbench`) is defused, so no untrusted text can
 * make a comment look like ours.
 */

/** U+200D ZERO WIDTH JOINER: invisible, and breaks GitHub's mention and issue-link patterns. */
export const ZWJ = '\u200D';

/** The start of pairbench's hidden comment marker; the full marker is `<!-- pairbench:<id> -->`. */
export const MARKER_PREFIX = '<!-- pairbench';

/** ANSI escape sequences (colours, cursor movement) as terminals print them. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/** C0/C1 controls except tab and newline, plus bidi overrides that could disguise text. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes ANSI sequences and control characters; keeps `\n` and `\t`; normalises `\r\n`. */
export function stripControls(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ANSI, '').replace(CONTROLS, '');
}

/** Escapes shown for the control characters that have a usual one. */
const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\x1b' };

/**
 * Controls that must not reach a terminal or a log as they are: C0/C1, DEL, line and paragraph
 * separators, invisible and bidi formatting characters (which can reorder or hide what is shown).
 * The joiners U+200C/U+200D stay: scripts and emoji sequences need them.
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * Untrusted text (a benchmark name, a line of command output) for one line of a terminal or a CI
 * log: every control character is shown escaped (`\n`, `\x1b`, `\u202e`), so the text stays on its
 * line and cannot move the cursor or reorder what is shown; and it cannot be a GitHub Actions
 * workflow command, which the runner executes from a step's output: `::command::` at the start of
 * a line (after spaces) and `##[command]` anywhere (actions/runner, `ActionCommand.TryParseV2` and
 * `TryParse`). Their first character is shown escaped (`\x3a:error::…`, `##\x5berror]`).
 */
export function oneLine(text: string): string {
  return String(text)
    .replace(UNPRINTABLE, (c) => NAMED_ESCAPES[c] ?? hexEscape(c))
    .replace(/##\[/g, '##\\x5b')
    .replace(/^(\s*):(?=:)/, '$1\\x3a');
}

function hexEscape(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Breaks `@user`, `@org/team`, `#123`, `GH-123` so GitHub neither notifies nor links. */
function defuseReferences(text: string): string {
  return text
    .replace(/@/g, `@${ZWJ}`)
    .replace(/#(?=\d)/g, `#${ZWJ}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1${ZWJ}-`);
}

const INLINE_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '|': '&#x7C;',
  '`': '&#x60;',
};

/**
 * Escapes untrusted text for inline use (table cells, headings, `<summary>`, list items).
 * `maxChars` cuts the text first (with `…` in the middle), so a 10 MB name cannot fill a comment.
 */
export function escapeInline(text: string, maxChars = Infinity): string {
  let s = stripControls(String(text)).replace(/[\n\t]+/g, ' ');
  if (s.length > maxChars) s = cutMiddle(s, maxChars);
  s = s.replace(/[&<>"|`]/g, (c) => INLINE_ENTITIES[c] ?? c);
  // Markdown punctuation that could start emphasis, links, images, strikethrough or escapes.
  s = s.replace(/[\\*_[\]~!]/g, (c) => `\\${c}`);
  return defuseReferences(s);
}

/**
 * Cuts `s` to `n` characters with `…` in the middle: names that differ only at the end (`suite/…/7`,
 * `suite/…/8`) stay apart.
 */
function cutMiddle(s: string, n: number): string {
  if (n <= 1) return '…';
  const front = Math.ceil((n - 1) * 0.6);
  const back = n - 1 - front;
  let end = back > 0 ? s.slice(s.length - back) : '';
  const first = end.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) end = end.slice(1);
  return `${sliceChars(s, front)}…${end}`;
}

/** Cuts `s` to at most `n` UTF-16 code units without splitting a surrogate pair. */
function sliceChars(s: string, n: number): string {
  let out = s.slice(0, n);
  const last = out.charCodeAt(out.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) out = out.slice(0, -1);
  return out;
}

/** Defuses our marker inside text that is shown verbatim (code blocks, where entities do not apply). */
function defuseMarker(text: string): string {
  return text.replace(/<!--\s*pairbench/gi, (m) => m.replace(/pairbench/i, `pair${ZWJ}bench`));
}

/**
 * Keeps the last `maxLines` lines and at most `maxChars` characters of output (the end is what explains a failure).
 */
export function tail(text: string, maxLines = 40, maxChars = 4000): string {
  const lines = stripControls(text).replace(/\n+$/, '').split('\n');
  let out = lines.slice(-maxLines).join('\n');
  if (out.length > maxChars) out = `…${out.slice(out.length - maxChars + 1)}`;
  else if (lines.length > maxLines) out = `…\n${out}`;
  return out;
}

/**
 * A fenced code block that the text cannot break out of: the fence is one backtick longer than the
 * longest run of backticks in the text (at least three), and nothing but a line of at least that many
 * backticks can close it. Empty lines around the block keep it a block inside `<details>`.
 */
export function codeBlock(text: string, lang = ''): string {
  const body = defuseMarker(stripControls(text)).replace(/\n+$/, '');
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const safeLang = lang.replace(/[^A-Za-z0-9_+-]/g, '');
  return `${fence}${safeLang}\n${body}\n${fence}`;
}

/**
 * Inline code for untrusted text outside tables (refs, short commands in prose): a code span whose
 * delimiter is longer than any backtick run inside. Not for table cells, where `|` would still end
 * the cell: use {@link escapeInline} there. Line breaks become spaces.
 */
export function codeSpan(text: string, maxChars = Infinity): string {
  let s = stripControls(String(text)).replace(/[\n\t]+/g, ' ');
  if (s.length > maxChars) s = cutMiddle(s, maxChars);
  // GitHub does not ping or link inside code, but e-mail notifications and other renderers might.
  s = defuseReferences(defuseMarker(s));
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const tick = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || s === '' ? ' ' : '';
  return `${tick}${pad}${s}${pad}${tick}`;
}

/** A URL that may be put in a Markdown link: http(s) only, with characters that could end the link encoded. */
export function safeUrl(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return parsed.href.replace(/[()<>"'`\s|[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The hidden marker of a sticky comment; the id is reduced to a safe charset so it cannot end the HTML comment. */
export function markerFor(commentId: string): string {
  const id = commentId
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9 _./:-]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return `${MARKER_PREFIX}:${id || 'default'} -->`;
}

/** UTF-8 byte length, the unit of GitHub's check-run and job-summary limits. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
