/**
 * The Spec: one typed description of a comparison, built the same way from command-line flags,
 * action inputs and a config file. The engine reads nothing else.
 *
 * Precedence: explicit flags/inputs, then the config file's top-level keys, then the defaults in
 * `options.ts`.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Direction, OutlierRule, Correction } from '../stats/types.ts';
import { parseCacheKey, parseCachePaths } from './build-cache-option.ts';
import { checkGlob, type PathsMode } from './changed-only.ts';
import { splitCommand, type ShellMode } from './command.ts';
import { UsageError, show } from './errors.ts';
import { checkCpuList, parseCpuList, parseCpus, thisHost, type CpuHost } from './cpus.ts';
import { chooseAtOnce, type AtOnce } from './at-once.ts';
import { NOT_BOUND, chooseIsolation, formatsGainFromBinding, type Isolation } from './isolation.ts';
import { harnessOf } from '../harness/registry.ts';
import { LIMITS } from './limits.ts';
import { COMPARE_OPTIONS, METRICS, RUN_FORMATS, optionDef, type GateMetric, type Metric, type RunFormat } from './options.ts';
import { parseFailOn, type FailOn } from './fail-on.ts';
import { parseAlpha, parseChoice, parseDuration, parseInteger, parseMinChange, parsePercent } from './values.ts';
import type { UnitFamily } from '../stats/floor.ts';

export type RawValue = string | number | boolean | string[] | undefined;
export type RawOptions = Record<string, RawValue>;

export interface BenchmarkSpec {
  name: string;
  run: string;
  format: RunFormat;
  metrics: Metric[];
  threshold?: number;
  /** per-metric thresholds (`threshold: { wall: 5%, instructions: 0.5% }`): the gate set per metric */
  thresholds?: Partial<Record<Metric, number>>;
  /** its own `min-change` (config file), as typed and checked (config/values.ts `parseMinChange`) */
  minChange?: string;
  direction?: Direction;
  prepare: string | null;
  /** how `run` is started: through `/bin/sh -c` (default), or split into words and executed directly */
  shell?: ShellMode;
  /** a regular expression on result names, for harness formats */
  filter: string | null;
  /**
   * `benchmark`: pair each benchmark of the suite on its own (base's and head's run of it back to
   * back); `suite`: pair whole runs of the suite. Unset: `benchmark` wherever the format and the
   * run command allow selecting one benchmark (src/harness/select.ts), else `suite`.
   */
  interleave?: 'benchmark' | 'suite';
  /** benchmarks per run with benchmark-level interleaving (default 1; the format's own under `design` auto: `harnessBatch`) */
  batch?: number;
  /**
   * Go benchmarks paired on their own: `fixed` (default) runs each with one iteration count on both
   * sides (`-test.benchtime=Nx`, from the listing run); `harness` lets Go size every run itself.
   */
  iterations?: 'fixed' | 'harness';
  /**
   * `auto` (default) chooses each Go, Google Benchmark and pyperf benchmark's repetitions per process
   * and their length from the noise of its first pairs (schedule/choose-design.ts), and trims a
   * Criterion run's own analysis (harness/criterion-trim.ts), and runs a format's own batch of
   * benchmarks a process (`harnessBatch`); `command` runs them as the command says
   * (Go with the count of `iterations`).
   */
  design?: 'auto' | 'command';
  /** `paths:` globs relative to the repository root: with changed-only, the benchmark runs only when base..head changes a file under them */
  paths?: string[];
}

export type RevisionSpec = { kind: 'git'; rev: string | null } | { kind: 'dir'; dir: string };

