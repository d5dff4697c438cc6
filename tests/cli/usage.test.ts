/** Every bad input gets one line naming it and what is expected, exit status 2, no stack trace. */
import { COMPARE_OPTIONS } from '../../src/config/options.ts';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairbench } from '../support/cli.ts';
import { tempDir } from '../support/repo.ts';

/** Where a case that would otherwise run measures and writes: never the project's own checkout. */
const scratch = tempDir();
const aside = ['--base-dir', scratch, '--head-dir', scratch, '--max-pairs', '10', '--out', join(scratch, 'r.json')];

/** A config file one byte over the cap (sparse: it costs no disk). */
function bigConfig(): string {
  const path = join(scratch, 'big.yml');
  writeFileSync(path, '');
  truncateSync(path, 16 * 1024 * 1024 + 1);
  return path;
}

/** A pipe no one writes to: reading it would wait forever. */
function fifo(): string {
  const path = join(scratch, 'pipe.yml');
  if (!existsSync(path)) execFileSync('mkfifo', [path]);
  return path;
}

const cases: [string[], RegExp][] = [
  [['compare', '--max-pairs', 'abc', '--run', 'true'], /--max-pairs: got "abc"; expected a whole number/],
  [['compare', '--min-pairs', '0', '--run', 'true'], /--min-pairs: got "0"; expected a whole number from 1 to 1000000/],
  [['compare', '--threshold', 'lots', '--run', 'true'], /--threshold: got "lots"; expected a percentage such as 2%/],
  [['compare', '--alpha', '2', '--run', 'true'], /--alpha: got "2"; expected a significance level/],
  [['compare', '--max-time', '10 parsecs', '--run', 'true'], /--max-time: got "10 parsecs"; expected a duration/],
  [['compare', '--format', 'xml', '--run', 'true'], /--format: got "xml"; expected one of time, go, criterion/],
  [['compare', '--metric', 'wall,joules', '--run', 'true'], /--metric: got "joules"; expected one of wall, cpu, rss, instructions/],
  [['compare', '--outliers', 'iqr', '--run', 'true'], /--outliers: got "iqr"; expected one of tukey, mad, none/],
  [['compare', '--bogus', '--run', 'true'], /--bogus: unknown option/],
  [['compare', '--base-dir', '/tmp'], /--head-dir is missing/],
  [['compare', '--base-dir', '/no/such/dir', '--head-dir', '/tmp', '--run', 'true'], /--base-dir: got "\/no\/such\/dir"; expected an existing directory/],
  [['compare'], /--run is required/],
  [['compare', '--min-pairs', '50', '--max-pairs', '20', '--run', 'true'], /--min-pairs \(50\) is larger than --max-pairs \(20\)/],
  [['compare', '--shard', '3/2', '--run', 'true'], /--shard: got "3\/2"; expected i\/n/],
  [['compare', '--base=--upload-pack=touch pwned', '--run', 'true'], /--base: got "--upload-pack=touch pwned"; expected a git revision/],
  [['compare', '--base', '--upload-pack=x', '--run', 'true'], /--base: its value is missing or starts with a dash/],
  [['compare', '--base', '$(touch pwned)', '--run', 'true'], /--base: got "\$\(touch pwned\)"; expected a git revision/],
  [['compare', '--config', '/no/such.yml'], /--config: got "\/no\/such.yml"; expected a readable YAML file/],
  [['frobnicate'], /unknown command "frobnicate"/],
  [['noise', '--dir', '/no/such/dir', '--run', 'true'], /^pairbench: --dir: got "\/no\/such\/dir"; expected an existing directory/],
  [['noise', '--rev', '$(touch pwned)', '--run', 'true'], /^pairbench: --rev: got "\$\(touch pwned\)"; expected a git revision/],
  [['compare', '--json=yes', '--run', 'true'], /^pairbench: --json: takes no value; got "yes"/],
  [['compare', '--run'], /^pairbench: --run: a value is missing/],
  [['compare', '-x', '--run', 'true'], /^pairbench: -x: unknown option; run with --help for the list/],
  [['compare', 'extra', '--run', 'true'], /^pairbench: unexpected argument "extra"; options start with --/],
  [['report'], /no results file given/],
  [['report', '/no/such/results.json'], /no such file/],
  [['report', 'tests'], /^pairbench: tests: is a folder; expected a pairbench results file/],
  [['compare', '--config', 'tests'], /^pairbench: --config: got "tests", a folder; expected a YAML file/],
  // a config file is read only when it is a regular file, and never past its cap: a device would be read until memory runs out
  [['compare', '--config', '/dev/urandom'], /^pairbench: --config: got "\/dev\/urandom", a character device, not a regular file; expected a YAML file$/m],
  [['compare', '--config', '/dev/zero'], /^pairbench: --config: got "\/dev\/zero", a character device, not a regular file; expected a YAML file$/m],
  [['compare', '--config', bigConfig()], /^pairbench: --config: got ".*big\.yml", a file of 16777217 bytes; expected a YAML file of at most 16777216 bytes$/m],
  [['compare', '--config', fifo()], /^pairbench: --config: got ".*pipe\.yml", a pipe \(FIFO\), not a regular file; expected a YAML file$/m],
  [['compare', '--timeout', '600h', '--run', 'true', ...aside], /--timeout: got "600h"; expected a duration greater than 0 and at most 596h/],
  [['compare', '--max-time', '2146000s', '--run', 'true', ...aside], /--max-time: got "2146000s"; expected a duration greater than 0 and at most 596h/],
  [['compare', '--precision', '200%', '--run', 'true', ...aside], /--precision: got "200%"; expected a percentage .*, greater than 0 and at most 100%/],
  [['compare', '--threshold', '2000%', '--run', 'true', ...aside], /--threshold: got "2000%"; expected a percentage .*, greater than 0 and at most 1000%/],
  [['compare', '--max-pairs', '99999999999999999999', '--run', 'true', '--base-dir', scratch, '--head-dir', scratch, '--out', join(scratch, 'r.json')], /--max-pairs: got "99999999999999999999"; expected a whole number from 1 to 1000000/],
  [['compare', '--warmup', '99999999999999999999', '--run', 'true', ...aside], /--warmup: got "99999999999999999999"; expected a whole number from 0 to 1000/],
  [['compare', '--shard', '5/2', '--run', 'true', ...aside], /--shard: got "5\/2"; expected i\/n with 1 ≤ i ≤ n ≤ 1000/],
  [['compare', '--shard', '1/99999999999999999999', '--run', 'true', ...aside], /--shard: got "1\/99999999999999999999"; expected i\/n with 1 ≤ i ≤ n ≤ 1000/],
  [['compare', '--head', 'HEAD', '--run', 'true', ...aside], /--head and --head-dir cannot be used together/],
  [['compare', '--cpus', 'first', '--run', 'true', ...aside], /^pairbench: --cpus: got "first"; expected a list of CPUs as Linux writes one, each once and below 8192, such as 1, 0,2 or 2-3, or auto, or none$/m],
  [['compare', '--cpus', '3-1', '--run', 'true', ...aside], /^pairbench: --cpus: got "3-1"; expected a list of CPUs/m],
  // past 2^53 a CPU number has no successor: the list is refused by its bound, not expanded until memory runs out
  [['compare', '--cpus', '9007199254740993', '--run', 'true', ...aside], /^pairbench: --cpus: got "9007199254740993"; expected a list of CPUs as Linux writes one, each once and below 8192/m],
  [['compare', '--cpus', '0-1,1', '--run', 'true', ...aside], /^pairbench: --cpus: got "0-1,1"; expected a list of CPUs as Linux writes one, each once/m],
];

