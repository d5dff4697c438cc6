/**
 * The Go example counted per benchmark under valgrind (--metric wall,instructions). Apart from the
 * example tests (tests/examples/), which time their runs, and niced: valgrind's long runs take a
 * core only when the files beside it leave one idle (tests/support/sequencer.ts starts it first).
 */
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { EXAMPLE_LIMITS, copyExample, ownCore } from '../support/examples.ts';
import { TOOLS, requireTools } from '../support/require-tool.ts';
import { COUNT_SPREAD_TOLERANCE, spreadOf } from '../../src/stats/count-spread.ts';

/** One side's spread of counts (max − min over the median) that only a quiet machine gives: a fifth of the tolerance. */
const QUIET_SPREAD = COUNT_SPREAD_TOLERANCE / 5;

const goCounted = requireTools(TOOLS.go, TOOLS.valgrind);

describe('the Go example, counted per benchmark', () => {
  goCounted.it('go-suite timed and counted per benchmark (--metric wall,instructions): the checksum\'s extra work is a regression of its instructions, the sorts\' counts are unchanged', () => {
    const ex = copyExample('go-suite');
    const file = join(ex.dir, 'counts.json');
    // niced: valgrind's long runs would otherwise take their core from an example timed on it at
    // once (Catch2's pairs spread by 52% beside it). valgrind whatever the machine has, as on GitHub's runners, and 8 ms of each benchmark's work
    // per counted run (--count-work), to keep the test within its share of CI's time. Eight pairs:
    // counts barely vary, and eight let Holm's correction over six rows (three times, three
    // counts) reach alpha
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--build', 'go test -c -trimpath -o build/bench.test .', '--run', './build/bench.test -test.run "^$" -test.bench {filter} -test.benchtime 20ms -test.cpu 1', '--format', 'go', '--metric', 'wall,instructions', '--count-work', '8ms', '--threshold', '0.5%', '--min-pairs', '8', '--max-pairs', '8', '--max-time', EXAMPLE_LIMITS.maxTime, '--out', file, '--quiet'], { timeoutMs: EXAMPLE_LIMITS.processMs, core: ownCore(), nice: 10, env: { PAIRBENCH_INSTRUCTIONS: 'valgrind' } });
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const byName = new Map(readResults(file).benchmarks.map((b) => [b.name, b]));
    const checksum = byName.get('BenchmarkChecksum (instructions)')!;
    expect(checksum.unit).toBe('instructions');
    expect(checksum.verdict, res.stdout).toBe('regression');
    // head's second pass over 15% of the input: about 15% more instructions
    expect(checksum.change!.estimate).toBeGreaterThan(0.1);
    expect(checksum.change!.estimate).toBeLessThan(0.2);
    // the sorts' counts are the same on both sides: `unchanged` when the machine is quiet, as the
    // counts themselves show (one side's spread within QUIET_SPREAD; 0.013% measured quiet). Under
    // load the Go runtime's own threads (sysmon, the collector's pacing) add work that grows with a
    // run's wall time: beside the noise generator (bench/noise-generator.ts) a side's counts spread
    // past the 0.25% that `unchanged` allows and Sort/n=1000's estimate reached +0.72%. The report
    // then says so (`unsteady-counts`), and whatever the load the row is never flagged and never
    // claims a large change
    for (const name of ['BenchmarkSort/n=100 (instructions)', 'BenchmarkSort/n=1000 (instructions)']) {
      const row = byName.get(name)!;
      const spread = Math.max(spreadOf(row.pairs.map((p) => p.base)), spreadOf(row.pairs.map((p) => p.head)));
      const unsteady = row.diagnostics?.some((d) => d.code === 'unsteady-counts') ?? false;
      expect(unsteady, `${name}: spread ${spread}`).toBe(spread > COUNT_SPREAD_TOLERANCE);
      expect(['unchanged', 'inconclusive'], `${name}\n${res.stdout}`).toContain(row.verdict);
      if (unsteady) expect(row.verdict, `${name}\n${res.stdout}`).toBe('inconclusive');
      if (spread <= QUIET_SPREAD) {
        expect(row.verdict, `${name}\n${res.stdout}`).toBe('unchanged');
        expect(Math.abs(row.change!.estimate), name).toBeLessThan(0.005);
      }
      expect(Math.abs(row.change!.estimate), name).toBeLessThan(0.05);
    }
    // the same pairs timed the benchmarks too: their wall rows stand beside the counts
    for (const name of ['BenchmarkChecksum', 'BenchmarkSort/n=100', 'BenchmarkSort/n=1000']) expect(byName.get(name)?.unit, name).toBe('ns');
  }, EXAMPLE_LIMITS.testMs);
});
