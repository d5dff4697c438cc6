/**
 * The npm package as a user gets it: `npm pack` of the package (the bundle built from the sources,
 * action.yml, README, LICENSE), installed into an empty folder, and its `pairbench` bin run by name
 * on Node.js 22 and 24: `--version`, the demo comparison (examples/demo/work.c, two commits, head
 * doing 10% more work), and the replay line of its report, run as written (`pairbench ...`, the installed bin on PATH) from
 * a project that has the package. On Node.js 20 it refuses with one line and exit status 2.
 *
 * Node.js 24 is the project's pinned dev dependency; 20 and 22 come from the same `node` npm
 * package, installed into .cache/node-<major>/ by scripts/setup-ci.sh. Nothing here asserts on a
 * timing: a comparison may find the regression or not (exit 1 or 0), but it must run to the end on
 * that Node and say so in its results file.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.ts';
import { tempDir } from '../support/repo.ts';
import { requireTool, type RequiredTool } from '../support/require-tool.ts';
import { readResults } from '../support/cli.ts';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

const nodes: Record<'20' | '22' | '24', string> = {
  '20': join(root, '.cache/node-20/node_modules/node/bin/node'),
  '22': join(root, '.cache/node-22/node_modules/node/bin/node'),
  '24': join(root, 'node_modules/node/bin/node'),
};
function nodeOf(major: keyof typeof nodes): RequiredTool {
  return requireTool({
    name: `Node.js ${major} (the npm package node@${major} in .cache/node-${major})`,
    present: () => existsSync(nodes[major]) && spawnSync(nodes[major], ['--version'], { encoding: 'utf8' }).stdout.startsWith(`v${major}.`),
    install: major === '24' ? 'npm ci' : `bash scripts/setup-ci.sh (npm install --prefix .cache/node-${major} node@${major})`,
  });
}

let installDir: string;
let files: string[];

/** PATH with this Node first, then the installed package's bins, without this project's node_modules/.bin. */
function pathFor(node: string): string {
  const rest = (process.env['PATH'] ?? '').split(delimiter).filter((d) => d && !d.includes(`${sep}node_modules${sep}.bin`));
  return [dirname(node), join(installDir, 'node_modules', '.bin'), ...rest].join(delimiter);
}

/** Runs a command by name, as a user's shell would, with this Node first in PATH. */
function run(node: string, command: string, args: string[], cwd = installDir): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
    env: { HOME: process.env['HOME'], TMPDIR: process.env['TMPDIR'], PATH: pathFor(node), NO_COLOR: '1', npm_config_offline: 'true', npm_config_update_notifier: 'false' },
  });
}

beforeAll(async () => {
  // the package as `npm pack` makes it from a checkout whose dist/ is built from these sources
  const stage = tempDir('pairbench-pack-');
  for (const f of ['package.json', 'README.md', 'LICENSE', 'action.yml']) copyFileSync(join(root, f), join(stage, f));
  await bundle(join(stage, 'dist'));
  const out = tempDir('pairbench-tarball-');
  execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, encoding: 'utf8' });
  const tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
  files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();

  installDir = tempDir('pairbench-install-');
  writeFileSync(join(installDir, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: installDir, encoding: 'utf8', timeout: 240_000 });
}, 300_000);

/** A git repository beside the installed package: work.c, then a commit doing 10% more work. */
function demoRepo(name: string): string {
  const dir = join(installDir, name);
  mkdirSync(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'demo@pairbench.invalid');
  git('config', 'user.name', 'pairbench demo');
  const source = readFileSync(join(root, 'examples/demo/work.c'), 'utf8');
  writeFileSync(join(dir, 'work.c'), source);
  git('add', 'work.c');
  git('commit', '-q', '-m', 'baseline');
  writeFileSync(join(dir, 'work.c'), source.replace('#define WORK 100', '#define WORK 110'));
  git('commit', '-q', '-am', 'do 10% more work');
  return dir;
}

interface ResultsDoc {
  tool: { name: string; version: string };
  environment: { node: string };
  status: string;
  settings: { seed: number };
  benchmarks: { pairs: unknown[] }[];
}

describe('the npm package', () => {
  it('holds the bundle, action.yml, README and LICENSE, and its bin is dist/cli.js', () => {
    // dist/cli.js and dist/index.js are small entries that check Node.js first, then load dist/chunks/
    expect(files.filter((f) => !f.startsWith('package/dist/chunks/'))).toEqual(['package/LICENSE', 'package/README.md', 'package/action.yml', 'package/dist/cli.js', 'package/dist/index.js', 'package/package.json']);
    expect(files.filter((f) => f.startsWith('package/dist/chunks/')).every((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.startsWith('package/dist/chunks/'))).toBe(true);
    expect(pkg.bin).toEqual({ pairbench: 'dist/cli.js' });
    expect(existsSync(join(installDir, 'node_modules', '.bin', 'pairbench'))).toBe(true);
  });

  for (const major of ['22', '24'] as const) {
    const node = nodeOf(major);
    node.it(`on Node.js ${major}: pairbench --version, the demo comparison, and its report's replay line`, () => {
      const version = run(nodes[major], 'pairbench', ['--version']);
      expect(version.stderr).toBe('');
      expect(version.stdout.trim()).toBe(pkg.version);
      expect(version.status).toBe(0);

      const repo = demoRepo(`demo-${major}`);
      const compare = run(nodes[major], 'pairbench', ['compare', '--base', 'HEAD~1', '--head', 'HEAD', '--build', 'cc -O2 -o work work.c', '--run', './work', '--name', 'demo (work.c)', '--min-pairs', '6', '--max-pairs', '6', '--warmup', '0', '--out', 'first.json', '--markdown', 'report.md', '--quiet'], repo);
      expect([0, 1], `${compare.stdout}\n${compare.stderr}`).toContain(compare.status);
      const first = readResults(join(repo, 'first.json')) as unknown as ResultsDoc;
      expect(first.tool).toEqual({ name: 'pairbench', version: pkg.version });
      expect(first.environment.node).toMatch(new RegExp(`^v${major}\\.`));
      expect(first.status).toBe('complete');
      expect(first.benchmarks[0]!.pairs).toHaveLength(6);

      // the report's replay line, as written, from a project that has the package installed
      const replay = readFileSync(join(repo, 'report.md'), 'utf8').split('\n').find((l) => l.startsWith('pairbench compare '));
      expect(replay).toBeDefined();
      expect(replay).toContain(`--seed ${first.settings.seed}`);
      const again = run(nodes[major], 'sh', ['-c', `${replay} --out again.json --quiet`], repo);
      expect([0, 1], `${again.stdout}\n${again.stderr}`).toContain(again.status);
      const second = readResults(join(repo, 'again.json')) as unknown as ResultsDoc;
      expect(second.settings.seed).toBe(first.settings.seed);
      expect(second.environment.node).toBe(first.environment.node);
      expect(second.benchmarks[0]!.pairs).toHaveLength(6);
    });
  }

  nodeOf('20').it('on Node.js 20: refuses with one line and exit status 2', () => {
    const version = spawnSync(nodes['20'], ['--version'], { encoding: 'utf8' }).stdout.trim();
    for (const args of [['--version'], ['compare', '--run', 'true']]) {
      const r = run(nodes['20'], 'pairbench', args);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`pairbench needs Node.js 22 or later; this is Node.js ${version}.\n`);
      expect(r.status).toBe(2);
    }
  });
});