describe('S15: every bad input gets one clear message and exit 2', () => {
  it.each(cases)('%j is refused with a clear message', (args, message) => {
    const res = pairbench(args);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help shows the user tier, at most 22 options, and --help-all every option', () => {
    const res = pairbench(['compare', '--help']);
    expect(res.status).toBe(0);
    const shown = (text: string) => text.split('\n').filter((l) => /^ {2}--[a-z]/.test(l)).map((l) => l.trim().split(/\s/)[0]!);
    const user = COMPARE_OPTIONS.filter((o) => o.tier === 'user').map((o) => `--${o.name}`);
    expect(shown(res.stdout)).toEqual([...user, '--html', '--help-all']);
    expect(shown(res.stdout).length).toBeLessThanOrEqual(22);
    for (const flag of ['--base', '--head', '--run', '--format', '--metric', '--max-pairs', '--threshold', '--fail-on']) expect(res.stdout).toContain(flag);
    expect(res.stdout).not.toContain('--fresh-copy');
    const all = pairbench(['compare', '--help-all']);
    expect(all.status).toBe(0);
    expect(shown(all.stdout)).toEqual([...COMPARE_OPTIONS.map((o) => `--${o.name}`), '--html']);
  });

  it('--help-all works for noise and bisect too, and --help hides their advanced options', () => {
    for (const command of ['noise', 'bisect']) {
      const short = pairbench([command, '--help']).stdout;
      const all = pairbench([command, '--help-all']).stdout;
      expect(short, command).toContain('--help-all');
      expect(short, command).not.toContain('--outliers');
      expect(all, command).toContain('--outliers');
    }
  });
});
