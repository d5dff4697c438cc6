/**
 * The two command lines at the end of a report: one that replays the comparison (same revisions,
 * same seed, same settings) and one that judges the saved results again.
 *
 * A results file can be forged (fork PRs hand it over as an artifact of an untrusted workflow,
 * S2), so nothing in it is trusted here:
 * - commands (`build`, `run`, `prepare`) come only from the live settings of the run that renders
 *   the report (`ReplaySource.commands`), never from the file's `settings`;
 * - a recorded setting is printed only when it passes the same validation as the flag it came
 *   from (results/recorded.ts, the reading re-judging uses too), under its user-facing name
 *   (`--max-time 4m`, not `maxTimeMs`);
 * - every argument is shell-quoted, and revisions are printed only as hexadecimal SHAs or plain refs.
 *
 * The command is `pairbench`, the package's `bin`. The npm package is not published yet, so the
 * report does not suggest `npx pairbench`, which would fetch an unrelated package or fail.
 */
import type { Results } from '../results/schema.ts';
import { COMPARE_OPTIONS } from '../config/options.ts';
import { formatThreshold } from '../config/values.ts';
import { parseOptionValue } from '../config/spec.ts';
import { RECORDED_SETTINGS, readRecordedSetting } from '../results/recorded.ts';

/** The commands of the run that renders the report: trusted, since they are its own settings. */
/** One benchmark's commands and the flags that shape how it is measured (config/spec.ts, `BenchmarkSpec`). */
export interface ReplayBenchmark {
  name: string;
  run: string;
  format: string;
  metrics: readonly string[];
  prepare: string | null;
  /** `none`: the command split into words and run directly (`--shell none`) */
  shell?: string;
  direction?: string;
  interleave?: string;
  batch?: number;
  iterations?: string;
  design?: string;
}

export interface ReplayCommands {
  build: string | null;
  benchmarks: readonly ReplayBenchmark[];
  /** the config file the benchmarks came from, as the user gave it */
  configPath?: string | null;
}

export interface ReplaySource {
  /** the live commands; absent when the report is rendered from a results file alone */
  commands?: ReplayCommands | null;
  /** the results file(s) as the reader has them (paths, or an artifact's file name) */
  resultsFiles?: readonly string[];
}

/** The executable of the replay lines. */
const CLI_NAME = 'pairbench';

/** Quotes one argument for a POSIX shell: plain words stay as they are, anything else in single quotes. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * How a recorded setting reads back as a flag (`--max-time 4m`, `--threshold 5%`); the others as
 * they are. Which settings are printed, and their validation, are results/recorded.ts's.
 */
const SHOW: Readonly<Record<string, (v: number | string) => string>> = {
  threshold: (v) => formatThreshold(Number(v)),
  precision: (v) => `${Number((Number(v) * 100).toPrecision(6))}%`,
  'max-time': (v) => durationFlag(Number(v)),
  timeout: (v) => durationFlag(Number(v)),
};

/** The flags a re-judge (`pairbench report`) accepts. */
const REJUDGE_FLAGS = new Set(['threshold', 'alpha', 'outliers', 'correction']);

