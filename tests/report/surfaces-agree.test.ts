/**
 * The three surfaces of one comparison (the Markdown comment, the terminal, the HTML report) render
 * one report model, so they say the same things about each benchmark row: the same notes, and the
 * same interval level beside each interval. The results are the Go example's (`go test -bench .
 * -benchmem` with b.SetBytes, markdown-fixtures.ts `goSuite`) with what a real run adds: intervals
 * raised by the stopping rule, findings, a benchmark left inconclusive by the budget, one whose runs
 * failed and were measured again, and one new in head.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/comment.ts';
import { formatChangeInterval, formatLevel } from '../../src/report/format.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import type { Results } from '../../src/results/schema.ts';
import { bench, goSuite } from './markdown-fixtures.ts';

/** The Go example's results, as a run with an early stop, findings and an added benchmark records them. */
function goRun(): Results {
  const r = goSuite();
  // the stopping rule raised each interval: most to 97.5%, the one decided last to 99.5%
  for (const b of r.benchmarks) if (b.change) b.change.ciLevel = b.name === 'go/BenchmarkSort' ? 0.995 : 0.975;
  const parse = r.benchmarks.find((b) => b.name === 'go/BenchmarkParse')!;
  parse.diagnostics = [{ code: 'drift', severity: 'warning', figures: { firstHalf: 0.08, secondHalf: 0.12, pValue: 0.001 } }];
  const hash = r.benchmarks.find((b) => b.name === 'go/BenchmarkHash')!;
  hash.diagnostics = [{ code: 'order-effect', severity: 'warning', figures: { baseFirst: 0.01, headFirst: -0.012, secondSlot: 0.011, pValue: 0.002 } }];
  hash.failedRuns = { base: 0, head: 2 };
  const encode = bench('go/BenchmarkEncode', 'inconclusive', 0.015, { unit: 'ns', n: 200, pairsToSettle: 640, stoppedBecause: 'max-time' });
  encode.change!.ciLevel = 0.975;
  const added = bench('go/BenchmarkDecode', 'inconclusive', 0, { unit: 'ns', n: 0, presence: 'added', change: null });
  delete added.base;
  r.benchmarks.push(encode, added);
  r.verdict = 'regression';
  return r;
}

/** A surface's text as a reader sees it: no tags, entities, emphasis or escapes. */
const seen = (text: string): string =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\*\*|`/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');

/** The lines of a surface that name a benchmark, so that a note is found beside the row it is about. */
const about = (text: string, name: string): string => seen(text).split('\n').filter((l) => l.includes(name)).join('\n');

describe('the comment, the terminal and the HTML report of the Go example', () => {
  const results = goRun();
  const surfaces = {
    comment: renderMarkdown(results),
    terminal: renderTerminal(results, { color: false }),
    html: renderHtml(results),
  };

  it('show each row with its own interval level', () => {
    for (const [surface, text] of Object.entries(surfaces)) {
      for (const b of results.benchmarks) {
        if (!b.change) continue;
        const shown = `${formatChangeInterval(b.change.ci)} (${formatLevel(b.change.ciLevel!)})`;
        expect(seen(text), `${surface}: ${b.name}`).toContain(shown);
      }
      // the raised 99.5% once, on its one row
      expect(seen(text).split('(99.5%)').length - 1, surface).toBeGreaterThanOrEqual(1);
    }
  });

  it('show the same notes of each row', () => {
    // what each row's notes say, on the surfaces that speak in action inputs and in CLI flags
    const notes: { name: string; both: string; action: string; cli: string }[] = [
      { name: 'go/BenchmarkParse', both: 'The change drifted during the run: +8.0% over the first half', action: '', cli: '' },
      { name: 'go/BenchmarkHash', both: 'Pairs with base first differ from pairs with head first', action: 'warmup: 2 or more', cli: '--warmup 2 or more' },
      { name: 'go/BenchmarkHash', both: 'some runs failed and were measured again (head 2)', action: '', cli: '' },
      { name: 'go/BenchmarkEncode', both: 'inconclusive after 200 pairs (stopped by max-time); about 640 pairs in all would likely settle it', action: '(max-pairs, max-time)', cli: '(--max-pairs, --max-time)' },
      { name: 'go/BenchmarkDecode', both: '', action: 'new in head', cli: 'only in head (new benchmark)' },
    ];
    for (const [surface, text] of Object.entries(surfaces)) {
      const cli = surface === 'terminal';
      for (const n of notes) {
        const said = surface === 'html' ? seen(text.slice(text.indexOf(`<section class="bench" id="b-${n.name.replace('/', '-')}`))).split('\n')[0]! : about(text, n.name);
        if (n.both) expect(said, `${surface}: ${n.name}`).toContain(n.both);
        const own = cli ? n.cli : n.action;
        if (own) expect(said, `${surface}: ${n.name}`).toContain(own);
      }
      // no row has a note the others lack: the findings are the two above, once each
      expect(seen(text).split('The change drifted during the run').length - 1, surface).toBe(1);
      expect(seen(text).split('Pairs with base first differ').length - 1, surface).toBe(1);
      expect(seen(text).split('would likely settle it').length - 1, surface).toBe(1);
    }
  });
});

