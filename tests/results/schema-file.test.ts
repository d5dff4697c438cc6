/**
 * The results file of version 2 as published: docs/results.schema.json is the JSON Schema the zod
 * schema generates (scripts/results-schema.ts), files pairbench writes validate against it (with
 * ajv, a JSON Schema validator apart from zod), the documented example is a real judged file, and
 * the schema says each interval and each setting once, with no field left over from version 1.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { renderResultsSchema, SCHEMA_PATH } from '../../scripts/results-schema.ts';
import { readResultsFile } from '../../src/results/read.ts';
import { ResultsV2Schema } from '../../src/results/schema-v2.ts';
import { ResultsWriter } from '../../src/results/writer.ts';
import { CLI, pairbench, ROOT } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

const published = JSON.parse(readFileSync(join(ROOT, SCHEMA_PATH), 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true }).compile(published);

/** The file at `path` checked by both validators: the zod schema pairbench reads with, and the published JSON Schema. */
function expectValidV2(path: string): Record<string, unknown> {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  expect(doc['schemaVersion']).toBe(2);
  const zod = ResultsV2Schema.safeParse(doc);
  expect(zod.success, JSON.stringify(zod.error?.issues.slice(0, 3))).toBe(true);
  expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  return doc;
}

/** A real `compare` on the scripted runner: a benchmark 15% slower, one untouched. */
function compareRun(): { dir: string; status: number | null; stderr: string } {
  const dir = realpathSync(tempDir('pairbench-v2-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'head'));
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ seed: 1, benchmarks: { checksum: { baseMs: 50, factor: 1.15, noise: 0.01 }, sort: { baseMs: 20, noise: 0.003 } } }));
  writeFileSync(join(dir, 'pairbench.yml'), ['benchmarks:', '  - name: checksum', '    run: ./checksum', '    threshold: 5%', '  - name: sort', '    run: ./sort', ''].join('\n'));
  const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--config', 'pairbench.yml', '--seed', '42', '--out', 'results.json', '--quiet'], { cwd: dir, env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' } });
  return { dir, status: res.status, stderr: res.stderr };
}

describe('docs/results.schema.json', () => {
  it('is what the zod schema of version 2 generates', () => {
    expect(readFileSync(join(ROOT, SCHEMA_PATH), 'utf8')).toBe(renderResultsSchema());
  });

  it('--check fails on a stale copy and names the command that mends it', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs'));
    copyFileSync(join(ROOT, SCHEMA_PATH), join(dir, SCHEMA_PATH));
    const check = () => spawnSync(process.execPath, [join(ROOT, 'scripts/results-schema.ts'), '--check', '--root', dir], { encoding: 'utf8' });
    expect(check().status).toBe(0);
    writeFileSync(join(dir, SCHEMA_PATH), readFileSync(join(dir, SCHEMA_PATH), 'utf8').replace('"decidedBy"', '"basis"'));
    const res = check();
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(`${SCHEMA_PATH} is stale: run node scripts/results-schema.ts\n`);
  });
});

