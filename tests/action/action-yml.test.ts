/**
 * action.yml stays in step with the code: every input the action reads is declared and every
 * declared input is read; the measuring options carry no `default:` (it would override the config
 * file) and their descriptions quote the one default in src/config/options.ts.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ALL_INPUTS, SPEC_INPUTS } from '../../src/action/inputs.ts';
import { optionDef } from '../../src/config/options.ts';

interface ActionYml {
  description: string;
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  branding: { icon: string; color: string };
}
const yml = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as ActionYml;

describe('action.yml', () => {
  it('runs the bundle on node24', () => {
    expect(yml.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(yml.branding.icon).toBeTruthy();
  });

  it('declares exactly the inputs the action reads', () => {
    expect(Object.keys(yml.inputs).sort()).toEqual([...ALL_INPUTS].sort());
  });

  it('has the inputs and outputs of the product contract', () => {
    const contract = ['run', 'build', 'prepare', 'format', 'metric', 'config', 'base-ref', 'head-ref', 'min-pairs', 'max-pairs', 'max-time', 'precision', 'warmup', 'threshold', 'alpha', 'outliers', 'timeout', 'seed', 'fail-on', 'github-token', 'comment', 'comment-id', 'check-name', 'pr-number', 'mode', 'results', 'shard', 'results-path'];
    for (const name of contract) expect(yml.inputs, name).toHaveProperty([name]);
    expect(Object.keys(yml.outputs).sort()).toEqual(['check-url', 'comment-url', 'improvements', 'inconclusive', 'regressions', 'report-path', 'results-path', 'verdict']);
    expect(yml.inputs['github-token']!.default).toBe('${{ github.token }}');
    expect(yml.inputs['comment']!.default).toBe('always');
    expect(yml.inputs['mode']!.default).toBe('compare');
  });

  it('has a description the Marketplace accepts (under 125 characters)', () => {
    expect(yml.description.length).toBeGreaterThan(40);
    expect(yml.description.length).toBeLessThan(125);
  });

  it('shows every input\'s default in its description, and no expression in any description', () => {
    for (const [name, input] of Object.entries(yml.inputs)) {
      // the runner evaluates ${{ }} in descriptions too, and fails to load the action on one
      expect(input.description, name).not.toContain('${{');
      expect(input.description, name).toMatch(/Default: [^.]+/);
      if (input.default === undefined) continue;
      const shown = /^\$\{\{\s*(.+?)\s*\}\}$/.exec(input.default)?.[1] ?? input.default;
      const clause = /Default: (.+)$/.exec(input.description)![1]!;
      expect(clause, name).toContain(shown);
    }
    for (const [name, output] of Object.entries(yml.outputs)) expect(output.description, name).not.toContain('${{');
  });

  it('gives measuring options no default, and quotes the one in options.ts', () => {
    for (const name of SPEC_INPUTS) {
      const input = yml.inputs[name]!;
      expect(input.default, name).toBeUndefined();
      const def = optionDef(name)?.default;
      if (def !== undefined) expect(input.description, name).toContain(`Default: ${def}.`);
      expect(input.description.length, name).toBeGreaterThan(20);
    }
  });
});
