// Fails when dist/ differs from what `npm run bundle` makes of the sources: the action runs
// dist/, so a stale dist/ would ship old code.
import { execFileSync } from 'node:child_process';

execFileSync(process.execPath, ['scripts/bundle.ts'], { stdio: 'inherit' });
const diff = execFileSync('git', ['status', '--porcelain', '--', 'dist'], { encoding: 'utf8' });
if (diff.trim() !== '') {
  console.error('dist/ is stale: run `npm run bundle` and commit dist/.\n' + diff);
  process.exit(1);
}
console.log('dist/ is up to date.');
