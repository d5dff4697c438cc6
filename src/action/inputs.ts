/**
 * Every input of the action, read in one place into one typed settings object (the
 * actions/checkout input-helper pattern). The `compare` options go through the same
 * `buildSpec` as the CLI's flags, named `input <name>` in messages; the action's own inputs
 * (`mode`, `comment`, `pr-number`, ...) are checked here. A bad input is one `UsageError` that
 * names the input, the value and what is expected.
 */
import type { GateMetric } from '../config/options.ts';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError, fsReason, show } from '../config/errors.ts';
import { LIMITS } from '../config/limits.ts';
import { FileRefused, readRegularFile } from '../config/read-file.ts';
import { parseFailOn, type FailOn } from '../config/fail-on.ts';
import { COMPARE_OPTIONS } from '../config/options.ts';
import { ACTION_OWN_INPUTS, ownDefault } from './input-table.ts';
import { actionNaming, buildSpec, optionDefault, parseOptionValue, type ConfigFile, type RawOptions, type Spec } from '../config/spec.ts';
import { parseChoice, parseDuration, parseMinChange } from '../config/values.ts';
import { COMMENT_MODES, type CommentMode } from '../github/post-comment.ts';
import { parsePrNumber, type Mode } from '../github/events.ts';
import type { JudgeOptions } from '../stats/types.ts';

const MODES: readonly Mode[] = ['compare', 'report', 'noise'];

/** The `compare` options that are action inputs: all but the CLI-only ones and the output files. */
export const SPEC_INPUTS: readonly string[] = COMPARE_OPTIONS.filter((o) => !o.cliOnly && o.name !== 'out' && o.name !== 'markdown').map((o) => o.name);

/** The action's own inputs. With SPEC_INPUTS and `config`, these are all the inputs of action.yml. */
const ACTION_INPUTS: readonly string[] = ACTION_OWN_INPUTS.map((i) => i.name);

export const ALL_INPUTS: readonly string[] = [...SPEC_INPUTS, ...ACTION_INPUTS];

export interface ActionSettings {
  mode: Mode;
  /** empty when no token was given: no comment, no check run, no API look-ups */
  token: string;
  comment: CommentMode;
  commentId: string;
  checkName: string | null;
  prNumber: number | null;
  baseRef: string | null;
  headRef: string | null;
  /** `allow-fork-code-on-dispatch`: under workflow_dispatch, pr-number may name a fork's pull request, which is then built (S1) */
  allowForkOnDispatch: boolean;
  /** report mode: the glob of result files */
  results: string | null;
  resultsPath: string;
  /** the Markdown report (the job summary's text) and the HTML report, beside the results file */
  reportPath: string;
  htmlPath: string;
  /** the workspace (GITHUB_WORKSPACE): the repository and the root of relative paths */
  workspace: string;
  /** compare and noise: the Spec, with base and head still to be set from the event */
  spec: Spec | null;
  /** compare and noise: what the Spec was built from, so that the judging keys can be taken from the base commit's config (trusted-judging.ts) */
  specSource: { flags: RawOptions; config: ConfigFile | null } | null;
  /** the judging keys the workspace's config changes from the base commit's, which are not used (trusted-judging.ts); empty until known */
  configIgnored: string[];
  judge: JudgeOptions;
  failOn: FailOn;
  /** `allow-nothing-compared`: a comparison of nothing passes the gate (results/gate.ts) */
  allowNothingCompared: boolean;
  /** `gate-metric`: which rows the gate weighs (results/gate.ts) */
  gateMetric: GateMetric;
  /** `bisect: true`: the budget of the searches for the commits that regressed (bisect-max-time), else null */
  bisect: { maxTimeMs: number } | null;
}

export type InputReader = (name: string) => string;

