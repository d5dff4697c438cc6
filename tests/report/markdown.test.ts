/**
 * The Markdown report: what a reviewer reads first, escaping of every untrusted string (S6), and
 * the size limits of comments, check runs and job summaries (S8).
 */
import { describe, expect, it } from 'vitest';
import { MARKER_PREFIX, utf8Bytes } from '../../src/report/escape.ts';
import { FOREST_LABEL_COLUMN } from '../../src/report/forest.ts';
import { REPORT_LIMITS, headline, renderMarkdown, reportOrder } from '../../src/report/markdown.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { ResultsSchema } from '../../src/results/schema.ts';
import { HOSTILE_NAMES, bench, results } from './markdown-fixtures.ts';

/** The table's rows: lines that start with `| ` after the header. */
function tableRows(md: string): string[] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => /^\|:?-/.test(l));
  const rows: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith('| ')) break;
    rows.push(l);
  }
  return rows;
}

/** The Markdown outside fenced code blocks, where GitHub pings, links and renders HTML. */
function outsideCode(md: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const m = /^\s*(`{3,})/.exec(line);
    if (fence === null && m) fence = m[1]!;
    else if (fence !== null && m && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
    else if (fence === null) out.push(line);
  }
  return out.join('\n');
}

describe('renderMarkdown: what a reviewer reads', () => {
  const r = results([
    bench('parse-small', 'unchanged', 0.003),
    bench('parse-large', 'regression', 0.049),
    bench('serialize', 'improvement', -0.08),
    bench('startup', 'regression', 0.12),
    bench('gc-heavy', 'inconclusive', 0.015),
  ]);
  const md = renderMarkdown(r, { commentId: 'perf', runUrl: 'https://github.com/o/r/actions/runs/42' });

  it('starts with the hidden marker, then the verdict, then one number for the whole change', () => {
    const [first, second, , fourth] = md.split('\n');
    expect(first).toBe('<!-- pairbench:perf -->');
    expect(second).toBe('### 🔴 2 regressions, 🟡 1 inconclusive, 🟢 1 improvement, ⚪ 1 unchanged · pairbench');
    expect(fourth).toMatch(/^\*\*\+1\.\d%\*\* \[\+1\.\d%, \+\d\.\d%\] geometric mean change of 5 benchmarks \(\+ is worse\), 95% interval · head `bbbbbbb` against base `aaaaaaa` · threshold ±2%$/);
  });

  it("labels the interval with the comparison's confidence: 95% by default, 99% at alpha 0.01", () => {
    expect(md).toContain('change [95% interval]');
    const strict = renderMarkdown({ ...r, settings: { ...r.settings, alpha: 0.01 } }, { commentId: 'perf' });
    expect(strict).toContain('change [99% interval]');
    expect(strict).toContain('[---] 99% interval');
    expect(strict).not.toContain('95%');
    const terminal = renderTerminal({ ...r, settings: { ...r.settings, alpha: 0.01 } }, { color: false });
    expect(terminal).toContain('change [99% CI]');
  });

  it('tables the benchmarks that changed, biggest regression first, verdict first; the unchanged ones in a fold', () => {
    expect(reportOrder(r.benchmarks).map((b) => b.name)).toEqual(['startup', 'parse-large', 'gc-heavy', 'serialize', 'parse-small']);
    const rows = tableRows(md);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/^\| 🔴 regression \| \*\*startup\*\* \| time \(ms\) \| /);
    expect(rows[3]).toContain('🟢 improvement');
    expect(md).toMatch(/<details><summary>⚪ 1 unchanged benchmark \(within ±threshold\)<\/summary>\n\n\| benchmark \| metric \|[^\n]*\n[^\n]*\n\| parse-small \| time \(ms\) \| \+0\.3% /);
  });

  it('shows the change with one decimal and its interval, base → head medians with units, and the pairs', () => {
    const row = tableRows(md).find((l) => l.includes('parse-large'))!;
    expect(row).toMatch(/\| \*\*\+4\.9% \[\+4\.1%, \+5\.7%\]\*\* \| 51\.0 ms → 53\.\d ms \| 12 \|$/);
  });

  it('draws the forest plot as fixed-width text: one row per benchmark, worse to the right', () => {
    const block = md.slice(md.indexOf('```text\n') + 8, md.indexOf('\n```', md.indexOf('```text\n')));
    const lines = block.split('\n');
    expect(lines.every((l) => /^[\x20-\x7e±]*$/.test(l))).toBe(true);
    const plotted = lines.slice(2).filter((l) => l.length > FOREST_LABEL_COLUMN);
    expect(plotted.map((l) => l.slice(FOREST_LABEL_COLUMN))).toEqual(['startup', 'parse-large', 'gc-heavy', 'serialize', 'parse-small', 'geometric mean']);
    const zero = lines[1]!.search(/ 0 /) + 1;
    const at = (name: string) => plotted.find((l) => l.endsWith(name))!.indexOf('o');
    expect(at('startup')).toBeGreaterThan(zero);
    expect(at('serialize')).toBeLessThan(zero);
  });

  it('keeps the raw pairs out of the comment; how it was measured, with a replay line that works', () => {
    expect(md).not.toContain('Pairs and outliers');
    expect(md).not.toContain('mermaid');
    expect(md).toContain('<details><summary>How this was measured, and how to replay it</summary>');
    expect(md).toContain(`pairbench compare --base ${'a'.repeat(40)} --head ${'b'.repeat(40)} --seed 1234\n`);
    expect(md).not.toContain('npx');
    expect(md).toContain('[Workflow run](https://github.com/o/r/actions/runs/42)');
    expect(md).not.toContain('Cut to fit');
  });

  it('says under how it was measured that the runs were bound to CPUs, or ran without fresh copies, and says neither at the defaults', () => {
    const about = (m: string) => m.slice(m.indexOf('How this was measured'), m.indexOf('Replay this comparison'));
    expect(about(md)).not.toContain('bound to CPUs');
    expect(about(md)).not.toContain('fresh copies');
    const bound = renderMarkdown({ ...r, settings: { ...r.settings, cpus: '1', freshCopy: 'off' } });
    expect(about(bound)).toContain('- **bound to CPUs**: `1`, every measured run of both sides ran on them; Go sizes GOMAXPROCS to the CPUs it may use');
    expect(about(bound)).toContain('- **fresh copies**: `off`, each program ran from its file as it is');
    expect(renderHtml({ ...r, settings: { ...r.settings, cpus: '2-3' } })).toContain('<li>bound to CPUs: <code>2-3</code>, every measured run');
    // --cpus auto left the runs unbound: why; bound, the CPUs as above
    const unbound = renderMarkdown({ ...r, settings: { ...r.settings, isolation: 'not bound: taskset is missing (util-linux\'s taskset binds the runs)' } });
    expect(about(unbound)).toContain("- **bound to CPUs**: `no (--cpus auto)`, taskset is missing (util-linux's taskset binds the runs)");
    const auto = about(renderMarkdown({ ...r, settings: { ...r.settings, cpus: '1', isolation: 'bound to CPU 1, every CPU this process may use but CPU 0' } }));
    expect(auto.match(/bound to CPUs/g)).toHaveLength(1);
    // a recorded value that is not a CPU list's text is not shown as one
    expect(about(renderMarkdown({ ...r, settings: { ...r.settings, cpus: 7, freshCopy: 'auto' } }))).not.toMatch(/bound to CPUs|fresh copies/);
  });

  it('without a comment id there is no marker (job summary); the job summary can carry the pairs', () => {
    expect(renderMarkdown(r)).not.toContain(MARKER_PREFIX);
    expect(renderMarkdown(r, { pairs: true })).toContain('<details><summary>Pairs and outliers</summary>');
  });

  it('teaches through diagnostics, and marks outliers excluded and kept (job summary)', () => {
    const b = bench('noisy', 'inconclusive', 0.03, {
      outliers: [1],
      outliersKept: [2],
      diagnostics: [{ code: 'high-noise', severity: 'warning', message: 'the paired CV is 9%: close other work on the machine or raise max-pairs' }],
    });
    const out = renderMarkdown(results([b]), { pairs: true });
    expect(out).toContain('<details><summary>Diagnostics (1)</summary>');
    expect(out).toContain('⚠️ **noisy**: the paired CV is 9%: close other work on the machine or raise max-pairs');
    expect(out).toContain('noisy: 12 pairs, 1 outlier excluded, 1 flagged but kept');
    expect(out).toMatch(/ {4}2 {2}head-first .* outlier, excluded/);
    expect(out).toMatch(/ {4}3 {2}base-first .* outlier, kept/);
    expect(tableRows(out)[0]).toMatch(/\| 11 \+ 1 excl\. \|$/);
  });
});

