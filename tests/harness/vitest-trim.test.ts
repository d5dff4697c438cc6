/** Which vitest commands `--design auto` runs single-threaded, and where the flags go. */
import { describe, expect, it } from 'vitest';
import { vitestTrim } from '../../src/harness/vitest-trim.ts';
import { runTrim } from '../../src/harness/select.ts';

describe('vitest runs without V8 background threads', () => {
  it('ends the simple command that runs vitest bench, before what the shell does next', () => {
    expect(vitestTrim('npx vitest bench --run {file} -t {filter} --outputJson build/bench.json >&2 && cat build/bench.json')).toEqual({
      command: 'npx vitest bench --run {file} -t {filter} --outputJson build/bench.json --pool=forks --execArgv=--single-threaded >&2 && cat build/bench.json',
      added: '--pool=forks --execArgv=--single-threaded',
      why: expect.stringContaining('single-threaded V8, on both sides'),
    });
    expect(vitestTrim('cd pkg && node_modules/.bin/vitest bench --run')?.command).toBe('cd pkg && node_modules/.bin/vitest bench --run --pool=forks --execArgv=--single-threaded');
    expect(vitestTrim("pnpm vitest bench --run -t '{filter}' | tee out")?.command).toBe("pnpm vitest bench --run -t '{filter}' --pool=forks --execArgv=--single-threaded | tee out");
  });

  it('keeps a forks pool the command chose, and leaves another pool, its own flag, or a script as written', () => {
    expect(vitestTrim('npx vitest bench --run --pool forks')?.added).toBe('--execArgv=--single-threaded');
    expect(vitestTrim('npx vitest bench --run --pool=threads')).toBeNull();
    expect(vitestTrim('npx vitest bench --run --pool vmThreads')).toBeNull();
    expect(vitestTrim('npx vitest bench --run --execArgv=--single-threaded')).toBeNull();
    expect(vitestTrim('npm run bench')).toBeNull();
    expect(vitestTrim('npx vitest run')).toBeNull();
    expect(vitestTrim('npx vitest-bench')).toBeNull();
  });

  it('applies under --design auto only, and to the vitest format only', () => {
    const run = 'npx vitest bench --run -t {filter}';
    expect(runTrim(run, 'vitest', 'auto')?.added).toBe('--pool=forks --execArgv=--single-threaded');
    expect(runTrim(run, 'vitest', undefined)).not.toBeNull();
    expect(runTrim(run, 'vitest', 'command')).toBeNull();
    expect(runTrim(run, 'mitata', 'auto')).toBeNull();
  });
});
