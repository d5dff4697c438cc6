/**
 * The gate is decided once (src/results/gate.ts `decideGate`), and every surface reads that one
 * outcome: for each results file and gate below, `pairbench report`'s exit status, its terminal
 * headline and its Markdown report, and the action's step status, outputs, job summary, sticky
 * comment, check run and failing step's message (the action run in `mode: report` against a local
 * fake GitHub API) all say the same thing. The files are written here as a run writes them:
 * a clear regression, the same file without it, a comparison of nothing, a failed run, an
 * undecided benchmark, and a new benchmark beside an unchanged one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pairbench } from '../support/cli.ts';
import type { FakeGitHub } from '../support/fake-github.ts';
import { tempDir } from '../support/repo.ts';
import { reportMode } from '../support/report-mode.ts';
import { regression50, writeResults, type HandResults } from '../support/results-files.ts';

const servers: FakeGitHub[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const regression = (): HandResults => regression50();
const unchanged = (): HandResults => regression50({ change: 0 });
/** The same benchmark after only 4 pairs, too few to tell a change within ±2% from none. */
const undecided = (): HandResults => {
  const r = regression50({ change: 0.01 });
  r.benchmarks[0]!.pairs = r.benchmarks[0]!.pairs.slice(0, 4);
  return r;
};
/** Every benchmark on one side only: the pull request that adds them. */
const nothing = (): HandResults => ({ ...unchanged(), benchmarks: [{ name: 'parse', unit: 'ms', direction: 'lower-is-better', presence: 'added', pairs: [] }] });
/** A head whose runs failed after 30 pairs: the comparison could not be completed. */
const failed = (): HandResults => ({ ...regression(), status: 'failed', failures: [{ side: 'head', kind: 'exit', message: 'exit code 7' }] });
/** An unchanged benchmark and a new one, which is reported and never gated (results/judge-file.ts). */
const withAdded = (): HandResults => {
  const r = unchanged();
  r.benchmarks.push({ name: 'encode', unit: 'ms', direction: 'lower-is-better', presence: 'added', pairs: [] });
  return r;
};

interface Case {
  name: string;
  file: () => HandResults;
  failOn: string;
  allowNothing?: boolean;
  exit: 0 | 1 | 3;
  conclusion: 'success' | 'failure' | 'neutral';
  /** the comparison's verdict, as the terminal's headline opens with it and the `verdict` output says it */
  verdict: string;
  /** what the headline says of a comparison of nothing, if it is one */
  nothingWords?: string;
  /** the start of the failing step's message, when the step fails */
  step?: string;
}

const CASES: Case[] = [
  { name: 'nothing changed', file: unchanged, failOn: 'regression', exit: 0, conclusion: 'success', verdict: 'unchanged' },
  { name: 'a regression', file: regression, failOn: 'regression', exit: 1, conclusion: 'failure', verdict: 'regression', step: 'pairbench: 1 regression beyond the threshold: parse +' },
  { name: 'a regression, fail-on none', file: regression, failOn: 'none', exit: 0, conclusion: 'neutral', verdict: 'regression' },
  { name: 'a regression, fail-on inconclusive', file: regression, failOn: 'inconclusive', exit: 0, conclusion: 'neutral', verdict: 'regression' },
  { name: 'an undecided benchmark', file: undecided, failOn: 'regression', exit: 0, conclusion: 'neutral', verdict: 'inconclusive' },
  { name: 'an undecided benchmark, fail-on regression,inconclusive', file: undecided, failOn: 'regression,inconclusive', exit: 1, conclusion: 'neutral', verdict: 'inconclusive', step: 'pairbench: 1 benchmark inconclusive (parse), and fail-on names inconclusive' },
  { name: 'a new benchmark beside an unchanged one, fail-on regression,inconclusive', file: withAdded, failOn: 'regression,inconclusive', exit: 0, conclusion: 'success', verdict: 'unchanged' },
  { name: 'nothing compared', file: nothing, failOn: 'regression', exit: 1, conclusion: 'failure', verdict: 'inconclusive', nothingWords: '(the gate fails)', step: 'pairbench: Nothing compared: every benchmark is on one side only (1 added) (the gate fails).' },
  { name: 'nothing compared, allowed', file: nothing, failOn: 'regression', allowNothing: true, exit: 0, conclusion: 'neutral', verdict: 'inconclusive', nothingWords: '(the gate allows it)' },
  { name: 'nothing compared, fail-on none', file: nothing, failOn: 'none', exit: 0, conclusion: 'neutral', verdict: 'inconclusive', nothingWords: '(the gate allows it)' },
  { name: 'a failed run', file: failed, failOn: 'regression', exit: 3, conclusion: 'failure', verdict: 'regression', step: 'pairbench could not complete the comparison' },
];

/** The heading of a Markdown report: its first `### ` line, without the title after the last ` · `. */
function heading(markdown: string): string {
  const line = markdown.split('\n').find((l) => l.startsWith('### ')) ?? '';
  return line.slice(0, line.lastIndexOf(' · '));
}

describe('every surface reads the one gate outcome', () => {
  for (const c of CASES) {
    it(`${c.name}: exit ${c.exit}, check run ${c.conclusion}`, async () => {
      const dir = tempDir('pairbench-gate-');
      const file = writeResults(dir, 'results.json', c.file());
      const markdown = join(dir, 'report.md');
      const cli = pairbench(['report', file, '--fail-on', c.failOn, '--markdown', markdown, ...(c.allowNothing ? ['--allow-nothing-compared'] : [])]);
      const action = await reportMode(c.file(), { 'fail-on': c.failOn, ...(c.allowNothing ? { 'allow-nothing-compared': 'true' } : {}) }, servers);

      // the exit status: the command line's and the action step's
      expect(cli.status, cli.stderr).toBe(c.exit);
      expect(action.code, action.log).toBe(c.exit);
      expect(action.check.conclusion).toBe(c.conclusion);

      // the headline: the terminal's opens with the verdict the `verdict` output gives
      const terminal = cli.stdout.split('\n').find((l) => /^[A-Z]+: /.test(l)) ?? '';
      expect(terminal.startsWith(`${c.verdict.toUpperCase()}: `), cli.stdout).toBe(true);
      expect(action.outputs['verdict']).toBe(c.verdict);
      // the Markdown report's heading is the comment's and the job summary's, and the check run's title says the same
      const head = heading(readFileSync(markdown, 'utf8'));
      expect(head).not.toBe('');
      expect(heading(action.comment)).toBe(head);
      expect(heading(action.summary)).toBe(head);
      expect(terminal.slice(terminal.indexOf(': ') + 2)).toContain(action.check.title);
      if (c.nothingWords) {
        for (const text of [head, terminal, action.check.title ?? '']) expect(text).toContain(`Nothing compared: every benchmark is on one side only (1 added) ${c.nothingWords}`);
      } else {
        expect(head).not.toContain('Nothing compared');
      }
      // the counts the outputs give are the heading's
      const regressions = Number(action.outputs['regressions']);
      expect(regressions > 0 ? head.includes(`${regressions} regression`) : !head.includes('regression')).toBe(true);

      // the failing step's message: only when the step fails, and for the reason the gate gives
      const error = action.log.split('\n').find((l) => l.startsWith('::error::'));
      if (c.step) expect(error, action.log).toContain(`::error::${c.step}`);
      else expect(error, action.log).toBeUndefined();
    }, 120_000);
  }
});
