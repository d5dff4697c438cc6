/**
 * Findings worded per surface: the terminal speaks in CLI flags, the PR comment and job summary in
 * action inputs; pair numbers count from 1 everywhere, as the pair tables do.
 */
import { describe, expect, it } from 'vitest';
import { judgeResults } from '../../src/results/judge-file.ts';
import type { Results } from '../../src/results/schema.ts';
import { findingOf, wordDiagnostic } from '../../src/report/findings.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTerminal } from '../../src/report/terminal.ts';
import { mulberry32 } from '../../src/stats/prng.ts';
import type { Pair } from '../../src/stats/types.ts';
import { pairbench } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { regression50, writeResults } from '../support/results-files.ts';

/** 60 quiet pairs; pairs 33 and 44 (indices 32, 43) a balanced couple of spikes, 8 and 21 (7, 20) spikes on head's side. */
function spiky(): Pair[] {
  const rng = mulberry32(3);
  return Array.from({ length: 60 }, (_, i): Pair => {
    const base = 100 * (1 + (rng() - 0.5) * 0.004);
    const f = i === 32 ? 1.5 : i === 43 ? 1 / 1.5 : i === 7 || i === 20 ? 1.3 : 1 + (rng() - 0.5) * 0.004;
    return { base, head: base * f, order: rng() < 0.5 ? 'base-first' : 'head-first' };
  });
}

/** 30 pairs, 10% noise after pairing, measured as wall time: the high-noise finding. */
function noisy(): Pair[] {
  const rng = mulberry32(5);
  return Array.from({ length: 30 }, (): Pair => {
    const base = 100 * (1 + (rng() - 0.5) * 0.01);
    return { base, head: base * (1 + (rng() - 0.5) * 0.35), order: rng() < 0.5 ? 'base-first' : 'head-first' };
  });
}

