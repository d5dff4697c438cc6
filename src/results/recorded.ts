/**
 * The settings a results file records (`settings`, written by `compare` from its Spec), read back
 * through the parser of the flag each came from. A results file may come from anywhere (an artifact
 * of a fork's workflow, S2), so a recorded value counts only when that flag would accept it; this
 * one reading serves both the report's replay lines (report/replay.ts) and re-judging
 * (results/rejudge.ts).
 */
import { UsageError } from '../config/errors.ts';
import { COMPARE_OPTIONS, recordedKey } from '../config/options.ts';
import { optionDefault, parseOptionValue } from '../config/spec.ts';
import { parseCpuList } from '../config/cpu-list.ts';
import type { Results } from './schema.ts';

/**
 * Each setting read back, by its key in `settings`, with the flag it came from: the options the
 * option table marks `recorded` (config/options.ts), in their replay order, so a key and its flag are written down once.
 * Durations are recorded in milliseconds (`maxTimeMs`), where the flag reads a bare number as seconds.
 */
export const RECORDED_SETTINGS: readonly { key: string; flag: string }[] = COMPARE_OPTIONS.filter((o) => o.recorded !== undefined)
  .sort((a, b) => a.recorded! - b.recorded!)
  .map((o) => ({ key: recordedKey(o), flag: o.name }));

/** A recorded setting read back: its value as the flag's parser gives it, or what the flag expects instead. */
export type RecordedSetting = { value: number | string } | { raw: unknown; expected: string };

/**
 * The recorded setting `key`, read as its flag would read it (durations in milliseconds, as
 * recorded); undefined when the file does not record it.
 */
export function readRecordedSetting(settings: Readonly<Record<string, unknown>> | undefined, key: string): RecordedSetting | undefined {
  const raw = settings?.[key];
  if (raw === undefined || raw === null) return undefined;
  const flag = RECORDED_SETTINGS.find((s) => s.key === key)?.flag;
  if (!flag) throw new Error(`readRecordedSetting: ${key} is not a recorded setting`);
  return readAsFlag(flag, raw, key.endsWith('Ms'));
}

/**
 * A recorded value read as `--<flag>` reads it. `ms`: the value is a duration recorded in
 * milliseconds, while the flag reads a bare number as seconds.
 */
export function readAsFlag(flag: string, raw: unknown, ms = false): RecordedSetting {
  if (typeof raw !== 'number' && typeof raw !== 'string') return { raw, expected: 'a single number or word' };
  try {
    const parsed = parseOptionValue(flag, `recorded ${flag}`, ms && typeof raw === 'number' ? raw / 1000 : raw);
    if (typeof parsed !== 'number' && typeof parsed !== 'string') return { raw, expected: 'a single value' };
    return { value: parsed };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return { raw, expected: /; expected (.*)$/.exec(err.message)?.[1] ?? 'a valid value' };
  }
}

/**
 * A recorded setting as a report reads it, by its flag: the value its flag's parser gives it (a
 * threshold as a fraction, a duration in milliseconds), else the flag's default (undefined where it
 * has none, as for the seed). The one reader of `settings` for every report, so none of them can
 * show a figure the flag would refuse.
 */
export function recordedOr(settings: Readonly<Record<string, unknown>> | undefined, flag: string): number | string | undefined {
  const entry = RECORDED_SETTINGS.find((s) => s.flag === flag);
  if (!entry) throw new Error(`recordedOr: --${flag} is not a recorded setting`);
  const read = readRecordedSetting(settings, entry.key);
  if (read && 'value' in read) return read.value;
  const fallback = optionDefault(flag);
  return typeof fallback === 'number' || typeof fallback === 'string' ? fallback : undefined;
}

/**
 * Every run bound to one CPU: a recorded `--cpus` list of one CPU (`3`, `3-3`), or pairs that ran at
 * once (`atOnce` "at once: ...", each side on a CPU of its own). Go then sizes GOMAXPROCS to 1 itself.
 */
export function boundToOneCpu(settings: Readonly<Record<string, unknown>> | undefined): boolean {
  if (/^at once: /.test(String(settings?.['atOnce'] ?? ''))) return true;
  const cpus = settings?.['cpus'];
  const list = typeof cpus === 'string' ? parseCpuList(cpus) : null;
  return list !== null && new Set(list).size === 1;
}

/** The recorded benchmark a result row belongs to: the only one, or the one whose name prefixes it (`<name>/...`). */
export function recordedOf(results: Results, name: string): { format?: string | undefined; run?: string | undefined; interleave?: string | undefined; batch?: number | undefined } | undefined {
  const recorded = results.settings?.benchmarks;
  if (!Array.isArray(recorded) || recorded.length === 0) return undefined;
  if (recorded.length === 1) return recorded[0];
  return recorded.find((r) => name.startsWith(`${r.name}/`));
}

/**
 * Whether some job paired whole runs of its suite: a round then names the job itself, where a job
 * paired per benchmark names its benchmarks. A file without rounds (an older one) counts as whole runs.
 */
export function pairsWholeRuns(results: Results): boolean {
  const rounds = results.rounds;
  if (!rounds || rounds.length === 0) return true;
  const jobs = new Set((Array.isArray(results.settings?.benchmarks) ? (results.settings.benchmarks as Array<{ name?: unknown }>) : []).map((b) => b.name).filter((n): n is string => typeof n === 'string'));
  return jobs.size === 0 || rounds.some((r) => r.some((unit) => jobs.has(unit)));
}
