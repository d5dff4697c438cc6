/**
 * The sticky comment: one comment per pull request and `comment-id`, updated in place on every run.
 *
 * Ours is the comment whose first line is our hidden marker AND whose author is the token's own
 * identity (S7), searched over every page of the PR's comments. Anyone can paste our marker into a
 * comment; such a comment is never edited. The identity is `GET /user` for a personal access
 * token, and `github-actions[bot]` for GITHUB_TOKEN (an installation token, which `GET /user` refuses).
 *
 * Nothing here throws for an API failure: a comment that cannot be written leaves the results, the
 * job summary and the verdict as they are (S5, S9); the outcome says what happened.
 */
import { REPORT_LIMITS } from '../report/markdown.ts';
import { FORK_ADVICE, apiStatus, describeApiError, isWriteForbidden, sendWithinLimit } from './api-errors.ts';
import type { RepoId } from './events.ts';
import type { GitHubApi } from './octokit.ts';

export type CommentMode = 'always' | 'on-change' | 'never';
export const COMMENT_MODES: readonly CommentMode[] = ['always', 'on-change', 'never'];

/** The author of comments written with GITHUB_TOKEN. */
const ACTIONS_BOT = 'github-actions[bot]';

export interface CommentOutcome {
  action: 'created' | 'updated' | 'unchanged' | 'skipped' | 'forbidden' | 'failed';
  url: string | null;
  id: number | null;
  /** why it was skipped or failed, for the log */
  detail: string;
}

export interface UpsertOptions {
  owner: string;
  repo: string;
  issueNumber: number;
  /** the hidden marker line, `<!-- pairbench:<id> -->` (see report/escape.ts markerFor) */
  marker: string;
  mode: CommentMode;
  /** true when some verdict is not `unchanged` (for `on-change`) */
  changed: boolean;
  /** the body at a given size limit (UTF-8 bytes); it must start with `marker` */
  render: (maxBytes: number) => string;
  /** the login of the token's identity when known (else looked up) */
  identity?: string;
  log?: (line: string) => void;
}

/** The login that comments made with this token carry. */
export async function whoAmI(api: GitHubApi): Promise<string> {
  try {
    const { data } = await api.rest.users.getAuthenticated();
    if (typeof data.login === 'string' && data.login !== '') return data.login;
  } catch (err) {
    const status = apiStatus(err);
    // GITHUB_TOKEN: "Resource not accessible by integration" (403); some servers answer 401 or 404.
    if (status !== 403 && status !== 401 && status !== 404) throw err;
  }
  return ACTIONS_BOT;
}

interface CommentLike {
  id: number;
  body?: string | null;
  html_url: string;
  user: { login: string } | null;
}

/** True when the comment's first line is exactly our marker. */
function carriesMarker(body: string | null | undefined, marker: string): boolean {
  if (!body) return false;
  const first = body.slice(0, marker.length + 8).split(/\r?\n/, 1)[0] ?? '';
  return first.trim() === marker;
}

/**
 * Our comment on the issue: marker and author both ours, over every page; the oldest if several.
 * `foreign` counts comments that carry our marker but were written by someone else (never edited).
 */
async function findOwnComment(
  api: GitHubApi,
  target: RepoId & { issueNumber: number },
  marker: string,
  login: string,
): Promise<{ ours: CommentLike | null; foreign: number }> {
  const want = login.toLowerCase();
  let ours: CommentLike | null = null;
  let foreign = 0;
  for await (const page of api.paginate.iterator(api.rest.issues.listComments, { owner: target.owner, repo: target.repo, issue_number: target.issueNumber, per_page: 100 })) {
    for (const c of page.data as CommentLike[]) {
      if (!carriesMarker(c.body, marker)) continue;
      if (c.user?.login.toLowerCase() === want) {
        ours ??= c;
      } else foreign++;
    }
  }
  return { ours, foreign };
}

/** Creates or updates the sticky comment according to `mode`. Never throws for API errors. */
export async function upsertComment(api: GitHubApi, opts: UpsertOptions): Promise<CommentOutcome> {
  const log = opts.log ?? (() => undefined);
  if (opts.mode === 'never') return { action: 'skipped', url: null, id: null, detail: 'comment: never' };
  const target = { owner: opts.owner, repo: opts.repo, issueNumber: opts.issueNumber };
  try {
    const login = opts.identity ?? (await whoAmI(api));
    const { ours: existing, foreign } = await findOwnComment(api, target, opts.marker, login);
    if (foreign > 0) log(`${foreign} comment(s) on #${opts.issueNumber} carry pairbench's marker but were not written by ${login}; they are left alone.`);
    // on-change: no new comment when everything is unchanged, but an existing one is brought up to date,
    // so a regression reported earlier does not stay on the PR after it was fixed.
    if (!existing && opts.mode === 'on-change' && !opts.changed) {
      return { action: 'skipped', url: null, id: null, detail: 'comment: on-change, and every benchmark is unchanged' };
    }
    return await sendWithinLimit(REPORT_LIMITS.comment, 'comment', log, async (limit) => {
      const body = opts.render(limit);
      if (!body.startsWith(opts.marker)) throw new Error('internal: the comment body must start with its marker');
      if (existing) {
        if (existing.body === body) return { action: 'unchanged', url: existing.html_url, id: existing.id, detail: 'the comment is already up to date' };
        const { data } = await api.rest.issues.updateComment({ owner: opts.owner, repo: opts.repo, comment_id: existing.id, body });
        return { action: 'updated', url: data.html_url, id: data.id, detail: `updated comment ${data.id}` };
      }
      const { data } = await api.rest.issues.createComment({ owner: opts.owner, repo: opts.repo, issue_number: opts.issueNumber, body });
      return { action: 'created', url: data.html_url, id: data.id, detail: `created comment ${data.id}` };
    });
  } catch (err) {
    if (isWriteForbidden(err)) return { action: 'forbidden', url: null, id: null, detail: FORK_ADVICE };
    return { action: 'failed', url: null, id: null, detail: `Could not write the pull request comment: ${describeApiError(err)}. The results, the job summary and the verdict are not affected.` };
  }
}