export interface Spec {
  /** the directory commands are resolved from (the repository for git revisions) */
  cwd: string;
  base: RevisionSpec;
  head: RevisionSpec;
  build: string | null;
  /** `build-cache`: the base's build outputs kept between runs (revisions/build-cache.ts), or null */
  buildCache: { paths: string[]; toolchain: string | null; dir: string | null } | null;
  /** `changed-only`, `paths-mode`, `paths-ignore`: benchmarks chosen by the paths base..head changes */
  changedOnly: { mode: PathsMode; ignore: string[] } | null;
  benchmarks: BenchmarkSpec[];
  /**
   * Result names carry their benchmark's name (`<benchmark>/<result>`): set from the config when a
   * subset of its benchmarks runs (changed-only), so a benchmark keeps the name a full run gives it;
   * absent, names are prefixed when more than one benchmark runs.
   */
  prefixNames?: boolean;
  minPairs: number;
  maxPairs: number;
  maxTimeMs: number;
  /**
   * `--precision`; null when not given: then each benchmark's is a quarter of its threshold
   * (stats/stop.ts, `defaultPrecision`)
   */
  precision: number | null;
  warmup: number;
  threshold: number;
  /** `--min-change`, as typed and checked (config/values.ts `parseMinChange`); null: no floor */
  minChange: string | null;
  alpha: number;
  outliers: OutlierRule;
  correction: Correction;
  timeoutMs: number;
  seed: number;
  /** true when the user chose the seed (recorded either way) */
  seedGiven: boolean;
  shard: { index: number; count: number };
  /** `--cpus`: the CPUs every measured run is bound to (a cpuset list, config/cpus.ts); absent: not bound */
  cpus?: string;
  /** `--cpus auto` or `none`: what was chosen and why (config/isolation.ts); `cpus` holds the CPUs when the runs are bound */
  isolation?: Isolation;
  /**
   * `--fresh-copy`: `auto` replaces the program a command runs, when it is an ELF executable inside
   * the revision's folder, with a copy of itself before every measured run (measure/fresh-copy.ts)
   */
  freshCopy: 'auto' | 'off';
  /** `--pair-runs`: the two runs of a pair one after the other, both at once, or (auto) at once where the machine allows (config/at-once.ts) */
  pairRuns: 'auto' | 'in-turn' | 'at-once';
  /** `--pair-runs auto` or `at-once`: the two CPUs of the sides, or null where the pairs run in turn, and why (absent where `--cpus` chose in turn) */
  atOnce?: AtOnce;
  /** `--pair-runs auto` at once: how the runs are bound should the pairs run in turn after all (other work on one of the two CPUs: engine.ts) */
  inTurn?: Pick<Spec, 'cpus' | 'isolation'>;
  out: string;
  markdown: string | null;
  failOn: FailOn;
  /** `allow-nothing-compared`: a comparison of nothing (results/gate.ts) passes the gate */
  allowNothingCompared: boolean;
  /** `gate-metric`: which rows the gate weighs (results/gate.ts) */
  gateMetric: GateMetric;
  /** `count-work`, ms: the benchmark's own work in one counted run (schedule/count-runs.ts); null: the counter's default */
  countWorkMs: number | null;
  json: boolean;
  quiet: boolean;
}

const METRIC_FAMILY: Record<Metric, UnitFamily> = { wall: 'time', cpu: 'time', rss: 'bytes', instructions: 'count' };
const FAMILY_WORDS: Record<UnitFamily, { is: string; expected: string }> = {
  time: { is: 'a time', expected: 'a time such as 5ms or 200ns' },
  bytes: { is: 'a size in bytes', expected: 'a size such as 1KB' },
  count: { is: 'a count', expected: 'a count such as 100' },
};

/**
 * Checks every `min-change` (stats/floor.ts) before anything runs: its own, and the comparison's.
 * A benchmark timed by pairbench (`format: time`) measures known units, so a floor of a family it
 * does not measure (a size for a wall time) is refused; a harness's units are known only once it
 * prints them, and a floor applies to the results of its family alone. Returns the comparison's.
 */
