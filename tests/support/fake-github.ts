/**
 * A local HTTP server that plays the GitHub REST API for the endpoints pairbench uses, with
 * GitHub's response shapes (typed with @octokit/openapi-types), Link-header pagination, scripted
 * errors, and a record of every request. Tests point the real octokit at it (GITHUB_API_URL or
 * baseUrl): nothing of pairbench's own is mocked.
 *
 * Endpoints: GET /user; GET/POST /repos/{o}/{r}/issues/{n}/comments; PATCH
 * /repos/{o}/{r}/issues/comments/{id}; GET /repos/{o}/{r}/pulls/{n}; GET /repos/{o}/{r}/pulls?head=;
 * GET /repos/{o}/{r}/commits/{sha}/pulls; GET /repos/{o}/{r}/commits/{ref}; POST /repos/{o}/{r}/check-runs;
 * GET /repos/{o}/{r}/issues/{n}/events (who added a label); GET /repos/{o}/{r}/collaborators/{user}/permission.
 *
 * Faults besides scripted answers: `stall` makes every answer hang (the request is read, no answer
 * ever comes) or drip (the headers, then the body one byte every few milliseconds or seconds).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { components } from '@octokit/openapi-types';

type SimpleUser = components['schemas']['simple-user'];
type IssueComment = components['schemas']['issue-comment'];
type PullRequest = components['schemas']['pull-request'];
type CheckRun = components['schemas']['check-run'];

/** The parts of a pull request pairbench reads; the rest of GitHub's shape is filled with stand-ins. */
export type FakePull = Pick<PullRequest, 'number' | 'state' | 'title' | 'html_url' | 'url' | 'id' | 'node_id'> & {
  user: SimpleUser;
  labels: { id: number; name: string; color: string; default: boolean }[];
  head: { sha: string; ref: string; label: string; repo: { full_name: string; fork: boolean; name: string; owner: SimpleUser } | null; user: SimpleUser };
  base: { sha: string; ref: string; label: string; repo: { full_name: string; fork: boolean; name: string; owner: SimpleUser }; user: SimpleUser };
};

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** how the answer is sent: never (the request is read and left open), or its body one byte every `dripMs` */
  stall?: Stall;
}

/** A server that accepts a request and never answers it, or answers one byte at a time. */
export type Stall = 'hang' | { dripMs: number };

/** Who the token is: an installation (GITHUB_TOKEN: GET /user is refused) or a user (PAT). */
export type Identity = { kind: 'app'; login?: string } | { kind: 'user'; login: string; id?: number };

/** GitHub's answers for the scripted faults of the tests. */
export const ANSWERS = {
  readOnly: { status: 403, body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' } },
  badGateway: { status: 502, body: { message: 'Server Error' } },
  secondaryRateLimit: (retryAfter = 1): ScriptedAnswer => ({
    status: 403,
    headers: { 'retry-after': String(retryAfter), 'x-ratelimit-remaining': '4000' },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest' },
  }),
  tooLong: {
    status: 422,
    body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }], documentation_url: 'https://docs.github.com/rest' },
  },
} satisfies Record<string, ScriptedAnswer | ((n?: number) => ScriptedAnswer)>;

export function simpleUser(login: string, id: number, type: 'User' | 'Bot' = 'User'): SimpleUser {
  const url = `https://api.github.com/users/${encodeURIComponent(login)}`;
  return {
    login,
    id,
    node_id: `U_${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `https://github.com/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    site_admin: false,
  };
}

export const ACTIONS_BOT_USER = simpleUser('github-actions[bot]', 41898282, 'Bot');

