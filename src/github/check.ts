/**
 * The check run (`check-name`): a completed check on the PR head commit whose conclusion follows
 * the verdict, with the report as its summary (under GitHub's 65,535 bytes, S8).
 */
import type { FailOn } from '../config/fail-on.ts';
import type { Results } from '../results/schema.ts';
import { REPORT_LIMITS } from '../report/markdown.ts';
import { reportModel, type Acceptance, type Conclusion, type ReportModel } from '../report/model.ts';
import { countsText } from '../report/words.ts';
import { FORK_ADVICE, describeApiError, isWriteForbidden, sendWithinLimit } from './api-errors.ts';
import type { GitHubApi } from './octokit.ts';

export interface CheckOptions {
  owner: string;
  repo: string;
  name: string;
  headSha: string;
  results: Results;
  failOn: FailOn;
  /** the accept label, when there is one: it relieves a regression, never a comparison of nothing */
  acceptance?: Acceptance | null;
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
 * The check run's title, plain text: the counts of the comment's heading in the same words,
 * `2 regressions, 1 failed, 14 unchanged` (report/words.ts).
 */
export function checkTitle(model: ReportModel): string {
  return countsText(model);
}

/** Creates the check run. Never throws for API errors. */
export async function publishCheckRun(api: GitHubApi, opts: CheckOptions): Promise<CheckOutcome> {
  const log = opts.log ?? (() => undefined);
  // the conclusion is the gate's (model.ts), with the accept label weighed there
  const model = reportModel(opts.results, { failOn: opts.failOn, acceptance: opts.acceptance ?? null });
  const conclusion = model.gate.outcome.conclusion;
  try {
    return await sendWithinLimit(REPORT_LIMITS.checkSummary, 'check run', log, async (limit) => {
      const { data } = await api.rest.checks.create({
        owner: opts.owner,
        repo: opts.repo,
        name: opts.name,
        head_sha: opts.headSha,
        status: 'completed',
        conclusion,
        completed_at: new Date().toISOString(),
        ...(opts.detailsUrl ? { details_url: opts.detailsUrl } : {}),
        output: { title: checkTitle(model), summary: opts.render(limit) },
      });
      return { action: 'created' as const, url: data.html_url ?? null, conclusion, detail: `check run ${data.id}` };
    });
  } catch (err) {
    if (isWriteForbidden(err)) return { action: 'forbidden', url: null, conclusion, detail: FORK_ADVICE };
    return { action: 'failed', url: null, conclusion, detail: `Could not create the check run: ${describeApiError(err)}. The results, the job summary and the verdict are not affected.` };
  }
}
