/**
 * What pairbench runs on, checked first thing by both entry points (bin.ts, action.ts) before the
 * rest of the program is imported: an older Node.js would crash at import on a missing feature
 * (`Set.prototype.union` is Node.js 22), and on Windows every run would fail to start (the
 * measured commands run through `/bin/sh` and process groups). Pure, so the check is tested
 * directly for every platform and version.
 */

/** The oldest Node.js major version pairbench runs on; `engines.node` in package.json says the same. */
const MIN_NODE_MAJOR = 22;

/** The refusal of a Windows system (the action fails its step with it). */
export const WINDOWS_REFUSAL = 'pairbench runs on Linux and macOS; Windows is not supported yet.';

/** The one line that refuses an unsupported Node.js or system, or null when both are supported. */
export function refuseUnsupported(platform: string, nodeVersion: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(nodeVersion)?.[1] ?? NaN);
  if (!(major >= MIN_NODE_MAJOR)) {
    return `pairbench needs Node.js ${MIN_NODE_MAJOR} or later; this is Node.js v${nodeVersion.replace(/^v/, '')}.`;
  }
  if (platform === 'win32') return WINDOWS_REFUSAL;
  return null;
}
