// Bundles the two entry points into dist/ (ESM, Node 24). The action runs dist/index.js; the
// CLI is dist/cli.js (the package's `bin`). Each entry is a small module that checks the Node.js
// version and the system, then imports the program from its chunk in dist/chunks/: so an old
// Node.js gets one clear line instead of a crash at import. dist/ is committed and CI checks it
// is up to date. Tests call `bundle(dir)` to build the same bundle elsewhere.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export async function bundle(outdir = resolve(root, 'dist')): Promise<void> {
  // Chunk names carry a content hash: clear the old ones, so dist/ holds only what the entries import.
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
  await build({
    entryPoints: { cli: resolve(root, 'src/bin.ts'), index: resolve(root, 'src/action.ts') },
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    target: 'node24',
    format: 'esm',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
    // Some CommonJS dependencies call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __pbCreateRequire } from 'node:module'; const require = __pbCreateRequire(import.meta.url);" },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await bundle();
