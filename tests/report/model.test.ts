/**
 * One report model, every surface alike: a Go suite whose regressed benchmark also shows as lower
 * MB/s, with B/op beside another benchmark and one benchmark that failed, judged as pairbench
 * judges a results file, then rendered from one model as the terminal table, the PR comment, the
 * HTML report, the check run's title and the failing step's message. They must agree on the
 * counts (one per benchmark group), the word for a failed benchmark, the suite's change and the
 * precision of every change.
 */
import { describe, expect, it } from 'vitest';
import { checkTitle } from '../../src/github/check.ts';
import { markdownReport, renderMarkdown } from '../../src/report/comment.ts';
import { formatChange, formatChangeInterval } from '../../src/report/format.ts';
import { htmlReport, renderHtml } from '../../src/report/html.ts';
import { reportModel } from '../../src/report/model.ts';
import { failingStepMessage } from '../../src/report/step.ts';
import { renderTerminal, terminalReport } from '../../src/report/terminal.ts';
import { PLAIN } from '../../src/report/markup.ts';
import { wordNote } from '../../src/report/words.ts';
import { judgeResults } from '../../src/results/judge-file.ts';
import { ResultsSchema, type Results } from '../../src/results/schema.ts';
import { bench, results as handResults } from './markdown-fixtures.ts';
import { mulberry32 } from '../../src/stats/prng.ts';

/**
 * What `go test -bench . -benchmem` with `b.SetBytes` makes of a suite (harness/go.ts: `MB/s` in
 * `B/s`, higher is better; `B/op` in `B`), 30 pairs each: BenchmarkChecksum 10% slower (so its
 * MB/s 9.1% lower), BenchmarkParse unchanged with the same bytes per op, BenchmarkSort 8% faster,
 * and BenchmarkBroken, whose head exited with status 2 after 4 pairs.
 */
