/**
 * The terminal report. When the CLI runs in a GitHub Actions `run:` step, its stdout is read by the
 * runner, which executes `::command::` at the start of a line and `##[command]` anywhere (S21), so
 * untrusted text is printed on one line with its control characters shown escaped.
 */
import { describe, expect, it } from 'vitest';
import { renderTerminal, safeText } from '../../src/report/terminal.ts';
import type { BenchmarkResult } from '../../src/results/schema.ts';
import { bench, results } from './markdown-fixtures.ts';

/** The workflow commands a GitHub Actions runner would execute from this output (actions/runner ActionCommand). */
function workflowCommands(output: string): string[] {
  return output.split(/\r?\n|\r/).filter((line) => line.trimStart().startsWith('::') || line.includes('##['));
}

const FORGED = ['x\n::error title=forged::forged', '::warning::forged', 'a ##[error]forged', 'x\r::set-output name=a::forged', ' \u2003::add-mask::forged', 'bidi \u202egnp.exe', 'esc \u001b[2J\u001b]0;title\u0007'];

describe('renderTerminal', () => {
  it('S21: a benchmark named "x\\n::error title=forged::forged" is printed on one line, escaped, and no line is a workflow command', () => {
    const benchmarks: BenchmarkResult[] = FORGED.map((name, i) => ({
      ...bench(name, i === 0 ? 'regression' : 'unchanged', i === 0 ? 0.1 : 0),
      diagnostics: [{ code: 'noisy', severity: 'warning', message: `${name} is noisy\n::error::forged` }],
    }));
    const out = renderTerminal(results(benchmarks, { failures: [{ side: 'head', kind: 'exit', exitCode: 1, message: 'failed\n::error::forged', stderrTail: 'one\n::error::forged\n##[error]forged\n', benchmark: '::x::y' }] }), { color: false });
    expect(workflowCommands(out)).toEqual([]);
    expect(out).toContain('x\\n::error title=forged::forged');
    expect(out).toContain('x\\r::set-output name=a::forged');
    expect(out).toContain('bidi \\u202egnp.exe');
    expect(out).toContain('esc \\x1b[2J\\x1b]0;title\\x07');
    // every benchmark is one table row
    for (const name of FORGED) expect(out.split('\n').filter((l) => l.includes(safeText(name)) && /(regression|unchanged)$/.test(l)).length).toBe(1);
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('S21: safeText keeps ordinary names as they are', () => {
    for (const name of ['BenchmarkParse/small', 'parse large [wall]', 'test_x.py::test_y[1-2]', 'ns::Foo<int>::bar', 'C:\\path', 'état 🚀']) expect(safeText(name)).toBe(name);
  });

  it('S20: a table of 500,000 rows renders (no spread of unbounded arrays)', () => {
    const benchmarks: BenchmarkResult[] = [];
    for (let i = 0; i < 500_000; i++) benchmarks.push({ name: `case/${i}`, unit: 'ns', direction: 'lower-is-better', pairs: [] });
    const out = renderTerminal(results(benchmarks), { color: false });
    expect(out.split('\n').filter((l) => l.startsWith('case/')).length).toBe(500_000);
  });

  it('S20: notes repeated over many benchmarks are shown 20 times, then counted', () => {
    const benchmarks: BenchmarkResult[] = [];
    for (let i = 0; i < 5000; i++) {
      benchmarks.push({
        ...bench(`case/${i}`, 'inconclusive', 0.01, { n: 3 }),
        stoppedBecause: 'max-pairs',
        pairsToSettle: 40,
        diagnostics: [{ code: 'too-few-pairs', severity: 'warning', message: 'Only 3 usable pairs: need >= 6.' }],
      });
    }
    const out = renderTerminal(results(benchmarks), { color: false });
    const lines = out.split('\n');
    expect(lines.filter((l) => l.endsWith('warning: Only 3 usable pairs: need >= 6.')).length).toBe(20);
    expect(lines).toContain('… and 4980 more benchmarks with the note "too-few-pairs"; the results file (or --json) has every one');
    // the inconclusive note that every benchmark shares is said once for the suite
    expect(lines.filter((l) => l.includes('stopped by max-pairs'))).toEqual([
      '5000 benchmarks are inconclusive (case/0, case/1, case/2, and 4997 more), stopped by max-pairs: about 40 pairs each (40-40) would likely settle half of them; raise --max-time (or --max-pairs), or gate on them with --fail-on regression,inconclusive.',
    ]);
    expect(lines.filter((l) => /^case\/\d+ .*inconclusive$/.test(l)).length).toBe(5000);
  });
});
