/**
 * Through the real CLI and a real vitest (the vitest example's packages): under the default
 * `--design auto` every measured run's benchmark process runs with V8's `--single-threaded`, and
 * the log says so; `--design command` runs the command as written. The bench file records the
 * flags its own process was started with.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const EXAMPLE_PACKAGES = join(import.meta.dirname, '..', '..', 'examples', 'vitest-suite', 'node_modules');
const vitest = requireTool(TOOLS['vitest-suite']);

function suite(): { dir: string; flags: string } {
  const dir = tempDir();
  const flags = join(dir, 'flags.txt');
  symlinkSync(EXAMPLE_PACKAGES, join(dir, 'node_modules'));
  mkdirSync(join(dir, 'build'));
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { benchmark: { include: ['**/*.bench.mjs'] } } };\n");
  writeFileSync(
    join(dir, 'flags.bench.mjs'),
    `import { appendFileSync } from 'node:fs';
import { test } from 'vitest';
appendFileSync(${JSON.stringify(flags)}, JSON.stringify(process.execArgv) + '\\n');
test('sum', async ({ bench }) => {
  let s = 0;
  await bench('to 1000', { time: 20, warmupTime: 10 }, () => { for (let i = 0; i < 1000; i++) s += i; }).run();
});
`,
  );
  return { dir, flags };
}

vitest.describe('a vitest run under --design auto', () => {
  vitest.it('runs each benchmark process single-threaded and says so; --design command does not', () => {
    for (const design of ['auto', 'command'] as const) {
      const { dir, flags } = suite();
      const out = join(dir, 'results.json');
      const run = 'node_modules/.bin/vitest bench --run -t {filter} --reporter=json --outputFile=build/bench.json >&2 && cat build/bench.json';
      const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', run, '--format', 'vitest', '--design', design, '--min-pairs', '2', '--max-pairs', '2', '--fail-on', 'none', '--out', out]);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      const started = readFileSync(flags, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]);
      // the listing run once per side, a warm-up run per side, then two pairs
      expect(started.length).toBeGreaterThanOrEqual(2 + 2 * 2);
      const said = 'Each run gets --pool=forks --execArgv=--single-threaded, for V8 without its background threads';
      if (design === 'auto') {
        expect(started.every((argv) => argv.includes('--single-threaded'))).toBe(true);
        expect(res.stdout + res.stderr).toContain(said);
      } else {
        expect(started.some((argv) => argv.includes('--single-threaded'))).toBe(false);
        expect(res.stdout + res.stderr).not.toContain('--single-threaded');
      }
      expect(readResults(out).benchmarks.map((b) => b.name)).toEqual(['flags.bench.mjs > sum > to 1000']);
    }
  }, 240_000);
});
