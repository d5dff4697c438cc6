// The screenshot (docs/cli.md, changed paths) of a comment with a benchmark not run (changed-only): a throwaway
// repository of two packages, each with its benchmark and its paths; the pull request touches the
// parser's package only, and makes it 10% slower. `pairbench compare --changed-only --markdown`
// writes the comment, rendered as GitHub renders it (GFM through marked, in github-markdown-css)
// in Chromium: docs/comment-not-run.png.
//
//   node scripts/screenshot-changed-paths.ts      (needs Chromium: sudo apt-get install -y chromium)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gfmPage, launchBrowser } from '../tests/browser/browser.ts';

const root = resolve(import.meta.dirname, '..');
const repo = mkdtempSync(join(tmpdir(), 'pairbench-not-run-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
// a benchmark that prints its value with ±0.5% noise (--format json): the picture does not depend on the machine
const bench = (name: string, value: number) =>
  `#!/bin/sh\nawk -v s="$(od -An -N3 -tu4 /dev/urandom)" 'BEGIN{srand(s); printf "[{\\"name\\":\\"${name}\\",\\"value\\":%.5f,\\"unit\\":\\"ms\\"}]\\n", ${value}*(1+(rand()-0.5)*0.01)}'\n`;
const write = (files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
};
git('init', '--quiet', '--initial-branch=main');
git('config', 'user.email', 'demo@pairbench.invalid');
git('config', 'user.name', 'pairbench demo');
write({
  'packages/parser/bench.sh': bench('parse', 12.5),
  'packages/render/bench.sh': bench('render', 40),
  'pairbench.yml': 'changed-only: true\npaths-ignore: "**/*.md"\nbenchmarks:\n  - name: parse\n    run: sh packages/parser/bench.sh\n    format: json\n    paths: packages/parser/**\n  - name: render\n    run: sh packages/render/bench.sh\n    format: json\n    paths: packages/render/**\n',
});
git('add', '-A');
git('commit', '--quiet', '-m', 'baseline');
write({ 'packages/parser/bench.sh': bench('parse', 13.75), 'packages/parser/README.md': 'notes\n' });
git('add', '-A');
git('commit', '--quiet', '-m', 'parser: copy every token');

const args = [join(root, 'src/cli.ts'), 'compare', '--base', 'HEAD~1', '--head', 'HEAD', '--config', 'pairbench.yml', '--seed', '3', '--out', 'pairbench-results.json', '--markdown', 'comment.md', '--quiet'];
const run = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: repo });
if (run.status !== 0 && run.status !== 1) {
  console.error(`the comparison failed (exit ${run.status})`);
  process.exit(1);
}
const browser = await launchBrowser();
try {
  const wide = await browser.page({ width: 920, height: 400 });
  await wide.page.setContent(gfmPage(readFileSync(join(repo, 'comment.md'), 'utf8')), { waitUntil: 'load' });
  await wide.page.screenshot({ path: join(root, 'docs', 'comment-not-run.png'), fullPage: true });
  if (wide.errors.length > 0) throw new Error(`console errors: ${wide.errors.join('; ')}`);
} finally {
  await browser.close();
}
console.log(`wrote docs/comment-not-run.png (from ${repo})`);
