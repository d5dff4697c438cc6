/** S15: a config file that cannot be read is named with the reason, told apart by its error code. */
import { mkdirSync } from 'node:fs';
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
