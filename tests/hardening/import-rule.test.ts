/**
 * Imports run one way, down the pipeline: stats/ and harness/ at the bottom, then config/, measure/,
 * revisions/, results/, schedule/, report/, the engine, and the commands on top (docs/development.md,
 * Architecture). The project's ESLint configuration gives every part of src/ a
 * `no-restricted-imports` rule naming the parts it may not import; these tests show the rule
 * failing on imports that run back up, passing on those that run down, src/ free of the first, and
 * every part of src/ under the rule, so that a new folder cannot slip past it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

const eslint = new ESLint({ cwd: ROOT });

/** The import-rule messages for `code`, linted as if it were the file `path` of the repository. */
async function importFindings(path: string, code: string): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => ({ line: m.line, message: m.message }));
}

/** A module importing each of `sources` (type-only, so that nothing needs to exist). */
function importing(...sources: string[]): string {
  return `${sources.map((s, i) => `import type { T${i} } from '${s}';`).join('\n')}\nexport type All = ${sources.map((_, i) => `T${i}`).join(' | ')};\n`;
}

describe('the lint rule against imports running back up the pipeline', () => {
  it('fails on a file of src/stats that imports src/report, and says what stats/ may import', async () => {
    const found = await importFindings('src/stats/example.ts', importing('./types.ts', '../report/findings.ts'));
    expect(found.map((f) => f.line)).toEqual([2]);
    expect(found[0]!.message).toMatch(/'\.\.\/report\/findings\.ts' import is restricted/);
    expect(found[0]!.message).toMatch(/stats\/ may import nothing of src\/: imports run one way, down the pipeline/);
  });

  it('fails on each import that ran back up before the layers were enforced', async () => {
    // config read the results file's limits and the measuring side's command split
    expect(await importFindings('src/config/example.ts', importing('../results/schema.ts', '../measure/argv.ts', '../revisions/changed-paths.ts'))).toHaveLength(3);
    // the results file stored the terminal's words
    expect(await importFindings('src/results/example.ts', importing('../report/findings.ts'))).toHaveLength(1);
    // a renderer read the measuring loop, and a command's types
    const report = await importFindings('src/report/example.ts', importing('../schedule/loop.ts', '../bisect/run.ts', '../measure/run.ts', '../engine.ts'));
    expect(report).toHaveLength(4);
    expect(report[0]!.message).toMatch(/report\/ may import only results\/, config\/, harness\/, stats\//);
    // the engine (at src/'s root) renders nothing and publishes nothing
    expect(await importFindings('src/engine.ts', importing('./report/model.ts', './github/comment.ts', './cli.ts'))).toHaveLength(3);
    // nothing imports an entry point
    expect(await importFindings('src/action/example.ts', importing('../cli.ts', '../action.ts'))).toHaveLength(2);
  });

  it('passes on imports that run down the pipeline', async () => {
    expect(await importFindings('src/config/example.ts', importing('../harness/types.ts', '../stats/types.ts', './errors.ts'))).toEqual([]);
    expect(await importFindings('src/schedule/example.ts', importing('../results/schema.ts', '../measure/run.ts', '../revisions/prepare.ts', '../config/spec.ts'))).toEqual([]);
    expect(await importFindings('src/report/example.ts', importing('../results/schema.ts', '../config/fail-on.ts', '../stats/types.ts', '../version.ts'))).toEqual([]);
    expect(await importFindings('src/github/example.ts', importing('../report/markdown.ts', '../results/schema.ts'))).toEqual([]);
    expect(await importFindings('src/cli.ts', importing('./report/terminal.ts', './bisect/cli.ts', './engine.ts'))).toEqual([]);
  });

  it('every folder and file of src/ is a part under the rule, but the entry points', async () => {
    const entries = readdirSync(join(ROOT, 'src'), { withFileTypes: true });
    const parts = entries.filter((e) => e.isDirectory() || e.name.endsWith('.ts')).map((e) => (e.isDirectory() ? `src/${e.name}/example.ts` : `src/${e.name}`));
    const unruled: string[] = [];
    for (const path of parts) {
      const config = (await eslint.calculateConfigForFile(join(ROOT, path))) as { rules?: Record<string, unknown> };
      if (config.rules?.['no-restricted-imports'] === undefined) unruled.push(path);
    }
    expect(unruled.sort()).toEqual(['src/action.ts', 'src/bin.ts', 'src/cli.ts']);
  });

  it('src/ holds no import running back up', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}:${m.line}: ${m.message}`));
    expect(found).toEqual([]);
    expect(results.length).toBeGreaterThan(50);
  }, 120_000);
});