function checkFloors(benchmarks: BenchmarkSpec[], global: string | undefined, input: string, configName: (key: string) => string): string | null {
  const wrong = (where: string, text: string, family: UnitFamily, measures: UnitFamily[], what: string) =>
    new UsageError(where, `${where}: got ${show(text)}, ${FAMILY_WORDS[family].is}, but ${what} measures ${measures.map((f) => FAMILY_WORDS[f].is.replace(/^a /, '')).join(' and ')}; expected ${FAMILY_WORDS[measures[0]!].expected}`);
  const timed = benchmarks.filter((b) => b.format === 'time');
  for (const b of benchmarks) {
    if (b.minChange === undefined) continue;
    const where = configName(`benchmark ${show(b.name)} min-change`);
    const floors = parseMinChange(where, b.minChange);
    if (b.format !== 'time') continue;
    const measures = [...new Set(b.metrics.map((m) => METRIC_FAMILY[m]))];
    const off = floors.find((f) => !measures.includes(f.family));
    if (off) throw wrong(where, b.minChange, off.family, measures, `the benchmark ${show(b.name)}`);
  }
  if (global === undefined) return null;
  const floors = parseMinChange(input, global);
  if (timed.length === benchmarks.length && timed.length > 0) {
    const measures = [...new Set(timed.flatMap((b) => b.metrics.map((m) => METRIC_FAMILY[m])))];
    const off = floors.find((f) => !measures.includes(f.family));
    if (off) throw wrong(input, global, off.family, measures, timed.length === 1 ? `the benchmark ${show(timed[0]!.name)}` : 'every benchmark');
  }
  return global.trim();
}

/** How inputs are named in messages: `--max-pairs` on the command line, `input max-pairs` in the action. */
export type InputNaming = (name: string) => string;
export const cliNaming: InputNaming = (name) => `--${name}`;
export const actionNaming: InputNaming = (name) => `input ${name}`;

const BenchmarkEntrySchema = z.strictObject({
  name: z.string().min(1).max(200),
  run: z.string().min(1),
  format: z.enum(RUN_FORMATS).optional(),
  metric: z.union([z.enum(METRICS), z.array(z.enum(METRICS)).min(1)]).optional(),
  threshold: z.union([z.string(), z.number(), z.partialRecord(z.enum(METRICS), z.union([z.string(), z.number()]))]).optional(),
  'min-change': z.union([z.string(), z.number()]).optional(),
  direction: z.enum(['lower-is-better', 'higher-is-better']).optional(),
  prepare: z.string().optional(),
  filter: z.string().optional(),
  shell: z.enum(['sh', 'none']).optional(),
  interleave: z.enum(['benchmark', 'suite']).optional(),
  batch: z.number().int().min(1).max(LIMITS.batch).optional(),
  iterations: z.enum(['fixed', 'harness']).optional(),
  design: z.enum(['auto', 'command']).optional(),
  paths: z.union([z.string(), z.array(z.string()).min(1).max(100)]).optional(),
});

const ConfigSchema = z.looseObject({
  benchmarks: z.array(BenchmarkEntrySchema).min(1, 'must list at least one benchmark'),
});

/**
 * The range of each whole-number option. Pairs stop at what a results file may hold (it must be
 * read back by `pairbench report`); the seed is a 32-bit number.
 */
const INTEGER_RANGES: Record<string, [number, number]> = {
  'min-pairs': [1, LIMITS.pairsPerBenchmark],
  'max-pairs': [1, LIMITS.pairsPerBenchmark],
  warmup: [0, 1000],
  batch: [1, LIMITS.batch],
  seed: [0, 2 ** 32 - 1],
};

/** Shards at most: as many as one report merges (and more than a GitHub matrix runs). */
const MAX_SHARDS = LIMITS.shards;

/**
 * An option's default as its parser reads it. A default is written once, as text in the option
 * table (options.ts), and read into a value here only: the Spec, `report`, the action's report
 * mode and the reading of results files all take it from this function.
 */
export function optionDefault(name: string): unknown {
  const def = optionDef(name)?.default;
  return def === undefined ? undefined : parseOptionValue(name, `--${name}`, def);
}

/** The gate when none is given: the option table's default, as `--fail-on` reads it. */
export function defaultFailOn(): FailOn {
  return parseFailOn('--fail-on', optionDefault('fail-on') as string[]);
}

/**
 * Parses one value by its option's kind; `input` is how the user wrote its name. The one place a
 * value given as text becomes a number: a threshold from a flag, an input, a config file (its own
 * and each benchmark's) or a results file is read here, by `parsePercent`, and is a number from
 * then on, down to the verdict.
 */
