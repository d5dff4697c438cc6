/**
 * The recorded settings round trip: every option the option table marks `recorded` is written into
 * the results file by a real `pairbench compare` (run in debug mode, so no command is started) under
 * the key results/recorded.ts reads it back by, and reads back as the flag's own parser reads the
 * value given on the command line. A recorded option whose key names nothing in the Spec, or a key
 * written under another name, fails here.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedCpus } from '../../src/config/cpus.ts';
import { COMPARE_OPTIONS, recordedKey } from '../../src/config/options.ts';
import { parseOptionValue } from '../../src/config/spec.ts';
import { RECORDED_SETTINGS, readRecordedSetting } from '../../src/results/recorded.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** A value other than the default for each recorded option. */
const GIVEN: Record<string, string> = {
  'min-pairs': '11',
  'max-pairs': '12',
  'max-time': '5m',
  precision: '0.5%',
  warmup: '2',
  threshold: '3%',
  alpha: '0.01',
  outliers: 'mad',
  correction: 'bh',
  timeout: '90s',
  seed: '7',
  // the last two CPUs this process may use (`--cpus` checks the machine: Linux, with taskset), one
  // for each side of a pair at once; on a machine of one CPU, that one, and the pairs in turn
  cpus: (allowedCpus() ?? [0]).slice(-2).join(','),
  'fresh-copy': 'off',
  'pair-runs': (allowedCpus()?.length ?? 0) >= 2 ? 'at-once' : 'in-turn',
  'min-change': '5ms',
};

describe('recorded settings', () => {
  it('are the options the option table marks recorded, keyed camelCase (durations in ms)', () => {
    expect(RECORDED_SETTINGS.map((s) => s.flag).sort()).toEqual(Object.keys(GIVEN).sort());
    expect(RECORDED_SETTINGS.find((s) => s.flag === 'max-time')!.key).toBe('maxTimeMs');
    expect(RECORDED_SETTINGS.find((s) => s.flag === 'min-pairs')!.key).toBe('minPairs');
  });

  it('a real compare writes each under its key, and each reads back as its flag reads the value given', () => {
    const dir = realpathSync(tempDir('pairbench-recorded-'));
    mkdirSync(join(dir, 'base'));
    mkdirSync(join(dir, 'head'));
    writeFileSync(join(dir, 'script.json'), JSON.stringify({ benchmarks: { '*': { baseMs: 10, noise: 0.01 } } }));
    const flags = Object.entries(GIVEN).flatMap(([flag, value]) => [`--${flag}`, value]);
    const res = pairbench(['compare', '--base-dir', 'base', '--head-dir', 'head', '--run', './bench', '--out', 'results.json', '--quiet', ...flags], {
      cwd: dir,
      env: { PAIRBENCH_DEBUG_RUNNER: 'script.json' },
    });
    expect(res.status, res.stderr).toBe(0);
    const settings = readResults(join(dir, 'results.json')).settings!;
    for (const o of COMPARE_OPTIONS.filter((x) => x.recorded !== undefined)) {
      const key = recordedKey(o);
      expect(settings[key], key).not.toBeUndefined();
      expect(readRecordedSetting(settings, key), key).toEqual({ value: parseOptionValue(o.name, o.name, GIVEN[o.name]!) });
    }
  });
});
