/**
 * Selecting benchmarks of a suite: which of its benchmarks one run executes, so that base's and
 * head's runs of one benchmark can follow each other (benchmark-level interleaving).
 *
 * The run command says where the selection goes, with a placeholder:
 * - `{filter}`: one anchored regular expression in the format's own filter syntax, matching exactly
 *   the selected benchmarks: Go's `-test.bench` (one pattern per `/` level, as Go matches
 *   sub-benchmarks), Google Benchmark's `--benchmark_filter`, Criterion's and JMH's filter argument;
 * - `{benchmark}`: the selected names themselves, one argument each: pytest node IDs
 *   (`test_x.py::test_sort[1000]`), libtest names with `--exact`, pyperf benchmark names, a
 *   script's own arguments;
 * - `{file}` (vitest): the selected benchmarks' test files, one argument each, as vitest's file
 *   filter (`vitest bench <file> -t {filter}`), so a run loads no other benchmark file.
 * What each format's filter is, and which flag pairbench may add itself, is the format's harness's
 * (`select`: go-harness.ts, js-harnesses.ts, registry.ts): vitest's `-t`, mitata's `filter`,
 * node:bench's `--bench-name-pattern`, Catch2's test spec... Without a placeholder, pairbench adds
 * the format's filter flag where that is safe: for Go (`-test.bench=` for a test binary, `-bench=`
 * for `go test`) and Google Benchmark (`--benchmark_filter=`), when the command is one simple
 * command (no pipe, redirection, `;`, `&&`).
 *
 * Benchmark names come from the output of the code under test (SECURITY.md, S3), so they never
 * become shell text: a placeholder turns into a quoted variable reference (`"$PAIRBENCH_FILTER"`,
 * `"$PAIRBENCH_BENCHMARK_1"` ...) and the names travel in the run's environment. A name the shell
 * would still read as an option (a leading `-`) or that holds a control character is not
 * selectable, and its suite is then measured whole.
 */
import type { FileReading, Selection, Sizing } from './harness.ts';
import { harnessOf } from './registry.ts';
import type { HarnessFormat } from './types.ts';
import { anchoredAlternation } from './filter-text.ts';
import { appendToSimpleCommand } from './simple-command.ts';

export type { Selection, Sizing };

/** The filter of a format that selects none (hyperfine): the names anchored, as most formats read them. */
const BY_NAMES = { filter: anchoredAlternation };

const FILTER_PLACEHOLDER = '{filter}';
const BENCHMARK_PLACEHOLDER = '{benchmark}';
const FILE_PLACEHOLDER = '{file}';
const PLACEHOLDER = /(['"]?)\{(filter|benchmark|file)\}\1/g;
const HAS_PLACEHOLDER = /\{(?:filter|benchmark|file)\}/;

/** Why a suite cannot be narrowed to single benchmarks, or null when it can. */
export function selectionBlocker(command: string, format: HarnessFormat, names: readonly string[]): string | null {
  const select = harnessOf(format).select;
  if (select === null) return `--format ${format} has no way to run one benchmark`;
  if (!HAS_PLACEHOLDER.test(command) && select.autoFlag(command) === null) {
    return `the run command has no ${FILTER_PLACEHOLDER} or ${BENCHMARK_PLACEHOLDER} placeholder to say where the selection goes`;
  }
  if (command.includes(FILE_PLACEHOLDER) && select.files === undefined) return `${FILE_PLACEHOLDER} names test files, which only --format vitest selects by`;
  for (const name of names) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(name)) return `benchmark ${JSON.stringify(name)} holds a control character`;
    if (name.startsWith('-')) return `benchmark ${JSON.stringify(name)} starts with "-" and would read as an option`;
    const refused = select.refuses?.(name) ?? null;
    if (refused !== null) return refused;
  }
  return null;
}

/** Whether pairbench can size runs of this command: one of a format with sizing flags, in a form they fit (harness.ts, `RunDesign.sizingFlags`). */
export function canSize(command: string, format: HarnessFormat): boolean {
  return harnessOf(format).design?.sizingFlags(command, {}) != null;
}

/**
 * The format's trim of a run command (harness.ts, `Harness.trim`: Criterion's `--nresamples`)
 * under `--design auto`, the default, with the flags it added; null under `--design command`, or
 * where the format trims nothing.
 */
export function runTrim(command: string, format: string, design: 'auto' | 'command' | undefined): { command: string; added: string } | null {
  if ((design ?? 'auto') !== 'auto') return null;
  return harnessOf(format)?.trim?.(command) ?? null;
}

/**
 * The files a run of the format is pointed at and read from (harness.ts, `Harness.files`: Criterion's
 * saved medians) under `--design auto`, the default, when the command writes them and the environment
 * does not name their folder already; null otherwise.
 */
export function runFiles(command: string, format: string, design: 'auto' | 'command' | undefined, env: Record<string, string | undefined>): FileReading | null {
  if ((design ?? 'auto') !== 'auto') return null;
  const files = harnessOf(format)?.files;
  if (!files || !files.applies(command) || env[files.variable] !== undefined) return null;
  return files;
}

/**
 * The format's quick run of one benchmark (harness.ts, `Harness.quick`: Criterion's `--quick`) of
 * an already trimmed command, under `--design auto`, the default, where the run's files are read
 * (`runFiles`: they keep the name and the value the quick run's printed line drops); null otherwise.
 */
