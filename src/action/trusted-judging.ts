/**
 * S26: the judging settings come from the trusted side. The config file in the workspace is the
 * pull request's own, so in the action every key that decides the verdict or what is measured for
 * it (the threshold, the absolute floor, whether nothing compared may pass, alpha, fail-on, outliers, correction, direction, the pair and time budget, the
 * changed-only keys, and each benchmark's threshold, floor, direction and paths) is taken from the config
 * file at the base commit instead, by benchmark name; the inputs still override both. What the
 * pull request's config changed is named (keys only, never its values) so the report can say
 * those changes were not used. The benchmarks' commands stay the workspace's: they are the code
 * under test.
 */
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { UsageError, show } from '../config/errors.ts';
import { actionNaming, buildSpec, type ConfigFile, type RawOptions, type Spec } from '../config/spec.ts';
import { Git } from '../revisions/git.ts';
import type { Target } from '../github/events.ts';
import { judgingOf, type ActionSettings } from './inputs.ts';
import { resolveRevisions } from './revisions.ts';

/** The top-level config keys that judge, or bound the evidence a verdict rests on. */
const JUDGING_KEYS = ['threshold', 'min-change', 'allow-nothing-compared', 'gate-metric', 'alpha', 'fail-on', 'outliers', 'correction', 'direction', 'precision', 'min-pairs', 'max-pairs', 'max-time', 'changed-only', 'paths-mode', 'paths-ignore'] as const;
/** The per-benchmark config keys that judge it, or decide whether it runs. */
const BENCHMARK_JUDGING_KEYS = ['threshold', 'min-change', 'direction', 'paths'] as const;

interface TrustedSpec {
  spec: Spec;
  /** the judging keys the pull request's config changes from the base's, in order (`threshold`, `benchmarks' paths`) */
  ignored: string[];
}

type Doc = Record<string, unknown>;

function asDoc(text: string | null): Doc | null {
  if (text === null) return null;
  try {
    const doc: unknown = parseYaml(text);
    return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Doc) : null;
  } catch {
    return null;
  }
}

function benchmarksOf(doc: Doc | null): Doc[] {
  const list = doc?.['benchmarks'];
  return Array.isArray(list) ? list.filter((b): b is Doc => b !== null && typeof b === 'object' && !Array.isArray(b)) : [];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The workspace's config with its judging keys replaced by the base's (removed where the base has
 * none, so the inputs and the defaults apply); `base` null: no config file at the base commit.
 */
export function withBaseJudging(prText: string, baseText: string | null): { text: string; ignored: string[] } {
  const pr = asDoc(prText);
  // a config that is not a YAML mapping is refused by buildSpec with its own message
  if (pr === null) return { text: prText, ignored: [] };
  const base = asDoc(baseText) ?? {};
  const ignored: string[] = [];
  for (const key of JUDGING_KEYS) {
    if (same(pr[key], base[key])) continue;
    ignored.push(key);
    if (base[key] === undefined) delete pr[key];
    else pr[key] = base[key];
  }
  const baseBenchmarks = new Map(benchmarksOf(base).map((b) => [String(b['name']), b]));
  const benchIgnored = new Set<string>();
  for (const b of benchmarksOf(pr)) {
    const was = baseBenchmarks.get(String(b['name']));
    for (const key of BENCHMARK_JUDGING_KEYS) {
      const from = was?.[key];
      // a benchmark the base does not have is new: its own paths decide when it runs, nothing else
      if (!was && key === 'paths') continue;
      if (same(b[key], from)) continue;
      benchIgnored.add(key);
      if (from === undefined) delete b[key];
      else b[key] = from;
    }
  }
  for (const key of BENCHMARK_JUDGING_KEYS) if (benchIgnored.has(key)) ignored.push(`benchmarks' ${key}`);
  return { text: ignored.length === 0 ? prText : stringify(pr), ignored };
}

/** The config file as committed at `sha`, or null when that commit has none at that path. */
async function configAt(workspace: string, sha: string, path: string): Promise<string | null> {
  const git = new Git(workspace);
  const top = await git.run(['rev-parse', '--show-toplevel'], { allowFail: true });
  if (top.exitCode !== 0) return null;
  const inRepo = relative(realpathSync(top.stdout), resolve(realpathSync(workspace), path)).split(sep).join('/');
  if (inRepo.startsWith('..')) return null;
  const res = await git.run(['show', '--end-of-options', `${sha}:${inRepo}`], { allowFail: true });
  return res.exitCode === 0 ? res.stdout : null;
}

/** The Spec with the judging keys of the base's config: what the action measures and judges with. */
function trustedSpec(flags: RawOptions, cwd: string, config: ConfigFile, baseText: string | null): TrustedSpec {
  const { text, ignored } = withBaseJudging(config.text, baseText);
  try {
    return { spec: buildSpec(flags, { cwd, naming: actionNaming, config: { path: config.path, text } }), ignored };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError('input config', `${err.message} (with the judging settings of the base commit's ${show(config.path)})`);
    throw err;
  }
}

/**
 * compare: the event's commits checked (revisions.ts), then the settings with the judging keys of
 * the base commit's config, and the keys the pull request's config changed in `configIgnored`.
 */
export async function trustedSettings(settings: ActionSettings, target: Target, log: (line: string) => void): Promise<ActionSettings> {
  if (settings.mode !== 'compare' || !settings.specSource) return settings;
  const revs = await resolveRevisions(settings, target, log);
  const config = settings.specSource.config;
  if (!revs || !config) return settings;
  const baseText = await configAt(settings.workspace, revs.base, config.path);
  const { spec, ignored } = trustedSpec(settings.specSource.flags, settings.workspace, config, baseText);
  return { ...settings, spec, ...judgingOf(spec), configIgnored: ignored };
}

/** The one line the log, the comment and the summary give when the pull request's config changed judging keys. */
export function ignoredLine(keys: readonly string[], configPath: string): string {
  return `The config file ${configPath} changes ${keys.join(', ')} in this revision: not used to judge it; the judging settings come from the base commit's ${configPath} and the inputs.`;
}
