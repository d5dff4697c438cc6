// Bundles the two entry points into dist/ (ESM, Node 24). The action runs dist/index.js; the
// CLI is dist/cli.js (the package's `bin`). dist/ is committed and CI checks it is up to date.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const entries = [
  { in: 'src/cli.ts', out: 'cli' },
  { in: 'src/action.ts', out: 'index' },
].filter((e) => existsSync(e.in));

await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __pbCreateRequire } from 'node:module'; const require = __pbCreateRequire(import.meta.url);" },
});
