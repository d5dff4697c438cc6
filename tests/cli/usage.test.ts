/** Every bad input gets one line naming it and what is expected, exit status 2, no stack trace. */
import { describe, expect, it } from 'vitest';
import { pairbench } from '../support/cli.ts';

const cases: [string[], RegExp][] = [
  [['compare', '--max-pairs', 'abc', '--run', 'true'], /--max-pairs: got "abc"; expected a whole number/],
  [['compare', '--min-pairs', '0', '--run', 'true'], /--min-pairs: got "0"; expected a whole number ≥ 1/],
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
  [['report'], /no results file given/],
  [['report', '/no/such/results.json'], /no such file/],
];

describe('S15: every bad input gets one clear message and exit 2', () => {
  it.each(cases)('%j is refused with a clear message', (args, message) => {
    const res = pairbench(args);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints help with every option', () => {
    const res = pairbench(['compare', '--help']);
    expect(res.status).toBe(0);
    for (const flag of ['--base', '--head', '--run', '--format', '--metric', '--max-pairs', '--precision', '--threshold', '--seed', '--fail-on']) {
      expect(res.stdout).toContain(flag);
    }
  });
});