describe('a file pairbench writes is of version 2 and validates', () => {
  it('a judged file of a real compare validates, says each setting once and reads back as it was judged', () => {
    const run = compareRun();
    expect(run.status, run.stderr).toBe(1);
    const doc = expectValidV2(join(run.dir, 'results.json')) as { judging: Record<string, unknown>; measured: { settings: Record<string, unknown> }; judgement: { benchmarks: { name: string; verdict: string; change: { decidedBy: string } }[] } };
    // the run's threshold and the benchmark's own (its config file's) in `judging` alone
    expect(doc.judging).toMatchObject({ threshold: 0.02, alpha: 0.05, benchmarks: [{ name: 'checksum', metric: 'wall', threshold: 0.05 }] });
    expect(Object.keys(doc.measured.settings)).not.toContain('threshold');
    expect(JSON.stringify(doc.measured)).not.toContain('"threshold"');
    const verdicts = Object.fromEntries(doc.judgement.benchmarks.map((b) => [b.name, [b.verdict, b.change.decidedBy]]));
    expect(verdicts).toEqual({ checksum: ['regression', 'test'], sort: ['unchanged', 'equivalence'] });
    // read back into the model the code works on: the row keeps its own threshold, the intervals their v1 names
    const back = readResultsFile(join(run.dir, 'results.json'));
    const byName = new Map(back.benchmarks.map((b) => [b.name, b]));
    expect(byName.get('checksum')!.threshold).toBe(0.05);
    expect(byName.get('sort')!.change!.basis).toBe('equivalence');
    expect(byName.get('sort')!.change!.confidence).toBe(0.95);
    expect(back.settings).toMatchObject({ threshold: 0.02, alpha: 0.05, seed: 42, maxPairs: 200 });
  });

  it('a file written while measuring (status running, nothing judged yet) validates, with the judging settings and no judgement', () => {
    const path = join(tempDir(), 'running.json');
    new ResultsWriter(path).write({
      schemaVersion: 1,
      tool: { name: 'pairbench', version: '1.0.0' },
      base: { ref: 'main', sha: null },
      head: { ref: 'feature', sha: null },
      settings: { seed: 7, threshold: 0.03, alpha: 0.05, maxPairs: 50 },
      status: 'running',
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: null,
      rounds: [['parse']],
      benchmarks: [{ name: 'parse', unit: 'ms', direction: 'lower-is-better', presence: 'both', pairs: [{ base: 10, head: 11, order: 'base-first' }] }],
    });
    const doc = expectValidV2(path) as { status: string; judging: Record<string, unknown>; judgement: unknown };
    expect(doc.status).toBe('running');
    expect(doc.judging).toEqual({ threshold: 0.03, alpha: 0.05 });
    expect(doc.judgement).toBeNull();
    // judged later from it, with the run's threshold
    const res = pairbench(['report', path, '--json']);
    expect(JSON.parse(res.stdout)).toMatchObject({ judging: { threshold: 0.03 }, judgement: { verdict: 'inconclusive' } });
  });
});

