/**
 * docs/action.md's inputs/outputs table is the one scripts/action-docs.mjs generates from action.yml:
 * a new input, a changed default or a new output shows in docs/action.md or this test fails.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without types
import { END, START, renderActionDocs, splitDefault, updateReadme } from '../../scripts/action-docs.mjs';
import { tempDir } from '../support/repo.ts';

const root = resolve(import.meta.dirname, '../..');
const actionYml = readFileSync(join(root, 'action.yml'), 'utf8');
const readme = readFileSync(join(root, 'docs', 'action.md'), 'utf8');

describe('docs/action.md inputs/outputs table', () => {
  it('is exactly what action.yml gives', () => {
    const docs = (renderActionDocs as (t: string) => string)(actionYml);
    expect(readme).toContain(docs);
    expect((updateReadme as (r: string, d: string) => string)(readme, docs)).toBe(readme);
  });

  it('lists every input with its default and every output', () => {
    const action = parse(actionYml) as { inputs: Record<string, { description: string }>; outputs: Record<string, unknown> };
    const section = readme.slice(readme.indexOf(START as string), readme.indexOf(END as string));
    for (const [name, input] of Object.entries(action.inputs)) {
      const def = (splitDefault as (d: string) => { default: string })(input.description).default;
      expect(def, name).not.toBe('');
      expect(section, name).toContain(`| \`${name}\` |`);
    }
    for (const name of Object.keys(action.outputs)) expect(section, name).toContain(`| \`${name}\` |`);
  });

  it('--check fails on a page whose table is stale, naming the fix', () => {
    const dir = tempDir();
    const stale = join(dir, 'action.md');
    writeFileSync(stale, readme.replace('| `max-pairs` | Pairs at most, per benchmark. | 200 |', '| `max-pairs` | Pairs at most, per benchmark. | 100 |'));
    expect(readFileSync(stale, 'utf8')).not.toBe(readme);
    const res = spawnSync(process.execPath, [join(root, 'scripts/action-docs.mjs'), '--check', '--readme', stale], { encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('run node scripts/action-docs.mjs');
    copyFileSync(join(root, 'docs', 'action.md'), stale);
    expect(spawnSync(process.execPath, [join(root, 'scripts/action-docs.mjs'), '--check', '--readme', stale]).status).toBe(0);
  });
});
