// Screenshots of the README: the PR comment and the HTML report of a real comparison.
//
// It makes the demo's throwaway repository (examples/demo/work.c; head does 10% more work), runs
// `pairbench compare` on it with --markdown and --html, then renders the comment as GitHub does
// (GFM through marked, in github-markdown-css) and the HTML report in Chromium, and writes
// docs/comment.png, docs/comment-400px.png and docs/report.png.
//
//   npm run screenshots        (needs cc and Chromium: sudo apt-get install -y chromium)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gfmPage, launchBrowser } from '../tests/browser/browser.ts';

const root = resolve(import.meta.dirname, '..');
const docs = join(root, 'docs');
mkdirSync(docs, { recursive: true });

const repo = mkdtempSync(join(tmpdir(), 'pairbench-screenshots-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
const source = readFileSync(join(root, 'examples/demo/work.c'), 'utf8');
git('init', '--quiet', '--initial-branch=main');
git('config', 'user.email', 'demo@pairbench.invalid');
git('config', 'user.name', 'pairbench demo');
writeFileSync(join(repo, 'work.c'), source);
git('add', 'work.c');
git('commit', '--quiet', '-m', 'baseline');
writeFileSync(join(repo, 'work.c'), source.replace('#define WORK 100', '#define WORK 110'));
git('commit', '--quiet', '-am', 'do 10% more work');

const md = join(repo, 'comment.md');
const html = join(repo, 'report.html');
// CPU time: a shared machine's neighbours disturb it less than wall time
const args = [join(root, 'src/cli.ts'), 'compare', '--base', 'HEAD~1', '--head', 'HEAD', '--build', 'cc -O2 -o work work.c', '--run', './work', '--name', 'demo', '--metric', 'cpu', '--min-pairs', '20', '--out', 'pairbench-results.json', '--markdown', 'comment.md', '--html', 'report.html', '--quiet'];
console.log(`$ pairbench ${args.slice(1).join(' ')}`);
const run = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: repo });
if (run.status !== 0 && run.status !== 1) {
  console.error(`the comparison failed (exit ${run.status})`);
  process.exit(1);
}

const browser = await launchBrowser();
try {
  const wide = await browser.page({ width: 920, height: 600 });
  await wide.page.setContent(gfmPage(readFileSync(md, 'utf8')), { waitUntil: 'load' });
  // the folds open, as a reader would open them
  await wide.page.evaluate("document.querySelectorAll('details').forEach((d) => d.setAttribute('open', ''))");
  await wide.page.screenshot({ path: join(docs, 'comment.png'), fullPage: true });
  const narrow = await browser.page({ width: 400, height: 800 });
  await narrow.page.setContent(gfmPage(readFileSync(md, 'utf8')), { waitUntil: 'load' });
  await narrow.page.screenshot({ path: join(docs, 'comment-400px.png'), fullPage: false });
  const report = await browser.page({ width: 1040, height: 900 });
  await report.page.goto(`file://${html}`, { waitUntil: 'load' });
  await report.page.screenshot({ path: join(docs, 'report.png'), fullPage: true });
  const errors = [...wide.errors, ...narrow.errors, ...report.errors];
  if (errors.length > 0) throw new Error(`console errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
}
console.log(`wrote docs/comment.png, docs/comment-400px.png, docs/report.png (from ${repo})`);