/** Reads an input as the runner passes it: `INPUT_<NAME>` (upper case, spaces as `_`), trimmed. */
export function envInputReader(env: NodeJS.ProcessEnv): InputReader {
  return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function parseBoolean(input: string, value: string): boolean {
  // The YAML 1.2 core schema booleans, as @actions/core's getBooleanInput.
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE', ''].includes(value)) return false;
  throw UsageError.invalid(input, value, 'true or false');
}

function optional(value: string): string | null {
  return value === '' ? null : value;
}

function inWorkspace(workspace: string, path: string): string {
  return isAbsolute(path) ? path : resolve(workspace, path);
}

/** What judges a comparison, as its Spec says: the tests' settings, the gate, and what the gate allows. */
export function judgingOf(spec: Spec): Pick<ActionSettings, 'judge' | 'failOn' | 'allowNothingCompared' | 'gateMetric'> {
  const minChange = spec.minChange ? { minChange: parseMinChange(actionNaming('min-change'), spec.minChange) } : {};
  return { judge: { alpha: spec.alpha, threshold: spec.threshold, outliers: spec.outliers, correction: spec.correction, ...minChange }, failOn: spec.failOn, allowNothingCompared: spec.allowNothingCompared, gateMetric: spec.gateMetric };
}

/** Reads and checks every input. Throws a UsageError for the first bad one. */
export function readSettings(get: InputReader, env: NodeJS.ProcessEnv): ActionSettings {
  const workspace = env['GITHUB_WORKSPACE'] || process.cwd();
  const mode = parseChoice('input mode', get('mode') || ownDefault('mode'), MODES);
  const comment = parseChoice('input comment', get('comment') || ownDefault('comment'), COMMENT_MODES);
  const defaultId = [env['GITHUB_WORKFLOW'], env['GITHUB_JOB']].filter(Boolean).join(' / ') || 'pairbench';
  const commentId = get('comment-id') || defaultId;
  if (commentId.length > 200) throw UsageError.invalid('input comment-id', commentId, 'at most 200 characters');
  const prNumber = parsePrNumber(get('pr-number'));
  const allowForkOnDispatch = parseBoolean('input allow-fork-code-on-dispatch', get('allow-fork-code-on-dispatch'));
  const bisect = parseBoolean('input bisect', get('bisect')) ? { maxTimeMs: parseDuration('input bisect-max-time', get('bisect-max-time') || ownDefault('bisect-max-time')) } : null;

  const resultsPathInput = optional(get('results-path'));
  const runnerTemp = env['RUNNER_TEMP'] || tmpdir();
  const resultsPath = resultsPathInput ? inWorkspace(workspace, resultsPathInput) : join(runnerTemp, 'pairbench', 'pairbench-results.json');
  const stem = resultsPath.replace(/\.json$/i, '');
  const reportPath = stem + '.md';
  const htmlPath = `${stem}.html`;

  const results = optional(get('results'));
  if (mode === 'report' && results === null) {
    throw new UsageError('input results', 'input results is required with mode: report (a glob of results files, such as results/**/*.json)');
  }
  if (mode !== 'report' && results !== null) {
    throw new UsageError('input results', `input results is only read with mode: report; got mode ${show(mode)}`);
  }

  // The compare options, parsed by the one Spec builder the CLI uses.
  const flags: RawOptions = {};
  for (const name of SPEC_INPUTS) {
    const v = get(name);
    if (v !== '') flags[name] = v;
  }
  flags['out'] = resultsPath;
  const configPath = optional(get('config'));
  let config: ConfigFile | undefined;
  if (configPath !== null) {
    const full = inWorkspace(workspace, configPath);
    try {
      config = { path: configPath, text: readRegularFile(full, LIMITS.configBytes).toString('utf8') };
    } catch (err) {
      throw new UsageError('input config', `input config: cannot read ${show(configPath)} (looked at ${full}: ${err instanceof FileRefused ? err.message : fsReason(err)}); expected a YAML file in the repository`);
    }
  }
  if (mode === 'report') {
    // Only the judging options apply; they are parsed by the same table as the CLI's.
    const opt = <T>(name: string): T => (flags[name] === undefined ? optionDefault(name) : parseOptionValue(name, actionNaming(name), flags[name])) as T;
    return finish(null, null, {
      judge: { alpha: opt('alpha'), threshold: opt('threshold'), outliers: opt('outliers'), correction: opt('correction'), ...(flags['min-change'] !== undefined ? { minChange: parseMinChange(actionNaming('min-change'), String(flags['min-change'])) } : {}) },
      failOn: parseFailOn(actionNaming('fail-on'), opt<string[]>('fail-on')),
      allowNothingCompared: opt<boolean | undefined>('allow-nothing-compared') ?? false,
      gateMetric: opt<GateMetric>('gate-metric'),
    });
  }
  const spec = buildSpec(flags, { cwd: workspace, naming: actionNaming, ...(config ? { config } : {}) });
  return finish(spec, { flags, config: config ?? null }, judgingOf(spec));

  function finish(spec: Spec | null, specSource: ActionSettings['specSource'], judging: Pick<ActionSettings, 'judge' | 'failOn' | 'allowNothingCompared' | 'gateMetric'>): ActionSettings {
    return {
      mode,
      token: get('github-token'),
      comment,
      commentId,
      checkName: optional(get('check-name')),
      prNumber,
      baseRef: optional(get('base-ref')),
      headRef: optional(get('head-ref')),
      allowForkOnDispatch,
      results,
      resultsPath,
      reportPath,
      htmlPath,
      workspace,
      spec,
      specSource,
      configIgnored: [],
      ...judging,
      bisect,
    };
  }
}

/** Environment variables that carry credentials of the runner or of the action. */
const SECRET_ENV = /^(GITHUB_TOKEN|GH_TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL|ACTIONS_RUNTIME_URL|ACTIONS_RESULTS_URL|ACTIONS_CACHE_URL|INPUT_.*)$/i;

/**
 * S4: the environment handed to the user's build and benchmark commands: the runner's, without
 * the token (in any variable that holds it), the action's inputs, or the runtime's own credentials.
 */
export function commandEnv(env: NodeJS.ProcessEnv, token: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || SECRET_ENV.test(k)) continue;
    if (token.length >= 8 && v.includes(token)) continue;
    out[k] = v;
  }
  return out;
}
