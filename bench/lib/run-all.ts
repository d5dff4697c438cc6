/**
 * `npm run bench`: every part of the performance-proof suite, one after another (never two at
 * once: each is a measurement), in the order cheapest first. A part runs when package.json
 * defines its script, so parts added later join by themselves. Stops at the first part that
 * fails. `npm run bench -- --dry-run` lists the parts only.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { duration, ROOT } from './machine.ts';

const ORDER = ['bench:stats-speed', 'bench:overhead', 'bench:calibration', 'bench:sensitivity', 'bench:sensitivity-adaptive'];
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
const parts = [...ORDER.filter((s) => s in scripts), ...Object.keys(scripts).filter((s) => s.startsWith('bench:') && !ORDER.includes(s))];
console.error(`bench: ${parts.join(', ')}`);
if (process.argv.includes('--dry-run')) process.exit(0);
const t0 = performance.now();
for (const part of parts) {
  const started = performance.now();
  console.error(`\nbench: npm run ${part}`);
  const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', part], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`bench: ${part} failed (exit ${r.status ?? r.signal}); stopping`);
    process.exit(r.status ?? 1);
  }
  console.error(`bench: ${part} done in ${duration(performance.now() - started)}`);
}
console.error(`\nbench: all parts done in ${duration(performance.now() - t0)}`);
