/**
 * What went wrong talking to GitHub, in words a workflow author can act on.
 */

/**
 * A request abandoned at its deadline (no complete answer in time), or not sent because the time
 * allowed for the GitHub API in all is spent (octokit.ts). It carries status 504 and its request,
 * as a gateway timeout would, so that plugin-retry retries it as it retries a 5xx; its message
 * says what happened, without an HTTP status that no server sent.
 */
export class ApiDeadlineError extends Error {
  readonly status = 504;
  /** the request's options, which plugin-retry reads (null: nothing to retry) */
  readonly request: unknown;
  constructor(message: string, request: unknown) {
    super(message);
    this.name = 'ApiDeadlineError';
    this.request = request ?? undefined;
  }
}

/** The HTTP status of an octokit error, or null for anything else (network, bug). */
export function apiStatus(err: unknown): number | null {
  if (err instanceof ApiDeadlineError) return null;
  if (typeof err === 'object' && err !== null && 'status' in err && typeof (err as { status: unknown }).status === 'number') {
    return (err as { status: number }).status;
  }
  return null;
}

function apiMessage(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? '';
  return String(err);
}

/**
 * 403 "Resource not accessible by integration" (GITHUB_TOKEN) or "... by personal access token":
 * the token may read but not write, as for pull requests from forks under `pull_request`.
 */
export function isWriteForbidden(err: unknown): boolean {
  return apiStatus(err) === 403 && /not accessible by/i.test(apiMessage(err));
}

/** 422 on a comment or check run whose body is too long. */
function isTooLong(err: unknown): boolean {
  return apiStatus(err) === 422;
}

/**
 * Sends a report rendered within `limit` bytes; if GitHub refuses it as too long (422: its limits
 * count characters in ways a byte count can miss, and a proxy may set its own), sends it once more
 * rendered within half the limit, and gives up after that. `what` names the report in the log line.
 */
export async function sendWithinLimit<T>(limit: number, what: string, log: (line: string) => void, send: (limit: number) => Promise<T>): Promise<T> {
  try {
    return await send(limit);
  } catch (err) {
    if (!isTooLong(err)) throw err;
    const half = Math.floor(limit / 2);
    log(`GitHub refused the ${what} (${describeApiError(err)}); retrying with a report cut to ${half} bytes.`);
    return send(half);
  }
}

/** S5: the advice given when the token cannot write (fork PRs). */
export const FORK_ADVICE =
  'The token cannot write to this repository (403 "Resource not accessible by integration"). Pull requests from forks get a read-only GITHUB_TOKEN under `pull_request`, ' +
  'so the report is in the job summary and the results file only; the verdict is unaffected. To comment on fork PRs, use the two-workflow pattern: ' +
  'the `pull_request` job uploads the results file as an artifact (actions/upload-artifact), and a second workflow on `workflow_run` downloads it and runs pairbench with ' +
  '`mode: report` and `permissions: pull-requests: write` (see examples/workflows in the pairbench repository). Same-repository PRs need ' +
  '`permissions: pull-requests: write` (and `checks: write` for check-name).';

/** One line for a log or a warning: status and GitHub's message, never the token or headers. */
export function describeApiError(err: unknown): string {
  if (err instanceof ApiDeadlineError) return err.message;
  const status = apiStatus(err);
  const msg = apiMessage(err).replace(/\s+/g, ' ').slice(0, 300);
  return status === null ? msg : `HTTP ${status}: ${msg}`;
}
