/**
 * Redaction of captured output (S4): what a build or a benchmark printed is stored in the results
 * file and shown in the terminal, the job summary and the PR comment. The runner masks the secrets
 * it knows in its log only, never in what pairbench posts, so every captured output is redacted
 * before it is stored or shown: the values of the secrets this process knows (its token, every
 * secret-looking variable of its environment, also base64-encoded as in an HTTP basic
 * `Authorization` header) and common token shapes, whatever printed them.
 *
 * Pure: secrets in, text in, text out.
 */

const REDACTED = '***';

/** Names of environment variables whose values are secrets (`GITHUB_TOKEN`, `NPM_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, `SSH_KEY`, `INPUT_GITHUB-TOKEN`...). */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_?KEY|API_?KEY|ACCESS_?KEY|(?:^|_)KEY(?:$|_)|AUTH/i;

/** Values shorter than this are not redacted by value: `AUTH=1` must not blank every `1` of a report. */
const MIN_SECRET_LENGTH = 8;

/**
 * Token shapes that are secrets wherever they appear: GitHub tokens (classic and app `ghp_`,
 * `gho_`, `ghu_`, `ghs_`, `ghr_`; fine-grained `github_pat_`), JSON web tokens (the runner's
 * `ACTIONS_RUNTIME_TOKEN`), npm, GitLab, Slack tokens, AWS access key ids and PEM private keys.
 */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

/** The values of the secret-looking variables of an environment, long enough to be redacted. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && SECRET_NAME.test(name) && value.trim().length >= MIN_SECRET_LENGTH) out.push(value);
  }
  return out;
}

/** A redactor for these secret values: each value (and its base64 forms) and every token shape becomes `***`. */
export function redactor(secrets: Iterable<string>): (text: string) => string {
  const values = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    values.add(s);
    // git's credential header as actions/checkout sets it: basic base64("x-access-token:<token>");
    // with its padding, and without (in a longer encoded text)
    for (const encoded of [Buffer.from(s).toString('base64'), Buffer.from(`x-access-token:${s}`).toString('base64')]) {
      values.add(encoded);
      values.add(encoded.replace(/=+$/, ''));
    }
  }
  // Longest first, so a secret that contains another is redacted whole.
  const ordered = [...values].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return (text: string): string => {
    let out = text;
    for (const v of ordered) if (out.includes(v)) out = out.split(v).join(REDACTED);
    for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
    return out;
  };
}

/** Redacts one text with these secrets. */
export function redact(text: string, secrets: Iterable<string>): string {
  return redactor(secrets)(text);
}
