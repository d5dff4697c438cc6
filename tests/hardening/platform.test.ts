/**
 * S22: an unsupported Node.js or system is refused first thing, with one line naming what is
 * needed and exit status 2, before any import can crash on a missing feature.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.ts';
import { refuseUnsupported } from '../../src/platform.ts';

describe('S22: refuseUnsupported', () => {
  it.each([
    ['linux', '20.11.1', 'pairbench needs Node.js 22 or later; this is Node.js v20.11.1.'],
    ['darwin', '18.0.0', 'pairbench needs Node.js 22 or later; this is Node.js v18.0.0.'],
    ['linux', '21.99.0', 'pairbench needs Node.js 22 or later; this is Node.js v21.99.0.'],
    ['win32', '24.1.0', 'pairbench runs on Linux and macOS; Windows is not supported yet.'],
    ['win32', '20.0.0', 'pairbench needs Node.js 22 or later; this is Node.js v20.0.0.'],
  ])('S22: %s with Node %s is refused', (platform, version, message) => {
    expect(refuseUnsupported(platform, version)).toBe(message);
  });

  it.each([
    ['linux', '22.0.0'],
    ['linux', '24.21.0'],
    ['darwin', '23.1.0'],
  ])('S22: %s with Node %s is accepted', (platform, version) => {
    expect(refuseUnsupported(platform, version)).toBeNull();
  });
});

/** A Node.js older than 22 on this machine, outside node_modules (the pinned one is 24). */
function oldNode(): string | null {
  let candidates: string[] = [];
  try {
    candidates = execFileSync('which', ['-a', 'node'], { encoding: 'utf8', env: { PATH: (process.env.PATH ?? '').split(':').filter((p) => !p.includes('node_modules')).join(':') } }).trim().split('\n');
  } catch {
    return null;
  }
  for (const c of [...candidates, '/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const v = execFileSync(c, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(/^v(\d+)/.exec(v)?.[1]) < 22) return c;
    } catch {
      // not there
    }
  }
  return null;
}

describe('S22: the bundle on an old Node.js', () => {
  const node = oldNode();
  let dir: string;
  beforeAll(async () => {
    if (!node) return;
    dir = mkdtempSync(join(tmpdir(), 'pairbench-old-node-'));
    await bundle(join(dir, 'dist'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!node).each(['cli.js', 'index.js'])('S22: dist/%s prints one line naming the Node.js needed, and exits 2', (entry) => {
    const version = execFileSync(node!, ['--version'], { encoding: 'utf8' }).trim();
    const res = spawnSync(node!, [join(dir, 'dist', entry), 'compare', '--run', 'true'], { cwd: dir, encoding: 'utf8' });
    expect(res.stderr).toBe(`pairbench needs Node.js 22 or later; this is Node.js ${version}.\n`);
    expect(res.stdout).toBe('');
    expect(res.status).toBe(2);
  });
});
