/**
 * The line of the reports that says where the base's build came from, when a build cache is set
 * (settings.buildCacheHit in the results). Pure.
 */
import type { Results } from '../results/schema.ts';

export function buildCacheLine(results: Pick<Results, 'settings'>): string {
  const hit = results.settings?.['buildCacheHit'];
  const key = results.settings?.['buildCacheKey'];
  if (typeof hit !== 'boolean' || typeof key !== 'string') return '';
  return hit
    ? `**Base build:** restored from the build cache (\`${key.replace(/`/g, '')}\`), not rebuilt; head was built. Only build outputs are cached: every pair was measured in this run.`
    : `**Base build:** not in the build cache (\`${key.replace(/`/g, '')}\`): built in this run.`;
}