describe('docs/results.example.json', () => {
  const example = join(ROOT, 'docs/results.example.json');

  it('validates, and is a real judgement: pairbench report rebuilds exactly the judgement it holds', () => {
    const doc = expectValidV2(example) as { judgement: { tool: unknown } & Record<string, unknown>; measured: { settings: { timer: string } } };
    expect(doc.measured.settings.timer).toBe('scripted');
    const res = pairbench(['report', example, '--json']);
    expect(res.status, res.stderr).toBe(1);
    const again = JSON.parse(res.stdout) as typeof doc;
    const { tool: _t, ...judgement } = doc.judgement;
    const { tool: _u, ...rebuilt } = again.judgement;
    expect(rebuilt).toEqual(judgement);
    expect(again.measured).toEqual(doc.measured);
  });

  it('is what the commands docs/results.md shows make: the same pairs, judged alike (when the judging changes, run them again to mend it)', () => {
    const page = readFileSync(join(ROOT, 'docs/results.md'), 'utf8');
    expect(page).toContain('[results.example.json](results.example.json)');
    expect(page).toContain('[results.schema.json](results.schema.json)');
    const commands = /```sh\n([^]*?PAIRBENCH_DEBUG_RUNNER[^]*?)```/.exec(page)![1]!;
    const dir = realpathSync(tempDir('pairbench-example-'));
    const res = spawnSync('sh', ['-c', `pairbench() { "${process.execPath}" "${CLI}" "$@"; }\n${commands}`], { cwd: dir, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(1);
    const made = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { measured: { benchmarks: unknown }; judgement: { verdict: string; benchmarks: unknown } };
    const example = JSON.parse(readFileSync(join(ROOT, 'docs/results.example.json'), 'utf8')) as typeof made;
    expect(made.measured.benchmarks).toEqual(example.measured.benchmarks);
    expect(made.judgement.benchmarks).toEqual(example.judgement.benchmarks);
  });
});

/** Every property of the JSON Schema, by its path (`judgement.benchmarks[].change.test.ci`), with its schema. */
function properties(schema: unknown, path = ''): { path: string; name: string; schema: Record<string, unknown> }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const out: { path: string; name: string; schema: Record<string, unknown> }[] = [];
  for (const branch of [...((s['anyOf'] as unknown[]) ?? []), ...((s['oneOf'] as unknown[]) ?? []), ...((s['allOf'] as unknown[]) ?? [])]) out.push(...properties(branch, path));
  if (s['items'] && !Array.isArray(s['items'])) out.push(...properties(s['items'], `${path}[]`));
  if (typeof s['additionalProperties'] === 'object') out.push(...properties(s['additionalProperties'], `${path}{}`));
  for (const [name, sub] of Object.entries((s['properties'] as Record<string, unknown>) ?? {})) {
    const at = path ? `${path}.${name}` : name;
    out.push({ path: at, name, schema: sub as Record<string, unknown> }, ...properties(sub, at));
  }
  return out;
}

/** A pair of numbers: an interval. */
function isInterval(schema: Record<string, unknown>): boolean {
  const items = schema['items'];
  return schema['type'] === 'array' && Array.isArray(items) && items.length === 2 && items.every((i: { type?: string }) => i.type === 'number');
}

describe('the schema says each thing once', () => {
  const all = properties(published);

  it('holds each interval once: the test\'s and the equivalence interval, each beside its own level', () => {
    const intervals = all.filter((p) => isInterval(p.schema)).map((p) => p.path);
    expect(intervals).toEqual(['judgement.benchmarks[].change.test.ci', 'judgement.benchmarks[].change.equivalence.ci']);
    // a level is an interval's own, never a setting: one beside each interval, and nowhere else
    expect(all.filter((p) => p.name === 'level').map((p) => p.path)).toEqual(intervals.map((i) => i.replace(/ci$/, 'level')));
  });

  it('holds the settings of judging in `judging` alone: none in a row, none among the run\'s settings', () => {
    const settings = ['threshold', 'alpha', 'confidence', 'minChange', 'outliers', 'correction', 'failOn', 'allowNothingCompared'];
    for (const name of settings) {
      const where = all.filter((p) => p.name === name).map((p) => p.path);
      expect(where.length, name).toBeGreaterThanOrEqual(name === 'confidence' ? 0 : 1);
      // the comparison's value, and (threshold, min-change) a benchmark's own from its config file, listed by name
      for (const path of where) expect(path, name).toMatch(new RegExp(`^judging\\.(benchmarks\\[\\]\\.)?${name}$`));
    }
    // each once at the top of judging
    for (const name of settings.filter((n) => n !== 'confidence')) expect(all.filter((p) => p.path === `judging.${name}`), name).toHaveLength(1);
  });

  it('has no field left over from version 1: no geomean, no interval by basis, no copied level', () => {
    const names = new Set(all.map((p) => p.name));
    for (const dead of ['geomean', 'basis', 'tested', 'ciLevel', 'confidence', 'achievedConfidence', 'pValue']) expect(names.has(dead), dead).toBe(false);
  });

  it('declares every field: each object refuses one it does not list (only maps of names to values stay open)', () => {
    const objects: string[] = [];
    const open: string[] = [];
    const walk = (s: unknown, path: string): void => {
      if (typeof s !== 'object' || s === null) return;
      const o = s as Record<string, unknown>;
      if (o['type'] === 'object' && o['properties']) (o['additionalProperties'] === false ? objects : open).push(path);
      if (o['type'] === 'object' && !o['properties'] && typeof o['additionalProperties'] === 'object') open.push(`${path}{}`);
      for (const [k, v] of Object.entries(o)) {
        if (k === 'properties') for (const [name, sub] of Object.entries(v as Record<string, unknown>)) walk(sub, path ? `${path}.${name}` : name);
        else if (typeof v === 'object') walk(v, path);
      }
    };
    walk(published, '');
    expect(objects.length).toBeGreaterThan(20);
    // the toolchains each side found, and a finding's figures: maps by name
    expect(open.sort()).toEqual(['judgement.benchmarks.diagnostics.figures{}', 'measured.environment.toolchains.base{}', 'measured.environment.toolchains.head{}', 'measured.environments.toolchains.base{}', 'measured.environments.toolchains.head{}']);
  });
});
