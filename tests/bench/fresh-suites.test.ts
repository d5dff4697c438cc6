/**
 * bench/lib/fresh-suites.ts: the suites pairbench was not tuned on, without downloading them: their
 * definitions and patches, `--suites fresh`, their table in the report, and the time to the last
 * verdict read from a results file's growth.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE64_SELECTION, FRESH_IDS, FRESH_SUITES, freshKind, freshRunCommand, measuredKind, patchText, processesOf, renderFresh, selectSuites, UsageError, type FreshRunRow } from '../../bench/lib/fresh-suites.ts';
import { lastVerdictMs, notePairs } from '../../bench/lib/verdict-time.ts';
import { invocation, keepResultsFile, render } from '../../bench/suites.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the suites not tuned on', () => {
  it('are two per family of Go, Python and JavaScript and one of Rust, each pinned to an exact version', () => {
    const families = FRESH_SUITES.map((s) => s.family);
    expect(families.filter((f) => f === 'Go')).toHaveLength(2);
    expect(families.filter((f) => f === 'Python')).toHaveLength(2);
    expect(families.filter((f) => f === 'JavaScript')).toHaveLength(2);
    expect(families.filter((f) => f === 'Rust')).toHaveLength(1);
    for (const s of FRESH_SUITES) expect(s.version).toMatch(/^v?\d+\.\d+\.\d+$/);
    // none of them is a suite the design was tuned on
    expect(FRESH_SUITES.map((s) => s.package)).not.toContain('github.com/valyala/fastjson');
    expect(FRESH_SUITES.map((s) => s.package)).not.toContain('cattrs');
  });

  it('patch one function each: the busy work follows its opening line, repeated for the calibration copy', () => {
    const go = FRESH_SUITES.find((s) => s.id === 'go-fresh-1')!;
    const text = `package semver\n\n${go.patch.anchor}\n\treturn 0\n}\n`;
    const head = patchText(go, text);
    expect(head).toContain(`${go.patch.anchor}\n\tpairbenchSpin(8)\n\treturn 0`);
    expect(head).toContain('func pairbenchSpin(n int) {');
    expect(patchText(go, text, 10).split('pairbenchSpin(8)')).toHaveLength(11);
    const py = FRESH_SUITES.find((s) => s.id === 'py-fresh-1')!;
    const method = `class Q:\n${py.patch.anchor}\n        return self\n`;
    // the block is indented as the method's body, and Python runs it (the annotation is not evaluated)
    const patched = patchText(py, method);
    expect(patched).toContain(`${py.patch.anchor}\n        _pairbench_x = 0\n        for _pairbench_i in range(4):`);
    const check = spawnSync('python3', ['-c', `from __future__ import annotations\n${patched}\nassert Q().__neg__() is not None`]);
    expect(check.status, check.stderr.toString()).toBe(0);
  });

  it('refuse a source whose function moved: the anchor must occur exactly once', () => {
    const js = FRESH_SUITES.find((s) => s.id === 'js-fresh-1')!;
    expect(() => patchText(js, 'class SemVer {}\n')).toThrow('semver 7.7.1: classes/semver.js has 0 lines "compareMain (other) {"; expected exactly 1');
    expect(() => patchText(js, `${js.patch.anchor}\n${js.patch.anchor}\n`)).toThrow('has 2 lines');
  });

  it('run commands with the placeholder of their harness (Go: none, pairbench adds -test.bench=)', () => {
    for (const s of FRESH_SUITES) expect(freshRunCommand(s)).toMatch(s.family === 'Go' ? /^\.\/build\/bench\.test -test\.run "\^\$" -test\.bench \. / : /\{(filter|benchmark)\}/);
    const rust = freshRunCommand(FRESH_SUITES.find((s) => s.id === 'rust-fresh-1')!);
    // the whole suite's filter stands for the eight selected benchmarks
    const whole = execFileSync('sh', ['-c', `${rust.replace('{filter}', '"$PAIRBENCH_FILTER"').replace(/; \.\/build.*$/, '; printf %s "$F"')}`], { env: { ...process.env, PAIRBENCH_FILTER: '.' }, encoding: 'utf8' });
    expect(whole).toBe(`^(${BASE64_SELECTION.join('|')})$`);
    const one = execFileSync('sh', ['-c', `${rust.replace('{filter}', '"$PAIRBENCH_FILTER"').replace(/; \.\/build.*$/, '; printf %s "$F"')}`], { env: { ...process.env, PAIRBENCH_FILTER: '^(decode_small_input/decode/50)$' }, encoding: 'utf8' });
    expect(one).toBe('^(decode_small_input/decode/50)$');
  });
});

describe('--suites', () => {
  const tuned = ['go', 'python', 'snappy', 'js'] as const;
  it('fresh stands for every suite not tuned on, beside the tuned ones, each once', () => {
    expect(selectSuites('fresh', tuned)).toEqual([...FRESH_IDS]);
    expect(selectSuites('go,fresh,go-fresh-2', tuned)).toEqual(['go', ...FRESH_IDS]);
    expect(selectSuites('go,python', tuned)).toEqual(['go', 'python']);
    expect(selectSuites('py-fresh-2', tuned)).toEqual(['py-fresh-2']);
  });
  it('names a suite it does not know, and what it expects', () => {
    expect(() => selectSuites('go,frehs', tuned)).toThrow(UsageError);
    expect(() => selectSuites('go,frehs', tuned)).toThrow(/^--suites: got "frehs"; expected a comma-separated list of go, python, snappy, js, fresh, go-fresh-1,/);
  });
  it('bench:suites exits 2 with one line for an unknown suite', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/suites.ts'), '--suites', 'nope'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--suites: got "nope"');
  });
  it('is written back as a shell takes it', () => {
    expect(invocation(['--suites', 'fresh', '--arms', 'none', '--aa-arms', 'benchmark', '--budget', '2m', '--pairbench-flags=--cpus 1'])).toBe("npm run bench:suites -- --suites fresh --arms none --aa-arms benchmark --budget 2m '--pairbench-flags=--cpus 1'");
  });
});

describe('the truth of a fresh head', () => {
  const T = 0.02;
  const head = (estimate: number, lo: number, hi: number) => ({ estimate, ci: [lo, hi] as [number, number], pairs: 20 });

  it("is head's own change, not the x10 copy's tenth: a benchmark the copy moves +103% and head +0.5% is not affected", () => {
    // semver/v3's CheckVersionUnary: reached by the slowed code, barely slowed by head
    expect(freshKind(1.03, head(0.005, -0.004, 0.014), T)).toEqual({ truth: 0.005, kind: 'marginal' });
    // reached, and head slower by the threshold with its interval above 0
    expect(freshKind(0.8, head(0.081, 0.06, 0.1), T)).toEqual({ truth: 0.081, kind: 'affected' });
    // reached, head at the threshold but its interval holding 0: counted in neither
    expect(freshKind(0.3, head(0.025, -0.003, 0.05), T).kind).toBe('marginal');
  });

  it('is affected only when its whole interval lies at or above the threshold: a change near it is counted in neither', () => {
    // js-yaml's load mixed document: +2.4% [+1.5%, +3.4%] may truly be under 2%
    expect(freshKind(0.3, head(0.024, 0.015, 0.034), T)).toEqual({ truth: 0.024, kind: 'marginal' });
    expect(freshKind(0.3, head(0.031, 0.02, 0.043), T).kind).toBe('affected');
    expect(freshKind(0.3, head(0.031, 0.0199, 0.043), T).kind).toBe('marginal');
    // the same rule without the copy (the tuned JavaScript suite)
    expect(measuredKind(head(0.031, 0.021, 0.043), T)).toBe('affected');
    expect(measuredKind(head(0.021, 0.004, 0.037), T)).toBe('marginal');
    expect(measuredKind(head(0.004, -0.006, 0.013), T)).toBe('unaffected');
    expect(measuredKind(head(-0.012, -0.02, -0.004), T)).toBe('marginal');
  });

  it('judges a committed results file by this rule when --render redraws it, into a folder it makes', () => {
    // npm semver's second head run: 2 of 4 by the rule before; by this one maxSatisfying alone is affected
    const out = join(mkdtempSync(join(tmpdir(), 'pairbench-render-')), 'new', 'folder');
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'bench/suites.ts'), '--render', join(ROOT, 'bench/results/suites-fresh-js1-truth-ac67f85-2026-12-06.json'), '--out', out], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const md = readFileSync(join(out, 'suites.md'), 'utf8');
      expect(md).toMatch(/\| js-fresh-1 \| quiet \| [^|]+\| head \| 9 \| 1 of 1 \| 0 of 4 \|/);
      expect(md).toMatch(/\| semver\.bench\.mjs > semver > compare \|[^\n]*\| marginal \|/);
    } finally {
      rmSync(dirname(dirname(out)), { recursive: true, force: true });
    }
  });

  it("keeps an arm's own results file, every pair in it, under the output folder's arms/, named by suite, condition, target and arm", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pairbench-arms-'));
    try {
      const scratch = join(dir, 'scratch.json');
      writeFileSync(scratch, '{"pairs":[{"base":1,"head":2}]}\n');
      const kept = keepResultsFile(join(dir, 'out'), 'js-fresh-1-quiet-aa-benchmark', scratch);
      expect(kept).toBe(join('arms', 'js-fresh-1-quiet-aa-benchmark.json'));
      expect(readFileSync(join(dir, 'out', kept), 'utf8')).toBe('{"pairs":[{"base":1,"head":2}]}\n');
      // a name with a path's separators or spaces stays one file inside arms/
      expect(keepResultsFile(join(dir, 'out'), 'go/small quiet', scratch)).toBe(join('arms', 'go_small_quiet.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts a benchmark the build moved, without reaching the code, in neither (a tool is right to flag it)', () => {
    // base64's encode/500, which never calls the slowed function: head's build slower in every
    // pair, and the copy's build moved it too (+1.9% in one run, +2.3% in another), by less than head
    expect(freshKind(0.019, head(0.052, 0.045, 0.06), T)).toEqual({ truth: 0.052, kind: 'marginal' });
    expect(freshKind(0.023, head(0.045, 0.026, 0.061), T)).toEqual({ truth: 0.045, kind: 'marginal' });
    // not reached and still: unaffected
    expect(freshKind(0.004, head(-0.003, -0.012, 0.007), T)).toEqual({ truth: -0.003, kind: 'unaffected' });
    // still in head but moved by the copy's build beyond the threshold: marginal
    expect(freshKind(-0.03, head(0.001, -0.01, 0.012), T).kind).toBe('marginal');
  });
});

describe('the report', () => {
  const outcome = (name: string, verdict: string, pairs: number, flagged: 'regression' | null = null) => ({ name, verdict, flagged, pairs, estimate: null, ...(verdict === 'inconclusive' ? { stoppedBecause: 'max-time' } : {}) });
  const aa: FreshRunRow = { suite: 'go-fresh-2', condition: 'quiet', arm: 'benchmark', against: 'aa', wallMs: 120_000, lastVerdictMs: 75_000, processes: 100, spread: 0.031, outcomes: [outcome('BenchmarkA', 'unchanged', 12), outcome('BenchmarkB', 'unchanged', 20), outcome('BenchmarkC', 'inconclusive', 30)] };
  const head: FreshRunRow = { ...aa, against: 'head', lastVerdictMs: 90_000, outcomes: [outcome('BenchmarkA', 'regression', 10, 'regression'), outcome('BenchmarkB', 'unchanged', 20), outcome('BenchmarkC', 'regression', 12, 'regression')] };
  const truths = { 'go-fresh-2': [{ name: 'BenchmarkA', kind: 'affected' as const }, { name: 'BenchmarkB', kind: 'unaffected' as const }, { name: 'BenchmarkC', kind: 'unaffected' as const }] };

  it('has a table of the suites not tuned on, with pairs, seconds per run and the time to the last verdict', () => {
    const md = renderFresh([aa, head], truths);
    expect(md).toContain('## Suites not tuned on');
    expect(md).toContain('**Time to the last verdict: median 1m 15s, longest 1m 30s** over 2 arm runs.');
    expect(md).toContain('| go-fresh-2 | quiet | benchmark | A/A | 3 | | | 2 of 3 | 0 of 3 | 1 | 20 (12–30) | 1.2 s | ±3.1% | 1m 15s | 2m 00s |');
    expect(md).toContain('| go-fresh-2 | quiet | benchmark | head | 3 | 1 of 1 | 1 of 2 | | | 0 | 12 (10–20) | 1.2 s | ±3.1% | 1m 30s | 2m 00s |');
  });

  it('counts the runs of an arm from its rounds, two a unit, so that batches pairbench formed itself count as one run a side', () => {
    // a batch of five and one of four in the first two rounds; the first batch left after them
    const rounds = [['p, v, c, co, i', 'cm, s, sa, m'], ['cm, s, sa, m', 'p, v, c, co, i'], ['cm, s, sa, m']];
    expect(processesOf(rounds, 5 * 2 + 4 * 3, 1)).toBe(10);
    // without rounds: twice the pairs over the batch passed
    expect(processesOf(undefined, 30, 1)).toBe(60);
    expect(processesOf([], 30, 6)).toBe(10);
  });

  it('names the suites\' own patches, or the smaller one a run chose (--fresh-spin)', () => {
    expect(renderFresh([head], truths)).toContain('`Digest.Sum64` (+8 busy steps a call)');
    const smaller = renderFresh([head], truths, undefined, 2);
    expect(smaller).toContain("`Digest.Sum64` (+2 busy steps a call, `--fresh-spin`; the suite's own: 8)");
    expect(smaller).toContain("`PlainQuantity.__neg__` (+2 busy steps a call, `--fresh-spin`; the suite's own: 4)");
  });

  it("shows each benchmark's truth, the copy's tenth beside head's own change, and each head run's verdict", () => {
    const measured = { 'go-fresh-2': [
      { name: 'BenchmarkA', kind: 'affected' as const, calibration: 0.8, truth: 0.081, measured: { estimate: 0.081, ci: [0.06, 0.1] as [number, number], pairs: 20 } },
      { name: 'BenchmarkB', kind: 'unaffected' as const, calibration: 0.004, truth: -0.003, measured: { estimate: -0.003, ci: [-0.012, 0.007] as [number, number], pairs: 20 } },
      { name: 'BenchmarkC', kind: 'marginal' as const, calibration: 1.03, truth: 0.005, measured: { estimate: 0.005, ci: [-0.004, 0.014] as [number, number], pairs: 20 } },
    ] };
    const md = renderFresh([aa, { ...head, outcomes: head.outcomes.map((o) => (o.flagged ? { ...o, estimate: 0.07 } : o)) }], measured);
    expect(md).toContain('<details><summary>go-fresh-2: the injected truth per benchmark, and the verdicts against head</summary>');
    expect(md).toContain("| benchmark | change with the x10 patch | its tenth | head's change (20 pairs, base against head) | kind | quiet: benchmark |");
    expect(md).toContain('| BenchmarkA | +80.0% | +8.0% | +8.1% [+6.0%, +10.0%] | affected | 🔴 +7.0% |');
    expect(md).toContain('| BenchmarkC | +103.0% | +10.3% | +0.5% [-0.4%, +1.4%] | marginal | 🔴 +7.0% |');
    // the marginal benchmark flagged counts in neither column: 1 of 1 detected, 0 of 1 unaffected flagged
    expect(md).toContain('| go-fresh-2 | quiet | benchmark | head | 3 | 1 of 1 | 0 of 1 |');
    // the copy's tenth as the truth, for a run without head's pairs
    expect(renderFresh([head], { 'go-fresh-2': [{ name: 'BenchmarkA', kind: 'affected', calibration: 0.3, truth: 0.03 }] })).toContain("The truth is the x10 patch's change over 10 (`--fresh-truth-pairs 0`)");
  });

  it('says when a slowed head has no truth, and shows an error in its row', () => {
    const md = renderFresh([{ ...head, suite: 'js-fresh-1' }, { ...aa, suite: 'rust-fresh-1', error: 'cargo bench failed | exit 101\nmore' }], {});
    expect(md).toContain('| js-fresh-1 | quiet | benchmark | head | 3 | — (no truth) | — |');
    expect(md).toContain('| rust-fresh-1 | quiet | benchmark | A/A | error: cargo bench failed \\| exit 101 |');
  });

  it('keeps the suites not tuned on out of the tuned tables, and gives both the time to the last verdict', () => {
    const machine = { date: '2026-12-04T12:00:00.000Z', host: 'ci', os: 'Linux', cpu: 'AMD EPYC', cores: 2, memoryGiB: 8, freeMemoryGiB: 6, node: 'v24', hyperfine: null, cc: null, commit: 'abc1234', loadAverage: [0.5, 0.4, 0.3], governor: null };
    const settings = { suites: ['go' as const, 'go-fresh-2' as const], conditions: ['quiet' as const], arms: ['benchmark' as const], aaArms: ['benchmark' as const], budgetMs: 120_000, calibrationPairs: 4, seed: 1, quick: false, spin: 8, pySpin: 2, threshold: 0.02, alpha: 0.05 };
    const tunedRun = { suite: 'go', condition: 'quiet' as const, arm: 'benchmark' as const, against: 'aa' as const, wallMs: 600_000, lastVerdictMs: 240_000, command: 'x', outcomes: [{ name: 'BenchmarkParse', flagged: null, verdict: 'unchanged', estimate: 0 }] };
    const md = render({
      date: machine.date,
      command: 'npm run bench:suites -- --suites go,fresh',
      machine,
      settings,
      truths: { go: [{ name: 'BenchmarkParse', calibration: 0, truth: 0, kind: 'unaffected' }], 'go-fresh-2': [] },
      runs: [tunedRun, { ...aa, command: 'y', condition: 'quiet', arm: 'benchmark', outcomes: aa.outcomes.map((o) => ({ ...o, flagged: null, estimate: null })) }],
      errors: [],
    });
    expect(md).toContain('**Time to the last verdict (suites tuned on): median 4m 00s, longest 4m 00s** over 1 arm runs.');
    expect(md).toMatch(/\| quiet \| pairbench, benchmark-level .* \| A\/A \| \| \| 0 of 1 \| 1 of 1 \| \| \| 0 \| — \| 4m 00s \| 10m 00s \|/);
    expect(md).not.toContain('## go-fresh-2');
    expect(md.indexOf('## go')).toBeLessThan(md.indexOf('## Suites not tuned on'));
    expect(md).toContain('| go-fresh-2 | quiet | pairbench, benchmark-level (runs designed per benchmark, --design auto) | A/A | 3 |');
  });
});

describe('the time to the last verdict', () => {
  it('is when the last benchmark with a verdict had its last pair, as the results file grew', () => {
    const counts = new Map<string, number>();
    const times = new Map<string, number>();
    notePairs(counts, times, [{ name: 'a', pairs: [1] }, { name: 'b', pairs: [1] }], 3000);
    notePairs(counts, times, [{ name: 'a', pairs: [1, 2] }, { name: 'b', pairs: [1] }, { name: 'c', pairs: [1] }], 6000);
    notePairs(counts, times, [{ name: 'a', pairs: [1, 2] }, { name: 'b', pairs: [1] }, { name: 'c', pairs: [1, 2, 3] }], 9000);
    expect(Object.fromEntries(times)).toEqual({ a: 6000, b: 3000, c: 9000 });
    // c ran out of budget: the verdicts were in at a's last pair
    expect(lastVerdictMs([{ name: 'a', verdict: 'unchanged' }, { name: 'b', verdict: 'regression' }, { name: 'c', verdict: 'inconclusive' }], times, 120_000)).toBe(6000);
    expect(lastVerdictMs([{ name: 'a', verdict: 'unchanged' }, { name: 'c', verdict: 'improvement' }], times, 120_000)).toBe(9000);
  });
  it('is the whole run when nothing was decided, or a decided benchmark was never seen growing', () => {
    const times = new Map([['a', 5000]]);
    expect(lastVerdictMs([{ name: 'a', verdict: 'inconclusive' }], times, 60_000)).toBe(60_000);
    expect(lastVerdictMs([{ name: 'a', verdict: 'unchanged' }, { name: 'z', verdict: 'unchanged' }], times, 60_000)).toBe(60_000);
    expect(lastVerdictMs([{ name: 'a', verdict: 'unchanged' }], new Map([['a', 90_000]]), 60_000)).toBe(60_000);
  });
});
