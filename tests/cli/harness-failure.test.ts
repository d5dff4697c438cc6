/**
 * A failed run says why: a real vitest 5 run of a bench file written against the old API (`bench`
 * imported from 'vitest') fails with "bench is not a function" inside its JSON report, while its
 * last line of output only says where the report went. The terminal and the PR comment show the
 * harness's own message.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { copyExample, workflowStep } from '../support/examples.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';

const vitestExample = requireTool(TOOLS['vitest-suite']);

const OLD_API = `import { bench, describe } from 'vitest';
describe('kernels', () => {
  bench('checksum 64 KiB', () => {});
});
`;

describe('a failed harness run', () => {
  vitestExample.it("shows the error vitest wrote into its JSON report in the terminal and the comment, not only the report's path", () => {
    const { step } = workflowStep('vitest-suite');
    const ex = copyExample('vitest-suite');
    writeFileSync(join(ex.head, 'kernels.bench.mjs'), OLD_API);
    const file = join(ex.dir, 'results.json');
    const markdown = join(ex.dir, 'comment.md');
    const res = pairbench(['compare', '--base-dir', ex.base, '--head-dir', ex.head, '--run', step.run, '--format', step.format, '--min-pairs', '3', '--max-pairs', '3', '--out', file, '--markdown', markdown], { timeoutMs: 200_000 });
    expect(res.status, res.stdout + res.stderr).toBe(3);
    const said = "head's command failed (exit code 1; vitest reported: kernels.bench.mjs: bench is not a function";
    expect(res.stdout).toContain(said);
    expect(res.stdout).toContain('JSON report written to'); // the tail of its output, as before
    expect(readFileSync(markdown, 'utf8')).toContain(said);
    expect(readResults(file).failures?.[0]?.message).toContain(said);
  }, 240_000);
});
