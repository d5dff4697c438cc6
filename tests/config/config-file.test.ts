/** S15: a config file that cannot be read is named with the reason, told apart by its error code. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envInputReader, readSettings } from '../../src/action/inputs.ts';
import { tempDir } from '../support/repo.ts';

function settings(workspace: string, config: string) {
  const env: NodeJS.ProcessEnv = { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: workspace, INPUT_CONFIG: config };
  return () => readSettings(envInputReader(env), env);
}

describe('S15: input config that cannot be read', () => {
  it.each([
    ['a folder', 'bench', /^input config: cannot read "bench" \(looked at .*\/bench: it is a folder \(EISDIR\)\); expected a YAML file in the repository$/],
    ['a missing file', 'pairbench.yml', /^input config: cannot read "pairbench.yml" \(looked at .*\/pairbench\.yml: no such file or folder \(ENOENT\)\); expected a YAML file in the repository$/],
  ])('S15: %s is refused with the reason', (_what, config, message) => {
    const workspace = tempDir();
    mkdirSync(join(workspace, 'bench'));
    expect(settings(workspace, config)).toThrow(message);
  });
});

describe('S15: input config that is not a regular file', () => {
  it('S15: a FIFO is refused in one line without waiting for a writer', () => {
    const workspace = tempDir();
    execFileSync('mkfifo', [join(workspace, 'pairbench.yml')]);
    expect(settings(workspace, 'pairbench.yml')).toThrow(/^input config: cannot read "pairbench.yml" \(looked at .*\/pairbench\.yml: a pipe \(FIFO\), not a regular file\); expected a YAML file in the repository$/);
  });

  it('S15: a file over 16 MiB is refused before it is read', () => {
    const workspace = tempDir();
    writeFileSync(join(workspace, 'pairbench.yml'), '');
    truncateSync(join(workspace, 'pairbench.yml'), 16 * 1024 * 1024 + 1);
    expect(settings(workspace, 'pairbench.yml')).toThrow(/^input config: cannot read "pairbench.yml" \(looked at .*\/pairbench\.yml: a file of 16777217 bytes, more than 16777216\); expected a YAML file in the repository$/);
  });
});
