/**
 * changed-only: benchmarks chosen by the paths base..head changes. A real git repository of two
 * packages, each with its benchmark and its `paths:`; pull requests that touch one package, a file
 * of neither, or only docs. The real CLI; the benchmarks print their value (--format json), and
 * no assertion reads a verdict or a time, only which benchmarks ran.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFiles, selectByPaths, SelectionInterrupted } from '../../src/revisions/changed-paths.ts';
import { buildSpec, cliNaming, type BenchmarkSpec } from '../../src/config/spec.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir, tempRepo } from '../support/repo.ts';

function bench(name: string): string {
  return `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"${name}\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", 100*(1+(rand()-0.5)*0.01)}'\n`;
}

const CONFIG = `benchmarks:
  - name: parser
    run: sh packages/parser/bench.sh
    format: json
    paths: packages/parser/**
  - name: render
    run: sh packages/render/bench.sh
    format: json
    paths: [packages/render/**, shared/render.h]
`;

/** A repository with both packages at `main`, and a branch per pull request. */
function monorepo() {
  const repo = tempRepo();
  for (const p of ['packages/parser', 'packages/render', 'shared', 'docs']) mkdirSync(join(repo.dir, p), { recursive: true });
  const base = repo.commit({ 'packages/parser/bench.sh': bench('parser'), 'packages/parser/parse.c': '1\n', 'packages/render/bench.sh': bench('render'), 'packages/render/render.c': '1\n', 'shared/util.h': '1\n', 'docs/guide.md': '1\n', 'pairbench.yml': CONFIG }, 'base');
  const branch = (name: string, files: Record<string, string>) => {
    repo.git('checkout', '--quiet', '-b', name, base);
    const sha = repo.commit(files, name);
    repo.git('checkout', '--quiet', 'main');
    return sha;
  };
  return { repo, base, branch };
}