export function quickRun(trimmed: string, original: string, format: string, design: 'auto' | 'command' | undefined, env: Record<string, string | undefined>): { command: string; added: string } | null {
  if (runFiles(original, format, design, env) === null) return null;
  return harnessOf(format)?.quick?.(trimmed) ?? null;
}

/** The command a run executes: trimmed (`runTrim`), else as written. */
export function trimmedRun(command: string, format: string, design: 'auto' | 'command' | undefined): string {
  return runTrim(command, format, design)?.command ?? command;
}

/** The flags (with their values in the environment) that size a run; none when it cannot. */
function sizingFlags(command: string, format: HarnessFormat, sizing: Sizing | undefined): Selection {
  const sized = sizing ? harnessOf(format).design?.sizingFlags(command, sizing) : null;
  return sized ?? { command: '', env: {} };
}

/**
 * `command` sized: the sizing flags after the whole command (Go, Google Benchmark: their flag
 * parsers take the last of a flag), or at the end of the simple command that holds the selection
 * placeholder (pyperf, whose argparse also takes the last: `appendToSelected`), placeholders left
 * for the caller to fill; with the flags' values in the environment. `after`: the flags still to
 * append after the command once its selection is filled in (`end`).
 */
function sized(command: string, format: HarnessFormat | undefined, sizing: Sizing | undefined): Selection & { after: string } {
  if (!format) return { command, env: {}, after: '' };
  const flags = sizingFlags(command, format, sizing);
  const at = flags.command !== '' && harnessOf(format).design?.flagsAt === 'selection' ? appendToSelected(command, flags.command) : null;
  return at === null ? { command, env: flags.env, after: flags.command } : { command: at, env: flags.env, after: '' };
}

/**
 * The run of `command` narrowed to `names` (benchmark names as the format's parser names them),
 * sized by `sizing` where the format allows. Call only when `selectionBlocker` returned null.
 */
export function selectBenchmarks(original: string, format: HarnessFormat, names: readonly string[], sizing?: Sizing): Selection {
  const select = harnessOf(format).select!;
  const { command, env: sizedEnv, after } = sized(original, format, sizing);
  const env: Record<string, string> = { PAIRBENCH_FILTER: select.filter(names) };
  names.forEach((n, i) => (env[`PAIRBENCH_BENCHMARK_${i + 1}`] = n));
  const args = names.map((_, i) => `"$PAIRBENCH_BENCHMARK_${i + 1}"`).join(' ');
  const files = select.files?.(names) ?? [];
  files.forEach((f, i) => (env[`PAIRBENCH_FILE_${i + 1}`] = f));
  const fileArgs = files.map((_, i) => `"$PAIRBENCH_FILE_${i + 1}"`).join(' ');
  const selected = HAS_PLACEHOLDER.test(command)
    ? command.replace(PLACEHOLDER, (_m, _q, kind: string) => (kind === 'filter' ? '"$PAIRBENCH_FILTER"' : kind === 'file' ? fileArgs : args))
    : `${command} ${select.autoFlag(command)!}"$PAIRBENCH_FILTER"`;
  return { command: `${selected}${after}`, env: { ...env, ...sizedEnv } };
}

/**
 * `command` with `text` at the end of the simple command that holds its first selection placeholder
 * (`{benchmark}`, `{filter}`): before the first operator or redirection the shell reads after the
 * placeholder (`|`, `&&`, `;`, `>&2`, `2>err`...), quotes and backslashes minded, so that the flags
 * come after the command's own and whatever the command does next still follows them; null when it
 * has no placeholder.
 */
export function appendToSelected(command: string, text: string): string | null {
  const at = /(['"]?)\{(?:filter|benchmark)\}\1/.exec(command);
  if (at === null) return null;
  return appendToSimpleCommand(command, at.index + at[0].length, text);
}

/** The anchored filter expression that matches exactly `names` in this format's filter syntax. */
export function filterFor(format: HarnessFormat, names: readonly string[]): string {
  return (harnessOf(format).select ?? BY_NAMES).filter(names);
}

/**
 * Does a config entry's `filter` match this result name? In the forms the format's harness also
 * names it by too (Go: benchstat's form, with the `-GOMAXPROCS` suffix Go prints and pairbench
 * strips, `BenchmarkParse-8`).
 */
export function filterMatches(format: HarnessFormat | 'time', filter: RegExp, name: string, env: Record<string, string | undefined> = process.env): boolean {
  if (filter.test(name)) return true;
  return harnessOf(format)?.select?.alsoMatches?.(filter, name, env) ?? false;
}

/**
 * The run of a command with a placeholder that measures the whole suite: every benchmark selected.
 * `{filter}` selects everything: the format's `all` (`.` as a RegExp; Catch2's `*,[.]`).
 */
export function wholeSuite(original: string, format?: HarnessFormat, sizing?: Sizing): Selection {
  const { command, env, after } = sized(original, format, sizing);
  if (!HAS_PLACEHOLDER.test(command)) return { command: `${command}${after}`, env };
  const all = (format ? harnessOf(format).select?.all : undefined) ?? '.';
  return { command: `${command.replace(PLACEHOLDER, (_m, _q, kind: string) => (kind === 'filter' ? '"$PAIRBENCH_FILTER"' : ''))}${after}`, env: { PAIRBENCH_FILTER: all, ...env } };
}
