/**
 * The action's own inputs and its outputs: names, tiers, descriptions and defaults. With the
 * `compare` options of src/config/options.ts, they are everything action.yml declares; action.yml
 * is generated from both tables (scripts/reference.ts), so that a description or a default is
 * written once.
 */
import type { Tier } from '../config/options.ts';
import { DEFAULT_ACCEPT_LABEL } from '../github/labels.ts';

export interface ActionInputDef {
  name: string;
  tier: Tier;
  doc: string;
  /** how the default reads in the description */
  defaultDoc: string;
  /** action.yml's `default:`, which the runner passes as if the user had typed it */
  default?: string;
}

export const ACTION_OWN_INPUTS: readonly ActionInputDef[] = [
  { name: 'config', tier: 'user', doc: 'YAML file (relative to the workspace) naming several benchmarks, each with its own command, format, metric and threshold; its top-level keys are defaults for these inputs.', defaultDoc: 'none' },
  { name: 'base-ref', tier: 'advanced', doc: 'Baseline git revision.', defaultDoc: "from the event (the PR base, the pushed range's parent), else the merge-base with the default branch" },
  { name: 'head-ref', tier: 'advanced', doc: 'Candidate git revision.', defaultDoc: 'from the event (the PR head, never the merge commit; the pushed commit), else GITHUB_SHA' },
  { name: 'github-token', tier: 'advanced', doc: 'Token for the comment and the check run. It is masked, and removed from the environment of the build and benchmark commands.', defaultDoc: "the job's token (github.token)", default: '${{ github.token }}' },
  { name: 'comment', tier: 'user', doc: 'always, on-change (only when some verdict is not unchanged; an existing comment is still updated), or never.', defaultDoc: 'always', default: 'always' },
  { name: 'comment-id', tier: 'advanced', doc: "Tells this job's sticky comment apart from others on the same PR.", defaultDoc: 'the workflow and job name' },
  { name: 'check-name', tier: 'user', doc: 'When set, also publish a check run of this name on the PR head (needs permissions checks: write).', defaultDoc: 'none (no check run)' },
  { name: 'pr-number', tier: 'advanced', doc: 'The PR to compare and comment on, for workflow_dispatch reruns.', defaultDoc: 'from the event' },
  { name: 'mode', tier: 'user', doc: 'compare (measure and report), report (only merge result files and report: shards, fork PRs through workflow_run), or noise (an A/A run of one revision: the noise floor).', defaultDoc: 'compare', default: 'compare' },
  { name: 'results', tier: 'advanced', doc: 'mode report: the result files to merge (a glob, one per line), such as `results/**/*.json`. They are treated as untrusted: schema-checked and size-capped.', defaultDoc: 'none (required in mode report)' },
  { name: 'results-path', tier: 'advanced', doc: 'Where the results file is written.', defaultDoc: 'pairbench/pairbench-results.json under RUNNER_TEMP' },
  { name: 'accept-label', tier: 'user', doc: 'A pull request label that accepts an intended regression: the gate passes and the comment says who accepted it. It counts only when added by someone with write access, and only for the head commit it was added on: a later push needs the label added again. Empty: no label accepts.', defaultDoc: DEFAULT_ACCEPT_LABEL, default: DEFAULT_ACCEPT_LABEL },
  { name: 'bisect', tier: 'advanced', doc: "On a pull request whose comparison finds regressions, search the PR's first-parent commits for the first one that regresses each regressed benchmark (at most 3): the head's regression is the comparison's, and each halving compares a commit with the base by the same paired test, at alpha / ceil(log2 commits). The comment names the commit with its interval; a commit that cannot be built is skipped. Needs the PR's history (actions/checkout with fetch-depth: 0).", defaultDoc: 'false', default: 'false' },
  { name: 'bisect-max-time', tier: 'advanced', doc: 'The budget of the bisect, builds included, shared by the benchmarks searched and, for each, by its steps (each an equal share of the time left).', defaultDoc: '10m', default: '10m' },
  { name: 'allow-fork-code-on-dispatch', tier: 'advanced', doc: "pairbench builds a fork's pull request only under pull_request, where the token is read-only and there are no secrets; every other event refuses. Under workflow_dispatch (started by hand by someone with write access), true lets pr-number name a fork's pull request, whose code then runs with this workflow's token: read its changes first.", defaultDoc: 'false', default: 'false' },
];

export const ACTION_OUTPUTS: readonly { name: string; doc: string }[] = [
  { name: 'verdict', doc: 'The worst verdict: regression, inconclusive, improvement or unchanged.' },
  { name: 'regressions', doc: 'How many benchmarks regressed.' },
  { name: 'improvements', doc: 'How many benchmarks improved.' },
  { name: 'inconclusive', doc: 'How many benchmarks are inconclusive (more pairs needed to tell; a failed benchmark counts here too).' },
  { name: 'results-path', doc: 'The results file (JSON, every raw pair): upload it as an artifact.' },
  { name: 'report-path', doc: 'The report as Markdown (the job summary).' },
  { name: 'comment-url', doc: 'The sticky comment, when one was written; empty otherwise.' },
  { name: 'check-url', doc: 'The check run (`check-name`), when one was created; empty otherwise.' },
];

/** An own input's default as the code falls back to it when the runner passed nothing (a local run). */
export function ownDefault(name: string): string {
  const def = ACTION_OWN_INPUTS.find((i) => i.name === name)?.default;
  if (def === undefined) throw new Error(`the action input ${name} has no default`);
  return def;
}
