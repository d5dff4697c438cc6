/**
 * The real command line in its hidden debug mode (PAIRBENCH_DEBUG_RUNNER, src/cli/debug.ts): the
 * whole pipeline runs with the scripted runner and clock of src/schedule/scripted-runner.ts, so
 * these tests assert the exact text `pairbench compare` prints and its exit status. The measured
 * command `./bench` exists nowhere: a run that forked it would fail. Only the temporary folder is
 * replaced in the text (`<dir>`); every figure, duration and progress line is the script's.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults, type CliRun } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

interface DebugRun extends CliRun {
  dir: string;
}

/** `pairbench compare` of two empty folders, base/ and head/, with the runner script `script`. */
function debugCompare(script: unknown, args: string[] = [], opts: { env?: Record<string, string> } = {}): DebugRun {
  const dir = realpathSync(tempDir('pairbench-debug-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'head'));
  writeFileSync(join(dir, 'script.json'), typeof script === 'string' ? script : JSON.stringify(script));
  const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', './bench', '--seed', '42', '--out', 'results.json', ...args], {
    cwd: dir,
    env: { PAIRBENCH_DEBUG_RUNNER: 'script.json', ...opts.env },
  });
  const norm = (text: string) => text.replaceAll(dir, '<dir>');
  return { status: res.status, stdout: norm(res.stdout), stderr: norm(res.stderr), dir };
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const WARNING = 'warning: PAIRBENCH_DEBUG_RUNNER is set: no command is run, every run is answered from script.json';
/** The scripted runner plays a Linux runner with CPUs 0 and 1 (SCRIPTED_HOST), where --pair-runs auto, the default, runs both sides of a pair at once. */
const AT_ONCE = "--pair-runs auto: both sides of every pair started together, one on CPU 0 and one on CPU 1, the pair's coin choosing which; every run has one CPU, and the two share the caches and memory bandwidth";
const OVERHEAD = "./bench: pairbench's overhead of 1.00 ms per run (starting the shell, timed by empty runs between the pairs) was subtracted from every run before the ratios.";

describe('pairbench compare in debug mode: the exact output', () => {
  it('a clear regression (head 8% slower, runs ±2%): exit 1, every line as printed', () => {
    const res = debugCompare({ benchmarks: { './bench': { baseMs: 100, factor: 1.08, noise: 0.02 } } });
    expect(res.stdout).toBe(
      lines(
        'benchmark  base (median ±MAD)  head (median ±MAD)  paired ±MAD  change [97.5% CI]      p (adj.)  pairs  verdict',
        './bench    100 ms ±2.3%        108 ms ±0.67%       ±4.2%        +7.8% [+5.6%, +10.0%]  0.00050   15     regression',
        '',
        'REGRESSION: 1 regression',
        '+7.8% [+5.6%, +10.0%] change of ./bench, 97.5% interval · head <dir>/head against base <dir>/base · threshold ±2%',
        'Intervals at 97.5%: raised after an early stop so that it still covers 95% of the time; a change is significant when its interval excludes 0',
        '',
        OVERHEAD,
        '',
        'seed 42, took 2s; replay the pair order with --seed 42',
      ),
    );
    expect(res.stderr).toBe(lines(WARNING, AT_ONCE, 'round 1 of at most 200 · 1 pairs in all · 1/1 running · ~22s left', 'results: <dir>/results.json'));
    expect(res.status).toBe(1);
    // the results file is the pipeline's own, marked as scripted; its report prints the same table
    const results = readResults(join(res.dir, 'results.json'));
    expect(results.settings?.['timer']).toBe('scripted');
    expect(results.startedAt).toBe('2025-01-01T00:00:00.000Z');
    expect(results.benchmarks[0]!.pairs).toHaveLength(15);
    const report = pairbench(['report', join(res.dir, 'results.json')]);
    expect(report.stdout.replaceAll(res.dir, '<dir>')).toBe(res.stdout);
  });

  it('an A/A (the same time on both sides, runs ±2%): exit 0, unchanged', () => {
    const res = debugCompare({ benchmarks: { '*': { baseMs: 100, noise: 0.02 } } });
    expect(res.stdout).toBe(
      lines(
        'benchmark  base (median ±MAD)  head (median ±MAD)  paired ±MAD  change [95% CI]       p (adj.)  pairs  verdict',
        './bench    99.9 ms ±1.9%       99.7 ms ±2.3%       ±3.2%        −0.2% [−1.3%, +0.8%]  0.65      34     unchanged',
        '',
        'UNCHANGED: 1 unchanged',
        '−0.2% [−1.3%, +0.8%] change of ./bench, 95% interval · head <dir>/head against base <dir>/base · threshold ±2%',
        '',
        OVERHEAD,
        '',
        'seed 42, took 4s; replay the pair order with --seed 42',
      ),
    );
    expect(res.stderr).toBe(lines(WARNING, AT_ONCE, 'round 1 of at most 200 · 1 pairs in all · 1/1 running · ~21s left', 'results: <dir>/results.json'));
    expect(res.status).toBe(0);
  });

  it('the budget ends it (--max-time 20s on the scripted clock, runs of 1 s): inconclusive, stopped by max-time, exit 0', () => {
    const res = debugCompare({ benchmarks: { '*': { baseMs: 1000, factor: 1.01, noise: 0.02 } } }, ['--max-time', '20s']);
    expect(res.stdout).toBe(
      lines(
        'benchmark  base (median ±MAD)  head (median ±MAD)  paired ±MAD  change [95% CI]       p (adj.)  pairs  verdict',
        './bench    1.00 s ±2.6%        1.01 s ±0.67%       ±4.3%        +0.9% [−0.7%, +2.5%]  0.16      17     inconclusive',
        '',
        'INCONCLUSIVE: 1 inconclusive',
        '+0.9% [−0.7%, +2.5%] change of ./bench, 95% interval · head <dir>/head against base <dir>/base · threshold ±2%',
        '',
        'The time budget (--max-time) ran out before every benchmark was settled: inconclusive benchmarks need more pairs. Raise --max-time or --max-pairs.',
        '1 benchmark inconclusive: the run passes on it. To block on undecided benchmarks, use --fail-on regression,inconclusive.',
        './bench: inconclusive after 17 pairs (stopped by max-time); about 35 pairs in all would likely settle it (--max-pairs, --max-time)',
        '',
        'seed 42, took 19s; replay the pair order with --seed 42',
      ),
    );
    // a plain progress line every ten seconds of the scripted clock
    expect(res.stderr).toBe(
      lines(WARNING, AT_ONCE, 'round 1 of at most 200 · 1 pairs in all · 1/1 running · ~17s left', 'round 11 of at most 200 · 11 pairs in all · 1/1 running · 1 fits the budget (about 189 more pairs) · ./bench +1.5% ±2.5% · ~7s left', 'undecided:', '  ./bench: 11 pairs, needs about 189 more pairs, fits the budget', 'results: <dir>/results.json'),
    );
    expect(res.status).toBe(0);
    expect(readResults(join(res.dir, 'results.json')).stoppedBecause).toBe('max-time');
  });

  it('an interrupt (SIGINT at the 25th run, as from Ctrl-C): partial results, every pair before it kept, exit 130', () => {
    const res = debugCompare({ interruptAt: 25, benchmarks: { '*': { baseMs: 100, factor: 1.01, noise: 0.02 } } });
    expect(res.stdout).toBe(
      lines(
        'benchmark  base (median ±MAD)  head (median ±MAD)  paired ±MAD  change [95% CI]       p (adj.)  pairs  verdict',
        './bench    100 ms ±2.7%        101 ms ±1.2%        ±4.4%        +1.4% [−0.7%, +3.2%]  0.17      11     inconclusive',
        '',
        'INCONCLUSIVE: 1 inconclusive (partial: interrupted)',
        '+1.4% [−0.7%, +3.2%] change of ./bench, 95% interval · head <dir>/head against base <dir>/base · threshold ±2%',
        '',
        'warning: Partial results: the run was interrupted (a signal). Verdicts use the pairs measured until then; benchmarks without enough pairs are inconclusive. Rerun, or raise --max-time.',
        '1 benchmark inconclusive: the run passes on it. To block on undecided benchmarks, use --fail-on regression,inconclusive.',
        OVERHEAD,
        './bench: inconclusive after 11 pairs (stopped by interrupted); about 115 pairs in all would likely settle it (--max-pairs, --max-time)',
        '',
        'seed 42, took 1s; replay the pair order with --seed 42',
      ),
    );
    expect(res.stderr).toBe(
      lines(WARNING, AT_ONCE, 'round 1 of at most 200 · 1 pairs in all · 1/1 running · ~21s left', '', 'pairbench: SIGINT received; stopping the running commands and saving the results...', 'results: <dir>/results.json'),
    );
    expect(res.status).toBe(130);
    // a warmup run per side, then 11 pairs: the 25th run was the 12th pair's first
    const results = readResults(join(res.dir, 'results.json'));
    expect([results.status, results.stoppedBecause, results.benchmarks[0]!.pairs.length]).toEqual(['partial', 'interrupted', 11]);
  });

  it("a command that keeps failing (head's runs from its 4th exit 7): the failure and its output, exit 3", () => {
    const res = debugCompare({ benchmarks: { '*': { baseMs: 100, factor: 1.2, noise: 0.01, fail: { side: 'head', fromRun: 4, exitCode: 7 } } } });
    expect(res.stdout).toBe(
      lines(
        'benchmark  base (median ±MAD)  head (median ±MAD)  paired ±MAD  change [95% CI]  p (adj.)  pairs  verdict',
        './bench    —                   —                   —            —                —         2      failed',
        '',
        'INCONCLUSIVE: 1 failed (failed: error)',
        'head <dir>/head against base <dir>/base · threshold ±2%',
        '',
        'warning: The comparison could not be completed: a build or a benchmark command failed (see Failures below). Verdicts use the pairs measured before the failure.',
        "head failed in ./bench: head's command failed (exit code 7), 3 times in a row",
        '  | scripted failure: run 6 of head',
        '',
        'seed 42, took 836ms; replay the pair order with --seed 42',
      ),
    );
    expect(res.stderr).toBe(
      lines(
        WARNING,
        AT_ONCE,
        'round 1 of at most 200 · 1 pairs in all · 1/1 running · ~24s left',
        "warning: ./bench: head's command failed (exit code 7); retrying (1/2)",
        "warning: ./bench: head's command failed (exit code 7); retrying (2/2)",
        "error: ./bench: head's command failed (exit code 7), 3 times in a row",
        'results: <dir>/results.json',
      ),
    );
    expect(res.status).toBe(3);
  });

  it('git revisions: the worktrees are real, the runs scripted (head 10% faster)', () => {
    const repo = tempRepo();
    repo.commit({ 'README': 'base\n' }, 'base');
    repo.commit({ 'README': 'head\n' }, 'head');
    const out = realpathSync(tempDir());
    writeFileSync(join(out, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 10, factor: 0.9, noise: 0.01 } } }));
    const res = pairbench(['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--run', './bench', '--seed', '3', '--out', join(out, 'results.json')], {
      cwd: repo.dir,
      env: { PAIRBENCH_DEBUG_RUNNER: join(out, 'script.json') },
    });
    const [base, head] = [repo.git('rev-parse', 'HEAD~1'), repo.git('rev-parse', 'HEAD')];
    const norm = (text: string) => text.replaceAll(out, '<out>').replaceAll(base.slice(0, 12), '<base>').replaceAll(head.slice(0, 12), '<head>').replaceAll(base.slice(0, 7), '<base>').replaceAll(head.slice(0, 7), '<head>').replace(/pairbench-wt-[\w-]+/, '<worktrees>');
    expect(norm(res.stdout)).toBe(
      lines(
        'benchmark  base (median ±MAD)  head (median ±MAD)  paired ±MAD  change [97.5% CI]       p (adj.)  pairs  verdict',
        './bench    10.0 ms ±1.5%       8.99 ms ±0.44%      ±2.2%        −10.0% [−11.0%, −9.0%]  0.0010    12     improvement',
        '',
        'IMPROVEMENT: 1 improvement',
        '−10.0% [−11.0%, −9.0%] change of ./bench, 97.5% interval · head <head> against base <base> · threshold ±2%',
        'Intervals at 97.5%: raised after an early stop so that it still covers 95% of the time; a change is significant when its interval excludes 0',
        '',
        OVERHEAD,
        '',
        'seed 3, took 165ms; replay the pair order with --seed 3',
      ),
    );
    expect(norm(res.stderr)).toBe(
      lines(
        'warning: PAIRBENCH_DEBUG_RUNNER is set: no command is run, every run is answered from <out>/script.json',
        'base: HEAD~1 (<base>), head: HEAD (<head>), worktrees in <worktrees>',
        AT_ONCE,
        'round 1 of at most 200 · 1 pairs in all · 1/1 running · ~2s left',
        'results: <out>/results.json',
      ),
    );
    expect(res.status).toBe(0);
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1);
    repo.remove();
  });
});