interface Route {
  method: string;
  pattern: RegExp;
  handle: (m: RegExpExecArray, req: RecordedRequest) => ScriptedAnswer;
}

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  /** comments by issue number, oldest first */
  readonly comments = new Map<number, IssueComment[]>();
  readonly pulls: FakePull[] = [];
  readonly checkRuns: CheckRun[] = [];
  /** commit SHA -> parent SHAs */
  readonly commits = new Map<string, string[]>();
  /** issue events (`labeled`, `unlabeled`) by issue number, oldest first */
  readonly issueEvents = new Map<number, { event: 'labeled' | 'unlabeled'; label: string; actor: string }[]>();
  /** repository permission by login: `admin`, `write`, `read`, `none` (GitHub's `permission` field); unknown users read */
  readonly permissions = new Map<string, 'admin' | 'write' | 'read' | 'none'>();
  identity: Identity = { kind: 'app' };
  /** every write is refused with 403 "Resource not accessible by integration" (fork PR token) */
  readOnly = false;
  /** GitHub's limit on a comment body, in characters */
  maxCommentLength = 65_536;
  /** every answer stalls so (a dead or overloaded API), unless a scripted answer says otherwise */
  stall: Stall | null = null;
  private readonly drips = new Set<NodeJS.Timeout>();
  private readonly scripts: { method: string; pattern: RegExp; answers: ScriptedAnswer[] }[] = [];
  private nextId = 1000;
  private server: Server | null = null;
  url = '';

  readonly owner: string;
  readonly repo: string;

  constructor(owner = 'octo', repo = 'repo') {
    this.owner = owner;
    this.repo = repo;
  }

  static async start(owner?: string, repo?: string): Promise<FakeGitHub> {
    const gh = new FakeGitHub(owner, repo);
    await gh.listen();
    return gh;
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  /** The next requests matching method and path get these answers, in order, before the normal one. */
  script(method: string, path: RegExp, ...answers: ScriptedAnswer[]): void {
    this.scripts.push({ method, pattern: path, answers: [...answers] });
  }

  /** Requests of one method whose path matches. */
  calls(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  addComment(issue: number, author: SimpleUser, body: string): IssueComment {
    const id = this.nextId++;
    const now = new Date(Date.UTC(2026, 0, 1, 0, 0, id % 60)).toISOString();
    const c: IssueComment = {
      id,
      node_id: `IC_${id}`,
      url: `${this.url}/repos/${this.fullName}/issues/comments/${id}`,
      html_url: `https://github.com/${this.fullName}/pull/${issue}#issuecomment-${id}`,
      body,
      user: author,
      created_at: now,
      updated_at: now,
      issue_url: `${this.url}/repos/${this.fullName}/issues/${issue}`,
      author_association: author.type === 'Bot' ? 'NONE' : 'CONTRIBUTOR',
    };
    const list = this.comments.get(issue) ?? [];
    list.push(c);
    this.comments.set(issue, list);
    return c;
  }

  addPull(p: { number: number; baseSha: string; headSha: string; headRepo?: string | null; headRef?: string; baseRef?: string; state?: 'open' | 'closed' }): FakePull {
    const author = simpleUser('contributor', 501);
    const headRepoName = p.headRepo === undefined ? this.fullName : p.headRepo;
    const repoOf = (full: string) => {
      const [owner = '', name = ''] = full.split('/');
      return { full_name: full, fork: full !== this.fullName, name, owner: simpleUser(owner, 600) };
    };
    const pull: FakePull = {
      id: 9000 + p.number,
      node_id: `PR_${p.number}`,
      number: p.number,
      state: p.state ?? 'open',
      title: `PR ${p.number}`,
      url: `${this.url}/repos/${this.fullName}/pulls/${p.number}`,
      html_url: `https://github.com/${this.fullName}/pull/${p.number}`,
      user: author,
      labels: [],
      head: {
        sha: p.headSha,
        ref: p.headRef ?? `feature-${p.number}`,
        label: `${(headRepoName ?? 'ghost/gone').split('/')[0]}:${p.headRef ?? `feature-${p.number}`}`,
        repo: headRepoName === null ? null : repoOf(headRepoName),
        user: author,
      },
      base: { sha: p.baseSha, ref: p.baseRef ?? 'main', label: `${this.owner}:${p.baseRef ?? 'main'}`, repo: repoOf(this.fullName), user: author },
    };
    this.pulls.push(pull);
    return pull;
  }

  /** Adds (or removes) a label on a pull request, as `actor` did, with the issue event GitHub records. */
  label(pull: number, name: string, actor: string, action: 'labeled' | 'unlabeled' = 'labeled'): void {
    const p = this.pulls.find((x) => x.number === pull);
    if (p) {
      p.labels = p.labels.filter((l) => l.name !== name);
      if (action === 'labeled') p.labels.push({ id: this.nextId++, name, color: 'ededed', default: false });
    }
    const list = this.issueEvents.get(pull) ?? [];
    list.push({ event: action, label: name, actor });
    this.issueEvents.set(pull, list);
  }

  private routes(): Route[] {
    const repoPath = `/repos/${this.owner}/${this.repo}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const notFound: ScriptedAnswer = { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    const write = (ok: () => ScriptedAnswer) => (this.readOnly ? ANSWERS.readOnly : ok());
    return [
      {
        method: 'GET',
        pattern: /^\/user$/,
        handle: () =>
          this.identity.kind === 'app'
            ? ANSWERS.readOnly
            : { status: 200, body: { ...simpleUser(this.identity.login, this.identity.id ?? 777), public_repos: 1, followers: 0, following: 0, created_at: '2020-01-01T00:00:00Z', updated_at: '2020-01-01T00:00:00Z' } },
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
        handle: (m, req) => {
          const all = this.comments.get(Number(m[1])) ?? [];
          const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 30)));
          const page = Math.max(1, Number(req.query.get('page') ?? 1));
          const last = Math.max(1, Math.ceil(all.length / perPage));
          const link = (p: number, rel: string) => `<${this.url}${req.path}?per_page=${perPage}&page=${p}>; rel="${rel}"`;
          const links = [page < last ? link(page + 1, 'next') : null, page < last ? link(last, 'last') : null, page > 1 ? link(1, 'first') : null, page > 1 ? link(page - 1, 'prev') : null].filter(
            (x): x is string => x !== null,
          );
          const headers: Record<string, string> = links.length ? { link: links.join(', ') } : {};
          return { status: 200, body: all.slice((page - 1) * perPage, page * perPage), headers };
        },
      },
      {
        method: 'POST',
        pattern: new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
        handle: (m, req) =>
          write(() => {
            const body = String((req.body as { body?: unknown })?.body ?? '');
            if (body.length > this.maxCommentLength) return ANSWERS.tooLong;
            return { status: 201, body: this.addComment(Number(m[1]), this.author(), body) };
          }),
      },
      {
        method: 'PATCH',
        pattern: new RegExp(`^${repoPath}/issues/comments/(\\d+)$`),
        handle: (m, req) =>
          write(() => {
            const id = Number(m[1]);
            const c = [...this.comments.values()].flat().find((x) => x.id === id);
            if (!c) return notFound;
            // GitHub lets only the author (or a maintainer) edit; a bot token can edit only its own comments.
            if (c.user?.login !== this.author().login) return { status: 403, body: { message: 'You must have push access to edit this comment' } };
            const body = String((req.body as { body?: unknown })?.body ?? '');
            if (body.length > this.maxCommentLength) return ANSWERS.tooLong;
            c.body = body;
            c.updated_at = new Date().toISOString();
            return { status: 200, body: c };
          }),
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/pulls/(\\d+)$`),
        handle: (m) => {
          const p = this.pulls.find((x) => x.number === Number(m[1]));
          return p ? { status: 200, body: p } : notFound;
        },
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/pulls$`),
        handle: (_m, req) => {
          const head = req.query.get('head');
          const state = req.query.get('state') ?? 'open';
          const list = this.pulls.filter((p) => (state === 'all' || p.state === state) && (head === null || p.head.label === head));
          return { status: 200, body: list };
        },
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/commits/([0-9a-f]{40})/pulls$`),
        handle: (m) => {
          // GitHub does not list fork PRs here for commits that only exist in the fork.
          const list = this.pulls.filter((p) => p.head.sha === m[1] && p.head.repo?.full_name === this.fullName);
          return { status: 200, body: list };
        },
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/commits/([^/]+)$`),
        handle: (m) => {
          const parents = this.commits.get(m[1] ?? '');
          if (!parents) return { status: 422, body: { message: `No commit found for SHA: ${m[1]}` } };
          return { status: 200, body: { sha: m[1], parents: parents.map((sha) => ({ sha, url: '', html_url: '' })), commit: { message: 'x' }, files: [] } };
        },
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/issues/(\\d+)/events$`),
        handle: (m, req) => {
          const all = (this.issueEvents.get(Number(m[1])) ?? []).map((e, i) => ({
            id: 5000 + i,
            node_id: `LE_${i}`,
            url: `${this.url}${req.path}/${5000 + i}`,
            actor: simpleUser(e.actor, 800 + i),
            event: e.event,
            commit_id: null,
            commit_url: null,
            created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
            label: { name: e.label, color: 'ededed' },
          }));
          const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 30)));
          const page = Math.max(1, Number(req.query.get('page') ?? 1));
          const last = Math.max(1, Math.ceil(all.length / perPage));
          const headers: Record<string, string> = page < last ? { link: `<${this.url}${req.path}?per_page=${perPage}&page=${page + 1}>; rel="next", <${this.url}${req.path}?per_page=${perPage}&page=${last}>; rel="last"` } : {};
          return { status: 200, body: all.slice((page - 1) * perPage, page * perPage), headers };
        },
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/collaborators/([^/]+)/permission$`),
        handle: (m) => {
          const login = decodeURIComponent(m[1]!);
          const permission = this.permissions.get(login) ?? 'read';
          return { status: 200, body: { permission, role_name: permission, user: { ...simpleUser(login, 900), permissions: { admin: permission === 'admin', maintain: false, push: permission === 'admin' || permission === 'write', triage: false, pull: permission !== 'none' }, role_name: permission } } };
        },
      },
      {
        method: 'POST',
        pattern: new RegExp(`^${repoPath}/check-runs$`),
        handle: (_m, req) =>
          write(() => {
            const b = req.body as { name: string; head_sha: string; status?: string; conclusion?: string; output?: { title?: string; summary?: string }; details_url?: string };
            if ((b.output?.summary ?? '').length > 65_535) return { status: 422, body: { message: 'Invalid request.\n\nOnly 65535 characters are allowed; 70000 were supplied.' } };
            const id = this.nextId++;
            const run = {
              id,
              head_sha: b.head_sha,
              node_id: `CR_${id}`,
              external_id: null,
              url: `${this.url}/repos/${this.fullName}/check-runs/${id}`,
              html_url: `https://github.com/${this.fullName}/runs/${id}`,
              details_url: b.details_url ?? null,
              status: (b.status ?? 'queued') as CheckRun['status'],
              conclusion: (b.conclusion ?? null) as CheckRun['conclusion'],
              started_at: new Date().toISOString(),
              completed_at: new Date().toISOString(),
              output: { title: b.output?.title ?? null, summary: b.output?.summary ?? null, text: null, annotations_count: 0, annotations_url: '' },
              name: b.name,
              check_suite: { id: 1 },
              app: null,
              pull_requests: [],
            } satisfies CheckRun;
            this.checkRuns.push(run);
            return { status: 201, body: run };
          }),
      },
    ];
  }

  /** The author of comments written with the token. */
  author(): SimpleUser {
    if (this.identity.kind === 'app') return this.identity.login ? simpleUser(this.identity.login, 41898283, 'Bot') : ACTIONS_BOT_USER;
    return simpleUser(this.identity.login, this.identity.id ?? 777);
  }

  private answer(req: RecordedRequest): ScriptedAnswer {
    const script = this.scripts.find((s) => s.method === req.method && s.pattern.test(req.path) && s.answers.length > 0);
    if (script) return script.answers.shift()!;
    for (const r of this.routes()) {
      if (r.method !== req.method) continue;
      const m = r.pattern.exec(req.path);
      if (m) return r.handle(m, req);
    }
    return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = text;
        }
        const rec: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
        this.requests.push(rec);
        const a = this.answer(rec);
        const stall = a.stall ?? this.stall;
        // the request is read and recorded, and then nothing: the client has to give up by itself
        if (stall === 'hang') return;
        const bytes = Buffer.from(a.body === undefined ? '' : JSON.stringify(a.body));
        res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', 'x-github-media-type': 'github.v3; format=json', 'content-length': String(bytes.length), ...(a.headers ?? {}) });
        if (!stall) {
          res.end(bytes);
          return;
        }
        // the headers at once, then the body one byte at a time
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed || sent >= bytes.length) {
            clearInterval(timer);
            this.drips.delete(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(bytes.subarray(sent, sent + 1));
          sent++;
        }, stall.dripMs);
        this.drips.add(timer);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    const s = this.server;
    this.server = null;
    for (const t of this.drips) clearInterval(t);
    this.drips.clear();
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
