/**
 * Catch2's benchmark results (`BENCHMARK("name") { ... };` in a test case), from either reporter:
 *
 * - the XML reporter, `-r xml` (Catch2 v2: `<Catch>`; v3: `<Catch2TestRun>`): each
 *   `<BenchmarkResults name=…>` inside its `<TestCase name=…>` (and `<Section name=…>`s), with
 *   `<mean value=…>` in nanoseconds ("All values in nano seconds", Catch2's XmlReporter). This is
 *   the exact form: names arrive whole, values unrounded.
 * - the console reporter (the default): per test case a header (the test case's name, its sections
 *   indented below it), then per benchmark three lines: `name samples iterations estimated`, then
 *   `mean low-mean high-mean`, then the standard deviations, each a number and a unit (`ns`, `us`,
 *   `ms`, `s`), rounded to six digits. Catch2 wraps a benchmark name longer than its column (35
 *   characters) over several lines; the parts are joined with a space, which may not be the
 *   name's own spacing: use `-r xml` for long names.
 *
 * - Statistic: the mean, normalised to ns. Catch2 reports no median: the mean of `--benchmark-samples`
 *   samples (100 by default), each the average over enough iterations to outlast the clock's
 *   resolution many times; its bootstrap interval (`lowerBound`, `upperBound`) is not a sample.
 *   With `--benchmark-no-analysis` the mean is the plain mean of the samples.
 * - Name: `<test case> > <section> > … > <benchmark>`, joined with ` > `.
 *
 * Benchmarks are selected by test case: Catch2 runs the test cases its arguments name (a
 * comma-separated test spec, `"checksum,sort"`), so `--run './build/bench {filter} -r xml'`
 * (select.ts). Test cases of benchmarks are usually tagged `[!benchmark]`, which hides them from
 * a plain test run; naming them runs them.
 */
import { normalise, readNumber, SampleCollector } from './common.ts';
import { HarnessParseError, type Sample } from './types.ts';

const CATCH2_SEPARATOR = ' > ';

export function parseCatch2(text: string): Sample[] {
  return /^\s*<(?:\?xml|Catch)/.test(text) ? parseXml(text) : parseConsole(text);
}

// --- XML ----------------------------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML attribute text with its entity and character references replaced. */
function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, ref: string) => {
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : ref.startsWith('#') ? parseInt(ref.slice(1), 10) : null;
    if (code !== null) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    // own keys only: `&constructor;` is no entity
    return Object.hasOwn(ENTITIES, ref) ? ENTITIES[ref]! : whole;
  });
}

