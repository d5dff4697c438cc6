/**
 * A Criterion run trimmed to what pairbench reads (src/harness/criterion-trim.ts, `trimmedRun` in
 * src/harness/select.ts): `--nresamples 1000` after `--output-format bencher`, in the simple
 * command that holds it; never twice, never for libtest, never under `--design command`; and the
 * trimmed command still runs in a shell, its selection filled in.
 */
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { criterionTrim, CRITERION_RESAMPLES } from '../../src/harness/criterion-trim.ts';
import { selectBenchmarks, trimmedRun } from '../../src/harness/select.ts';
import { runCommands } from '../../src/measure/one-run.ts';
import { tempDir } from '../support/repo.ts';

describe("Criterion's analysis trimmed", () => {
  it('adds --nresamples at the end of the simple command that prints bencher lines', () => {
    expect(CRITERION_RESAMPLES).toBe(1000);
    expect(criterionTrim('./build/kernels --bench --output-format bencher {filter}')?.command).toBe('./build/kernels --bench --output-format bencher {filter} --nresamples 1000');
    expect(criterionTrim('cargo bench --bench k -- --output-format=bencher {filter} 2>/dev/null | tee out.txt')?.command).toBe('cargo bench --bench k -- --output-format=bencher {filter} --nresamples 1000 2>/dev/null | tee out.txt');
    // the selection held in a variable first, as a wrapper does: the flag goes to the executable, not the assignment
    expect(criterionTrim('F={filter}; ./build/b --bench --output-format bencher "$F" && echo done')?.command).toBe('F={filter}; ./build/b --bench --output-format bencher "$F" --nresamples 1000 && echo done');
  });

  it('leaves a command as written where the flag would be refused or mean nothing', () => {
    // Criterion's parser refuses a flag given twice
    expect(criterionTrim('./build/k --bench --output-format bencher --nresamples 5000 {filter}')).toBeNull();
    expect(criterionTrim('./build/k --bench --nresamples=5000 --output-format bencher {filter}')).toBeNull();
    // libtest's #[bench] has no --output-format: cargo bench's own lines
    expect(criterionTrim('cargo bench --bench k -- {filter} --exact')).toBeNull();
    expect(criterionTrim('./build/k --bench --output-format json {filter}')).toBeNull();
  });

  it('only under --design auto (the default), and only for the bencher format', () => {
    const run = './build/k --bench --output-format bencher {filter}';
    expect(trimmedRun(run, 'bencher', undefined)).toBe(`${run} --nresamples 1000`);
    expect(trimmedRun(run, 'bencher', 'auto')).toBe(`${run} --nresamples 1000`);
    expect(trimmedRun(run, 'bencher', 'command')).toBe(run);
    expect(trimmedRun(run, 'criterion', 'auto')).toBe(run);
    expect(trimmedRun(run, 'time', 'auto')).toBe(run);
  });

  it('the trimmed, selected command runs: the executable gets the filter and the flag as arguments', async () => {
    const dir = tempDir();
    const exe = join(dir, 'bench.sh');
    writeFileSync(exe, `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(dir, 'args.txt')}"\n`);
    chmodSync(exe, 0o755);
    const sel = selectBenchmarks(trimmedRun(`F={filter}; ${exe} --bench --output-format bencher "$F" >&2 && echo ok`, 'bencher', 'auto'), 'bencher', ['group/a b']);
    const [r] = await runCommands([{ command: sel.command, cwd: dir, env: { ...process.env, ...sel.env }, timeoutMs: 10_000, captureStdout: true }]);
    expect(r!.outcome).toBe('ok');
    expect(readFileSync(join(dir, 'args.txt'), 'utf8').split('\n').filter(Boolean)).toEqual(['--bench', '--output-format', 'bencher', '^group/a b$', '--nresamples', '1000']);
  });
});
