/**
 * main(argv, io) writes only to the streams it is given and returns the exit status: the command
 * line runs in a test without a process of its own.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { VERSION } from '../../src/version.ts';

function streams(): { io: Parameters<typeof main>[1]; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io = { stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) }, env: {} };
  return { io, out: () => out, err: () => err };
}

describe('main(argv, io)', () => {
  it('--version writes the version to the given stdout and returns 0', async () => {
    const { io, out, err } = streams();
    expect(await main(['--version'], io)).toBe(0);
    expect(out()).toBe(`${VERSION}\n`);
    expect(err()).toBe('');
  });

  it('an unknown option is a usage error on the given stderr, status 2', async () => {
    const { io, out, err } = streams();
    expect(await main(['compare', '--no-such-flag'], io)).toBe(2);
    expect(out()).toBe('');
    expect(err()).toBe('pairbench: --no-such-flag: unknown option; run with --help for the list\n');
  });

  it('an unknown command is a usage error naming the commands, status 2', async () => {
    const { io, out, err } = streams();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(out()).toBe('');
    expect(err()).toBe('pairbench: unknown command "frobnicate"; expected compare, report, noise or bisect (see pairbench --help)\n');
  });
});