/** The config benchmarks a run measured: with both measured, result names carry their benchmark's name as a prefix (parser/parser). */
function measured(results: { benchmarks: { name: string }[] }): string[] {
  return results.benchmarks.map((b) => b.name.replace(/^(parser|render)\//, '')).sort();
}

function compare(dir: string, base: string, head: string, extra: string[] = []) {
  const out = tempDir();
  const file = join(out, 'r.json');
  const md = join(out, 'r.md');
  const res = pairbench(['compare', '--repo', dir, '--base', base, '--head', head, '--config', join(dir, 'pairbench.yml'), '--changed-only', '--max-pairs', '10', '--out', file, '--markdown', md, ...extra], { cwd: dir });
  return { res, results: () => readResults(file), markdown: () => readFileSync(md, 'utf8') };
}

describe('changed-only on a repository of two packages', () => {
  it("a pull request touching one package runs only that package's benchmark; the other is listed as not run", () => {
    const { repo, base, branch } = monorepo();
    const head = branch('parser-only', { 'packages/parser/parse.c': '2\n' });
    const run = compare(repo.dir, base, head);
    expect(run.res.stderr).not.toMatch(/\n\s+at /);
    expect(run.res.status).toBe(0);
    const results = run.results();
    expect(measured(results)).toEqual(['parser']);
    // the names a full run gives (parser/parser): a benchmark keeps its name whatever else ran
    expect(results.benchmarks.map((b) => b.name)).toEqual(['parser/parser']);
    expect(results.notRun).toEqual([{ name: 'render', why: 'nothing under its paths changed' }]);
    expect(run.res.stdout).toContain('not run: nothing under its paths changed (1): render');
    expect(run.res.stderr).toContain('changed-only: 1 file changed; running parser; not run (nothing under their paths changed): render');
    expect(run.markdown()).toContain('⏭️ **Not run: nothing under its paths changed** (1): render');
  });

  it('strict (the default) runs every benchmark when a changed file is under no benchmark\'s paths; matched runs only the touched one', () => {
    const { repo, base, branch } = monorepo();
    const head = branch('parser-and-shared', { 'packages/parser/parse.c': '2\n', 'shared/util.h': '2\n' });
    const strict = compare(repo.dir, base, head);
    expect(strict.res.status).toBe(0);
    expect(measured(strict.results())).toEqual(['parser', 'render']);
    expect(strict.results().notRun).toBeUndefined();
    expect(strict.res.stderr).toContain('"shared/util.h" under no benchmark\'s paths: every benchmark runs (paths-mode: strict)');
    const matched = compare(repo.dir, base, head, ['--paths-mode', 'matched']);
    expect(matched.res.status).toBe(0);
    expect(matched.results().benchmarks.map((b) => b.name)).toEqual(['parser/parser']);
    expect(matched.results().notRun?.map((n) => n.name)).toEqual(['render']);
  });

  it('a docs-only pull request measures nothing, builds nothing, passes, and says so in one line', () => {
    const { repo, base, branch } = monorepo();
    const head = branch('docs', { 'docs/guide.md': '2\n' });
    const log = join(tempDir(), 'builds.log');
    const run = compare(repo.dir, base, head, ['--paths-ignore', 'docs/** **/*.md', '--build', `echo built >> ${log}`]);
    expect(run.res.stderr).not.toMatch(/\n\s+at /);
    expect(run.res.status).toBe(0);
    const results = run.results();
    expect(results.benchmarks).toEqual([]);
    expect(results.notRun?.map((n) => n.name)).toEqual(['parser', 'render']);
    expect(results.status).toBe('complete');
    expect(() => readFileSync(log)).toThrow();
    const md = run.markdown();
    expect(md).toContain("### ⏭️ Nothing measured: no changed file is under a benchmark's paths");
    expect(md.trim().split('\n').length).toBeLessThanOrEqual(5);
  });

  it('refuses paths outside the repository and changed-only between directories, with one line and exit 2', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.yml'), 'benchmarks:\n  - name: a\n    run: "true"\n    paths: ../elsewhere/**\n');
    const bad = pairbench(['compare', '--config', join(dir, 'bad.yml'), '--base', 'HEAD', '--changed-only'], { cwd: dir });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toMatch(/benchmarks\[0\]\.paths: got "\.\.\/elsewhere\/\*\*"; expected a glob relative to the repository root/);
    const dirs = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', 'true', '--changed-only']);
    expect(dirs.status).toBe(2);
    expect(dirs.stderr.trim()).toMatch(/^pairbench: --changed-only compares the files two git revisions change/);
    for (const r of [bad, dirs]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

const spec = (name: string, paths?: string[]): BenchmarkSpec => ({ name, run: 'true', format: 'time', metrics: ['wall'], prepare: null, filter: null, ...(paths ? { paths } : {}) });

describe('selectByPaths', () => {
  const suite = [spec('parser', ['packages/parser/**']), spec('render', ['packages/render/**']), spec('always')];

  it('runs a benchmark without paths on any change, and nothing when no file changed', async () => {
    expect((await selectByPaths(suite, ['packages/parser/a.c'], { mode: 'matched', ignore: [] })).run.map((b) => b.name)).toEqual(['parser', 'always']);
    expect((await selectByPaths(suite, [], { mode: 'strict', ignore: [] })).run).toEqual([]);
    expect((await selectByPaths(suite, ['README.md'], { mode: 'strict', ignore: ['*.md'] })).notRun.map((n) => n.name)).toEqual(['parser', 'render', 'always']);
  });

  it('matches dotfiles and nested paths', async () => {
    expect((await selectByPaths(suite, ['packages/render/.config/x'], { mode: 'matched', ignore: [] })).run.map((b) => b.name)).toEqual(['render', 'always']);
  });

  it.each(['src', 'src/', 'src/**/', 'src/**'])('a folder named as a folder (%s) matches the files under it, in both modes', async (glob) => {
    const two = [spec('src', [glob]), spec('other', ['other/**'])];
    for (const mode of ['strict', 'matched'] as const) {
      const chosen = await selectByPaths(two, ['src/deep/a.c'], { mode, ignore: [] });
      expect(chosen.run.map((b) => b.name), mode).toEqual(['src']);
      expect(chosen.unclaimed).toEqual([]);
    }
    expect((await selectByPaths(two, ['README.md'], { mode: 'strict', ignore: ['docs', '*.md'] })).run).toEqual([]);
  });

  it('a literal file glob matches that file', async () => {
    const chosen = await selectByPaths([spec('render', ['shared/render.h']), spec('parser', ['packages/parser/**'])], ['shared/render.h'], { mode: 'strict', ignore: [] });
    expect(chosen.run.map((b) => b.name)).toEqual(['render']);
  });

  it('S20: 100,000 changed files against 1,000 benchmarks are chosen from in one pass, in strict and matched mode', async () => {
    const many = Array.from({ length: 1000 }, (_, k) => spec(`b${k}`, [`packages/p${k}/**`, `shared/p${k}/*.h`]));
    const files = Array.from({ length: 100_000 }, (_, i) => `packages/p${i % 1000}/src/file${i}.c`);
    for (const mode of ['strict', 'matched'] as const) {
      const start = performance.now();
      const chosen = await selectByPaths(many, [...files.slice(0, 99_999), 'shared/p7/x.h'].filter((f, i) => i % 1000 !== 3), { mode, ignore: ['**/*.md'] });
      // every benchmark but b3 has a changed file (every thousandth file, p3's, was left out)
      expect(chosen.run).toHaveLength(999);
      expect(chosen.notRun.map((n) => n.name)).toEqual(['b3']);
      // quadratic, this took over a minute; one pass takes well under a second
      expect(performance.now() - start).toBeLessThan(20_000);
    }
  }, 60_000);

  it('S11: a signal stops the selection between chunks of files', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(selectByPaths(suite, ['packages/parser/a.c'], { mode: 'strict', ignore: [], signal: controller.signal })).rejects.toBeInstanceOf(SelectionInterrupted);
  });

  it('a file name too long for a glob counts for every benchmark: it can hide no change', async () => {
    const long = `packages/parser/${'a'.repeat(300)}.c`;
    expect((await selectByPaths(suite, [long], { mode: 'matched', ignore: ['**/*.c'] })).run.map((b) => b.name)).toEqual(['parser', 'render', 'always']);
  });
});

