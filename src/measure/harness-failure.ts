/**
 * The harness's own account of a failed run, for its failure report: the errors it wrote into its
 * report (harness/failure.ts), read from the run's stdout or from the report file its output
 * names, and, for a JavaScript harness, the Node.js version it needs when the run's `node` is
 * older (its package.json `engines`). Only a failed run comes here.
 *
 * The report's path comes from the output of the code under test (SECURITY.md, S3): pairbench
 * reads it only when it is a regular file inside the run's folder, and only the harness's error
 * messages out of it, which every report escapes as it does any message.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { HARNESS_PACKAGES, harnessErrors, olderThanEngines, reportFileNamed } from '../harness/failure.ts';
import type { HarnessFormat } from '../harness/types.ts';
import { redactOutput } from './secrets.ts';

/** A report larger than this is not read for its errors. */
const REPORT_CAP = 16 * 1024 * 1024;

interface FailedRun {
  stdout: string;
  outputTail: string;
}

/** `; <harness> reported: …` and `; <package> needs Node …`, or '' when the harness said nothing more. */
export function harnessFailureDetail(format: HarnessFormat, run: FailedRun, request: { cwd: string; env: Record<string, string | undefined> }): string {
  const parts: string[] = [];
  let errors = run.stdout.trim() === '' ? [] : harnessErrors(format, run.stdout);
  if (errors.length === 0) {
    const report = readReport(reportFileNamed(format, run.outputTail), request.cwd);
    if (report !== null) errors = harnessErrors(format, report);
  }
  if (errors.length > 0) parts.push(`${format} reported: ${errors.join('; ')}`);
  const needs = nodeNeeded(format, request);
  if (needs !== null) parts.push(needs);
  return parts.length === 0 ? '' : `; ${redactOutput(parts.join('; '))}`;
}

/** The report's text, when `path` is a regular file of at most REPORT_CAP bytes inside `cwd`; else null. */
function readReport(path: string | null, cwd: string): string | null {
  if (path === null) return null;
  try {
    const root = realpathSync(cwd);
    const file = realpathSync(resolve(cwd, path));
    const rel = relative(root, file);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
    const st = statSync(file);
    if (!st.isFile() || st.size > REPORT_CAP) return null;
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * `vitest 5.1.1 needs Node ^22.12.0 || … (its package.json engines); the run's node is v20.20.2`
 * when the `node` the run finds on its PATH is older than the harness package installed for the
 * run's folder (the nearest node_modules/<package> above it); null otherwise or when either is
 * unknown.
 */
function nodeNeeded(format: HarnessFormat, request: { cwd: string; env: Record<string, string | undefined> }): string | null {
  const pkg = HARNESS_PACKAGES[format];
  if (pkg === undefined) return null;
  const manifest = packageManifest(pkg, request.cwd);
  const range = manifest?.engines?.node;
  if (typeof range !== 'string') return null;
  const r = spawnSync('node', ['--version'], { cwd: request.cwd, env: { ...process.env, ...request.env }, encoding: 'utf8', timeout: 10_000 });
  const version = r.status === 0 ? r.stdout.trim() : '';
  if (!/^v\d+\.\d+\.\d+$/.test(version) || !olderThanEngines(version, range)) return null;
  const named = typeof manifest?.version === 'string' ? `${pkg} ${manifest.version}` : pkg;
  return `${named} needs Node ${range} (its package.json engines); the run's node is ${version}`;
}

function packageManifest(pkg: string, from: string): { version?: unknown; engines?: { node?: unknown } } | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    try {
      return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: unknown; engines?: { node?: unknown } };
    } catch {
      // not here: the folder above
    }
    if (dirname(dir) === dir) return null;
  }
}
