/**
 * The one GitHub client: `@actions/github`'s octokit with `@octokit/plugin-retry` and
 * `@octokit/plugin-throttling` (S9).
 *
 * - 5xx answers are retried by plugin-retry with quadratic backoff (1, 4, 9 × `retryBaseMs`);
 *   4xx answers other than rate limits are not retried.
 * - Primary and secondary rate limits (403/429) are retried by plugin-throttling after the
 *   `retry-after` the server sent, while the client's total waiting stays under `maxWaitMs`.
 * - Every attempt has a deadline (`requestTimeoutMs`, 20 s): an API that accepts the connection
 *   and never answers, or drips its answer a byte at a time, is abandoned then (octokit's
 *   `request.signal`, an `AbortSignal.timeout`, which also cuts a body still arriving), and the
 *   attempt is retried as a 5xx is. A request that writes (POST) is not sent again after its
 *   deadline: GitHub may have acted on it, and a second comment or check run would be a duplicate.
 * - The time the client spends on the API in all (requests, retries and their waits) is capped by
 *   `budgetMs` (3 minutes): once it is spent, requests fail at once, and no retry is started whose
 *   wait would outlast it. So a step that talks to a dead API still ends, with warnings.
 * - The base URL is `GITHUB_API_URL` (GitHub Enterprise Server, or a fake server in tests).
 *
 * Every delay is configurable so the tests, which talk HTTP to a local fake API, run fast; the
 * deadline and the budget also through `PAIRBENCH_GITHUB_TIMEOUT` and `PAIRBENCH_GITHUB_BUDGET`.
 */
import { getOctokit } from '@actions/github';
import type { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';
import { parseDuration } from '../config/values.ts';
import { ApiDeadlineError } from './api-errors.ts';

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
  /** the longest one attempt of a request may take, its answer's body included, in ms (default 20 s) */
  requestTimeoutMs?: number;
  /** the longest the client spends on the API in all, retries and waits included, in ms (default 3 min) */
  budgetMs?: number;
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

/** GitHub answers in well under a second, and ends a REST request of its own after 10 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** Enough for every call of a step (a few dozen) and a rate limit's wait; a dead API costs no more. */
export const DEFAULT_BUDGET_MS = 180_000;

/**
 * The deadline and the budget from `PAIRBENCH_GITHUB_TIMEOUT` and `PAIRBENCH_GITHUB_BUDGET`
 * (durations: `20s`, `3m`), where set. A bad value is a usage error naming the variable.
 */
export function deadlinesFromEnv(env: NodeJS.ProcessEnv): Pick<ClientOptions, 'requestTimeoutMs' | 'budgetMs'> {
  const out: Pick<ClientOptions, 'requestTimeoutMs' | 'budgetMs'> = {};
  const timeout = env['PAIRBENCH_GITHUB_TIMEOUT']?.trim();
  const budget = env['PAIRBENCH_GITHUB_BUDGET']?.trim();
  if (timeout) out.requestTimeoutMs = parseDuration('PAIRBENCH_GITHUB_TIMEOUT', timeout);
  if (budget) out.budgetMs = parseDuration('PAIRBENCH_GITHUB_BUDGET', budget);
  return out;
}

/**
 * The time spent on the API: while at least one request is under way the clock runs, so retries
 * and their waits count, and requests that overlap count once.
 */
class ApiClock {
  private spent = 0;
  private active = 0;
  private since = 0;
  readonly budgetMs: number;
  constructor(budgetMs: number) {
    this.budgetMs = budgetMs;
  }
  remaining(): number {
    return this.budgetMs - this.spent - (this.active > 0 ? performance.now() - this.since : 0);
  }
  start(): void {
    if (this.active++ === 0) this.since = performance.now();
  }
  stop(): void {
    if (--this.active === 0) this.spent += performance.now() - this.since;
  }
}

/** The request options the hooks see; `request` holds octokit's per-request settings. */
interface HookOptions {
  method?: string;
  url?: string;
  request?: { signal?: AbortSignal; retries?: number; retryCount?: number; [key: string]: unknown };
  [key: string]: unknown;
}

type Hooked = Pick<Octokit, 'hook'>;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * Every attempt's deadline, as a plugin listed before plugin-retry and plugin-throttling, so that
 * its hook runs inside their retries: once per attempt, each with a fresh `AbortSignal.timeout`.
 * Octokit's hooks all receive the one options object of the call (before-after-hook binds them to
 * it), so the signal is set on its `request` settings, which the call's outer hook made its own.
 */