describe('pairbench noise in debug mode', () => {
  it("an A/A of one revision in two worktrees: both sides play as base (head's factor is not applied); the exact output", () => {
    const repo = tempRepo();
    repo.commit({ 'README': 'one\n' }, 'one');
    const out = realpathSync(tempDir());
    writeFileSync(join(out, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 10, factor: 2, noise: 0.01 } } }));
    const res = pairbench(['noise', '--rev', 'HEAD', '--run', './bench', '--seed', '3', '--max-pairs', '20', '--out', join(out, 'results.json')], { cwd: repo.dir, env: { PAIRBENCH_DEBUG_RUNNER: join(out, 'script.json') } });
    const sha = repo.git('rev-parse', 'HEAD');
    // the machine's cores and CPU are the report's one real part: the results file's environment
    const machine = `${cpus().length} cores, ${cpus()[0]!.model.trim()}`;
    const norm = (text: string) => text.replaceAll(out, '<out>').replace(machine, '<machine>').replaceAll(sha.slice(0, 12), '<sha>').replaceAll(sha.slice(0, 7), '<sha>').replace(/pairbench-wt-[\w-]+/, '<worktrees>');
    expect(norm(res.stdout)).toBe(
      lines(
        'Noise floor of this machine (A/A: the same revision, <sha>, on both sides, <machine>)',
        '',
        './bench (20 pairs):',
        '  A single run varies by 0.9% (CV); within a pair, head/base varies by 1.5%: pairing cancelled 0% of the run-to-run variation.',
        '  Smallest change compare would detect here (80% power): 0.8% with 30 pairs, 0.4% with 100 pairs, 0.2% with 300 pairs.',
        '  To detect the 2% threshold it needs about 6 pairs; with max-pairs 20, a threshold of 1% or more is resolvable.',
        '',
        'Suggested settings: threshold: 2%, max-pairs: 20 (or more pairs for a smaller threshold).',
      ),
    );
    expect(norm(res.stderr)).toBe(
      lines(
        'warning: PAIRBENCH_DEBUG_RUNNER is set: no command is run, every run is answered from <out>/script.json',
        'base: HEAD (<sha>), head: HEAD (<sha>), worktrees in <worktrees>',
        AT_ONCE,
        'round 1 of at most 20 · 1 pairs in all · 1/1 running · ~229ms left',
        'results: <out>/results.json',
      ),
    );
    expect(res.status).toBe(0);
    // head's factor of 2 would be a change of +100%
    expect(Math.abs(readResults(join(out, 'results.json')).benchmarks[0]!.change!.estimate)).toBeLessThan(0.01);
    repo.remove();
  });
});

