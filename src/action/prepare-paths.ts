/**
 * Before anything runs: every input read and checked (inputs.ts), the GitHub API's deadlines, and
 * the output paths checked with their folders made (S16). Then the token is masked and redacted
 * (S4), and the API client made with those deadlines (S9).
 */
import * as core from '@actions/core';
import { createClient, deadlinesFromEnv, type GitHubApi } from '../github/octokit.ts';
import { addSecret } from '../measure/secrets.ts';
import { prepareOutputFolder } from '../results/writer.ts';
import { envInputReader, readSettings, type ActionSettings } from './inputs.ts';

export interface Prepared {
  settings: ActionSettings;
  deadlines: ReturnType<typeof deadlinesFromEnv>;
}

/** Throws, with the one message the step fails with, for a bad input or an output path that cannot be written. */
export function prepare(env: NodeJS.ProcessEnv): Prepared {
  const settings = readSettings(envInputReader(env), env);
  const deadlines = deadlinesFromEnv(env);
  // S16: the output paths are checked (and their folders made) before anything runs.
  prepareOutputFolder('input results-path', settings.resultsPath);
  prepareOutputFolder('input results-path', settings.reportPath, { replaced: false });
  return { settings, deadlines };
}

/** The token masked and redacted, and the API client: null without a token (no comment, no check run, no look-ups). */
export function connect({ settings, deadlines }: Prepared): GitHubApi | null {
  // S4: masked in the runner's log, and redacted from every output pairbench captures and shows.
  if (settings.token) {
    core.setSecret(settings.token);
    addSecret(settings.token);
  }
  // every request has a deadline and the API's time in all is capped (S9): a dead API cannot hold the step
  return settings.token ? createClient(settings.token, { log: (l) => core.info(l), ...deadlines }) : null;
}
