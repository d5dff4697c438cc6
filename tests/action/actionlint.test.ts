/**
 * S1: the example workflows are valid GitHub Actions workflows (actionlint), and their `with:`
 * inputs exist in action.yml: the examples are copied into a scratch repository next to our
 * action.yml with `uses: pairbench/pairbench@v1` rewritten to `uses: ./`, which actionlint checks
 * against the local action's inputs. None of them uses pull_request_target.
 *
 * actionlint is looked up in PATH and in `$(go env GOPATH)/bin`; when only Go is there, it is
 * installed with `go install` (from the Go module proxy); with neither, the test is skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const examples = join(root, 'examples', 'workflows');
const ACTIONLINT_MODULE = 'github.com/rhysd/actionlint/cmd/actionlint@v1.7.12';

function which(cmd: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const p = join(dir, cmd);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

/** Where actionlint is, or how to get it: `install` when only Go is there (done inside the test, with its own timeout). */
function findActionlint(): { path: string | null; install: { go: string; bin: string } | null; why: string } {
  const inPath = which('actionlint');
  if (inPath) return { path: inPath, install: null, why: '' };
  const go = which('go');
  if (!go) return { path: null, install: null, why: `neither actionlint nor go is installed: install actionlint (go install ${ACTIONLINT_MODULE}) to run this test` };
  const gopath = execFileSync(go, ['env', 'GOPATH'], { encoding: 'utf8' }).trim().split(delimiter)[0] ?? '';
  const bin = join(gopath, 'bin', 'actionlint');
  if (existsSync(bin)) return { path: bin, install: null, why: '' };
  return { path: null, install: { go, bin }, why: '' };
}

function installActionlint(install: { go: string; bin: string }): string {
  const res = spawnSync(install.go, ['install', ACTIONLINT_MODULE], { encoding: 'utf8', timeout: 540_000 });
  if (res.status !== 0 || !existsSync(install.bin)) {
    throw new Error(`go install ${ACTIONLINT_MODULE} failed: ${(res.stderr ?? '').split('\n').slice(-3).join(' ')}`);
  }
  return install.bin;
}

const workflows = readdirSync(examples).filter((f) => /\.ya?ml$/.test(f));
const found = findActionlint();
if (!found.path && !found.install) console.warn(`actionlint test skipped: ${found.why}`);

describe('examples/workflows', () => {
  it('has the documented workflows, none under pull_request_target, each with explained permissions', () => {
    expect(workflows.sort()).toEqual(['dispatch-rerun.yml', 'fork-report.yml', 'pr-comment.yml', 'push-main.yml', 'sharded.yml']);
    for (const f of workflows) {
      const text = readFileSync(join(examples, f), 'utf8');
      expect(text, f).not.toMatch(/^\s*pull_request_target\s*:/m);
      expect(text, f).toMatch(/^permissions:\n(\s+[a-z-]+: (read|write)\s+# .+\n)+/m);
    }
  });

  it.skipIf(!found.path && !found.install)('pass actionlint, with inputs checked against action.yml', { timeout: 600_000 }, () => {
    const actionlint = found.path ?? installActionlint(found.install!);
    const scratch = mkdtempSync(join(tmpdir(), 'pairbench-actionlint-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: scratch });
      copyFileSync(join(root, 'action.yml'), join(scratch, 'action.yml'));
      // actionlint checks that runs.main exists; the bundle itself is not needed for linting
      mkdirSync(join(scratch, 'dist'));
      writeFileSync(join(scratch, 'dist', 'index.js'), '');
      mkdirSync(join(scratch, '.github', 'workflows'), { recursive: true });
      for (const f of workflows) {
        const text = readFileSync(join(examples, f), 'utf8');
        expect(text, f).toContain('uses: pairbench/pairbench@v1');
        writeFileSync(join(scratch, '.github', 'workflows', f), text.replaceAll('uses: pairbench/pairbench@v1', 'uses: ./'));
      }
      // an input that action.yml lacks must be caught, or the check proves nothing
      writeFileSync(
        join(scratch, '.github', 'workflows', 'zz-canary.yml'),
        'on: push\npermissions:\n  contents: read\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          run: x\n          no-such-input: y\n',
      );
      const res = spawnSync(actionlint, ['-no-color', '-shellcheck=', '-pyflakes='], { cwd: scratch, encoding: 'utf8' });
      const lines = (res.stdout ?? '').split('\n').filter((l) => /\.ya?ml:\d+:\d+:/.test(l));
      const canary = lines.filter((l) => l.includes('zz-canary.yml'));
      const others = lines.filter((l) => !l.includes('zz-canary.yml'));
      expect(canary.join('\n')).toContain('no-such-input');
      expect(others, others.join('\n')).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
