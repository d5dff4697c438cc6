/**
 * The project's own workflows, right by construction since they cannot run here: ci.yml runs what
 * `.ci/run` runs and what the README tells users to run, on Linux and macOS; its test-action job
 * runs this repository as an action (`uses: ./`) with inputs and outputs that action.yml declares;
 * check-dist compares dist/ with the sources; release.yml releases semver tags with their
 * CHANGELOG section and moves the major tag.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without types
import { releaseNotes } from '../../scripts/release-notes.mjs';
import { tempDir } from '../support/repo.ts';

const root = resolve(import.meta.dirname, '../..');
interface Step {
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  'runs-on': string;
  strategy?: { matrix: { os: string[] } };
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}
const read = (f: string) => readFileSync(join(root, f), 'utf8');
const workflow = (f: string) => parse(read(f)) as Workflow;
const action = parse(read('action.yml')) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
const runs = (job: Job) => job.steps.map((s) => s.run?.trim()).filter((r): r is string => r !== undefined);
const notes = releaseNotes as (changelog: string, version: string) => string | null;

describe('ci.yml', () => {
  const ci = workflow('.github/workflows/ci.yml');

  it('runs the README\'s test command, after the same set-up as .ci/run, on ubuntu-latest and macos-latest', () => {
    const test = ci.jobs['test']!;
    expect(test.strategy!.matrix.os).toEqual(['ubuntu-latest', 'macos-latest']);
    expect(test['runs-on']).toBe('${{ matrix.os }}');
    expect(runs(test)).toContain('bash scripts/setup-ci.sh');
    expect(runs(test)).toContain('npm ci && npm test');
    expect(read('README.md')).toMatch(/^npm ci && npm test +# the full test suite/m);
    const local = read('.ci/run');
    expect(local).toMatch(/^bash scripts\/setup-ci\.sh$/m);
    expect(local).toMatch(/^npm ci --no-audit --no-fund$/m);
    expect(local).toMatch(/^npm test$/m);
    expect(ci.on).toHaveProperty('pull_request');
  });

  it('test-action runs uses: ./ on pull requests, with inputs and outputs that action.yml declares', () => {
    const job = ci.jobs['test-action']!;
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', checks: 'write' });
    const step = job.steps.find((s) => s.uses === './')!;
    expect(step.id).toBeTruthy();
    for (const name of Object.keys(step.with!)) expect(action.inputs, name).toHaveProperty([name]);
    expect(step.with).toMatchObject({ 'check-name': expect.any(String), 'comment-id': expect.any(String), 'fail-on': 'none' });
    expect(read('examples/demo/work.c')).toBeTruthy();
    expect(String(step.with!['build'])).toContain('examples/demo/work.c');
    // every output of the action is read and checked by the next step, and no other
    const used = [...read('.github/workflows/ci.yml').matchAll(new RegExp(`steps\\.${step.id}\\.outputs\\.([a-z-]+)`, 'g'))].map((m) => m[1]);
    expect([...new Set(used)].sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it('check-dist rebuilds dist/ and fails on a difference', () => {
    expect(runs(ci.jobs['check-dist']!)).toContain('npm run check-dist');
    expect(JSON.parse(read('package.json')).scripts['check-dist']).toBe('node scripts/check-dist.mjs');
  });

  it('reads the repository and writes nothing, except in test-action', () => {
    expect(ci.permissions).toEqual({ contents: 'read' });
  });
});

describe('release.yml', () => {
  const release = workflow('.github/workflows/release.yml');
  const steps = release.jobs['release']!.steps;
  const text = runs(release.jobs['release']!).join('\n');

  it('runs on semver tags only, tests, and refuses a tag that is not package.json\'s version', () => {
    expect(release.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
    expect(text).toContain('bash scripts/setup-ci.sh');
    expect(text).toContain('npm ci && npm test');
    expect(text).toMatch(/if \[ "\$TAG" != "v\$version" \]/);
  });

  it('releases with the CHANGELOG section as notes, moves the major tag, publishes with provenance', () => {
    expect(text).toContain('node scripts/release-notes.mjs "${TAG#v}"');
    expect(text).toContain('gh release create "$TAG" --verify-tag');
    expect(text).toContain('major="${TAG%%.*}"');
    expect(text).toContain('git push -f origin "refs/tags/$major"');
    expect(text).toContain('npm publish --provenance');
    expect(release.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    expect(steps.every((s) => !s.run?.includes('${{'))).toBe(true);
  });
});

describe('scripts/release-notes.mjs', () => {
  const changelog = '# Changelog\n\n## Unreleased\n\n- next\n\n## [1.1.0] - 2026-12-01\n\n### Fixed\n- b\n\n## [1.0.0] - 2026-11-24\n\n### Added\n- a\n';

  it('gives one version\'s section, up to the next heading', () => {
    expect(notes(changelog, '1.1.0')).toBe('### Fixed\n- b');
    expect(notes(changelog, '1.0.0')).toBe('### Added\n- a');
    expect(notes(changelog, 'Unreleased')).toBe('- next');
    expect(notes(changelog, '1.0')).toBeNull();
    expect(notes(changelog, '2.0.0')).toBeNull();
  });

  it('exits 1 naming the version when CHANGELOG.md has no section for it', () => {
    const file = join(tempDir(), 'CHANGELOG.md');
    writeFileSync(file, changelog);
    const script = join(root, 'scripts/release-notes.mjs');
    const ok = spawnSync(process.execPath, [script, '1.1.0', file], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('### Fixed\n- b\n');
    const missing = spawnSync(process.execPath, [script, '3.0.0', file], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no section "## [3.0.0] - <date>"');
  });

  it("CHANGELOG.md has a section with notes for the package's version, an Unreleased section above it, and only version headings", () => {
    const text = read('CHANGELOG.md');
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    expect(notes(text, version), `a section for ${version}`).not.toBeNull();
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings[0]).toBe('Unreleased');
    for (const h of headings) expect(h, 'a version heading').toMatch(/^(Unreleased|\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2})$/);
  });
});