export function parseOptionValue(name: string, input: string, value: RawValue): unknown {
  const def = optionDef(name);
  if (!def) throw new UsageError(input, `${input}: unknown option`);
  if (value === undefined) return undefined;
  if (def.kind === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    throw UsageError.invalid(input, value, 'true or false');
  }
  if (Array.isArray(value)) {
    if (def.kind !== 'list') throw UsageError.invalid(input, value, 'a single value');
    return value.map((v) => parseChoice(input, String(v).trim(), def.choices ?? []));
  }
  const text = typeof value === 'boolean' ? String(value) : value;
  switch (def.kind) {
    case 'integer': {
      const [min, max] = INTEGER_RANGES[name] ?? [0, Number.MAX_SAFE_INTEGER];
      return parseInteger(input, text, min, max);
    }
    case 'duration':
      return parseDuration(input, text);
    case 'percent':
      return parsePercent(input, text, { max: name === 'precision' ? 1 : 10 });
    case 'alpha':
      return parseAlpha(input, text);
    case 'cpus':
      return ['auto', 'none'].includes(String(text).trim()) ? String(text).trim() : checkCpuList(input, String(text), true);
    case 'choice':
      return parseChoice(input, String(text).trim(), def.choices ?? []);
    case 'list':
      return String(text)
        .split(',')
        .map((v) => parseChoice(input, v.trim(), def.choices ?? []));
    default: {
      const s = String(text);
      if (s.trim() === '') throw UsageError.invalid(input, s, 'a non-empty value');
      return s;
    }
  }
}

/**
 * Metrics named each once. A metric named twice would be measured and judged twice from the same
 * runs, its pairs counted twice towards one verdict (an A/A then looks like a change), so the
 * list is refused rather than quietly cut: what runs is what the user wrote.
 */
function eachOnce(input: string, metrics: Metric[]): Metric[] {
  const repeated = metrics.find((m, i) => metrics.indexOf(m) !== i);
  if (repeated !== undefined) throw new UsageError(input, `${input}: got ${show(metrics.join(','))}, which names ${repeated} twice; expected each metric once`);
  return metrics;
}

function parseShard(input: string, value: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1 && count <= MAX_SHARDS && index >= 1 && index <= count)) {
    throw UsageError.invalid(input, value, `i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, such as 2/4`);
  }
  return { index, count };
}

export interface ConfigFile {
  path: string;
  text: string;
}

/** Reads the config file's YAML into top-level defaults and benchmark entries. */
function parseConfigFile(file: ConfigFile): { defaults: RawOptions; benchmarks: z.infer<typeof BenchmarkEntrySchema>[] } {
  let doc: unknown;
  try {
    doc = parseYaml(file.text);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UsageError('--config', `--config ${file.path}: not valid YAML (${reason})`);
  }
  const parsed = ConfigSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '';
    throw new UsageError('--config', `--config ${file.path}: ${where || 'the file'}: ${issue?.message ?? 'invalid'}`);
  }
  const defaults: RawOptions = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (key === 'benchmarks') continue;
    const def = optionDef(key);
    if (!def || def.cliOnly) {
      const known = COMPARE_OPTIONS.filter((o) => !o.cliOnly).map((o) => o.name);
      throw new UsageError('--config', `--config ${file.path}: unknown key ${show(key)}; expected benchmarks or one of ${known.join(', ')}`);
    }
    if (value === null || (typeof value === 'object' && !Array.isArray(value))) {
      throw UsageError.invalid(`--config ${file.path}: ${key}`, value, 'a plain value');
    }
    defaults[key] = Array.isArray(value) ? value.map(String) : (value as string | number | boolean);
  }
  return { defaults, benchmarks: parsed.data.benchmarks };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}

/**
 * The format's own batch (harness/harness.ts, `Harness.batch`: pytest-benchmark's and vitest's)
 * where neither the flag nor the config file sets one: under `--design auto`, for a suite whose
 * benchmarks may be paired on their own (not `--interleave suite`) and whose times alone are
 * measured (instruction counts run each benchmark on its own). The results file records it as the
 * benchmark's `batch`, so a report and a replay see what ran.
 */
