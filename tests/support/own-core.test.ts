/**
 * The core each example test measures on (tests/support/examples.ts, `ownCore`): two test files
 * measuring at once get two different cores, and the CLI with every command it starts runs there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairbench } from './cli.ts';
import { cpuList, ownCore } from './examples.ts';
import { tempDir } from './repo.ts';

describe('the example tests, each on its own core', () => {
  it('reads a cpuset list as Linux writes it, and nothing from a malformed one', () => {
    expect(cpuList('0-3,6')).toEqual([0, 1, 2, 3, 6]);
    expect(cpuList('1\n')).toEqual([1]);
    expect(cpuList('0-1,4-5')).toEqual([0, 1, 4, 5]);
    expect(cpuList('')).toEqual([]);
    expect(cpuList('0-a')).toEqual([]);
  });

  const linux = process.platform === 'linux' && availableParallelism() >= 2;
  it.runIf(linux)('gives the two vitest workers two different cores, and binds the CLI and the commands it runs to one', () => {
    const first = ownCore({ ...process.env, VITEST_POOL_ID: '1' });
    const second = ownCore({ ...process.env, VITEST_POOL_ID: '2' });
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(first).not.toBe(second);

    const dir = tempDir();
    // the benchmark command writes the CPUs it may run on, then one result in pairbench's json format
    writeFileSync(join(dir, 'bench.sh'), 'grep Cpus_allowed_list /proc/self/status > "$1/affinity.txt"\necho \'[{"name":"noop","value":1,"unit":"ns"}]\'\n');
    const res = pairbench(['compare', '--base-dir', dir, '--head-dir', dir, '--run', `sh bench.sh ${dir}`, '--format', 'json', '--min-pairs', '1', '--max-pairs', '1', '--warmup', '0', '--fail-on', 'none', '--out', join(dir, 'r.json'), '--quiet'], { core: second });
    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(join(dir, 'affinity.txt'), 'utf8').trim()).toBe(`Cpus_allowed_list:\t${second}`);
  });
});
