/**
 * A local fake of GitHub's cache service, version 1 (the protocol @actions/cache speaks when
 * ACTIONS_CACHE_URL is set and ACTIONS_CACHE_SERVICE_V2 is not: node_modules/@actions/cache/lib/
 * internal/cacheHttpClient.js): look an entry up, reserve one, upload it in ranges, commit it,
 * download it. Like GitHub, it scopes entries by the run's token: a token reads its own scope and
 * the scopes it is given (a pull request reads its base branch's), and writes only its own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CacheEntry {
  id: number;
  key: string;
  version: string;
  scope: string;
  chunks: { start: number; data: Buffer }[];
  archive: Buffer | null;
}

export interface CacheScope {
  /** where this token's saves go: refs/heads/main, refs/pull/7/merge */
  write: string;
  /** what it reads besides its own scope, in order */
  read: string[];
}

export class FakeCache {
  readonly entries: CacheEntry[] = [];
  /** every reservation asked for (a save), with the scope of the token that asked */
  readonly reservations: { key: string; scope: string }[] = [];
  /** every lookup, with the keys asked for */
  readonly lookups: { keys: string[]; scope: string; hit: boolean }[] = [];
  private readonly tokens = new Map<string, CacheScope>();
  private server!: Server;
  url = '';

  static async start(): Promise<FakeCache> {
    const fake = new FakeCache();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/`;
    return fake;
  }

  /** A runtime token of a run in `scope` (ACTIONS_RUNTIME_TOKEN). */
  token(name: string, scope: CacheScope): string {
    this.tokens.set(name, scope);
    return name;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', this.url);
    const json = (status: number, value?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(value === undefined ? '' : JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname.startsWith('/download/')) {
      const entry = this.entries.find((e) => e.id === Number(url.pathname.slice('/download/'.length)));
      if (!entry?.archive) return json(404, { message: 'not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': entry.archive.length });
      res.end(entry.archive);
      return;
    }
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const scope = this.tokens.get(token);
    if (!scope) return json(401, { message: 'bad token' });
    const api = '/_apis/artifactcache/';
    if (!url.pathname.startsWith(api)) return json(404, { message: 'not found' });
    const resource = url.pathname.slice(api.length);
    if (req.method === 'GET' && resource === 'cache') {
      const keys = (url.searchParams.get('keys') ?? '').split(',');
      const version = url.searchParams.get('version');
      const readable = [scope.write, ...scope.read];
      for (const key of keys) {
        for (const s of readable) {
          const hit = this.entries.find((e) => e.archive && e.key === key && e.version === version && e.scope === s);
          if (hit) {
            this.lookups.push({ keys, scope: scope.write, hit: true });
            return json(200, { scope: hit.scope, cacheKey: hit.key, cacheVersion: hit.version, creationTime: new Date().toISOString(), archiveLocation: `${this.url}download/${hit.id}` });
          }
        }
      }
      this.lookups.push({ keys, scope: scope.write, hit: false });
      return json(204);
    }
    if (req.method === 'POST' && resource === 'caches') {
      const ask = JSON.parse(body.toString('utf8')) as { key: string; version: string };
      this.reservations.push({ key: ask.key, scope: scope.write });
      if (this.entries.some((e) => e.key === ask.key && e.version === ask.version && e.scope === scope.write)) return json(409, { message: `Cache already exists. Scope: ${scope.write}, Key: ${ask.key}` });
      const entry: CacheEntry = { id: this.entries.length + 1, key: ask.key, version: ask.version, scope: scope.write, chunks: [], archive: null };
      this.entries.push(entry);
      return json(201, { cacheId: entry.id });
    }
    const m = /^caches\/(\d+)$/.exec(resource);
    const entry = m ? this.entries.find((e) => e.id === Number(m[1]) && e.scope === scope.write) : undefined;
    if (!entry) return json(404, { message: 'no such cache' });
    if (req.method === 'PATCH') {
      const range = /bytes (\d+)-(\d+)/.exec(String(req.headers['content-range'] ?? ''));
      entry.chunks.push({ start: range ? Number(range[1]) : 0, data: body });
      return json(204);
    }
    if (req.method === 'POST') {
      entry.archive = Buffer.concat(entry.chunks.sort((a, b) => a.start - b.start).map((c) => c.data));
      return json(204);
    }
    return json(405, { message: 'method not allowed' });
  }
}