describe('changed-only through a tracked symbolic link', () => {
  it('a file changed through a link counts for the benchmark whose paths hold the link, in strict and matched mode', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo.dir, 'shared/lib'), { recursive: true });
    mkdirSync(join(repo.dir, 'packages/parser'), { recursive: true });
    symlinkSync('../../shared/lib', join(repo.dir, 'packages/parser/vendor'));
    const base = repo.commit({ 'shared/lib/x.c': '1\n', 'packages/parser/p.c': '1\n' }, 'base');
    const head = repo.commit({ 'shared/lib/x.c': '2\n' }, 'head');
    const files = await changedFiles(repo.dir, base, head);
    expect(files.sort()).toEqual(['packages/parser/vendor/x.c', 'shared/lib/x.c']);
    // lib claims the file where it lies, parser where its link shows it: both run
    const benchmarks = [spec('parser', ['packages/parser/**']), spec('lib', ['shared/lib/**']), spec('render', ['packages/render/**'])];
    for (const mode of ['strict', 'matched'] as const) {
      expect((await selectByPaths(benchmarks, files, { mode, ignore: [] })).run.map((b) => b.name), mode).toEqual(['parser', 'lib']);
    }
    repo.remove();
  });
});

describe('changed-only across shards', () => {
  it('strict: the shards run their parts of one selection, so a file claimed by a benchmark of another shard runs nothing else', () => {
    const { repo, base, branch } = monorepo();
    const head = branch('parser-only-sharded', { 'packages/parser/parse.c': '2\n' });
    const ran = [1, 2].flatMap((k) => {
      const run = compare(repo.dir, base, head, ['--shard', `${k}/2`]);
      expect(run.res.status, run.res.stderr).toBe(0);
      return run.results().benchmarks.map((b) => b.name.replace(/^(parser|render)\//, ''));
    });
    expect(ran.sort()).toEqual(['parser']);
  });
});

describe('S20: globs are bounded before they meet a name', () => {
  const config = (paths: string) => ({ path: 'c.yml', text: `benchmarks:\n  - name: a\n    run: x\n    paths: ${JSON.stringify(paths)}\n` });
  it.each(['*a*a*a*a*a*a*a*b', '*a*/*a*/*a*/b', 'a/*a*a*b', `${'x'.repeat(300)}/**`, '+(a|aa)*', '**/a/**/b/**/c/**/d'])('refuses %s in one line naming it', (glob) => {
    expect(() => buildSpec({}, { cwd: '/', naming: cliNaming, config: config(glob) })).toThrow(/^--config c\.yml: benchmarks\[0\]\.paths: got ".*"; expected a glob of at most 256 characters, 3 single stars \(two in one folder level\) and 3 \*\*, without extglobs/);
    expect(() => buildSpec({ 'changed-only': true, 'paths-ignore': glob, run: 'x' }, { cwd: '/', naming: cliNaming })).toThrow(/^--paths-ignore: got /);
  });

  it('the worst glob it accepts matches a hostile name of the longest level quickly: the selection hears a signal within a chunk', async () => {
    const name = `${'a'.repeat(255)}/${'a'.repeat(255)}/c`;
    const start = performance.now();
    const chosen = await selectByPaths([spec('hostile', ['*a*/*a/b']), spec('other', ['src/**'])], Array.from({ length: 20 }, () => name), { mode: 'matched', ignore: ['**/*a*a*'] });
    expect(chosen.run).toEqual([]);
    // 20 matches of a few tens of ms each; five stars in one level took over a minute for one
    expect(performance.now() - start).toBeLessThan(20_000);
  });
});