function harnessBatch(b: BenchmarkSpec): number | undefined {
  if (b.format === 'time' || (b.design ?? 'auto') !== 'auto' || b.interleave === 'suite' || b.metrics.includes('instructions')) return undefined;
  return harnessOf(b.format)?.batch;
}

/**
 * Builds the Spec. `flags` are what the user gave explicitly (kebab-case keys; undefined = not given).
 */
/**
 * `ctx.defaults`: a command's own defaults (`pairbench noise`'s max-pairs: options.ts
 * `NOISE_DEFAULTS`), below a flag and the config file, above the option table's.
 */
export function buildSpec(flags: RawOptions, ctx: { cwd: string; naming: InputNaming; config?: ConfigFile; defaults?: RawOptions; host?: CpuHost }): Spec {
  const { naming } = ctx;
  // the machine `--cpus` and `--pair-runs` are chosen against: this one, read once and only when asked, or the scripted runner's (schedule/scripted-runner.ts)
  let read: CpuHost | undefined = ctx.host;
  const host = (): CpuHost => (read ??= thisHost());
  const config = ctx.config ? parseConfigFile(ctx.config) : null;
  const configName = (key: string) => `--config ${ctx.config?.path}: ${key}`;

  const get = <T>(name: string): T | undefined => {
    if (flags[name] !== undefined) return parseOptionValue(name, naming(name), flags[name]) as T;
    if (config && config.defaults[name] !== undefined) return parseOptionValue(name, configName(name), config.defaults[name]) as T;
    if (ctx.defaults?.[name] !== undefined) return parseOptionValue(name, naming(name), ctx.defaults[name]) as T;
    return optionDefault(name) as T | undefined;
  };
  /** An option that has a default in the option table: never undefined, and its default written only there. */
  const valueOf = <T>(name: string): T => {
    const v = get<T>(name);
    if (v === undefined) throw new Error(`the option ${name} has no default in src/config/options.ts`);
    return v;
  };

  const baseDir = get<string>('base-dir');
  const headDir = get<string>('head-dir');
  if ((baseDir === undefined) !== (headDir === undefined)) {
    const missing = baseDir === undefined ? 'base-dir' : 'head-dir';
    throw new UsageError(naming(missing), `${naming(missing)} is missing: --base-dir and --head-dir go together`);
  }
  for (const side of ['base', 'head'] as const) {
    if (baseDir !== undefined && flags[side] !== undefined) {
      throw new UsageError(naming(side), `${naming(side)} and ${naming(`${side}-dir`)} cannot be used together: pick git revisions or directories`);
    }
  }
  const base: RevisionSpec = baseDir !== undefined ? { kind: 'dir', dir: baseDir } : { kind: 'git', rev: get<string>('base') ?? null };
  const head: RevisionSpec = headDir !== undefined ? { kind: 'dir', dir: headDir } : { kind: 'git', rev: valueOf<string>('head') };

  const run = get<string>('run');
  const format = valueOf<RunFormat>('format');
  const metrics = eachOnce(flags['metric'] !== undefined ? naming('metric') : configName('metric'), valueOf<Metric[]>('metric'));
  const prepare = get<string>('prepare') ?? null;
  const direction = get<Direction>('direction');
  const shell = valueOf<ShellMode>('shell');
  const interleave = get<'benchmark' | 'suite'>('interleave');
  const batch = get<number>('batch');
  const iterations = get<'fixed' | 'harness'>('iterations');
  const design = get<'auto' | 'command'>('design');
  let benchmarks: BenchmarkSpec[];
  if (config) {
    if (run !== undefined) throw new UsageError(naming('run'), `${naming('run')} and ${naming('config')} cannot be used together: put the command in the config file's benchmarks`);
    benchmarks = config.benchmarks.map((b, i) => ({
      name: b.name,
      run: b.run,
      format: b.format ?? format,
      metrics: b.metric === undefined ? metrics : eachOnce(configName(`benchmarks[${i}].metric`), Array.isArray(b.metric) ? b.metric : [b.metric]),
      ...(b.threshold !== undefined && typeof b.threshold !== 'object' ? { threshold: parseOptionValue('threshold', configName(`benchmarks[${i}].threshold`), b.threshold) as number } : {}),
      ...(b.threshold !== undefined && typeof b.threshold === 'object'
        ? { thresholds: Object.fromEntries(Object.entries(b.threshold).map(([m, v]) => [m, parseOptionValue('threshold', configName(`benchmarks[${i}].threshold.${m}`), v as string | number) as number])) }
        : {}),
      ...(b['min-change'] !== undefined ? { minChange: String(b['min-change']).trim() } : {}),
      ...((b.direction ?? direction) ? { direction: b.direction ?? direction } : {}),
      prepare: b.prepare ?? prepare,
      filter: b.filter ?? null,
      ...((b.shell ?? shell) === 'none' ? { shell: 'none' as const } : {}),
      ...((b.interleave ?? interleave) ? { interleave: b.interleave ?? interleave } : {}),
      ...((b.batch ?? batch) !== undefined ? { batch: b.batch ?? batch } : {}),
      ...((b.iterations ?? iterations) ? { iterations: b.iterations ?? iterations } : {}),
      ...((b.design ?? design) ? { design: b.design ?? design } : {}),
      ...(b.paths !== undefined ? { paths: (Array.isArray(b.paths) ? b.paths : b.paths.split(/\s+/).filter(Boolean)).map((g) => checkGlob(configName(`benchmarks[${i}].paths`), g)) } : {}),
    }));
    // S20: refused before anything is built: a results file holds at most LIMITS.benchmarks, as many as pairbench report reads
    if (benchmarks.length > LIMITS.benchmarks) {
      throw new UsageError('--config', `--config ${ctx.config?.path}: benchmarks: got ${benchmarks.length} entries; expected at most ${LIMITS.benchmarks} (as many as a results file holds): split them over jobs with shard, or over config files`);
    }
    const names = new Set<string>();
    for (const b of benchmarks) {
      if (names.has(b.name)) throw new UsageError('--config', `--config ${ctx.config?.path}: benchmark name ${show(b.name)} is used twice; names must be unique`);
      names.add(b.name);
    }
  } else {
    if (run === undefined) throw new UsageError(naming('run'), `${naming('run')} is required (the command to measure), unless ${naming('config')} names the benchmarks`);
    benchmarks = [{ name: get<string>('name') ?? run, run, format, metrics, ...(direction ? { direction } : {}), prepare, filter: null, ...(shell === 'none' ? { shell } : {}), ...(interleave ? { interleave } : {}), ...(batch !== undefined ? { batch } : {}), ...(iterations ? { iterations } : {}), ...(design ? { design } : {}) }];
  }
  benchmarks = benchmarks.map((b) => {
    const batch = b.batch ?? harnessBatch(b);
    return batch === undefined ? b : { ...b, batch };
  });
  for (const b of benchmarks) {
    if (b.shell === 'none') {
      const split = splitCommand(b.run);
      if ('error' in split) {
        const input = config ? configName(`benchmarks ${show(b.name)} run`) : naming('run');
        throw new UsageError(naming('shell'), `${input}: got ${show(b.run)}, which cannot run with ${naming('shell')} none: ${split.error}; expected a plain command (words, quotes and backslashes only), or ${naming('shell')} sh`);
      }
      // the selection reaches the command through the shell's environment ("$PAIRBENCH_FILTER", S3)
      if (/\{(?:filter|benchmark)\}/.test(b.run)) {
        const input = config ? configName(`benchmarks ${show(b.name)} run`) : naming('run');
        throw new UsageError(naming('shell'), `${input}: got ${show(b.run)}, whose {filter} / {benchmark} placeholder needs the shell; expected ${naming('shell')} sh (the default), or a run command without a placeholder`);
      }
    }
    if (b.format !== 'time' && b.metrics.some((m) => m !== 'wall' && m !== 'instructions')) {
      throw new UsageError(naming('metric'), `${naming('metric')}: ${b.metrics.join(',')} applies to --format time only; benchmark ${show(b.name)} uses --format ${b.format}, whose harness reports its own metrics (wall and instructions are what a harness suite measures)`);
    }
    const counting = b.format !== 'time' && b.metrics.includes('instructions') ? harnessOf(b.format)?.counting : undefined;
    if (counting && 'uncounted' in counting) {
      throw new UsageError(naming('metric'), `${naming('metric')}: ${b.metrics.join(',')}: benchmark ${show(b.name)} uses --format ${b.format}, whose benchmarks cannot be counted one by one: ${counting.uncounted}`);
    }
    if (b.filter !== null) {
      try {
        new RegExp(b.filter);
      } catch {
        throw UsageError.invalid(configName(`filter of ${b.name}`), b.filter, 'a valid regular expression');
      }
    }
  }

  const minPairs = valueOf<number>('min-pairs');
  const maxPairs = valueOf<number>('max-pairs');
  if (minPairs > maxPairs) {
    throw new UsageError(naming('min-pairs'), `${naming('min-pairs')} (${minPairs}) is larger than ${naming('max-pairs')} (${maxPairs}); expected min-pairs ≤ max-pairs`);
  }
  const seedGiven = get<number>('seed');
  const build = get<string>('build') ?? null;
  const cachePaths = get<string>('build-cache');
  const cacheKey = get<string>('build-cache-key');
  const cacheDir = get<string>('build-cache-dir');
  if (cachePaths === undefined && (cacheKey !== undefined || cacheDir !== undefined)) {
    const given = cacheKey !== undefined ? 'build-cache-key' : 'build-cache-dir';
    throw new UsageError(naming(given), `${naming(given)} is set but ${naming('build-cache')} is not; expected ${naming('build-cache')} with the build outputs to keep (such as build/)`);
  }
  if (cachePaths !== undefined && build === null) {
    throw new UsageError(naming('build-cache'), `${naming('build-cache')}: got ${show(cachePaths)} but no ${naming('build')}; expected a build command whose outputs the cache keeps`);
  }
  const cpus = valueOf<string>('cpus');
  const pairRuns = valueOf<'auto' | 'in-turn' | 'at-once'>('pair-runs');
  const changedOnly = get<boolean>('changed-only') ?? false;
  const pathsMode = valueOf<PathsMode>('paths-mode');
  const pathsIgnore = get<string>('paths-ignore');
  if (changedOnly && (base.kind === 'dir' || head.kind === 'dir')) {
    throw new UsageError(naming('changed-only'), `${naming('changed-only')} compares the files two git revisions change; expected --base and --head (not --base-dir and --head-dir)`);
  }
  const buildCache = cachePaths === undefined ? null : { paths: parseCachePaths(naming('build-cache'), cachePaths), toolchain: cacheKey === undefined ? null : parseCacheKey(naming('build-cache-key'), cacheKey), dir: cacheDir ?? null };
  return {
    cwd: get<string>('repo') ?? ctx.cwd,
    base,
    head,
    build,
    buildCache,
    changedOnly: changedOnly ? { mode: pathsMode, ignore: (pathsIgnore ?? '').split(/\s+/).filter(Boolean).map((g) => checkGlob(naming('paths-ignore'), g)) } : null,
    benchmarks,
    minPairs,
    maxPairs,
    maxTimeMs: valueOf<number>('max-time'),
    precision: get<number>('precision') ?? null,
    warmup: valueOf<number>('warmup'),
    threshold: valueOf<number>('threshold'),
    minChange: checkFloors(benchmarks, get<string>('min-change'), naming('min-change'), configName),
    alpha: valueOf<number>('alpha'),
    outliers: valueOf<OutlierRule>('outliers'),
    correction: valueOf<Correction>('correction'),
    timeoutMs: valueOf<number>('timeout'),
    seed: seedGiven ?? randomSeed(),
    seedGiven: seedGiven !== undefined,
    shard: parseShard(naming('shard'), valueOf<string>('shard')),
    ...(pairRuns === 'at-once' ? atOnceCpus(naming, cpus, host) : pairRuns === 'auto' ? autoPairRuns(naming, cpus, benchmarks.map((b) => b.format), host) : inTurnCpus(naming, cpus, benchmarks.map((b) => b.format), host)),
    freshCopy: valueOf<'auto' | 'off'>('fresh-copy'),
    pairRuns,
    out: valueOf<string>('out'),
    markdown: get<string>('markdown') ?? null,
    failOn: parseFailOn(naming('fail-on'), valueOf<string[]>('fail-on')),
    allowNothingCompared: get<boolean>('allow-nothing-compared') ?? false,
    gateMetric: valueOf<GateMetric>('gate-metric'),
    countWorkMs: get<number>('count-work') ?? null,
    json: get<boolean>('json') ?? false,
    quiet: get<boolean>('quiet') ?? false,
  };
}

