/**
 * `pairbench report` judges one's own results files again: a valid recorded setting fills in a
 * flag that was not given, but nothing in a file steers the verdict or the exit status (S2, S23):
 * not a benchmark's forged threshold, not a recorded gate or a tiny alpha, not a benchmark marked
 * failed or removed over its measured pairs. The real CLI, on files written by hand.
 */
import { describe, expect, it } from 'vitest';
import { pairbench, resultsOf } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { regression50, writeResults, type HandResults } from '../support/results-files.ts';

/** `pairbench report` of the file, with these flags: status, the verdict of `parse`, stderr. */
function report(results: HandResults, flags: string[] = []): { status: number | null; verdict: string | undefined; stderr: string; stdout: string } {
  const file = writeResults(tempDir('pairbench-rejudge-'), 'results.json', results);
  const res = pairbench(['report', file, '--json', ...flags]);
  const judged = res.stdout ? (resultsOf(res.stdout) as unknown as { benchmarks: { name: string; verdict: string }[] }) : null;
  return { status: res.status, verdict: judged?.benchmarks.find((b) => b.name === 'parse')?.verdict, stderr: res.stderr, stdout: res.stdout };
}

describe('S2: a forged threshold of one benchmark never decides the verdict', () => {
  it.each([[1e300], [-1], [0]])('S2: benchmarks[0].threshold %s is dropped with a warning naming the benchmark; the regression fails report, with or without --threshold', (value) => {
    const forged = regression50();
    forged.benchmarks[0]!['threshold'] = value;
    for (const flags of [[], ['--threshold', '2%']]) {
      const r = report(forged, flags);
      expect(r.verdict, r.stderr).toBe('regression');
      expect(r.status, r.stderr).toBe(1);
      // with --threshold the file's threshold is not read at all: the flag wins (the note says so)
      if (flags.length === 0) expect(r.stderr).toContain(`warning: the threshold recorded for the benchmark "parse" (${JSON.stringify(value)}) is not valid (a percentage such as 2% or a fraction such as 0.02, greater than 0 and at most 1000%); judging it with 2%`);
      else expect(r.stderr).toContain('A benchmark records a threshold of its own');
    }
  });
});

describe('a forged CPU list in a results file', () => {
  it.each(['9007199254740993', '0-8191,0-8191,0-1'])('settings.cpus %s is refused as a setting in one warning, and the file is judged: no RangeError, no list expanded', (cpus) => {
    const forged = regression50();
    forged.settings!['cpus'] = cpus;
    const r = report(forged);
    expect(r.stderr).not.toMatch(/\n\s+at |RangeError/);
    expect(r.verdict, r.stderr).toBe('regression');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`warning: the cpus recorded in the results (${JSON.stringify(cpus)}) is not valid (a list of CPUs as Linux writes one, each once and below 8192`);
  });
});

describe('S23: a results file cannot steer the verdict of pairbench report', () => {
  it('S23: the gate never comes from a file: settings.failOn "none" does not pass a regression; --fail-on none does', () => {
    const forged = regression50();
    forged.settings!['failOn'] = 'none';
    const r = report(forged);
    expect(r.verdict).toBe('regression');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('note: the results record fail-on "none", which is not used: the gate comes from --fail-on only (regression here)');
    expect(report(forged, ['--fail-on', 'none']).status).toBe(0);
  });

  it('S23: an alpha below 0.001 recorded in a file is not used: judged at 0.05 with a warning, a 95% interval, the regression fails', () => {
    const forged = regression50();
    forged.settings!['alpha'] = 1e-300;
    const r = report(forged);
    expect(r.stderr).toContain('warning: the alpha recorded in the results (1e-300) is below 0.001, the smallest a results file may set; judging with 0.05 (give --alpha to judge at a smaller level)');
    expect(r.verdict).toBe('regression');
    expect(r.status, r.stderr).toBe(1);
    const judged = resultsOf(r.stdout) as unknown as { settings: { alpha: number }; benchmarks: { change: { confidence: number } }[] };
    expect(judged.settings.alpha).toBe(0.05);
    expect(judged.benchmarks[0]!.change.confidence).toBe(0.95);
    const table = pairbench(['report', writeResults(tempDir('pairbench-rejudge-'), 'r.json', forged)]);
    expect(table.stdout).toContain('[95% CI]');
    expect(table.stdout).not.toContain('Infinity');
  });

  it('S23: a benchmark marked as failed never passes the gate: its run failed, so report exits 3', () => {
    const forged = regression50();
    forged.benchmarks[0]!['failure'] = { side: 'head', kind: 'exit', exitCode: 1, message: "head's command failed" };
    const r = report(forged);
    expect(r.status, r.stderr).toBe(3);
    expect(report(forged, ['--fail-on', 'none']).status).toBe(3);
  });

  it('S23: a benchmark recorded as removed but holding pairs is judged from its pairs, with a warning', () => {
    const forged = regression50();
    forged.benchmarks[0]!['presence'] = 'removed';
    const r = report(forged);
    expect(r.stderr).toContain('warning: a benchmark is recorded as added or removed but has pairs, each with a run of both sides: "parse" (removed, 30 pairs); judging it from the pairs');
    expect(r.verdict).toBe('regression');
    expect(r.status, r.stderr).toBe(1);
  });

  it('S23: a file of a failed run exits 3, whatever the gate and the verdicts', () => {
    const failed = { ...regression50({ change: 0 }), status: 'failed' };
    expect(report(failed).status).toBe(3);
    expect(report(failed, ['--fail-on', 'none']).status).toBe(3);
  });

  it("S23: one's own valid recorded settings still fill in the flags not given, and a flag given wins", () => {
    const own = regression50();
    own.settings = { ...own.settings, threshold: 0.6, alpha: 0.01, outliers: 'mad', correction: 'bh' };
    const r = report(own);
    expect(r.stderr).toBe('');
    expect(r.verdict).toBe('unchanged');
    expect(r.status).toBe(0);
    const judged = resultsOf(r.stdout) as unknown as { settings: Record<string, unknown> };
    expect(judged.settings).toMatchObject({ threshold: 0.6, alpha: 0.01, outliers: 'mad', correction: 'bh', failOn: 'regression' });
    const flagged = report(own, ['--threshold', '2%']);
    expect(flagged.verdict).toBe('regression');
    expect(flagged.status).toBe(1);
  });

  it("S23: a benchmark's own threshold from the run's config file is kept when valid and no --threshold is given", () => {
    const own = regression50();
    own.benchmarks[0]!['threshold'] = 0.6;
    const r = report(own, []);
    expect(r.stderr).toBe('');
    expect(r.verdict).toBe('unchanged');
    expect(r.status).toBe(0);
  });

  it('S23: an explicit --threshold wins over a threshold a benchmark records, valid or forged, with a note', () => {
    for (const t of [0.6, 5, 1e300, -1, 0]) {
      const own = regression50();
      own.benchmarks[0]!['threshold'] = t;
      const r = report(own, ['--threshold', '2%']);
      expect(r.verdict, String(t)).toBe('regression');
      expect(r.status, String(t)).toBe(1);
      expect(r.stdout + r.stderr, String(t)).toContain('A benchmark records a threshold of its own');
      expect(r.stdout + r.stderr, String(t)).toContain('--threshold 2% was given, and a flag always wins over a results file');
    }
  });
});
