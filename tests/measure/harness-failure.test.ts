/**
 * A failed harness run says why, in the harness's own words: the errors a JavaScript harness
 * wrote into its report (harness/failure.ts), read from the run's stdout or from the report file
 * its output names (inside the run's folder only), and the Node.js version the harness needs when
 * the run's `node` is older.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessErrors, olderThanEngines, reportFileNamed } from '../../src/harness/failure.ts';
import { harnessFailureDetail } from '../../src/measure/harness-failure.ts';
import { tempDir } from '../support/repo.ts';
import { requireTool, works, type ToolSpec } from '../support/require-tool.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE20_BIN = join(ROOT, '.cache', 'node-20', 'node_modules', 'node', 'bin');
const NODE22_BIN = join(ROOT, '.cache', 'node-22', 'node_modules', 'node', 'bin');
const olderNodes: ToolSpec = {
  name: 'Node.js 20 and 22 in .cache/node-20 and .cache/node-22, and vitest in examples/vitest-suite',
  present: () => works(join(NODE20_BIN, 'node'), ['--version']) && works(join(NODE22_BIN, 'node'), ['--version']) && works('test', ['-f', join(ROOT, 'examples/vitest-suite/node_modules/vitest/package.json')]),
  install: 'bash scripts/setup-ci.sh',
};

/** What vitest 5.1.1's JSON reporter wrote for a bench file of the old API (`bench` imported from 'vitest'), its run under Node 22. */
const OLD_API_REPORT = JSON.stringify({
  numTotalTestSuites: 1,
  numFailedTestSuites: 1,
  numTotalTests: 0,
  success: false,
  testResults: [{ assertionResults: [], status: 'failed', message: 'bench is not a function', name: '/r/base/old.bench.mjs' }],
});

describe('harnessErrors', () => {
  it('vitest: a file that failed to load, and each failed test, by file and test', () => {
    expect(harnessErrors('vitest', OLD_API_REPORT)).toEqual(['old.bench.mjs: bench is not a function']);
    const failedTest = { testResults: [{ name: '/r/k.bench.mjs', message: '', assertionResults: [{ ancestorTitles: ['kernels'], title: 'sort', failureMessages: ['TypeError: Map.groupBy is not a function\n    at x (/r/k.bench.mjs:3:1)'] }] }] };
    expect(harnessErrors('vitest', JSON.stringify(failedTest))).toEqual(['k.bench.mjs > kernels > sort: TypeError: Map.groupBy is not a function']);
  });

  it("node-bench: the error of each benchmark that threw, in the runner's real output", () => {
    const text = readFileSync(join(ROOT, 'tests/fixtures/harness/node-bench/suites-params-error.jsonl'), 'utf8');
    expect(harnessErrors('node-bench', text)).toEqual(['parse > throws: fixture: this benchmark throws']);
  });

  it('nothing from what is not the harness report, and at most three messages, the rest counted', () => {
    for (const text of ['', 'JSON report written to x', '{"testResults": 5}', '[1]', 'null']) expect(harnessErrors('vitest', text)).toEqual([]);
    const many = { testResults: ['a', 'b', 'c', 'd', 'e'].map((f) => ({ name: `/r/${f}.bench.mjs`, message: `boom ${f}`, assertionResults: [] })) };
    expect(harnessErrors('vitest', JSON.stringify(many))).toEqual(['a.bench.mjs: boom a', 'b.bench.mjs: boom b', 'c.bench.mjs: boom c', 'and 2 more']);
  });

  it("reportFileNamed: the last path vitest's JSON reporter says it wrote", () => {
    expect(reportFileNamed('vitest', 'x\nJSON report written to /r/base/build/bench.json\n')).toBe('/r/base/build/bench.json');
    expect(reportFileNamed('vitest', 'no report')).toBeNull();
    expect(reportFileNamed('mitata', 'JSON report written to /r/x.json')).toBeNull();
  });
});

