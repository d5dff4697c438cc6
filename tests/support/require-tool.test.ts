/**
 * requireTool, run as vitest runs it: a test file that needs a tool which does not exist, in a
 * vitest process of its own, fails under CI=true (naming the tool and how to install it) and is
 * skipped elsewhere; a present tool runs its test.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './repo.ts';
import { strictAboutTools } from './require-tool.ts';

const root = resolve(import.meta.dirname, '../..');
const helper = join(root, 'tests/support/require-tool.ts');

function runFixture(env: Record<string, string | undefined>): { status: number | null; output: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
  writeFileSync(
    join(dir, 'tool.test.ts'),
    `import { expect } from 'vitest';
import { requireTool } from ${JSON.stringify(helper)};
const missing = requireTool({ name: 'no-such-tool-x9', present: () => false, install: 'apt-get install no-such-tool-x9' });
const present = requireTool({ name: 'sh', present: () => true, install: 'none' });
missing.it('needs the missing tool', () => { expect(1).toBe(1); });
missing.describe('a suite that needs it', () => { missing.it('inner', () => undefined); });
present.it('needs a present tool', () => { expect(1).toBe(1); });
`,
  );
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const r = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs'), '--reporter', 'verbose'], { cwd: dir, env: childEnv, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

describe('requireTool', () => {
  it('CI=true: a test whose tool is missing fails, naming the tool and how to install it', () => {
    const r = runFixture({ CI: 'true' });
    expect(r.status, r.output).toBe(1);
    expect(r.output).toContain('CI=true and no-such-tool-x9 is missing: apt-get install no-such-tool-x9');
    expect(r.output).toMatch(/2 failed \| 1 passed/);
  });

  it('outside CI: the same tests are skipped, with the tool named', () => {
    const r = runFixture({ CI: undefined });
    expect(r.status, r.output).toBe(0);
    expect(r.output).toMatch(/1 passed \| 2 skipped/);
    expect(r.output).toContain('needs no-such-tool-x9 is missing');
  });

  it('reads CI as GitHub and other CI services set it', () => {
    expect(strictAboutTools({ CI: 'true' })).toBe(true);
    expect(strictAboutTools({ CI: '1' })).toBe(true);
    expect(strictAboutTools({ CI: 'false' })).toBe(false);
    expect(strictAboutTools({})).toBe(false);
  });
});
