/**
 * The action installs valgrind when a benchmark measures instructions and the runner has no
 * counter (src/action/install-valgrind.ts), against a fake `sudo` and `apt-get` on a PATH that
 * holds nothing else: real processes, nothing of the project's replaced.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { counterForAction } from '../../src/action/install-valgrind.ts';
import { tempDir } from '../support/repo.ts';

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/**
 * A PATH of one folder: `sudo` that runs its command (or refuses, as without passwordless sudo),
 * and `apt-get` that logs its arguments and, on `install`, puts a `valgrind` there; with
 * `staleLists`, an install fails until `update` has run.
 */
function fakeRunner(opts: { sudo?: 'works' | 'password'; staleLists?: boolean } = {}): { env: NodeJS.ProcessEnv; bin: string; calls: () => string[] } {
  const bin = tempDir();
  const log = join(bin, 'apt.log');
  script(join(bin, 'sudo'), opts.sudo === 'password' ? 'echo "sudo: a password is required" >&2; exit 1' : '[ "$1" = -n ] && shift; exec "$@"');
  script(
    join(bin, 'apt-get'),
    [
      `echo "$*" >> ${log}`,
      `if [ "$1" = update ]; then : > ${join(bin, 'updated')}; exit 0; fi`,
      opts.staleLists ? `[ -e ${join(bin, 'updated')} ] || { echo "E: Unable to fetch some archives, maybe run apt-get update" >&2; exit 100; }` : ':',
      `printf '#!/bin/sh\\necho valgrind-3.22.0\\n' > ${join(bin, 'valgrind')}`,
      `/bin/chmod +x ${join(bin, 'valgrind')}`,
    ].join('\n'),
  );
  return { env: { PATH: bin }, bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

const measuring = (metrics: Array<'wall' | 'instructions'>) => ({ benchmarks: [{ metrics }] }) as unknown as Parameters<typeof counterForAction>[0];

describe('valgrind for instruction counts in the action', () => {
  it('is not asked for when no benchmark measures instructions', async () => {
    const runner = fakeRunner();
    const lines: string[] = [];
    expect(await counterForAction(measuring(['wall']), runner.env, (l) => lines.push(l))).toBeNull();
    expect(runner.calls()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('is installed with passwordless sudo apt-get when missing, and the time it took is said', async () => {
    const runner = fakeRunner();
    const lines: string[] = [];
    let t = 1_000;
    const counter = await counterForAction(measuring(['wall', 'instructions']), runner.env, (l) => lines.push(l), () => (t += 6_200));
    expect(counter).toBe('valgrind');
    expect(runner.calls()).toEqual(['install -y -q --no-install-recommends valgrind']);
    expect(lines[0]).toContain('installing valgrind (sudo apt-get install -y valgrind)');
    expect(lines[1]).toBe('Installed valgrind in 6.2 s');
  });

  it('updates stale package lists and tries again', async () => {
    const runner = fakeRunner({ staleLists: true });
    const lines: string[] = [];
    expect(await counterForAction(measuring(['instructions']), runner.env, (l) => lines.push(l))).toBe('valgrind');
    expect(runner.calls()).toEqual(['install -y -q --no-install-recommends valgrind', 'update -q', 'install -y -q --no-install-recommends valgrind']);
    expect(lines.at(-1)).toMatch(/^Installed valgrind in \d+\.\d s$/);
  });

  it('without passwordless sudo: no counter, and a warning that says why', async () => {
    const runner = fakeRunner({ sudo: 'password' });
    const lines: string[] = [];
    expect(await counterForAction(measuring(['instructions']), runner.env, (l) => lines.push(l))).toBeNull();
    expect(lines.at(-1)).toMatch(/^warning: valgrind could not be installed with sudo apt-get \(\d+\.\d s\): sudo: a password is required$/);
  });

  it('a runner that has valgrind already installs nothing', async () => {
    const runner = fakeRunner();
    script(join(runner.bin, 'valgrind'), 'echo valgrind-3.22.0');
    expect(await counterForAction(measuring(['instructions']), runner.env, () => undefined)).toBe('valgrind');
    expect(runner.calls()).toEqual([]);
  });
});
