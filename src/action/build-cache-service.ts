/**
 * The action's base build cache: GitHub's cache service (revisions/actions-cache.ts), written only
 * on the base branch's own runs (revisions/build-cache.ts, actionSavePolicy: S24).
 */
import type { Spec } from '../config/spec.ts';
import { ActionsCacheStore } from '../revisions/actions-cache.ts';
import { actionSavePolicy, type BuildCache } from '../revisions/build-cache.ts';
import type { ActionSettings } from './inputs.ts';

export function actionBuildCache(spec: Spec, settings: ActionSettings, env: NodeJS.ProcessEnv, log: (line: string) => void): BuildCache | undefined {
  if (!spec.buildCache) return undefined;
  const policy = actionSavePolicy(env['GITHUB_EVENT_NAME'] ?? '', { baseRef: settings.baseRef !== null, headRef: settings.headRef !== null, prNumber: settings.prNumber !== null });
  return { paths: spec.buildCache.paths, toolchain: spec.buildCache.toolchain, store: new ActionsCacheStore(log), ...policy, env };
}