function durationFlag(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${Math.round(ms)}ms`;
}

function shown(flag: string, value: number | string): string {
  return (SHOW[flag] ?? String)(value);
}

/** The default of a flag as the parser reads it, to leave out settings that are at their default. */
function defaultShown(flag: string): string | null {
  const def = COMPARE_OPTIONS.find((o) => o.name === flag)?.default;
  if (def === undefined) return null;
  const parsed = parseOptionValue(flag, `--${flag}`, def);
  if (typeof parsed !== 'number' && typeof parsed !== 'string') return null;
  return shown(flag, parsed);
}

/** The recorded settings that pass validation and differ from their default, as `[flag, value]`; the seed always. */
function recordedFlags(results: Results, only?: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const s of RECORDED_SETTINGS) {
    if (only && !only.has(s.flag)) continue;
    const read = readRecordedSetting(results.settings, s.key);
    if (!read || !('value' in read)) continue;
    const text = shown(s.flag, read.value);
    if (s.flag !== 'seed' && text === defaultShown(s.flag)) continue;
    out.push([s.flag, text]);
  }
  return out;
}

/** A revision as an argument: a full or short hexadecimal SHA, else a ref of plain characters, else nothing. */
function revisionArg(rev: Results['base']): string | null {
  if (rev.sha && /^[0-9a-f]{7,64}$/i.test(rev.sha)) return rev.sha.toLowerCase();
  if (rev.ref && /^[A-Za-z0-9_][A-Za-z0-9_./-]{0,200}$/.test(rev.ref) && !rev.ref.includes('..')) return rev.ref;
  return null;
}

export interface ReplayLines {
  /** replays the comparison */
  replay: string;
  /** what is missing from `replay` and why (commands not copied from a file), or null */
  replayNote: string | null;
  /** judges the saved results again */
  rejudge: string;
}

/** Both command lines of a report. */
export function replayLines(results: Results, source: ReplaySource = {}): ReplayLines {
  const args: string[] = [CLI_NAME, 'compare'];
  for (const side of ['base', 'head'] as const) {
    const rev = results[side];
    const arg = revisionArg(rev);
    if (arg) args.push(`--${side}`, arg);
    // two directories compared (no git): their paths, as plain arguments
    else if (rev.dir && /^[^\0\n\r]{1,1024}$/.test(rev.dir)) args.push(`--${side}-dir`, rev.dir);
  }
  let note: string | null = null;
  const cmd = source.commands;
  if (cmd) {
    if (cmd.configPath) args.push('--config', cmd.configPath);
    else {
      if (cmd.build) args.push('--build', cmd.build);
      const only = cmd.benchmarks.length === 1 ? cmd.benchmarks[0]! : null;
      if (only) {
        args.push('--run', only.run);
        if (only.name !== only.run) args.push('--name', only.name);
        if (only.format !== 'time') args.push('--format', only.format);
        if (only.metrics.join(',') !== 'wall') args.push('--metric', only.metrics.join(','));
        if (only.prepare) args.push('--prepare', only.prepare);
        // how it was measured, when not the default: a replay without them measures something else
        // (`--shell none` runs the command's words directly, with no shell to parse them)
        if (only.shell === 'none') args.push('--shell', 'none');
        if (only.direction) args.push('--direction', only.direction);
        if (only.interleave) args.push('--interleave', only.interleave);
        if (only.batch !== undefined && only.batch !== 1) args.push('--batch', String(only.batch));
        if (only.iterations) args.push('--iterations', only.iterations);
        if (only.design) args.push('--design', only.design);
      } else note = 'Several benchmarks: add the `--config` file that names them.';
    }
  } else {
    note = 'Add the `--build` and `--run` (or the `--config` file) of the workflow that measured it: commands are never copied from a results file.';
  }
  for (const [flag, v] of recordedFlags(results)) args.push(`--${flag}`, v);
  const files = (source.resultsFiles ?? []).filter((f) => f.trim() !== '');
  const rejudge = [CLI_NAME, 'report', ...(files.length ? files : ['pairbench-results.json']), ...recordedFlags(results, REJUDGE_FLAGS).flatMap(([f, v]) => [`--${f}`, v])];
  return { replay: args.map(shellQuote).join(' '), replayNote: note, rejudge: rejudge.map(shellQuote).join(' ') };
}

/** The commands of a Spec, for {@link ReplaySource.commands}. */
export function commandsOf(spec: { build: string | null; benchmarks: readonly ReplayBenchmark[] }, configPath?: string | null): ReplayCommands {
  return { build: spec.build, benchmarks: spec.benchmarks, configPath: configPath ?? null };
}
