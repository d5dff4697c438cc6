/**
 * The one GitHub client: `@actions/github`'s octokit with `@octokit/plugin-retry` and
 * `@octokit/plugin-throttling` (S9).
 *
 * - 5xx answers are retried by plugin-retry with quadratic backoff (1, 4, 9 × `retryBaseMs`);
 *   4xx answers other than rate limits are not retried.
 * - Primary and secondary rate limits (403/429) are retried by plugin-throttling after the
 *   `retry-after` the server sent, while the client's total waiting stays under `maxWaitMs`.
 * - The base URL is `GITHUB_API_URL` (GitHub Enterprise Server, or a fake server in tests).
 *
 * Every delay is configurable so the tests, which talk HTTP to a local fake API, run fast.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';

export type GitHubApi = ReturnType<typeof getOctokit>;

export interface ClientOptions {
  /** REST API root; default `GITHUB_API_URL`, else https://api.github.com */
  baseUrl?: string;
  /** retries of a 5xx answer (default 3) */
  retries?: number;
  /** unit of plugin-retry's backoff, in ms (default 1000: waits 1 s, 4 s, 9 s) */
  retryBaseMs?: number;
  /** unit of `retry-after` (seconds) for rate limits, in ms (default 1000) */
  rateLimitBaseMs?: number;
  /** most rate-limit retries of one request (default 3) */
  rateLimitRetries?: number;
  /** the longest the client waits for rate limits in all, in ms (default 120 s) */
  maxWaitMs?: number;
  /** least time between two requests that write (GitHub asks for 1 s), in ms */
  writeSpacingMs?: number;
  /** where the client's warnings go */
  log?: (line: string) => void;
}

/**
 * The limiter of one kind of request for plugin-throttling's `write` and `notifications` options:
 * one request at a time, at least `spacingMs` apart. (The plugin's own groups space notifications
 * 3 s apart, which would make every test wait; here the spacing is an option, 1 s by default as
 * GitHub's guidance asks for writes.) A Bottleneck group, as the plugin documents, from the same
 * light build of Bottleneck that the plugin uses.
 */
function spacedGroup(id: string, spacingMs: number): Bottleneck.Group {
  return new Bottleneck.Group({ id, maxConcurrent: 1, minTime: spacingMs });
}

/** Creates the client. `token` is the `github-token` input (GITHUB_TOKEN or a PAT). */
export function createClient(token: string, opts: ClientOptions = {}): GitHubApi {
  const log = opts.log ?? (() => undefined);
  const maxWait = opts.maxWaitMs ?? 120_000;
  const rateBase = opts.rateLimitBaseMs ?? 1000;
  const rateRetries = opts.rateLimitRetries ?? 3;
  let waited = 0;
  const onLimit = (kind: string) => (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
    const wait = retryAfter * rateBase;
    const what = `${options.method ?? ''} ${options.url ?? ''}`.trim();
    if (retryCount >= rateRetries || waited + wait > maxWait) {
      log(`GitHub ${kind} rate limit on ${what}: giving up after ${retryCount} retries (${Math.round(waited / 1000)} s waited in all).`);
      return false;
    }
    waited += wait;
    log(`GitHub ${kind} rate limit on ${what}: retrying after ${retryAfter} s.`);
    return true;
  };
  const spacing = opts.writeSpacingMs ?? 1000;
  const baseUrl = opts.baseUrl ?? process.env['GITHUB_API_URL'] ?? 'https://api.github.com';
  return getOctokit(
    token,
    {
      baseUrl,
      retry: { retries: opts.retries ?? 3, retryAfterBaseValue: opts.retryBaseMs ?? 1000 },
      throttle: {
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
        // the wait scheduled is retry-after × this, the same as the one budgeted above
        retryAfterBaseValue: rateBase,
        write: spacedGroup('pairbench-write', spacing),
        notifications: spacedGroup('pairbench-notifications', spacing),
      },
      // No `request` option here: it would replace @actions/github's proxy-aware fetch.
      log: {
        debug: () => undefined,
        info: () => undefined,
        warn: (m: string) => log(m),
        error: (m: string) => log(m),
      },
    },
    retry,
    throttling,
  );
}