/** The attributes of a start tag's text (`name="a" value="1"`). */
function attributes(tagText: string): Map<string, string> {
  const attrs = new Map<string, string>();
  // a name is tried only where a word starts: from inside a long word, each try would scan to its end again
  for (const m of tagText.matchAll(/(?<![\w:-])([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attrs.set(m[1]!, unescapeXml(m[2] ?? m[3] ?? ''));
  }
  return attrs;
}

/**
 * Catch2's XML has no text content that matters and no CDATA around results, so its tags are read
 * in order, keeping the path of test case and section names (a full XML parser would add a
 * dependency for one element type).
 */
function parseXml(text: string): Sample[] {
  const out = new SampleCollector('catch2');
  const path: Array<{ tag: string; name: string }> = [];
  let bench: { name: string; line: number; mean: number | null } | null = null;
  let sawRoot = false;
  const lineOf = makeLineOf(text);
  for (const m of tags(text)) {
    const { close, tag, rest, selfClose } = m;
    const line = lineOf(m.index);
    if (!sawRoot) {
      if (close || (tag !== 'Catch' && tag !== 'Catch2TestRun')) {
        throw new HarnessParseError('catch2', line, `expected Catch2's XML reporter output (<Catch> or <Catch2TestRun>), got <${close ? '/' : ''}${tag}>`);
      }
      sawRoot = true;
    }
    if (tag === 'TestCase' || tag === 'Section') {
      if (close) path.pop();
      else if (!selfClose) {
        const name = attributes(rest ?? '').get('name');
        if (name === undefined) throw new HarnessParseError('catch2', line, `<${tag}> has no name`);
        path.push({ tag, name });
      }
    } else if (tag === 'BenchmarkResults') {
      if (close) {
        if (bench === null) continue;
        if (bench.mean === null) throw new HarnessParseError('catch2', bench.line, `benchmark "${bench.name}": expected a <mean value="…"/>`);
        if (!path.some((p) => p.tag === 'TestCase')) throw new HarnessParseError('catch2', bench.line, `benchmark "${bench.name}" is outside a <TestCase>`);
        out.add([...path.map((p) => p.name), bench.name].join(CATCH2_SEPARATOR), bench.mean, 'ns', 'lower-is-better', bench.line);
        bench = null;
      } else {
        const name = attributes(rest ?? '').get('name');
        if (name === undefined || name.trim() === '') throw new HarnessParseError('catch2', line, '<BenchmarkResults> has no name');
        bench = { name, line, mean: null };
      }
    } else if (tag === 'mean' && bench !== null && !close) {
      const raw = attributes(rest ?? '').get('value') ?? '';
      const value = readNumber(raw);
      if (!Number.isFinite(value)) throw new HarnessParseError('catch2', line, `benchmark "${bench.name}": expected a number in <mean value>, got "${raw}"`);
      bench.mean = value;
    }
  }
  if (!sawRoot) throw new HarnessParseError('catch2', null, "no XML element found: expected Catch2's XML reporter output (-r xml)");
  if (bench !== null) throw new HarnessParseError('catch2', bench.line, `benchmark "${bench.name}": the output ends inside <BenchmarkResults>`);
  return out.finish('no <BenchmarkResults> in the document: do the test cases have BENCHMARKs, and were they selected (hidden [!benchmark] test cases need naming)?');
}

/** A start or end tag: `<name …>`, `</name>`, `<name …/>`, where it starts, and the text after its name. */
interface Tag {
  index: number;
  close: boolean;
  tag: string;
  rest: string;
  selfClose: boolean;
}

/** Whether the character code may start (`start`) or continue an XML name as Catch2 writes them. */
function isNameCode(c: number, start: boolean): boolean {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return start ? letter : letter || (c >= 48 && c <= 57) || c === 95 || c === 58 || c === 45;
}

/** The end of a comment, CDATA or declaration starting at `i` (the text's length when it never ends), or -1 when none starts there. */
function skipAt(text: string, i: number): number {
  for (const [open, end] of [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']] as const) {
    if (!text.startsWith(open, i)) continue;
    const at = text.indexOf(end, i + open.length);
    return at < 0 ? text.length : at + end.length;
  }
  return -1;
}

/**
 * The document's tags in order, skipping comments, CDATA and declarations, in one pass: the output
 * may be anyone's (a benchmark prints what it likes), and a regular expression that looks for each
 * tag's end again from every `<` took minutes on a few hundred kilobytes of unclosed tags. A
 * comment, CDATA or declaration that never ends ends the document; a tag's text holds no `<`
 * (XML escapes it in attribute values), so a `<` inside one starts the next try.
 */
function* tags(text: string): Generator<Tag> {
  const LT = 60;
  const GT = 62;
  let i = text.indexOf('<');
  while (i >= 0) {
    const skipped = skipAt(text, i);
    if (skipped >= 0) {
      i = text.indexOf('<', skipped);
      continue;
    }
    const close = text.charCodeAt(i + 1) === 47;
    let j = i + (close ? 2 : 1);
    const nameStart = j;
    if (!isNameCode(text.charCodeAt(j), true)) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    while (j < text.length && isNameCode(text.charCodeAt(j), false)) j++;
    const restStart = j;
    let quote = 0;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === LT) break;
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (c === GT) break;
    }
    if (text.charCodeAt(j) !== GT) {
      // no end before the next `<` (or the end of the text): not a tag; the next `<` is tried
      i = j < text.length ? j : -1;
      continue;
    }
    const selfClose = j - 1 >= restStart && text.charCodeAt(j - 1) === 47;
    yield { index: i, close, tag: text.slice(nameStart, restStart), rest: text.slice(restStart, selfClose ? j - 1 : j), selfClose };
    i = text.indexOf('<', j + 1);
  }
}

function makeLineOf(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

// --- console ------------------------------------------------------------------------------------

const RULE = /^-{79}\s*$/;
const DOTS = /^\.{79}\s*$/;
const TABLE_HEADER = /^benchmark name\s+samples\s+iterations\s+(?:estimated|est run time)\s*$/;
const NUMBER_UNIT = String.raw`(\S+) (ns|us|µs|ms|s)`;
const TIME_UNIT = /^(?:ns|us|µs|ms|s)$/;
const DIGITS = /^\d+$/;
const SPACE = /\s/;

/**
 * A benchmark's first table line, `name samples iterations estimated unit`, read from its end: its
 * four last words, the estimate and its unit one space apart, and the name before them. By hand, in
 * one pass: a pattern with a lazy name before `\s+` fields took quadratic time on a line with a long
 * run of spaces, and the line is whatever the benchmark printed.
 */
function firstLine(line: string): [name: string, samples: string, iterations: string, value: string, unit: string] | null {
  const words: Array<{ start: number; end: number }> = [];
  let end = line.length;
  while (words.length < 4) {
    while (end > 0 && SPACE.test(line[end - 1]!)) end--;
    let start = end;
    while (start > 0 && !SPACE.test(line[start - 1]!)) start--;
    if (start === end) return null;
    words.unshift({ start, end });
    end = start;
  }
  const [samples, iterations, value, unit] = words.map((w) => line.slice(w.start, w.end)) as [string, string, string, string];
  if (!TIME_UNIT.test(unit) || words[3]!.start - words[2]!.end !== 1 || line[words[2]!.end] !== ' ') return null;
  if (!DIGITS.test(samples) || !DIGITS.test(iterations)) return null;
  // the name is followed by whitespace: a line that starts with the samples is no benchmark's
  if (words[0]!.start === 0) return null;
  return [line.slice(0, words[0]!.start), samples, iterations, value, unit];
}
const MEAN_LINE = new RegExp(String.raw`^\s+${NUMBER_UNIT}\s+${NUMBER_UNIT}\s+${NUMBER_UNIT}\s*$`);

function parseConsole(text: string): Sample[] {
  const out = new SampleCollector('catch2');
  const lines = text.split(/\r?\n/);
  let testPath: string[] | null = null;
  let inTable = false;
  let pendingName: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // a test case's header: a rule, its name and sections, a rule, its location, a dotted rule
    if (RULE.test(line) && !inTable) {
      const names: string[] = [];
      let j = i + 1;
      while (j < lines.length && !RULE.test(lines[j]!) && names.length < 64) names.push(lines[j++]!);
      if (j < lines.length && j + 2 < lines.length && DOTS.test(lines[j + 2]!) && names.length > 0) {
        testPath = names.map((n) => n.trim());
        i = j + 2;
        continue;
      }
    }
    if (TABLE_HEADER.test(line)) {
      // the header's two further lines and its rule
      if (!RULE.test(lines[i + 3] ?? '')) throw new HarnessParseError('catch2', i + 4, "expected the rule under Catch2's benchmark table header");
      inTable = true;
      pendingName = [];
      i += 3;
      continue;
    }
    if (!inTable) continue;
    if (line.trim() === '') {
      if (pendingName.length > 0) throw new HarnessParseError('catch2', i + 1, `benchmark "${pendingName.join(' ')}": expected its samples, iterations and estimated time`);
      if (i + 1 >= lines.length || lines[i + 1]!.trim() === '' || RULE.test(lines[i + 1]!) || /^={79}/.test(lines[i + 1]!)) inTable = false;
      continue;
    }
    const first = firstLine(line);
    if (!first) {
      pendingName.push(line.trim()); // a wrapped part of a long name
      continue;
    }
    const name = [...pendingName, first[0].trim()].filter((p) => p !== '').join(' ');
    pendingName = [];
    const meanLine = lines[i + 1] ?? '';
    const mean = MEAN_LINE.exec(meanLine);
    if (!mean) throw new HarnessParseError('catch2', i + 2, `benchmark "${name}": expected "<mean> <unit> <low mean> <unit> <high mean> <unit>", got ${JSON.stringify(meanLine.trim())}`);
    const value = readNumber(mean[1]!);
    if (!Number.isFinite(value)) throw new HarnessParseError('catch2', i + 2, `benchmark "${name}": expected a number for its mean, got "${mean[1]!}"`);
    if (name === '') throw new HarnessParseError('catch2', i + 1, 'a benchmark has an empty name');
    if (testPath === null) throw new HarnessParseError('catch2', i + 1, `benchmark "${name}": no test case header above it`);
    const ns = normalise(value, mean[2]! === 'µs' ? 'us' : mean[2]!);
    out.add([...testPath, name].join(CATCH2_SEPARATOR), ns.value, 'ns', 'lower-is-better', i + 1);
    i += 2; // the mean and standard deviation lines
  }
  return out.finish("no benchmark results found: expected Catch2's console or XML (-r xml) output of test cases with BENCHMARKs (hidden [!benchmark] test cases run only when named)");
}