describe('renderMarkdown: partial and failed runs, failures, added and removed', () => {
  it('explains a partial run', () => {
    const out = renderMarkdown(results([bench('a', 'inconclusive', 0.01)], { status: 'partial', stoppedBecause: 'interrupted' }));
    expect(out).toContain('⚠️ **Partial results**: the run was interrupted');
  });

  it('reports a failed head build: which revision, exit code, stderr tail that cannot break out of its block', () => {
    const stderr = 'compiling...\n```\n</details>\n@octocat please merge #1\n<!-- pairbench:perf -->\nerror: expected `;`';
    const r = results([bench('a', 'inconclusive', 0, { pairs: [], change: null, base: undefined, head: undefined })], {
      status: 'failed',
      stoppedBecause: 'error',
      failures: [{ side: 'head', kind: 'build', exitCode: 2, stderrTail: stderr, message: 'make -j2 failed in head' }],
    });
    const out = renderMarkdown(r, { commentId: 'perf' });
    expect(out).toContain('❌ **The comparison could not be completed**');
    expect(out).toContain('- **head**: build failed (exit code 2). make -j2 failed in head');
    // The fence is longer than the ``` inside, and the fake marker inside is defused.
    expect(out).toContain('  ````text\n  compiling...\n  ```\n  </details>\n  @octocat please merge #1');
    // (GitHub neither pings nor links inside code blocks; their text stays as printed)
    expect(out.split(MARKER_PREFIX)).toHaveLength(2);
  });

  it('marks a benchmark whose head fails as failed, not as a crash', () => {
    const b = bench('b', 'inconclusive', 0, { failure: { side: 'head', kind: 'exit', exitCode: 1, message: 'exited 1 in 1 of 10 runs', stderrTail: 'panic: boom' } });
    const out = renderMarkdown(results([bench('a', 'unchanged', 0), b]));
    expect(tableRows(out)[0]).toContain('❌ failed (head)');
    // the heading counts a failed benchmark in the same words as the check run's title and the terminal
    expect(out).toContain('### ❌ 1 failed, ⚪ 1 unchanged · pairbench');
    expect(out).toContain('- **head** benchmark **b**: exited with an error (exit code 1).');
  });

  it('shows a failure the engine lists twice (on the benchmark and in failures) once, with its benchmark', () => {
    const failure = { side: 'head' as const, kind: 'timeout' as const, exitCode: null, message: 'timed out after 1s' };
    const out = renderMarkdown(results([bench('slow', 'inconclusive', 0, { failure })], { failures: [failure] }));
    expect(out.split('timed out after 1s')).toHaveLength(2);
    expect(out).toContain('- **head** benchmark **slow**: timed out.');
  });

  it('lists benchmarks added or removed', () => {
    const out = renderMarkdown(results([bench('new-one', 'inconclusive', 0, { presence: 'added', change: null }), bench('old-one', 'inconclusive', 0, { presence: 'removed', change: null })]));
    expect(out).toContain('🆕 **new-one** is new in head');
    expect(out).toContain('➖ **old-one** is gone in head');
    expect(headline(results([bench('new-one', 'inconclusive', 0, { presence: 'added' })]))).toContain('🆕 1 added');
  });
});

