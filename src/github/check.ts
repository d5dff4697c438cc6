/**
 * The check run (`check-name`): a completed check on the PR head commit whose conclusion follows
 * the verdict, with the report as its summary (under GitHub's 65,535 bytes, S8).
 */
import type { FailOn } from '../config/fail-on.ts';
import type { Results } from '../results/schema.ts';
import { REPORT_LIMITS, countVerdicts } from '../report/markdown.ts';
import { FORK_ADVICE, describeApiError, isTooLong, isWriteForbidden } from './errors.ts';
import type { GitHubApi } from './octokit.ts';

export type Conclusion = 'success' | 'failure' | 'neutral';

export interface CheckOptions {
  owner: string;
  repo: string;
  name: string;
  headSha: string;
  results: Results;
  failOn: FailOn;
  /** the report at a given size limit (UTF-8 bytes) */
  render: (maxBytes: number) => string;
  detailsUrl?: string;
  log?: (line: string) => void;
}

export interface CheckOutcome {
  action: 'created' | 'forbidden' | 'failed';
  url: string | null;
  conclusion: Conclusion;
  detail: string;
}

/**
 * failure: a failed comparison, or a regression with `fail-on: regression`;
 * neutral: inconclusive (with any `fail-on`: the job's own status carries that gate), a partial
 * run, or a regression with `fail-on: none`;
 * success: only unchanged and improved benchmarks.
 */
export function conclusionOf(results: Results, failOn: FailOn): Conclusion {
  if (results.status === 'failed') return 'failure';
  if (results.verdict === 'regression') return failOn.split(',').includes('regression') ? 'failure' : 'neutral';
  if (results.verdict === 'inconclusive' || results.status === 'partial' || results.verdict === undefined) return 'neutral';
  return 'success';
}

/** A plain-text title: `2 regressions, 1 improvement, 14 unchanged`. */
export function checkTitle(results: Results): string {
  const c = countVerdicts(results);
  const parts = [
    c.regression ? `${c.regression} regression${c.regression === 1 ? '' : 's'}` : '',
    c.failed ? `${c.failed} failed` : '',
    c.inconclusive ? `${c.inconclusive} inconclusive` : '',
    c.improvement ? `${c.improvement} improvement${c.improvement === 1 ? '' : 's'}` : '',
    c.unchanged ? `${c.unchanged} unchanged` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : results.status === 'failed' ? 'the comparison failed' : 'no benchmarks';
}

/** Creates the check run. Never throws for API errors. */
export async function publishCheckRun(api: GitHubApi, opts: CheckOptions): Promise<CheckOutcome> {
  const log = opts.log ?? (() => undefined);
  const conclusion = conclusionOf(opts.results, opts.failOn);
  let limit: number = REPORT_LIMITS.checkSummary;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const { data } = await api.rest.checks.create({
          owner: opts.owner,
          repo: opts.repo,
          name: opts.name,
          head_sha: opts.headSha,
          status: 'completed',
          conclusion,
          completed_at: new Date().toISOString(),
          ...(opts.detailsUrl ? { details_url: opts.detailsUrl } : {}),
          output: { title: checkTitle(opts.results), summary: opts.render(limit) },
        });
        return { action: 'created', url: data.html_url ?? null, conclusion, detail: `check run ${data.id}` };
      } catch (err) {
        if (isTooLong(err) && attempt === 0) {
          limit = Math.floor(REPORT_LIMITS.checkSummary / 2);
          log(`GitHub refused the check run (${describeApiError(err)}); retrying with a summary cut to ${limit} bytes.`);
          continue;
        }
        throw err;
      }
    }
  } catch (err) {
    if (isWriteForbidden(err)) return { action: 'forbidden', url: null, conclusion, detail: FORK_ADVICE };
    return { action: 'failed', url: null, conclusion, detail: `Could not create the check run: ${describeApiError(err)}. The results, the job summary and the verdict are not affected.` };
  }
}
