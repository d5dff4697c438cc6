/**
 * S20 and S2: huge suites through the CLI. A run that prints 100,000 benchmarks is measured,
 * written, judged and reported, and its results file is read back by `pairbench report` (S2's caps
 * never refuse what `compare` wrote); a suite past those caps stops with one clear message, and
 * `report` reads the file written up to there. (Parsing and judging 100,000 benchmarks in process:
 * tests/hardening/scale.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../../src/report/markdown.ts';
import { LIMITS } from '../../src/results/schema.ts';
import { utf8Bytes } from '../../src/report/escape.ts';
import { CLI, readResults, type CliRun } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const HUGE = 100_000;

/** The CLI, with room for the output of a huge suite (spawnSync keeps 1 MiB by default). */
function pairbench(args: string[]): CliRun {
  const res = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1024 * 1024 * 1024, timeout: 900_000 });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('S20: huge suites through the CLI', () => {
  it('S20: a 100,000-benchmark --format json suite compares and reports, and each file written reads back (S2: report reads what compare and report wrote)', () => {
    const dir = tempDir();
    const script = join(dir, 'suite.mjs');
    // One run of the suite: 100,000 results with 1% noise; one in ten thousand is 20% slower on head.
    writeFileSync(
      script,
      `const head = process.cwd().endsWith('head'); const out = [];
for (let i = 0; i < ${HUGE}; i++) out.push('{"name":"case/' + i + '","value":' + (1000 * (head && i % 10000 === 0 ? 1.2 : 1) * (1 + (Math.random() - 0.5) * 0.02)).toFixed(3) + ',"unit":"ns"}');
process.stdout.write('[' + out.join(',') + ']');\n`,
    );
    for (const side of ['base', 'head']) mkdirSync(join(dir, side));
    const file = join(dir, 'results.json');
    const md = join(dir, 'report.md');
    const run = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
    const compared = pairbench(['compare', '--base-dir', join(dir, 'base'), '--head-dir', join(dir, 'head'), '--run', run, '--format', 'json', '--min-pairs', '3', '--max-pairs', '3', '--warmup', '0', '--out', file, '--markdown', md, '--quiet']);
    expect(compared.stderr).not.toMatch(/\n\s+at |Maximum call stack/);
    expect([0, 1], compared.stderr).toContain(compared.status);
    expect(statSync(file).size).toBeLessThanOrEqual(LIMITS.fileBytes);
    const results = readResults(file);
    expect(results.benchmarks.length).toBe(HUGE);
    expect(results.benchmarks[0]!.pairs.length).toBe(3);
    expect(utf8Bytes(readFileSync(md, 'utf8'))).toBeLessThanOrEqual(REPORT_LIMITS.comment);
    expect(compared.stdout.split('\n').filter((l) => /^case\/\d+ .*(regression|improvement|unchanged|inconclusive)$/.test(l)).length).toBe(HUGE);

    const again = join(dir, 'again.json');
    const reported = pairbench(['report', file, '--out', again]);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(compared.status);
    // what report wrote reads back within the same caps (S2), as a later report reads it
    expect(readResults(again).benchmarks.length).toBe(HUGE);
    // about a minute on two idle cores; far longer on a loaded machine
  }, 900_000);

  /** A --format json suite that prints `count` results whose names are `name(i)`. */
  function suite(dir: string, count: number, name: string): string {
    const script = join(dir, 'suite.mjs');
    writeFileSync(script, `const out = []; for (let i = 0; i < ${count}; i++) out.push({ name: ${name}, value: 1000 * (1 + Math.random() * 0.01), unit: 'ns' }); process.stdout.write(JSON.stringify(out));\n`);
    return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
  }

  it('S2: a benchmark name longer than a results file holds stops compare with one clear message, and report reads the file it wrote', () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const run = suite(dir, 3, "i === 1 ? 'p'.repeat(600) : 'case/' + i");
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--format', 'json', '--warmup', '0', '--out', file, '--quiet']);
    expect(res.status).toBe(3);
    expect(res.stderr).toMatch(/names a benchmark of 600 characters \("p{100,}\.\.\."\); a results file holds names of at most 512 characters, as many as pairbench report reads: shorten the name, or leave the benchmark out with filter/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const reported = pairbench(['report', file]);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(3);
    expect(reported.stdout).toContain('names a benchmark of 600 characters');
  });

  it(`S2: more benchmarks than a results file holds (${LIMITS.benchmarks}) stop compare with one clear message, and report reads the file it wrote`, () => {
    const dir = tempDir();
    const file = join(dir, 'r.json');
    const run = suite(dir, LIMITS.benchmarks + 1, "'case/' + i");
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--format', 'json', '--warmup', '0', '--out', file, '--quiet']);
    expect(res.status).toBe(3);
    expect(res.stderr).toContain(`output holds ${LIMITS.benchmarks + 1} benchmarks, ${LIMITS.benchmarks + 1} in the comparison; a results file holds at most ${LIMITS.benchmarks}, as many as pairbench report reads`);
    const reported = pairbench(['report', file]);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(3);
  });

  it('S2: --max-pairs beyond what a results file holds per benchmark is refused before anything runs', () => {
    const dir = tempDir();
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--max-pairs', String(LIMITS.pairsPerBenchmark + 1), '--out', join(dir, 'r.json')]);
    expect(res.status).toBe(2);
    expect(res.stderr).toBe(`pairbench: --max-pairs: got "${LIMITS.pairsPerBenchmark + 1}"; expected a whole number from 1 to ${LIMITS.pairsPerBenchmark}\n`);
  });
});
