/**
 * The errors a JavaScript harness writes into its report rather than on stderr, so that a failed
 * run's last lines say only where the report went (vitest: `JSON report written to …/build/bench.json`)
 * while the report says `bench is not a function`: each JavaScript harness's `failure` (js-harnesses.ts).
 * Each reader gives the errors in the report's order, where each happened and its message as the
 * report holds it; failure.ts words them. Text in, errors out; no I/O.
 */
import type { ReportedError } from './harness.ts';

/**
 * vitest 5's JSON reporter: a file that failed to load or run (`testResults[].message`), a test
 * that failed (`assertionResults[].failureMessages`).
 */
export function vitestErrors(text: string): ReportedError[] {
  const found: ReportedError[] = [];
  for (const file of array(field(parseJson(text), 'testResults'))) {
    const label = baseName(field(file, 'name'));
    found.push({ where: label, message: field(file, 'message') });
    for (const test of array(field(file, 'assertionResults'))) {
      const title = [...array(field(test, 'ancestorTitles')), field(test, 'title')].filter((t) => typeof t === 'string' && t !== '').join(' > ');
      for (const m of array(field(test, 'failureMessages'))) found.push({ where: [label, title].filter((t) => t !== '').join(' > '), message: m });
    }
  }
  return found;
}

/**
 * The report file a failed vitest run's output names, or null: vitest's JSON reporter prints
 * `JSON report written to <path>` (on stdout, which the recommended command sends to stderr; its
 * `&& cat` is then not run, so the report is not in the run's stdout).
 */
export function vitestReportFile(output: string): string | null {
  const matches = [...output.matchAll(/JSON report written to (.+?)\s*$/gm)];
  return matches.length > 0 ? matches[matches.length - 1]![1]! : null;
}

/** node:bench: a `bench:complete` record with an `error`. */
export function nodeBenchErrors(text: string): ReportedError[] {
  const found: ReportedError[] = [];
  for (const line of text.split('\n')) {
    if (!line.trimStart().startsWith('{')) continue;
    const record = parseJson(line);
    if (field(record, 'type') !== 'bench:complete') continue;
    const data = field(record, 'data');
    const error = field(data, 'error');
    if (error === undefined || error === null) continue;
    found.push({ where: array(field(data, 'namePath')).filter((p) => typeof p === 'string').join(' > '), message: field(error, 'message') ?? error });
  }
  return found;
}

/** mitata: a run with an `error`. */
export function mitataErrors(text: string): ReportedError[] {
  const found: ReportedError[] = [];
  for (const b of array(field(parseJson(text), 'benchmarks'))) {
    for (const run of array(field(b, 'runs'))) {
      const error = field(run, 'error');
      if (error !== undefined && error !== null) found.push({ where: typeof field(run, 'name') === 'string' ? (field(run, 'name') as string) : '', message: field(error, 'message') ?? error });
    }
  }
  return found;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function baseName(path: unknown): string {
  return typeof path === 'string' ? (path.split(/[\\/]/).pop() ?? '') : '';
}
