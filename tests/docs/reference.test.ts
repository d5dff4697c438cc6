/**
 * action.yml and docs/reference.md are generated from the one option table (scripts/reference.ts):
 * a changed help text, default or tier that is not regenerated fails here, naming the fix, as
 * check-dist does for dist/.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ACTION_OWN_INPUTS } from '../../src/action/input-table.ts';
import { COMPARE_OPTIONS } from '../../src/config/options.ts';
import { generatedFiles, renderActionYml, renderReference } from '../../scripts/reference.ts';
import { ROOT } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

describe('generated reference', () => {
  it('action.yml and docs/reference.md are what the option table generates', () => {
    for (const [path, text] of Object.entries(generatedFiles())) expect(readFileSync(join(ROOT, path), 'utf8'), path).toBe(text);
  });

  it('names every option once, under its tier, and every action input with its default', () => {
    const ref = renderReference();
    const advancedAt = ref.indexOf('## Advanced options');
    for (const o of COMPARE_OPTIONS) {
      const at = ref.indexOf(`| \`--${o.name}`);
      expect(at, o.name).toBeGreaterThan(0);
      expect(ref.indexOf(`| \`--${o.name}${o.kind === 'boolean' ? '`' : ' '}`, at + 1), o.name).toBe(-1);
      expect(at > advancedAt, o.name).toBe(o.tier === 'advanced');
    }
    const yml = parse(renderActionYml()) as { inputs: Record<string, { description: string; default?: string }> };
    for (const i of ACTION_OWN_INPUTS) {
      expect(yml.inputs[i.name]!.description, i.name).toContain(`Default: ${i.defaultDoc}.`);
      expect(yml.inputs[i.name]!.default, i.name).toBe(i.default);
    }
    const threshold = COMPARE_OPTIONS.find((o) => o.name === 'threshold')!;
    expect(yml.inputs['threshold']!.description).toContain(`Default: ${threshold.default}.`);
  });

  it('documents every input of action.yml with a default, and every output, in docs/reference.md', () => {
    const yml = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { description: string }>; outputs: Record<string, unknown> };
    const ref = readFileSync(join(ROOT, 'docs/reference.md'), 'utf8');
    expect(Object.keys(yml.inputs).length).toBeGreaterThan(0);
    for (const [name, input] of Object.entries(yml.inputs)) {
      expect(input.description, name).toMatch(/ Default: [^.\s][^]*\.$/);
      expect(ref.includes(`| \`${name}\` |`) || ref.includes(`| \`--${name} `) || ref.includes(`| \`--${name}\` |`), name).toBe(true);
    }
    expect(Object.keys(yml.outputs).length).toBeGreaterThan(0);
    for (const name of Object.keys(yml.outputs)) expect(ref.slice(ref.indexOf('## Action outputs')), name).toContain(`| \`${name}\` |`);
  });

  it('--check fails on a stale file and names the command that mends it', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs'));
    for (const path of ['action.yml', 'docs/reference.md']) copyFileSync(join(ROOT, path), join(dir, path));
    const check = () => spawnSync(process.execPath, [join(ROOT, 'scripts/reference.ts'), '--check', '--root', dir], { encoding: 'utf8' });
    expect(check().status).toBe(0);
    const yml = join(dir, 'action.yml');
    writeFileSync(yml, readFileSync(yml, 'utf8').replace('Default: 2%.', 'Default: 3%.'));
    const res = check();
    expect(res.status).toBe(1);
    expect(res.stderr).toBe('action.yml is stale: run node scripts/reference.ts\n');
  });
});
