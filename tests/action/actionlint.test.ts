/**
 * S1: the workflows are valid GitHub Actions workflows (actionlint), and every `with:` they give
 * the action exists in action.yml: the project's own workflows (.github/workflows, which run the
 * action as `uses: ./`) and the examples (examples/workflows, whose `uses: pairbench/pairbench@v1`
 * is rewritten to `uses: ./`). Each set is linted in a scratch repository next to our action.yml,
 * with a canary step giving an input that action.yml lacks, which actionlint must report, or the
 * check proves nothing. None of them uses pull_request_target. The README's workflows are linted the
 * same way.
 *
 * actionlint is looked up in PATH and in `$(go env GOPATH)/bin` (scripts/setup-ci.sh installs it
 * with `go install`, from the Go module proxy); without it the lint fails under CI=true and is
 * skipped elsewhere (tests/support/require-tool.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../support/require-tool.ts';

const root = resolve(import.meta.dirname, '../..');
const examples = join(root, 'examples', 'workflows');
const own = join(root, '.github', 'workflows');
export const ACTIONLINT_MODULE = 'github.com/rhysd/actionlint/cmd/actionlint@v1.7.12';

/** actionlint in PATH, else in Go's bin folder, else null. */
function findActionlint(): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'actionlint'))) return join(dir, 'actionlint');
  }
  const go = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' });
  if (go.status !== 0) return null;
  const bin = join(go.stdout.trim().split(delimiter)[0] ?? '', 'bin', 'actionlint');
  return existsSync(bin) ? bin : null;
}

const actionlintPath = findActionlint();
const actionlint = requireTool({ name: 'actionlint', present: () => actionlintPath !== null, install: `go install ${ACTIONLINT_MODULE}` });

const yamlIn = (dir: string) => readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();

/** actionlint's findings for these workflows, linted next to our action.yml; the canary's are returned apart. */
function lint(workflows: Record<string, string>): { canary: string[]; others: string[] } {
  const scratch = mkdtempSync(join(tmpdir(), 'pairbench-actionlint-'));
  try {
    execFileSync('git', ['init', '-q'], { cwd: scratch });
    writeFileSync(join(scratch, 'action.yml'), readFileSync(join(root, 'action.yml')));
    // actionlint checks that runs.main exists; the bundle itself is not needed for linting
    mkdirSync(join(scratch, 'dist'));
    writeFileSync(join(scratch, 'dist', 'index.js'), '');
    mkdirSync(join(scratch, '.github', 'workflows'), { recursive: true });
    for (const [name, text] of Object.entries(workflows)) writeFileSync(join(scratch, '.github', 'workflows', name), text);
    writeFileSync(
      join(scratch, '.github', 'workflows', 'zz-canary.yml'),
      'on: push\npermissions:\n  contents: read\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          run: x\n          no-such-input: y\n',
    );
    const res = spawnSync(actionlintPath!, ['-no-color', '-shellcheck=', '-pyflakes='], { cwd: scratch, encoding: 'utf8' });
    const lines = (res.stdout ?? '').split('\n').filter((l) => /\.ya?ml:\d+:\d+:/.test(l));
    return { canary: lines.filter((l) => l.includes('zz-canary.yml')), others: lines.filter((l) => !l.includes('zz-canary.yml')) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe('examples/workflows', () => {
  it('has the documented workflows, none under pull_request_target, each with explained permissions', () => {
    expect(yamlIn(examples)).toEqual(['dispatch-rerun.yml', 'fork-report.yml', 'merge-queue.yml', 'pr-comment.yml', 'push-main.yml', 'sharded.yml']);
    for (const f of yamlIn(examples)) {
      const text = readFileSync(join(examples, f), 'utf8');
      expect(text, f).not.toMatch(/^\s*pull_request_target\s*:/m);
      expect(text, f).toMatch(/^permissions:\n(\s+[a-z-]+: (read|write)\s+# .+\n)+/m);
    }
  });

  actionlint.it('pass actionlint, with inputs checked against action.yml', () => {
    const workflows: Record<string, string> = {};
    for (const f of yamlIn(examples)) {
      const text = readFileSync(join(examples, f), 'utf8');
      expect(text, f).toContain('uses: pairbench/pairbench@v1');
      workflows[f] = text.replaceAll('uses: pairbench/pairbench@v1', 'uses: ./');
    }
    const { canary, others } = lint(workflows);
    expect(canary.join('\n')).toContain('no-such-input');
    expect(others, others.join('\n')).toEqual([]);
  });
});

describe("README.md's workflows", () => {
  /** The README's YAML blocks that are whole workflows (an `on:` and a `jobs:`). */
  const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^on:/m.test(b) && /^jobs:/m.test(b));

  it('are there, and none opts in to checking out a fork\'s code (actions/checkout v7\'s allow-unsafe-pr-checkout)', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(b).not.toMatch(/^\s*allow-unsafe-pr-checkout:/m);
  });

  actionlint.it('pass actionlint, with inputs checked against action.yml', () => {
    const workflows = Object.fromEntries(blocks.map((b, i) => [`readme-${i}.yml`, b.replaceAll('uses: pairbench/pairbench@v1', 'uses: ./')]));
    const { canary, others } = lint(workflows);
    expect(canary.join('\n')).toContain('no-such-input');
    expect(others, others.join('\n')).toEqual([]);
  });
});

describe('.github/workflows', () => {
  it('has ci and release, none under pull_request_target, each with explained permissions', () => {
    expect(yamlIn(own)).toEqual(['ci.yml', 'release.yml']);
    for (const f of yamlIn(own)) {
      const text = readFileSync(join(own, f), 'utf8');
      expect(text, f).not.toMatch(/pull_request_target/);
      expect(text, f).toMatch(/^permissions:\n(\s+[a-z-]+: (read|write)\s+# .+\n)+/m);
    }
  });

  actionlint.it('pass actionlint, their uses: ./ inputs checked against action.yml', () => {
    const workflows = Object.fromEntries(yamlIn(own).map((f) => [f, readFileSync(join(own, f), 'utf8')]));
    expect(Object.values(workflows).some((t) => t.includes('uses: ./\n'))).toBe(true);
    const { canary, others } = lint(workflows);
    expect(canary.join('\n')).toContain('no-such-input');
    expect(others, others.join('\n')).toEqual([]);
  });
});