describe('pairbench compare in debug mode: a bad script is one usage line, exit 2', () => {
  const refused = (script: unknown, message: string, args: string[] = []) => {
    const res = debugCompare(script, args);
    expect(res.stderr).toBe(`pairbench: ${message}\n`);
    expect(res.stdout).toBe('');
    expect(res.status).toBe(2);
    return res;
  };

  it('a file that cannot be read', () => {
    const res = debugCompare({}, [], { env: { PAIRBENCH_DEBUG_RUNNER: 'no-such.json' } });
    expect(res.stderr).toBe('pairbench: PAIRBENCH_DEBUG_RUNNER: got "no-such.json", which cannot be read (no such file or folder (ENOENT)); expected a readable JSON runner script\n');
    expect(res.status).toBe(2);
  });

  it('not JSON', () => refused('{ benchmarks', 'PAIRBENCH_DEBUG_RUNNER script.json: not valid JSON (Expected property name or \'}\' in JSON at position 2 (line 1 column 3))'));

  it('a value of the wrong kind, named by its path in the file', () => refused({ benchmarks: { '*': { baseMs: '100' } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmarks.*.baseMs: Invalid input: expected number, received string'));

  it('a key the format does not have', () => refused({ benchmarks: { '*': { baseMs: 100, facter: 1.1 } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmarks.*: Unrecognized key: "facter"'));

  it('a benchmark the comparison does not have', () => refused({ benchmarks: { parse: { baseMs: 100 } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmarks: got "parse"; expected one of the comparison\'s benchmarks ("./bench") or "*"'));

  it('a format the scripted runner does not play', () => refused({ benchmarks: { '*': { baseMs: 100 } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmark "./bench" is --format json; expected --format time or go, the formats the scripted runner plays', ['--format', 'json']));
  it('a Go suite without its Go benchmarks', () => refused({ benchmarks: { '*': { baseMs: 100 } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmark "./bench" is --format go and its entry has no goBenchmarks; expected the suite\'s Go benchmarks under goBenchmarks', ['--format', 'go']));
  it('Go benchmarks for a suite that is not Go', () => refused({ benchmarks: { '*': { baseMs: 100, goBenchmarks: { BenchmarkA: { nsPerOp: 10 } } } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmark "./bench" is --format time and its entry has goBenchmarks; expected goBenchmarks only for a --format go suite'));
  it('a Go benchmark name that is not one', () => refused({ benchmarks: { '*': { baseMs: 100, goBenchmarks: { Parse: { nsPerOp: 10 } } } } }, 'PAIRBENCH_DEBUG_RUNNER script.json: benchmarks.*.goBenchmarks.Parse: got "Parse"; expected a Go benchmark name, starting with Benchmark', ['--format', 'go']));
});

describe('without PAIRBENCH_DEBUG_RUNNER, the engine runs real processes', () => {
  it('an empty PAIRBENCH_DEBUG_RUNNER is unset: the command runs once per measured run, timed by a real timer', () => {
    const dir = realpathSync(tempDir('pairbench-debug-'));
    for (const side of ['base', 'head']) mkdirSync(join(dir, side));
    // each run appends a line to a file outside the revisions: the lines count the runs.
    // Both sides are the same command, so a verdict here is chance: six pairs of one sign give p = 2/64,
    // a regression in about one run of 64. --fail-on none keeps the exit status about the runs alone.
    const log = join(dir, 'runs.log');
    const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', `echo "$PWD" >> ${log}`, '--min-pairs', '6', '--max-pairs', '6', '--warmup', '0', '--fail-on', 'none', '--out', 'results.json', '--quiet'], {
      cwd: dir,
      env: { PAIRBENCH_DEBUG_RUNNER: '' },
    });
    expect(res.stderr).not.toContain('PAIRBENCH_DEBUG_RUNNER');
    expect(res.status).toBe(0);
    const runs = readFileSync(log, 'utf8').trim().split('\n');
    expect(runs.filter((d) => d === join(dir, 'base'))).toHaveLength(6);
    expect(runs.filter((d) => d === join(dir, 'head'))).toHaveLength(6);
    const results = readResults(join(dir, 'results.json'));
    expect(['helper', 'node']).toContain(results.settings?.['timer']);
    expect(Date.parse(results.startedAt!)).toBeGreaterThan(Date.parse('2025-06-01T00:00:00Z'));
  });
});
