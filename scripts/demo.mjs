// The README's main job: a real comparison on the bundled example.
//
// It builds a throwaway git repository from examples/demo/work.c with two commits: the baseline,
// and a candidate that does 10% more work. Then it runs `pairbench compare` on them exactly as a
// user would, through the bundled CLI (dist/cli.js). Expected: a `regression` of about +10%.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const repo = mkdtempSync(join(tmpdir(), 'pairbench-demo-'));
const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
const source = readFileSync(join(root, 'examples/demo/work.c'), 'utf8');

git('init', '--quiet', '--initial-branch=main');
git('config', 'user.email', 'demo@pairbench.invalid');
git('config', 'user.name', 'pairbench demo');
writeFileSync(join(repo, 'work.c'), source);
git('add', 'work.c');
git('commit', '--quiet', '-m', 'baseline');
writeFileSync(join(repo, 'work.c'), source.replace('#define WORK 100', '#define WORK 110'));
git('commit', '--quiet', '-am', 'do 10% more work');

const args = [
  join(root, 'dist/cli.js'), 'compare',
  '--repo', repo, '--base', 'HEAD~1', '--head', 'HEAD',
  '--build', 'cc -O2 -o work work.c',
  '--run', './work',
  '--name', 'demo (work.c)',
  '--out', join(repo, 'pairbench-results.json'),
  '--markdown', join(repo, 'report.md'),
  ...process.argv.slice(2),
];
console.log(`Demo repository: ${repo} (head does 10% more work than base)`);
console.log(`$ pairbench ${args.slice(1).join(' ')}\n`);
const res = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (res.status === 1) {
  console.log('\nExit status 1: the gate caught the regression, as it should. Results and report are in the demo repository.');
  process.exit(0);
}
if (res.status === 0) console.log('\nExit status 0: no regression was found. On a very noisy machine, run it again or with --max-pairs 400.');
process.exit(res.status ?? 3);