/**
 * `--pair-runs at-once`: each side bound to a CPU of its own (config/at-once.ts), from `--cpus auto`
 * (the two highest CPUs) or a list of two CPUs or more (its first two); `--cpus none` or a list of
 * one CPU cannot give each side a CPU, and is refused.
 */
function atOnceCpus(naming: (name: string) => string, cpus: string, host: () => CpuHost): Pick<Spec, 'atOnce' | 'cpus'> {
  if (cpus === 'auto') return { atOnce: chooseAtOnce(host(), null) };
  if (cpus === 'none') throw new UsageError(naming('cpus'), `${naming('cpus')}: got "none", but ${naming('pair-runs')} at-once binds each side of a pair to a CPU of its own; expected auto, or a list of two CPUs or more`);
  const listed = parseCpuList(parseCpus(naming('cpus'), cpus, host()))!;
  if (listed.length < 2) throw new UsageError(naming('cpus'), `${naming('cpus')}: got ${show(cpus)}, one CPU, but ${naming('pair-runs')} at-once binds each side of a pair to a CPU of its own; expected auto, or a list of two CPUs or more`);
  // recorded as given, so that a replay binds the sides to the same CPUs
  return { atOnce: chooseAtOnce(host(), listed), cpus };
}

/**
 * `--pair-runs auto` (the default): with `--cpus auto`, at once where the machine gives each side a
 * CPU of its own (config/at-once.ts), else in turn as `--pair-runs in-turn` runs, the reason
 * recorded. `--cpus none` or a list is the user's own choice of where every run goes (a
 * multi-threaded suite given CPUs 0-3 keeps all four): in turn, with nothing more to say.
 */
