/**
 * What the runner tells the step about its run, from the environment: the repository, the URL of
 * the run, and the event (its payload, and what it asks to compare: github/events.ts).
 */
import * as core from '@actions/core';
import { existsSync, readFileSync } from 'node:fs';
import { EventError, resolveEvent, type Target } from '../github/events.ts';
import type { GitHubApi } from '../github/octokit.ts';
import type { ActionSettings } from './inputs.ts';

export function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : undefined;
}

function readPayload(env: NodeJS.ProcessEnv): unknown {
  const path = env['GITHUB_EVENT_PATH'];
  if (!path || !existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new EventError(`GITHUB_EVENT_PATH ${path} is not valid JSON`);
  }
}

export function repoOf(env: NodeJS.ProcessEnv): { owner: string; repo: string } {
  const [owner, repo] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  if (!owner || !repo) throw new EventError('GITHUB_REPOSITORY is not set (expected owner/name): is this running in GitHub Actions?');
  return { owner, repo };
}

/** The event of this run. */
export interface RunEvent {
  /** what to compare, or why there is nothing to do (`skip`) */
  target: Target;
  /** the event's payload (GITHUB_EVENT_PATH), `{}` when there is none: the accept label is read from it */
  payload: unknown;
}

/** Reads the event and what it asks for, with the inputs that choose the revisions; its warnings go to the log. */
export async function readEvent(settings: ActionSettings, env: NodeJS.ProcessEnv, api: GitHubApi | null): Promise<RunEvent> {
  const payload = readPayload(env);
  const target = await resolveEvent({
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    payload,
    repo: repoOf(env),
    sha: env['GITHUB_SHA'] ?? null,
    inputs: { mode: settings.mode, prNumber: settings.prNumber, baseRef: settings.baseRef, headRef: settings.headRef, allowForkOnDispatch: settings.allowForkOnDispatch },
    api,
  });
  for (const w of target.warnings) core.warning(w);
  return { target, payload };
}
