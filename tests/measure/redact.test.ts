/** S4: the redaction of captured output, as a pure function. */
import { describe, expect, it } from 'vitest';
import { redact, secretValues } from '../../src/measure/redact.ts';

describe('S4: redaction', () => {
  it('S4: takes the values of secret-looking variables, long enough to be secrets', () => {
    const env = {
      GITHUB_TOKEN: 'ghs_abcdefgh12345678',
      'INPUT_GITHUB-TOKEN': 'ghs_abcdefgh12345678',
      NPM_TOKEN: 'npm-token-value',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
      DB_PASSWORD: 'correct horse',
      MY_API_KEY: 'k-0123456789',
      SSH_KEY: 'ssh-key-material',
      KEYBOARD: 'us-international',
      AUTH: '1',
      HOME: '/home/runner',
      PATH: '/usr/bin',
      GITHUB_REPOSITORY: 'octo/repo',
    };
    expect(secretValues(env).sort()).toEqual(['correct horse', 'ghs_abcdefgh12345678', 'ghs_abcdefgh12345678', 'k-0123456789', 'npm-token-value', 'ssh-key-material', 'wJalrXUtnFEMI/K7MDENG']);
  });

  it('S4: redacts each value, its base64 forms and every token shape; leaves the rest', () => {
    const token = 'my-token-0123456789';
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
    const text = [
      `token=${token}`,
      `Authorization: basic ${basic}`,
      `b64 ${Buffer.from(token).toString('base64')}`,
      `classic ghp_${'a'.repeat(36)} app ghs_${'B1'.repeat(18)} fine-grained github_pat_11AAAAAAA0_${'c'.repeat(59)}`,
      'jwt eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0abc.c2lnbmF0dXJl',
      `npm npm_${'d'.repeat(36)} aws AKIAABCDEFGHIJKLMNOP slack xoxb-1234567890-abc`,
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----',
      'ordinary output: 12 passed, ghp_short, sha 0123456789abcdef0123456789abcdef01234567',
    ].join('\n');
    expect(redact(text, [token])).toBe(
      [
        'token=***',
        'Authorization: basic ***',
        'b64 ***',
        'classic *** app *** fine-grained ***',
        'jwt ***',
        'npm *** aws *** slack ***',
        '***',
        'ordinary output: 12 passed, ghp_short, sha 0123456789abcdef0123456789abcdef01234567',
      ].join('\n'),
    );
  });

  it('S4: a secret that contains another is redacted whole; short values are not redacted by value', () => {
    expect(redact('a long-secret-value-2 b', ['secret-value', 'long-secret-value-2', 'tiny'])).toBe('a *** b');
    expect(redact('tiny tiny', ['tiny'])).toBe('tiny tiny');
  });
});