function judged(): Results {
  return judgeResults(
    {
      schemaVersion: 1,
      base: { ref: 'main', sha: 'a'.repeat(40) },
      head: { ref: 'pr', sha: 'b'.repeat(40) },
      settings: { alpha: 0.05, threshold: 0.02 },
      benchmarks: [
        { name: 'spiky', unit: 'ms', direction: 'lower-is-better', pairs: spiky() },
        { name: 'noisy', unit: 'ms', direction: 'lower-is-better', metric: 'wall', pairs: noisy() },
      ],
    },
    { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' },
  );
}

/** Pair numbers of the rows of a Markdown pairs table marked with `note`. */
function tableNumbers(md: string, name: string, note: string): number[] {
  const block = md.slice(md.indexOf(`<summary>${name}:`));
  const table = block.slice(0, block.indexOf('</details>'));
  return table
    .split('\n')
    .filter((l) => l.endsWith(note))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe('pair numbers count from 1 everywhere', () => {
  const r = judged();
  const md = renderMarkdown(r, { commentId: 'x', pairs: true });
  const terminal = renderTerminal(r, { color: false });
  const spikyResult = r.benchmarks[0]!;

  it('the excluded pairs: the terminal names the numbers the pairs table marks', () => {
    expect(spikyResult.outliers).toEqual([32, 43]);
    expect(tableNumbers(md, 'spiky', 'outlier, excluded')).toEqual([33, 44]);
    expect(terminal).toContain('spiky: 2 outlier pair(s) excluded (pairs 33, 44)');
  });

  it('the pairs kept against the screen: the diagnostic names the numbers the table marks, on both surfaces', () => {
    expect(spikyResult.outliersKept).toEqual([7, 20]);
    expect(tableNumbers(md, 'spiky', 'outlier, kept')).toEqual([8, 21]);
    const d = spikyResult.diagnostics!.find((x) => x.code === 'outliers-kept' || x.code === 'one-sided-outliers')!;
    expect(wordDiagnostic(d, 'cli')).toContain('pairs 8, 21)');
    expect(wordDiagnostic(d, 'action')).toContain('pairs 8, 21)');
  });
});

describe('each surface words findings in its own settings', () => {
  const r = judged();
  const noise = r.benchmarks[1]!.diagnostics!.find((d) => d.code === 'high-noise')!;

  it('the results file keeps the code and the figures, and no surface\'s words', () => {
    expect(noise.figures).toMatchObject({ pairs: 30, metric: 'wall', threshold: 0.02, pairsForThreshold: expect.any(Number) });
    expect(findingOf(noise)?.code).toBe('high-noise');
    expect(noise.message).toBeUndefined();
    expect(wordDiagnostic(noise, 'cli')).toContain('(--metric cpu)');
  });

  it('a diagnostic of an older file (the terminal\'s words beside the figures) is worded afresh for each surface', () => {
    const older = { ...noise, message: 'Noisy even in pairs (--metric cpu), as an older pairbench worded it' };
    expect(wordDiagnostic(older, 'action')).toBe(wordDiagnostic(noise, 'action'));
    expect(wordDiagnostic(older, 'action')).toContain('(metric: cpu)');
    expect(wordDiagnostic({ code: 'drift', severity: 'info' }, 'cli')).toBe('drift');
  });

  it('terminal: CLI flags', () => {
    const terminal = renderTerminal(r, { color: false });
    expect(terminal).toContain('(--metric cpu)');
    expect(terminal).toMatch(/detects reliably is about [\d.]+% \(the threshold is 2%\)/);
    // one count of pairs per benchmark (the one that settles it), not a second one in the finding
    expect(terminal).not.toMatch(/\d+ pairs would bring/);
  });

  it('PR comment and job summary: action inputs, no flag', () => {
    const md = renderMarkdown(r, { commentId: 'x' });
    const diagnostics = md.slice(md.indexOf('<summary>Diagnostics'), md.indexOf('</details>', md.indexOf('<summary>Diagnostics')));
    expect(diagnostics).toContain('(metric: cpu)');
    expect(diagnostics).toContain('(the threshold is 2%)');
    expect(diagnostics).not.toMatch(/--[a-z]/);
  });

  it("another tool's diagnostic (no figures) is shown as written; figures that do not fit are not trusted", () => {
    expect(wordDiagnostic({ code: 'high-noise', severity: 'warning', message: 'their words' }, 'action')).toBe('their words');
    expect(wordDiagnostic({ code: 'high-noise', severity: 'warning', message: 'their words', figures: { pairs: 'many' } }, 'action')).toBe('their words');
    expect(wordDiagnostic({ code: 'constructor', severity: 'warning', message: 'odd', figures: {} }, 'cli')).toBe('odd');
  });
});

describe('pairbench report of a file an older pairbench wrote, with each finding in the terminal\'s words', () => {
  it('reads it; a row it judges again is worded afresh, a row it cannot judge shows its stored words', () => {
    const older = regression50();
    older.status = 'failed';
    older.benchmarks[0]!['diagnostics'] = [{ code: 'drift', severity: 'info', message: 'words an older pairbench stored', figures: { firstHalf: 0.5, secondHalf: 0.5, pValue: 0.9 } }];
    older.benchmarks.push({
      name: 'crashed',
      unit: 'ms',
      direction: 'lower-is-better',
      pairs: [],
      failure: { side: 'head', kind: 'exit', exitCode: 1, message: 'exited 1' },
      diagnostics: [{ code: 'too-few-pairs', severity: 'warning', message: 'No usable pairs, so nothing can be concluded.' }],
    });
    const path = writeResults(tempDir('pairbench-findings-'), 'older.json', older);
    const res = pairbench(['report', path]);
    // 3: a run failed (the crashed benchmark), as the file says
    expect(res.status, res.stderr).toBe(3);
    expect(res.stdout).toContain('REGRESSION');
    expect(res.stdout).toContain('crashed: warning: No usable pairs, so nothing can be concluded.');
    expect(res.stdout).not.toContain('words an older pairbench stored');
  });
});

describe('high-noise on too few pairs for any change to be significant', () => {
  it('is worded as a sentence on every surface (no bare code), after the results file\'s round trip', () => {
    const pairs = [1.15, 0.85, 1.2, 0.9].map((f, i): Pair => ({ base: 100 + i, head: (100 + i) * f, order: i % 2 ? 'base-first' : 'head-first' }));
    const judged = judgeResults(
      { schemaVersion: 1, base: { ref: 'main' }, head: { ref: 'pr' }, benchmarks: [{ name: 'few', unit: 'ms', direction: 'lower-is-better', metric: 'wall', pairs }] },
      { alpha: 0.05, threshold: 0.02, outliers: 'tukey', correction: 'holm' },
    );
    // as a results file holds it: JSON has no Infinity
    const stored = JSON.parse(JSON.stringify(judged)) as Results;
    const diag = stored.benchmarks[0]!.diagnostics!.find((d) => d.code === 'high-noise')!;
    expect(findingOf(diag)).not.toBeNull();
    for (const surface of ['cli', 'action'] as const) {
      const words = wordDiagnostic(diag, surface);
      expect(words).toMatch(/^Noisy even in pairs: /);
      expect(words).toContain('With 4 pairs no change can be significant yet');
    }
    expect(renderTerminal(stored, { color: false })).toContain('With 4 pairs no change can be significant yet');
  });
});