function autoPairRuns(naming: (name: string) => string, cpus: string, formats: readonly string[], host: () => CpuHost): Pick<Spec, 'atOnce' | 'cpus' | 'isolation' | 'inTurn'> {
  if (cpus !== 'auto') return inTurnCpus(naming, cpus, formats, host);
  const atOnce = chooseAtOnce(host(), null);
  return atOnce.cpus ? { atOnce, inTurn: autoCpus(formats, host) } : { ...autoCpus(formats, host), atOnce };
}

/** `--pair-runs in-turn`: every run bound as `--cpus` says (auto: config/isolation.ts). */
function inTurnCpus(naming: (name: string) => string, cpus: string, formats: readonly string[], host: () => CpuHost): Pick<Spec, 'cpus' | 'isolation'> {
  return cpus === 'none' ? { isolation: NOT_BOUND } : cpus === 'auto' ? autoCpus(formats, host) : { cpus: parseCpus(naming('cpus'), cpus, host()) };
}

/**
 * `--cpus auto`: for formats where binding was measured to help, the isolation chosen from this
 * machine, and the CPUs when it binds the runs; for the others nothing (unbound, as before `auto`
 * was the default, and nothing to say).
 */
function autoCpus(formats: readonly string[], host: () => CpuHost): Pick<Spec, 'cpus' | 'isolation'> {
  if (!formatsGainFromBinding(formats)) return {};
  const isolation = chooseIsolation(host());
  return { isolation, ...(isolation.cpus !== null ? { cpus: isolation.cpus } : {}) };
}