describe('olderThanEngines', () => {
  it("reads npm's forms of engines.node, and never calls a version too old on a form it cannot read", () => {
    const vitest5 = '^22.12.0 || ^24.0.0 || >=26.0.0';
    for (const v of ['v20.20.2', 'v22.11.0', 'v23.5.0', 'v25.0.0']) expect(olderThanEngines(v, vitest5), v).toBe(true);
    for (const v of ['v22.12.0', 'v22.23.3', 'v24.0.0', 'v26.10.0']) expect(olderThanEngines(v, vitest5), v).toBe(false);
    expect(olderThanEngines('v18.0.0', '>=18')).toBe(false);
    expect(olderThanEngines('v16.20.0', '>=18')).toBe(true);
    expect(olderThanEngines('v20.1.0', '~20.2.0')).toBe(true);
    expect(olderThanEngines('v20.1.0', '20.x')).toBe(false);
    expect(olderThanEngines('v20.1.0', '>=18 <20')).toBe(true);
    expect(olderThanEngines('v20.1.0', '>= 22')).toBe(false); // a space inside a comparator: not read, so not claimed
    expect(olderThanEngines('v20.1.0', 'latest')).toBe(false);
    expect(olderThanEngines('not a version', '>=22')).toBe(false);
  });
});

describe('harnessFailureDetail', () => {
  it('reads the report the output names inside the run folder, and no file outside it', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'side', 'build'), { recursive: true });
    writeFileSync(join(dir, 'side', 'build', 'bench.json'), OLD_API_REPORT);
    writeFileSync(join(dir, 'outside.json'), OLD_API_REPORT);
    const request = { cwd: join(dir, 'side'), env: {} };
    expect(harnessFailureDetail('vitest', { stdout: '', outputTail: `JSON report written to ${join(dir, 'side', 'build', 'bench.json')}\n` }, request)).toBe('; vitest reported: old.bench.mjs: bench is not a function');
    expect(harnessFailureDetail('vitest', { stdout: '', outputTail: 'JSON report written to build/bench.json\n' }, request)).toBe('; vitest reported: old.bench.mjs: bench is not a function');
    expect(harnessFailureDetail('vitest', { stdout: '', outputTail: `JSON report written to ${join(dir, 'outside.json')}\n` }, request)).toBe('');
    expect(harnessFailureDetail('vitest', { stdout: '', outputTail: 'JSON report written to ../outside.json\n' }, request)).toBe('');
    expect(harnessFailureDetail('vitest', { stdout: OLD_API_REPORT, outputTail: '' }, request)).toBe('; vitest reported: old.bench.mjs: bench is not a function');
  });

  requireTool(olderNodes)
    .it("names the Node.js version the run's vitest needs when the run's node is older", () => {
      const dir = tempDir();
      symlinkSync(join(ROOT, 'examples', 'vitest-suite', 'node_modules'), join(dir, 'node_modules'));
      const engines = JSON.parse(readFileSync(join(ROOT, 'examples/vitest-suite/node_modules/vitest/package.json'), 'utf8')) as { version: string; engines: { node: string } };
      const detail = harnessFailureDetail('vitest', { stdout: '', outputTail: '' }, { cwd: dir, env: { PATH: `${NODE20_BIN}:${process.env.PATH ?? ''}` } });
      expect(detail).toMatch(new RegExp(`^; vitest ${engines.version.replace(/\./g, '\\.')} needs Node .+ \\(its package\\.json engines\\); the run's node is v20\\.\\d+\\.\\d+$`));
      expect(detail).toContain(engines.engines.node);
      // the same folder with Node 22 (the vitest-suite's engines allow 22.12 and later): nothing to say
      expect(harnessFailureDetail('vitest', { stdout: '', outputTail: '' }, { cwd: dir, env: { PATH: `${NODE22_BIN}:${process.env.PATH ?? ''}` } })).toBe('');
    });
});