describe('the same comparison with its pairs run at once (--pair-runs at-once)', () => {
  const results = goRun();
  results.settings = { ...results.settings, pairRuns: 'at-once', atOnce: "at once: both sides of every pair started together, one on CPU 0 and one on CPU 1, the pair's coin choosing which" };
  const surfaces = { comment: renderMarkdown(results), terminal: renderTerminal(results, { color: false }), html: renderHtml(results) };

  it('word an order effect as the two CPUs differing, with what to do in each surface\'s terms', () => {
    for (const [surface, text] of Object.entries(surfaces)) {
      const cli = surface === 'terminal';
      const said = surface === 'html' ? seen(text.slice(text.indexOf('<section class="bench" id="b-go-BenchmarkHash'))).split('\n')[0]! : about(text, 'go/BenchmarkHash');
      expect(said, surface).toContain('Pairs with base on the first CPU differ from pairs with head on it (median change +1.0% vs -1.2%');
      expect(said, surface).toContain('a run on the second CPU measures about 1.1% higher than on the first');
      expect(said, surface).toContain(cli ? 'Choose --cpus with two CPUs that are alike, or run the pairs in turn (--pair-runs in-turn)' : 'run the pairs in turn (pair-runs: in-turn)');
      expect(seen(text), surface).not.toContain('Pairs with base first differ');
    }
    // the comment and the HTML report say how the pairs ran
    for (const text of [surfaces.comment, surfaces.html]) expect(seen(text)).toContain("pair runs: at once, both sides of every pair started together, one on CPU 0 and one on CPU 1, the pair's coin choosing which; each run had one CPU");
  });
});

describe('the default, --pair-runs auto, in each surface', () => {
  it('at once: the order effect is worded as the two CPUs differing, and the comment and the HTML report say how the pairs ran', () => {
    const results = goRun();
    results.settings = { ...results.settings, pairRuns: 'auto', atOnce: "at once: both sides of every pair started together, one on CPU 2 and one on CPU 3, the pair's coin choosing which" };
    const surfaces = { comment: renderMarkdown(results), terminal: renderTerminal(results, { color: false }), html: renderHtml(results) };
    for (const [surface, text] of Object.entries(surfaces)) {
      expect(seen(text), surface).toContain('Pairs with base on the first CPU differ from pairs with head on it');
      expect(seen(text), surface).not.toContain('Pairs with base first differ');
    }
    for (const text of [surfaces.comment, surfaces.html]) expect(seen(text)).toContain("pair runs: at once, both sides of every pair started together, one on CPU 2 and one on CPU 3, the pair's coin choosing which; each run had one CPU");
  });

  it('in turn where the machine could not run them at once: the order effect is a turn, and the comment and the HTML report say why', () => {
    const results = goRun();
    results.settings = { ...results.settings, pairRuns: 'auto', atOnce: "in turn: taskset is missing (util-linux's taskset binds each side to its CPU)" };
    const surfaces = { comment: renderMarkdown(results), terminal: renderTerminal(results, { color: false }), html: renderHtml(results) };
    for (const [surface, text] of Object.entries(surfaces)) {
      expect(seen(text), surface).toContain('Pairs with base first differ');
      expect(seen(text), surface).not.toContain('on the first CPU');
    }
    for (const text of [surfaces.comment, surfaces.html]) expect(seen(text)).toContain("pair runs: in turn, taskset is missing (util-linux's taskset binds each side to its CPU)");
  });
});