describe('S6: renderMarkdown: hostile names', () => {
  const hostile = results(
    HOSTILE_NAMES.map((name, i) => bench(name, i % 3 === 0 ? 'regression' : 'unchanged', i % 3 === 0 ? 0.05 + i / 100 : 0.001)),
    { head: { ref: '@octocat/#1`x`', sha: 'b'.repeat(40) }, environment: { os: '<b>os</b>', cpu: '@cpu #2', cores: 2, node: 'v24' } },
  );
  const md = renderMarkdown(hostile, { commentId: 'perf' });

  it('matches the golden file', async () => {
    await expect(md).toMatchFileSnapshot('./markdown.golden/hostile.md');
  });

  it('pings nobody, links no issue, injects no HTML, carries one marker', () => {
    const prose = outsideCode(md);
    expect(prose).not.toMatch(/@(octocat|cpu)/);
    expect(prose).not.toMatch(/(^|[^&])#\d/m);
    // (inside code blocks, such as the forest plot's labels, GitHub shows text as text)
    expect(prose).not.toContain('<img');
    expect(prose).not.toContain('<b>');
    expect(md.split(MARKER_PREFIX)).toHaveLength(2);
    expect(md.startsWith('<!-- pairbench:perf -->\n')).toBe(true);
  });

  it('keeps every table row at exactly six cells (changed) or five (unchanged)', () => {
    const rows = tableRows(md);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.split('|')).toHaveLength(8);
    const all = outsideCode(md).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| verdict') && !l.startsWith('| benchmark'));
    expect(all).toHaveLength(HOSTILE_NAMES.length);
    for (const row of all.slice(4)) expect(row.split('|')).toHaveLength(7);
  });

  it('keeps every code fence closed by its own fence', () => {
    const fences = md.split('\n').filter((l) => /^\s*`{3,}/.test(l));
    expect(fences.length % 2).toBe(0);
  });
});

describe('S8: renderMarkdown: size limits', () => {
  const longName = (i: number) => `suite/${'very-long-benchmark-name-'.repeat(18)}${i}`;
  const many = results(
    Array.from({ length: 5000 }, (_, i) => bench(longName(i), i % 500 === 7 ? 'regression' : 'unchanged', i % 500 === 7 ? 0.03 + (i / 5000) * 0.1 : 0.001, { n: 40 })),
  );

  it('the input is valid against the results schema', () => {
    expect(ResultsSchema.safeParse(many).success).toBe(true);
  });

  it('a comment stays under 65,536 characters, keeps the biggest regressions, and says where the rest is', () => {
    const md = renderMarkdown(many, { commentId: 'perf', runUrl: 'https://github.com/o/r/actions/runs/1' });
    expect(md.length).toBeLessThan(65_536);
    expect(utf8Bytes(md)).toBeLessThanOrEqual(REPORT_LIMITS.comment);
    expect(md.trimEnd().split('\n').at(-1)).toMatch(/^✂️ \*Cut to fit GitHub's size limit\.\* The full report is in the job summary and the results file\.$/);
    expect(md).toContain('[Workflow run](https://github.com/o/r/actions/runs/1)');
    expect(md).toContain('…and ');
    const rows = tableRows(md);
    // all 10 regressions survive, the worst one first
    expect(rows.slice(0, 10).every((r) => r.includes('🔴 regression'))).toBe(true);
    expect(rows[0]).toContain('4507');
    // rows are whole
    for (const row of rows) expect(row.endsWith(' |')).toBe(true);
  });

  it('a check-run summary stays under 65,535 bytes, a job summary under 1 MiB', () => {
    const check = renderMarkdown(many, { maxLength: REPORT_LIMITS.checkSummary });
    expect(utf8Bytes(check)).toBeLessThan(65_535);
    const summary = renderMarkdown(many, { maxLength: REPORT_LIMITS.jobSummary, fullReportHint: 'The full report is in the results artifact.' });
    expect(utf8Bytes(summary)).toBeLessThan(1024 * 1024);
    expect(summary).toContain('The full report is in the results artifact.');
    const lines = (t: string) => t.split('\n').filter((l) => l.startsWith('| ')).length;
    expect(lines(summary)).toBeGreaterThan(lines(check));
  });

  it('is fast enough for 5,000 benchmarks', () => {
    // a bound no load of a shared machine reaches: it catches a rendering gone pathological (one that
    // renders the whole table again for every row it cuts), not a busy machine
    const t0 = performance.now();
    renderMarkdown(many, { maxLength: REPORT_LIMITS.jobSummary });
    expect(performance.now() - t0).toBeLessThan(60_000);
  });

  it('a 10 MB name is cut in the table', () => {
    const md = renderMarkdown(results([bench('x'.repeat(1_000_000), 'regression', 0.1)]));
    expect(utf8Bytes(md)).toBeLessThanOrEqual(REPORT_LIMITS.comment);
    expect(tableRows(md)).toHaveLength(1);
  });
});