function attemptDeadlines(clock: ApiClock, timeoutMs: number, retryBaseMs: number, retries: number) {
  return (octokit: Hooked) => {
    octokit.hook.wrap('request', async (request, raw) => {
      const options = raw as HookOptions;
      const settings = (options.request ??= {});
      const what = `${options.method ?? 'GET'} ${options.url ?? ''}`;
      const done = settings.retryCount ?? 0;
      const stopRetrying = () => {
        settings.retries = done;
      };
      const left = clock.remaining();
      if (left <= 0) {
        stopRetrying();
        throw new ApiDeadlineError(`${what}: not sent, the ${seconds(clock.budgetMs)} allowed for the GitHub API in all are spent`, { ...options, request: { ...settings } });
      }
      // AbortSignal.timeout takes whole milliseconds
      const ms = Math.max(1, Math.ceil(Math.min(timeoutMs, left)));
      const signal = AbortSignal.timeout(ms);
      settings.signal = signal;
      const timedOut = () => {
        // plugin-retry's next wait is (retries done + 1)² × its base; none that outlasts the budget
        if (options.method === 'POST' || done >= retries || (done + 1) ** 2 * retryBaseMs >= clock.remaining()) stopRetrying();
        return new ApiDeadlineError(`${what}: no complete answer within ${seconds(ms)}`, { ...options, request: { ...settings } });
      };
      try {
        const response = await request(raw);
        // a body cut at the deadline reads as an empty answer: it is none
        if (signal.aborted) throw timedOut();
        return response;
      } catch (err) {
        if (err instanceof ApiDeadlineError) throw err;
        if (signal.aborted) throw timedOut();
        if ((done + 1) ** 2 * retryBaseMs >= clock.remaining()) stopRetrying();
        throw err;
      } finally {
        delete settings.signal;
      }
    });
  };
}

/**
 * The outermost hook of every call: the call gets its own copy of octokit's per-request settings
 * (the plugins write their retry counts into them, and octokit otherwise shares one object among
 * all calls), the clock runs while it is under way, and once the budget is spent it fails at once.
 */
function callBudget(octokit: Hooked, clock: ApiClock): void {
  octokit.hook.wrap('request', async (request, raw) => {
    const options = raw as HookOptions;
    if (clock.remaining() <= 0) {
      throw new ApiDeadlineError(`${options.method ?? 'GET'} ${options.url ?? ''}: not sent, the ${seconds(clock.budgetMs)} allowed for the GitHub API in all are spent`, null);
    }
    options.request = { ...options.request };
    clock.start();
    try {
      return await request(raw);
    } finally {
      clock.stop();
    }
  });
}

/** Creates the client. `token` is the `github-token` input (GITHUB_TOKEN or a PAT). */
export function createClient(token: string, opts: ClientOptions = {}): GitHubApi {
  const log = opts.log ?? (() => undefined);
  const maxWait = opts.maxWaitMs ?? 120_000;
  const rateBase = opts.rateLimitBaseMs ?? 1000;
  const rateRetries = opts.rateLimitRetries ?? 3;
  const retryBase = opts.retryBaseMs ?? 1000;
  const retries = opts.retries ?? 3;
  const clock = new ApiClock(opts.budgetMs ?? DEFAULT_BUDGET_MS);
  let waited = 0;
  const onLimit = (kind: string) => (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
    const wait = retryAfter * rateBase;
    const what = `${options.method ?? ''} ${options.url ?? ''}`.trim();
    if (wait >= clock.remaining()) {
      log(`GitHub ${kind} rate limit on ${what}: giving up, since waiting ${retryAfter} s would outlast the time allowed for the GitHub API (${seconds(clock.budgetMs)} in all).`);
      return false;
    }
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
  const api = getOctokit(
    token,
    {
      baseUrl,
      retry: { retries, retryAfterBaseValue: retryBase },
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
    // listed first, so its hook is inside plugin-retry's and plugin-throttling's: once per attempt
    attemptDeadlines(clock, opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, retryBase, retries),
    retry,
    throttling,
  );
  // added last, so it is the outermost hook: once per call, around every retry
  callBudget(api, clock);
  return api;
}
