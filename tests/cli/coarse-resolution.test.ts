/**
 * Times printed in whole nanoseconds (Criterion's `--output-format bencher`) at 45 ns a benchmark:
 * one step is 2.2%, more than the 2% threshold. Every pair prints the same, and the comparison,
 * through the real CLI and parser, calls it neither `unchanged` nor anything else, and says why in
 * the terminal and the comment; a benchmark of 1458 ns beside it, a step of 0.07%, is `unchanged`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const RUN = "printf 'test enc/50 ... bench:          45 ns/iter (+/- 1)\\ntest enc/3072 ... bench:       1,458 ns/iter (+/- 9)\\n'";

describe('times printed in coarse steps', () => {
  it('a benchmark whose printed step passes the threshold is never unchanged, and the reports say why', () => {
    const dir = tempDir();
    const out = join(dir, 'results.json');
    const markdown = join(dir, 'comment.md');
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', RUN, '--format', 'bencher', '--min-pairs', '8', '--max-pairs', '8', '--fail-on', 'none', '--out', out, '--markdown', markdown]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const byName = new Map(readResults(out).benchmarks.map((b) => [b.name, b]));
    const small = byName.get('enc/50')!;
    expect(small.pairs.every((p) => p.base === 45 && p.head === 45)).toBe(true);
    expect(small.verdict).toBe('inconclusive');
    expect(small.diagnostics?.map((d) => d.code)).toContain('coarse-resolution');
    expect(byName.get('enc/3072')!.verdict).toBe('unchanged');
    expect(byName.get('enc/3072')!.diagnostics?.map((d) => d.code) ?? []).not.toContain('coarse-resolution');
    const said = 'printed in steps of 1 ns, and the smallest is 45 ns: one step is 2.2% of it';
    expect(res.stdout).toContain(said);
    expect(readFileSync(markdown, 'utf8')).toContain(said);
    expect(readFileSync(markdown, 'utf8')).toContain('format: criterion');
  });
});