function goSuite(): Results {
  const rng = mulberry32(7);
  const pairs = (base: number, change: number, n = 30, noise = 0.004) =>
    Array.from({ length: n }, (_, i) => {
      const machine = 1 + rng() * 0.05;
      return { base: base * machine * (1 + (rng() - 0.5) * noise), head: base * (1 + change) * machine * (1 + (rng() - 0.5) * noise), order: i % 2 === 0 ? ('base-first' as const) : ('head-first' as const) };
    });
  const ns = (name: string, change: number) => ({ name: `go/${name}`, unit: 'ns', direction: 'lower-is-better' as const, stoppedBecause: 'max-pairs' as const, pairs: pairs(1200, change) });
  const checksum = ns('BenchmarkChecksum', 0.1);
  // MB/s is bytes over time: 1e9 bytes per op, the same pairs turned over
  const mbs = { name: 'go/BenchmarkChecksum (MB/s)', unit: 'B/s', direction: 'higher-is-better' as const, stoppedBecause: 'max-pairs' as const, pairs: checksum.pairs.map((p) => ({ base: 1e12 / p.base, head: 1e12 / p.head, order: p.order })) };
  const bytes = { name: 'go/BenchmarkParse (B/op)', unit: 'B', direction: 'lower-is-better' as const, stoppedBecause: 'max-pairs' as const, pairs: Array.from({ length: 30 }, (_, i) => ({ base: 4096, head: 4096, order: i % 2 === 0 ? ('base-first' as const) : ('head-first' as const) })) };
  const failure = { side: 'head' as const, kind: 'exit' as const, exitCode: 2, message: 'exit status 2' };
  return ResultsSchema.parse({
    schemaVersion: 1,
    tool: { name: 'pairbench', version: '0.0.0-test' },
    base: { ref: 'main', sha: 'a'.repeat(40) },
    head: { ref: 'feature', sha: 'b'.repeat(40) },
    status: 'failed',
    settings: { seed: 1, alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm', failOn: 'regression', maxPairs: 30 },
    failures: [{ ...failure, benchmark: 'go/BenchmarkBroken' }],
    benchmarks: [checksum, mbs, ns('BenchmarkParse', 0), bytes, ns('BenchmarkSort', -0.08), { ...ns('BenchmarkBroken', 0), pairs: pairs(900, 0, 4), stoppedBecause: 'error', failure }],
  });
}

const judged = () => judgeResults(goSuite(), { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' });

/** Text as a reader sees it: HTML without its tags and entities, Markdown without its emphasis and code marks. */
const seen = (text: string) =>
  text
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\*\*|`/g, '');

/**
 * Every change shown with its sign (`+10.0%`, `−9.1%`) in what a reader reads as figures: the plots
 * (the comment's fixed-width forest plot, the HTML report's SVGs) left out, their axes are ticks.
 */
const signedChanges = (text: string) => [...text.replace(/```text\n[\s\S]*?\n```/g, '').replace(/<svg[\s\S]*?<\/svg>/g, '').matchAll(/[+−]\d+(?:\.\d+)?%/g)].map((m) => m[0]);

describe('one report model, every surface alike', () => {
  const results = judged();
  const model = reportModel(results, { failOn: 'regression' });
  const surfaces = {
    terminal: terminalReport(model, { color: false }),
    comment: markdownReport(model, { commentId: 'perf' }),
    html: htmlReport(model),
    check: checkTitle(model),
    step: failingStepMessage(model),
  };

  it('the suite as judged: a regression with a regressed MB/s row, an unchanged benchmark with its B/op, an improvement, a failure', () => {
    const verdicts = Object.fromEntries(results.benchmarks.map((b) => [b.name, b.failure ? 'failed' : b.verdict]));
    expect(verdicts).toEqual({
      'go/BenchmarkChecksum': 'regression',
      'go/BenchmarkChecksum (MB/s)': 'regression',
      'go/BenchmarkParse': 'unchanged',
      'go/BenchmarkParse (B/op)': 'unchanged',
      'go/BenchmarkSort': 'improvement',
      'go/BenchmarkBroken': 'failed',
    });
    expect(model.counts).toEqual({ regression: 1, failed: 1, inconclusive: 0, improvement: 1, unchanged: 1, added: 0, removed: 0 });
  });

  it('counts one per benchmark group, with the same words, on every surface', () => {
    const words = '1 regression, 1 failed, 1 improvement, 1 unchanged';
    expect(surfaces.check).toBe(words);
    expect(surfaces.terminal).toContain(`REGRESSION: ${words} (failed)`);
    expect(surfaces.comment.split('\n')[1]).toBe('### 🔴 1 regression, ❌ 1 failed, 🟢 1 improvement, ⚪ 1 unchanged · pairbench');
    expect(seen(/<h1>(.*?)<\/h1>/.exec(surfaces.html)![1]!)).toBe('🔴 1 regression, ❌ 1 failed, 🟢 1 improvement, ⚪ 1 unchanged · pairbench');
    expect(surfaces.step).toMatch(/^pairbench: 1 regression beyond the threshold: go\/BenchmarkChecksum [+]/);
    // no surface counts the MB/s row as a second regression, or the failure as inconclusive
    for (const [name, text] of Object.entries(surfaces)) {
      expect(text, name).not.toMatch(/2 regressions|1 inconclusive|failed benchmark/);
    }
  });

  it('the failed benchmark is "failed" on every surface that shows its row', () => {
    const row = (text: string) => text.split('\n').find((l) => l.includes('BenchmarkBroken') && !l.includes('head failed in'))!;
    expect(row(surfaces.terminal)).toMatch(/ failed$/);
    // judged inconclusive so that it cannot pass the gate, but never called so: its failure says why
    expect(surfaces.terminal).not.toMatch(/BenchmarkBroken: inconclusive/);
    expect(surfaces.terminal).toContain('head failed in go/BenchmarkBroken: exit status 2');
    expect(row(surfaces.comment)).toMatch(/^\| ❌ failed \(head\) \| \*\*go\/BenchmarkBroken\*\*/);
    expect(surfaces.html).toMatch(/<td class="verdict k-failed">❌ failed<\/td><td><a [^>]*>go\/BenchmarkBroken<\/a>/);
  });

  it('the terminal lists its rows in the order of the comment and the HTML report: regressions first, extra metrics under their benchmark', () => {
    const order = ['go/BenchmarkChecksum', 'go/BenchmarkChecksum (MB/s)', 'go/BenchmarkBroken', 'go/BenchmarkSort', 'go/BenchmarkParse', 'go/BenchmarkParse (B/op)'];
    // the table: the lines after its header, up to the first blank line
    const terminalRows = surfaces.terminal.split('\n\n')[0]!.split('\n').slice(1).map((l) => l.split(/\s{2,}/)[0]);
    expect(terminalRows).toEqual(order);
    const htmlRows = [...surfaces.html.matchAll(/<tr><td class="verdict[^"]*">[^<]*<\/td><td>(?:↳ |<a [^>]*>([^<]*)<\/a>)/g)].map((m) => m[1] ?? '↳');
    expect(htmlRows).toEqual(['go/BenchmarkChecksum', '↳', 'go/BenchmarkBroken', 'go/BenchmarkSort', 'go/BenchmarkParse', '↳']);
  });

  it("one suite change, oriented so + is worse, with its interval, in the same words on every report", () => {
    const suite = model.suite!;
    // the geometric mean of the groups' own metrics (MB/s and B/op restate their benchmark), the failed one without a change left out
    expect(suite.count).toBe(3);
    const line = `${formatChange(suite.estimate)} ${formatChangeInterval(suite.ci)} geometric mean change of 3 benchmarks (+ is worse), 95% interval · head bbbbbbb against base aaaaaaa · threshold ±2%`;
    expect(surfaces.terminal.split('\n')).toContain(line);
    expect(seen(surfaces.comment).split('\n')).toContain(line);
    expect(seen(surfaces.html)).toContain(line);
    // and drawn as the forest plot's last row in the comment
    expect(surfaces.comment).toMatch(/ geometric mean\n/);
    // the terminal no longer prints the unoriented mean over every row (B/op and MB/s included)
    expect(surfaces.terminal).not.toContain('geometric mean of the changes');
  });

  it('every change with one decimal: the regression reads the same in the terminal, the comment, the HTML report and the step message', () => {
    const c = results.benchmarks.find((b) => b.name === 'go/BenchmarkChecksum')!.change!;
    const text = `${formatChange(c.estimate)} ${formatChangeInterval(c.ci)}`;
    expect(text).toMatch(/^\+\d+\.\d% \[\+\d+\.\d%, \+\d+\.\d%\]$/);
    for (const [name, surface] of Object.entries({ terminal: surfaces.terminal, comment: surfaces.comment, html: surfaces.html, step: surfaces.step })) {
      expect(seen(surface), name).toContain(text);
      const changes = signedChanges(surface);
      expect(changes.length, name).toBeGreaterThan(0);
      expect(changes.filter((x) => !/^[+−]\d+\.\d%$/.test(x)), name).toEqual([]);
    }
  });

  it('a note is one code worded per surface: flags in the terminal, action inputs in the comment', () => {
    expect(model.notes).toEqual([{ code: 'failed' }]);
    const cli = wordNote(model.notes[0]!, 'cli', PLAIN).text;
    expect(surfaces.terminal).toContain(`warning: ${cli}`);
    expect(surfaces.comment).toContain('> ❌ **The comparison could not be completed**: a build or a benchmark command failed (see *Failures* below).');
    expect(seen(surfaces.html)).toContain('❌ The comparison could not be completed: a build or a benchmark command failed');
  });

  it('the entries that take a results file render the same model', () => {
    expect(renderTerminal(results, { color: false, failOn: 'regression' })).toBe(surfaces.terminal);
    expect(renderMarkdown(results, { commentId: 'perf', failOn: 'regression' })).toBe(surfaces.comment);
    expect(renderHtml(results, { failOn: 'regression' })).toBe(surfaces.html);
  });
});

describe('the gate in the model', () => {
  const results = judged();

  it('an accept label lifts regression from the gate: the check run passes to neutral and the comment says who', () => {
    const plain = reportModel(results, { failOn: 'regression' });
    expect(plain.gate.outcome).toMatchObject({ effective: 'regression', fails: true, conclusion: 'failure' });
    const accepted = reportModel({ ...results, status: 'complete' }, { failOn: 'regression', acceptance: { label: 'perf-ok', by: 'octocat', accepted: true } });
    // the failed benchmark is judged inconclusive, which fail-on: regression lets through
    expect(accepted.gate.outcome).toMatchObject({ effective: 'none', fails: false, conclusion: 'neutral' });
    expect(markdownReport(accepted)).toContain('> ✅ **Regression accepted**: @\u200Doctocat added the label `perf-ok`, so the gate passes.');
  });

  it('with fail-on naming inconclusive, the label leaves the undecided benchmarks gating, and the step message names them', () => {
    const strict = reportModel({ ...results, status: 'complete' }, { failOn: 'regression,inconclusive', acceptance: { label: 'perf-ok', by: 'octocat', accepted: true } });
    expect(strict.gate.outcome).toMatchObject({ effective: 'inconclusive', fails: true });
    expect(failingStepMessage(strict)).toBe(
      'pairbench: 1 benchmark undecided (go/BenchmarkBroken), 1 of them failed (a failed benchmark counts as inconclusive), and fail-on names inconclusive: give it more pairs (max-time, max-pairs) or a quieter runner, or set fail-on: regression.',
    );
  });
});

describe('the failing step names benchmarks as the regression message does', () => {
  it('an undecided benchmark measured in CPU time is named with its metric, as a regressed one is', () => {
    const r = handResults([bench('loop [cpu]', 'inconclusive', 0.01, { metric: 'cpu' }), bench('other [cpu]', 'regression', 0.1, { metric: 'cpu' })]);
    expect(failingStepMessage(reportModel(r, { failOn: 'regression,inconclusive' }))).toMatch(/^pairbench: 1 regression beyond the threshold: other \[cpu\] \+10\.0% /);
    expect(failingStepMessage(reportModel(r, { failOn: 'inconclusive' }))).toMatch(/^pairbench: 1 benchmark inconclusive \(loop \[cpu\]\), and fail-on names inconclusive: /);
  });
});

describe('S6: the shared summary line with hostile names', () => {
  it('S21: a benchmark named like a workflow command and a forged ref are escaped on every surface that names them', () => {
    const name = '::error::forged\n##[warning]x <img src=x onerror=alert(1)> @octocat';
    const r = handResults([bench(name, 'regression', 0.1)], { head: { ref: '::set-output name=a::b', sha: null }, base: { ref: '<script>x</script>', sha: null } });
    const model = reportModel(r);
    const terminal = terminalReport(model, { color: false });
    expect(terminal.split('\n').filter((l) => l.trimStart().startsWith('::') || l.includes('##['))).toEqual([]);
    expect(terminal).toContain('change of \\x3a:error::forged\\n##\\x5bwarning]x');
    const md = markdownReport(model);
    // cut to 60 characters in the middle, escaped: no ping, no tag, no link
    expect(md.split('\n')[2]).toMatch(/change of ::error::forged ##\\\[warning\\\]x &lt;img sr…rror=alert\(1\)&gt; @\u200Doctocat, /);
    expect(md.split('\n')[2]).toContain('against base `<script>x</script>`');
    const html = htmlReport(model);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>x');
    expect(html).toContain('against base <code>&lt;script&gt;x&lt;/script&gt;</code>');
  });
});
